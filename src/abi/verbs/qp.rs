//! rdma-core v65 `libibverbs/verbs.h`, in part:
//! queue pair attributes and work requests.

use core::ffi::{c_int, c_uint, c_void};

use super::*;
use crate::abi::ctype::{Be32, CEnum};

/// Queue pair transport type.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_qp_type {
    IBV_QPT_RC = 2,
    IBV_QPT_UC = 3,
    IBV_QPT_UD = 4,
    IBV_QPT_RAW_PACKET = 8,
    IBV_QPT_XRC_SEND = 9,
    IBV_QPT_XRC_RECV = 10,
    IBV_QPT_DRIVER = 255,
}

/// Queue pair size limits.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_qp_cap {
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
}

/// Attributes for `ibv_create_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_qp_init_attr {
    pub qp_context: *mut c_void,
    pub send_cq: *mut ibv_cq,
    pub recv_cq: *mut ibv_cq,
    pub srq: *mut ibv_srq,
    pub cap: ibv_qp_cap,
    pub qp_type: CEnum<ibv_qp_type>,
    pub sq_sig_all: c_int,
}

/// Bits of `ibv_qp_init_attr_ex::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_qp_init_attr_mask {
    IBV_QP_INIT_ATTR_PD = 1 << 0,
    IBV_QP_INIT_ATTR_XRCD = 1 << 1,
    IBV_QP_INIT_ATTR_CREATE_FLAGS = 1 << 2,
    IBV_QP_INIT_ATTR_MAX_TSO_HEADER = 1 << 3,
    IBV_QP_INIT_ATTR_IND_TABLE = 1 << 4,
    IBV_QP_INIT_ATTR_RX_HASH = 1 << 5,
    IBV_QP_INIT_ATTR_SEND_OPS_FLAGS = 1 << 6,
}

/// Bits of `ibv_qp_init_attr_ex::create_flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_qp_create_flags {
    IBV_QP_CREATE_BLOCK_SELF_MCAST_LB = 1 << 1,
    IBV_QP_CREATE_SCATTER_FCS = 1 << 8,
    IBV_QP_CREATE_CVLAN_STRIPPING = 1 << 9,
    IBV_QP_CREATE_SOURCE_QPN = 1 << 10,
    IBV_QP_CREATE_PCI_WRITE_END_PADDING = 1 << 11,
}

/// Send operations an extended QP may post (`ibv_qp_init_attr_ex::send_ops_flags`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_qp_create_send_ops_flags {
    IBV_QP_EX_WITH_RDMA_WRITE = 1 << 0,
    IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM = 1 << 1,
    IBV_QP_EX_WITH_SEND = 1 << 2,
    IBV_QP_EX_WITH_SEND_WITH_IMM = 1 << 3,
    IBV_QP_EX_WITH_RDMA_READ = 1 << 4,
    IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP = 1 << 5,
    IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD = 1 << 6,
    IBV_QP_EX_WITH_LOCAL_INV = 1 << 7,
    IBV_QP_EX_WITH_BIND_MW = 1 << 8,
    IBV_QP_EX_WITH_SEND_WITH_INV = 1 << 9,
    IBV_QP_EX_WITH_TSO = 1 << 10,
    IBV_QP_EX_WITH_FLUSH = 1 << 11,
    IBV_QP_EX_WITH_ATOMIC_WRITE = 1 << 12,
}

/// Receive-side-scaling hash setup of a RAW_PACKET QP.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_rx_hash_conf {
    pub rx_hash_function: u8,
    pub rx_hash_key_len: u8,
    pub rx_hash_key: *mut u8,
    pub rx_hash_fields_mask: u64,
}

/// Attributes for `ibv_create_qp_ex`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_qp_init_attr_ex {
    pub qp_context: *mut c_void,
    pub send_cq: *mut ibv_cq,
    pub recv_cq: *mut ibv_cq,
    pub srq: *mut ibv_srq,
    pub cap: ibv_qp_cap,
    pub qp_type: CEnum<ibv_qp_type>,
    pub sq_sig_all: c_int,
    pub comp_mask: u32,
    pub pd: *mut ibv_pd,
    pub xrcd: *mut ibv_xrcd,
    pub create_flags: u32,
    pub max_tso_header: u16,
    pub rwq_ind_tbl: *mut ibv_rwq_ind_table,
    pub rx_hash_conf: ibv_rx_hash_conf,
    pub source_qpn: u32,
    pub send_ops_flags: u64,
}

/// Bits of `ibv_qp_open_attr::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_qp_open_attr_mask {
    IBV_QP_OPEN_ATTR_NUM = 1 << 0,
    IBV_QP_OPEN_ATTR_XRCD = 1 << 1,
    IBV_QP_OPEN_ATTR_CONTEXT = 1 << 2,
    IBV_QP_OPEN_ATTR_TYPE = 1 << 3,
    IBV_QP_OPEN_ATTR_RESERVED = 1 << 4,
}

/// Attributes for `ibv_open_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_qp_open_attr {
    pub comp_mask: u32,
    pub qp_num: u32,
    pub xrcd: *mut ibv_xrcd,
    pub qp_context: *mut c_void,
    pub qp_type: CEnum<ibv_qp_type>,
}

/// Which `ibv_qp_attr` fields a modify or query uses.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_qp_attr_mask {
    IBV_QP_STATE = 1 << 0,
    IBV_QP_CUR_STATE = 1 << 1,
    IBV_QP_EN_SQD_ASYNC_NOTIFY = 1 << 2,
    IBV_QP_ACCESS_FLAGS = 1 << 3,
    IBV_QP_PKEY_INDEX = 1 << 4,
    IBV_QP_PORT = 1 << 5,
    IBV_QP_QKEY = 1 << 6,
    IBV_QP_AV = 1 << 7,
    IBV_QP_PATH_MTU = 1 << 8,
    IBV_QP_TIMEOUT = 1 << 9,
    IBV_QP_RETRY_CNT = 1 << 10,
    IBV_QP_RNR_RETRY = 1 << 11,
    IBV_QP_RQ_PSN = 1 << 12,
    IBV_QP_MAX_QP_RD_ATOMIC = 1 << 13,
    IBV_QP_ALT_PATH = 1 << 14,
    IBV_QP_MIN_RNR_TIMER = 1 << 15,
    IBV_QP_SQ_PSN = 1 << 16,
    IBV_QP_MAX_DEST_RD_ATOMIC = 1 << 17,
    IBV_QP_PATH_MIG_STATE = 1 << 18,
    IBV_QP_CAP = 1 << 19,
    IBV_QP_DEST_QPN = 1 << 20,
    IBV_QP_RATE_LIMIT = 1 << 25,
}

/// Flags of `ibv_query_qp_data_in_order`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_query_qp_data_in_order_flags {
    IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS = 1,
    IBV_QUERY_QP_DATA_IN_ORDER_DEVICE_ONLY = 2,
}

/// Result bits of `ibv_query_qp_data_in_order`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_query_qp_data_in_order_caps {
    IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG = 1,
    IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES = 2,
}

/// Queue pair state.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_qp_state {
    IBV_QPS_RESET = 0,
    IBV_QPS_INIT = 1,
    IBV_QPS_RTR = 2,
    IBV_QPS_RTS = 3,
    IBV_QPS_SQD = 4,
    IBV_QPS_SQE = 5,
    IBV_QPS_ERR = 6,
    IBV_QPS_UNKNOWN = 7,
}

/// Path migration state.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_mig_state {
    IBV_MIG_MIGRATED = 0,
    IBV_MIG_REARM = 1,
    IBV_MIG_ARMED = 2,
}

/// Queue pair attributes for modify and query.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_qp_attr {
    pub qp_state: CEnum<ibv_qp_state>,
    pub cur_qp_state: CEnum<ibv_qp_state>,
    pub path_mtu: CEnum<ibv_mtu>,
    pub path_mig_state: CEnum<ibv_mig_state>,
    pub qkey: u32,
    pub rq_psn: u32,
    pub sq_psn: u32,
    pub dest_qp_num: u32,
    pub qp_access_flags: c_uint,
    pub cap: ibv_qp_cap,
    pub ah_attr: ibv_ah_attr,
    pub alt_ah_attr: ibv_ah_attr,
    pub pkey_index: u16,
    pub alt_pkey_index: u16,
    pub en_sqd_async_notify: u8,
    pub sq_draining: u8,
    pub max_rd_atomic: u8,
    pub max_dest_rd_atomic: u8,
    pub min_rnr_timer: u8,
    pub port_num: u8,
    pub timeout: u8,
    pub retry_cnt: u8,
    pub rnr_retry: u8,
    pub alt_port_num: u8,
    pub alt_timeout: u8,
    pub rate_limit: u32,
}

/// Attributes for `ibv_modify_qp_rate_limit`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_qp_rate_limit_attr {
    pub rate_limit: u32,
    pub max_burst_sz: u32,
    pub typical_pkt_sz: u16,
    pub comp_mask: u32,
}

/// Opcode of a send work request.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_wr_opcode {
    IBV_WR_RDMA_WRITE = 0,
    IBV_WR_RDMA_WRITE_WITH_IMM = 1,
    IBV_WR_SEND = 2,
    IBV_WR_SEND_WITH_IMM = 3,
    IBV_WR_RDMA_READ = 4,
    IBV_WR_ATOMIC_CMP_AND_SWP = 5,
    IBV_WR_ATOMIC_FETCH_AND_ADD = 6,
    IBV_WR_LOCAL_INV = 7,
    IBV_WR_BIND_MW = 8,
    IBV_WR_SEND_WITH_INV = 9,
    IBV_WR_TSO = 10,
    IBV_WR_DRIVER1 = 11,
    IBV_WR_FLUSH = 14,
    IBV_WR_ATOMIC_WRITE = 15,
}

/// Bits of `ibv_send_wr::send_flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_send_flags {
    IBV_SEND_FENCE = 1 << 0,
    IBV_SEND_SIGNALED = 1 << 1,
    IBV_SEND_SOLICITED = 1 << 2,
    IBV_SEND_INLINE = 1 << 3,
    IBV_SEND_IP_CSUM = 1 << 4,
}

/// Placement types for a flush operation.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_placement_type {
    IBV_FLUSH_GLOBAL = 1,
    IBV_FLUSH_PERSISTENT = 2,
}

/// Selectivity levels for a flush operation.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_selectivity_level {
    IBV_FLUSH_RANGE = 0,
    IBV_FLUSH_MR = 1,
}

/// One buffer of an inline data list.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_data_buf {
    pub addr: *mut c_void,
    pub length: usize,
}

/// A scatter/gather element.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_sge {
    pub addr: u64,
    pub length: u32,
    pub lkey: u32,
}

/// An array of file descriptors.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_fd_arr {
    pub arr: *mut c_int,
    pub count: u32,
}

/// A send work request for `ibv_post_send`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr {
    pub wr_id: u64,
    pub next: *mut ibv_send_wr,
    pub sg_list: *mut ibv_sge,
    pub num_sge: c_int,
    pub opcode: CEnum<ibv_wr_opcode>,
    pub send_flags: c_uint,
    pub anon_1: ibv_send_wr_anon_1,
    pub wr: ibv_send_wr_wr,
    pub qp_type: ibv_send_wr_qp_type,
    pub anon_2: ibv_send_wr_anon_2,
}

/// Immediate data or rkey to invalidate of a send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_send_wr_anon_1 {
    pub imm_data: Be32,
    pub invalidate_rkey: u32,
}

/// Opcode-specific part of a send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_send_wr_wr {
    pub rdma: ibv_send_wr_wr_rdma,
    pub atomic: ibv_send_wr_wr_atomic,
    pub ud: ibv_send_wr_wr_ud,
}

/// RDMA target of a send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr_wr_rdma {
    pub remote_addr: u64,
    pub rkey: u32,
}

/// Atomic operation target and operands of a send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr_wr_atomic {
    pub remote_addr: u64,
    pub compare_add: u64,
    pub swap: u64,
    pub rkey: u32,
}

/// UD destination of a send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr_wr_ud {
    pub ah: *mut ibv_ah,
    pub remote_qpn: u32,
    pub remote_qkey: u32,
}

/// QP-type-specific part of a send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_send_wr_qp_type {
    pub xrc: ibv_send_wr_qp_type_xrc,
}

/// XRC target SRQ of a send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr_qp_type_xrc {
    pub remote_srqn: u32,
}

/// Bind or TSO part of a send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_send_wr_anon_2 {
    pub bind_mw: ibv_send_wr_anon_2_bind_mw,
    pub tso: ibv_send_wr_anon_2_tso,
}

/// Memory window bind of a send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr_anon_2_bind_mw {
    pub mw: *mut ibv_mw,
    pub rkey: u32,
    pub bind_info: ibv_mw_bind_info,
}

/// TCP segmentation offload header of a send work request.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_send_wr_anon_2_tso {
    pub hdr: *mut c_void,
    pub hdr_sz: u16,
    pub mss: u16,
}

/// A receive work request for `ibv_post_recv`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_recv_wr {
    pub wr_id: u64,
    pub next: *mut ibv_recv_wr,
    pub sg_list: *mut ibv_sge,
    pub num_sge: c_int,
}

/// Opcode of an SRQ tag-matching operation.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_ops_wr_opcode {
    IBV_WR_TAG_ADD = 0,
    IBV_WR_TAG_DEL = 1,
    IBV_WR_TAG_SYNC = 2,
}

/// Bits of `ibv_ops_wr::flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_ops_flags {
    IBV_OPS_SIGNALED = 1,
    IBV_OPS_TM_SYNC = 2,
}

/// A tag-matching operation for `ibv_post_srq_ops`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_ops_wr {
    pub wr_id: u64,
    pub next: *mut ibv_ops_wr,
    pub opcode: CEnum<ibv_ops_wr_opcode>,
    pub flags: c_int,
    pub tm: ibv_ops_wr_tm,
}

/// Tag-matching part of an SRQ operation.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_ops_wr_tm {
    pub unexpected_cnt: u32,
    pub handle: u32,
    pub add: ibv_ops_wr_tm_add,
}

/// Tag entry to add by an SRQ operation.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_ops_wr_tm_add {
    pub recv_wr_id: u64,
    pub sg_list: *mut ibv_sge,
    pub num_sge: c_int,
    pub tag: u64,
    pub mask: u64,
}

/// A memory window bind request for `ibv_bind_mw`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_mw_bind {
    pub wr_id: u64,
    pub send_flags: c_uint,
    pub bind_info: ibv_mw_bind_info,
}
