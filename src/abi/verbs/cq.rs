//! rdma-core v65 `libibverbs/verbs.h`, in part:
//! completion channels, CQs, extended CQs, CQ moderation and address handles.

use core::ffi::{c_int, c_uint, c_void};

use super::*;
use crate::abi::ctype::CEnum;

/// A completion event channel.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_comp_channel {
    pub context: *mut ibv_context,
    pub fd: c_int,
    pub refcnt: c_int,
}

/// A completion queue.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_cq {
    pub context: *mut ibv_context,
    pub channel: *mut ibv_comp_channel,
    pub cq_context: *mut c_void,
    pub handle: u32,
    pub cqe: c_int,
    pub mutex: libc::pthread_mutex_t,
    pub cond: libc::pthread_cond_t,
    pub comp_events_completed: u32,
    pub async_events_completed: u32,
}

/// Input of `ibv_start_poll`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_poll_cq_attr {
    pub comp_mask: u32,
}

/// Tag-matching information of a completion.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_wc_tm_info {
    pub tag: u64,
    pub r#priv: u32,
}

/// An extended completion queue with the polling and reading callbacks.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_cq_ex {
    pub context: *mut ibv_context,
    pub channel: *mut ibv_comp_channel,
    pub cq_context: *mut c_void,
    pub handle: u32,
    pub cqe: c_int,
    pub mutex: libc::pthread_mutex_t,
    pub cond: libc::pthread_cond_t,
    pub comp_events_completed: u32,
    pub async_events_completed: u32,
    pub comp_mask: u32,
    pub status: CEnum<ibv_wc_status>,
    pub wr_id: u64,
    pub start_poll:
        Option<unsafe extern "C" fn(current: *mut ibv_cq_ex, attr: *mut ibv_poll_cq_attr) -> c_int>,
    pub next_poll: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> c_int>,
    pub end_poll: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex)>,
    pub read_opcode: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u32>,
    pub read_vendor_err: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u32>,
    pub read_byte_len: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u32>,
    pub read_imm_data: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u32>,
    pub read_qp_num: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u32>,
    pub read_src_qp: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u32>,
    pub read_wc_flags: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> c_uint>,
    pub read_slid: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u32>,
    pub read_sl: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u8>,
    pub read_dlid_path_bits: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u8>,
    pub read_completion_ts: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u64>,
    pub read_cvlan: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u16>,
    pub read_flow_tag: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u32>,
    pub read_tm_info:
        Option<unsafe extern "C" fn(current: *mut ibv_cq_ex, tm_info: *mut ibv_wc_tm_info)>,
    pub read_completion_wallclock_ns: Option<unsafe extern "C" fn(current: *mut ibv_cq_ex) -> u64>,
}

/// Bits of `ibv_modify_cq_attr::attr_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_cq_attr_mask {
    IBV_CQ_ATTR_MODERATE = 1,
    IBV_CQ_ATTR_RESERVED = 2,
}

/// Completion moderation settings.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_moderate_cq {
    pub cq_count: u16,
    pub cq_period: u16,
}

/// Attributes for `ibv_modify_cq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_cq_attr {
    pub attr_mask: u32,
    pub moderate: ibv_moderate_cq,
}

/// An address handle.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_ah {
    pub context: *mut ibv_context,
    pub pd: *mut ibv_pd,
    pub handle: u32,
}
