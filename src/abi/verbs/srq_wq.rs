//! rdma-core v65 `libibverbs/verbs.h`, in part:
//! static rates, address vectors, SRQ and WQ attributes, RWQ indirection tables.

use core::ffi::{c_int, c_void};

use super::*;
use crate::abi::ctype::CEnum;

/// Static rate codes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_rate {
    IBV_RATE_MAX = 0,
    IBV_RATE_2_5_GBPS = 2,
    IBV_RATE_5_GBPS = 5,
    IBV_RATE_10_GBPS = 3,
    IBV_RATE_20_GBPS = 6,
    IBV_RATE_30_GBPS = 4,
    IBV_RATE_40_GBPS = 7,
    IBV_RATE_60_GBPS = 8,
    IBV_RATE_80_GBPS = 9,
    IBV_RATE_120_GBPS = 10,
    IBV_RATE_14_GBPS = 11,
    IBV_RATE_56_GBPS = 12,
    IBV_RATE_112_GBPS = 13,
    IBV_RATE_168_GBPS = 14,
    IBV_RATE_25_GBPS = 15,
    IBV_RATE_100_GBPS = 16,
    IBV_RATE_200_GBPS = 17,
    IBV_RATE_300_GBPS = 18,
    IBV_RATE_28_GBPS = 19,
    IBV_RATE_50_GBPS = 20,
    IBV_RATE_400_GBPS = 21,
    IBV_RATE_600_GBPS = 22,
    IBV_RATE_800_GBPS = 23,
    IBV_RATE_1200_GBPS = 24,
}

/// Address vector for `ibv_create_ah` and QP paths.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_ah_attr {
    pub grh: ibv_global_route,
    pub dlid: u16,
    pub sl: u8,
    pub src_path_bits: u8,
    pub static_rate: u8,
    pub is_global: u8,
    pub port_num: u8,
}

/// Bits of the `srq_attr_mask` argument of `ibv_modify_srq`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_srq_attr_mask {
    IBV_SRQ_MAX_WR = 1,
    IBV_SRQ_LIMIT = 2,
}

/// Shared receive queue limits.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_srq_attr {
    pub max_wr: u32,
    pub max_sge: u32,
    pub srq_limit: u32,
}

/// Attributes for `ibv_create_srq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_srq_init_attr {
    pub srq_context: *mut c_void,
    pub attr: ibv_srq_attr,
}

/// Shared receive queue type.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_srq_type {
    IBV_SRQT_BASIC = 0,
    IBV_SRQT_XRC = 1,
    IBV_SRQT_TM = 2,
}

/// Bits of `ibv_srq_init_attr_ex::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_srq_init_attr_mask {
    IBV_SRQ_INIT_ATTR_TYPE = 1 << 0,
    IBV_SRQ_INIT_ATTR_PD = 1 << 1,
    IBV_SRQ_INIT_ATTR_XRCD = 1 << 2,
    IBV_SRQ_INIT_ATTR_CQ = 1 << 3,
    IBV_SRQ_INIT_ATTR_TM = 1 << 4,
    IBV_SRQ_INIT_ATTR_RESERVED = 1 << 5,
}

/// Tag matching limits requested for a tag-matching SRQ.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_tm_cap {
    pub max_num_tags: u32,
    pub max_ops: u32,
}

/// Attributes for `ibv_create_srq_ex`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_srq_init_attr_ex {
    pub srq_context: *mut c_void,
    pub attr: ibv_srq_attr,
    pub comp_mask: u32,
    pub srq_type: CEnum<ibv_srq_type>,
    pub pd: *mut ibv_pd,
    pub xrcd: *mut ibv_xrcd,
    pub cq: *mut ibv_cq,
    pub tm_cap: ibv_tm_cap,
}

/// Work queue type.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_wq_type {
    IBV_WQT_RQ = 0,
}

/// Bits of `ibv_wq_init_attr::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_wq_init_attr_mask {
    IBV_WQ_INIT_ATTR_FLAGS = 1,
    IBV_WQ_INIT_ATTR_RESERVED = 2,
}

/// Creation and modify flags of a work queue.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_wq_flags {
    IBV_WQ_FLAGS_CVLAN_STRIPPING = 1 << 0,
    IBV_WQ_FLAGS_SCATTER_FCS = 1 << 1,
    IBV_WQ_FLAGS_DELAY_DROP = 1 << 2,
    IBV_WQ_FLAGS_PCI_WRITE_END_PADDING = 1 << 3,
    IBV_WQ_FLAGS_RESERVED = 1 << 4,
}

/// Attributes for `ibv_create_wq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_wq_init_attr {
    pub wq_context: *mut c_void,
    pub wq_type: CEnum<ibv_wq_type>,
    pub max_wr: u32,
    pub max_sge: u32,
    pub pd: *mut ibv_pd,
    pub cq: *mut ibv_cq,
    pub comp_mask: u32,
    pub create_flags: u32,
}

/// Work queue state.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_wq_state {
    IBV_WQS_RESET = 0,
    IBV_WQS_RDY = 1,
    IBV_WQS_ERR = 2,
    IBV_WQS_UNKNOWN = 3,
}

/// Bits of `ibv_wq_attr::attr_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_wq_attr_mask {
    IBV_WQ_ATTR_STATE = 1 << 0,
    IBV_WQ_ATTR_CURR_STATE = 1 << 1,
    IBV_WQ_ATTR_FLAGS = 1 << 2,
    IBV_WQ_ATTR_RESERVED = 1 << 3,
}

/// Attributes for `ibv_modify_wq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_wq_attr {
    pub attr_mask: u32,
    pub wq_state: CEnum<ibv_wq_state>,
    pub curr_wq_state: CEnum<ibv_wq_state>,
    pub flags: u32,
    pub flags_mask: u32,
}

/// A receive work queue indirection table.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_rwq_ind_table {
    pub context: *mut ibv_context,
    pub ind_tbl_handle: c_int,
    pub ind_tbl_num: c_int,
    pub comp_mask: u32,
}

/// Bits of `ibv_rwq_ind_table_init_attr::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_ind_table_init_attr_mask {
    IBV_CREATE_IND_TABLE_RESERVED = 1,
}

/// Attributes for `ibv_create_rwq_ind_table`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_rwq_ind_table_init_attr {
    pub log_ind_tbl_size: u32,
    pub ind_tbl: *mut *mut ibv_wq,
    pub comp_mask: u32,
}
