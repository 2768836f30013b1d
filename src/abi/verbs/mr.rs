//! rdma-core v65 `libibverbs/verbs.h`, in part:
//! access flags, protection, thread and XRC domains, memory regions and windows, GRH.

use core::ffi::{c_int, c_uint, c_void};

use super::*;
use crate::abi::ctype::{Be16, Be32, CEnum};

/// Opaque buffer handle from `ibv_alloc_buf` (declared but not defined by verbs.h).
#[repr(C)]
pub struct ibv_buf {
    _opaque: [u8; 0],
}

/// Memory access rights of an MR or MW.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_access_flags {
    IBV_ACCESS_LOCAL_WRITE = 1 << 0,
    IBV_ACCESS_REMOTE_WRITE = 1 << 1,
    IBV_ACCESS_REMOTE_READ = 1 << 2,
    IBV_ACCESS_REMOTE_ATOMIC = 1 << 3,
    IBV_ACCESS_MW_BIND = 1 << 4,
    IBV_ACCESS_ZERO_BASED = 1 << 5,
    IBV_ACCESS_ON_DEMAND = 1 << 6,
    IBV_ACCESS_HUGETLB = 1 << 7,
    IBV_ACCESS_FLUSH_GLOBAL = 1 << 8,
    IBV_ACCESS_FLUSH_PERSISTENT = 1 << 9,
    IBV_ACCESS_RELAXED_ORDERING = 1 << 20,
}

/// What a memory window bind grants on which MR.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_mw_bind_info {
    pub mr: *mut ibv_mr,
    pub addr: u64,
    pub length: u64,
    pub mw_access_flags: c_uint,
}

/// A DMA handle (processing hints) from `ibv_alloc_dmah`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_dmah {
    pub context: *mut ibv_context,
}

/// A protection domain.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_pd {
    pub context: *mut ibv_context,
    pub handle: u32,
}

/// Attributes for `ibv_alloc_td`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_td_init_attr {
    pub comp_mask: u32,
}

/// A thread domain.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_td {
    pub context: *mut ibv_context,
}

/// Bits of `ibv_xrcd_init_attr::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_xrcd_init_attr_mask {
    IBV_XRCD_INIT_ATTR_FD = 1,
    IBV_XRCD_INIT_ATTR_OFLAGS = 2,
    IBV_XRCD_INIT_ATTR_RESERVED = 4,
}

/// Attributes for `ibv_open_xrcd`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_xrcd_init_attr {
    pub comp_mask: u32,
    pub fd: c_int,
    pub oflags: c_int,
}

/// An XRC domain.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_xrcd {
    pub context: *mut ibv_context,
}

/// What `ibv_rereg_mr` changes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_rereg_mr_flags {
    IBV_REREG_MR_CHANGE_TRANSLATION = 1,
    IBV_REREG_MR_CHANGE_PD = 2,
    IBV_REREG_MR_CHANGE_ACCESS = 4,
    IBV_REREG_MR_FLAGS_SUPPORTED = 7,
}

/// A registered memory region.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_mr {
    pub context: *mut ibv_context,
    pub pd: *mut ibv_pd,
    pub addr: *mut c_void,
    pub length: usize,
    pub handle: u32,
    pub lkey: u32,
    pub rkey: u32,
}

/// Bits of `ibv_mr_init_attr::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_mr_init_attr_mask {
    IBV_REG_MR_MASK_IOVA = 1 << 0,
    IBV_REG_MR_MASK_ADDR = 1 << 1,
    IBV_REG_MR_MASK_FD = 1 << 2,
    IBV_REG_MR_MASK_FD_OFFSET = 1 << 3,
    IBV_REG_MR_MASK_DMAH = 1 << 4,
    IBV_REG_MR_MASK_BUF = 1 << 5,
}

/// Attributes for `ibv_reg_mr_ex`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_mr_init_attr {
    pub length: usize,
    pub access: c_int,
    pub comp_mask: u64,
    pub iova: u64,
    pub addr: *mut c_void,
    pub fd: c_int,
    pub fd_offset: u64,
    pub dmah: *mut ibv_dmah,
    pub buf: *mut ibv_buf,
}

/// Memory window type.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_mw_type {
    IBV_MW_TYPE_1 = 1,
    IBV_MW_TYPE_2 = 2,
}

/// A memory window.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_mw {
    pub context: *mut ibv_context,
    pub pd: *mut ibv_pd,
    pub rkey: u32,
    pub handle: u32,
    pub r#type: CEnum<ibv_mw_type>,
}

/// GRH fields of an address vector.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_global_route {
    pub dgid: ibv_gid,
    pub flow_label: u32,
    pub sgid_index: u8,
    pub hop_limit: u8,
    pub traffic_class: u8,
}

/// A global route header as found at the start of a UD receive buffer.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_grh {
    pub version_tclass_flow: Be32,
    pub paylen: Be16,
    pub next_hdr: u8,
    pub hop_limit: u8,
    pub sgid: ibv_gid,
    pub dgid: ibv_gid,
}
