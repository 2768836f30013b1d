//! The QP, post and multicast write commands as rdma-core's
//! `libibverbs/kern-abi.h` (provider ABI 34) lays them out: the command header, then an
//! anonymous union of the kernel payload's fields and the kernel struct itself (`core_payload`).

use super::*;

/// Command `IB_USER_VERBS_CMD_CREATE_QP`: header, then `ib_uverbs_create_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_qp {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_create_qp_anon_1,
}

/// Payload of `ibv_create_qp`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_qp_anon_1 {
    pub anon_1: ibv_create_qp_anon_1_anon_1,
    pub core_payload: ib_uverbs_create_qp,
}

/// The fields of `ib_uverbs_create_qp`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_qp_anon_1_anon_1 {
    pub response: __u64,
    pub user_handle: __u64,
    pub pd_handle: u32,
    pub send_cq_handle: u32,
    pub recv_cq_handle: u32,
    pub srq_handle: u32,
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
    pub sq_sig_all: u8,
    pub qp_type: u8,
    pub is_srq: u8,
    pub reserved: u8,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_create_qp {
    const CMD: u32 = IB_USER_VERBS_CMD_CREATE_QP;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_create_qp;
    type Resp = ib_uverbs_create_qp_resp;
}

/// Command `IB_USER_VERBS_EX_CMD_CREATE_QP`: header, then `ib_uverbs_ex_create_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_qp_ex {
    pub hdr: ex_hdr,
    pub anon_1: ibv_create_qp_ex_anon_1,
}

/// Payload of `ibv_create_qp_ex`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_qp_ex_anon_1 {
    pub anon_1: ibv_create_qp_ex_anon_1_anon_1,
    pub core_payload: ib_uverbs_ex_create_qp,
}

/// The fields of `ib_uverbs_ex_create_qp`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_qp_ex_anon_1_anon_1 {
    pub user_handle: __u64,
    pub pd_handle: u32,
    pub send_cq_handle: u32,
    pub recv_cq_handle: u32,
    pub srq_handle: u32,
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
    pub sq_sig_all: u8,
    pub qp_type: u8,
    pub is_srq: u8,
    pub reserved: u8,
    pub comp_mask: u32,
    pub create_flags: u32,
    pub rwq_ind_tbl_handle: u32,
    pub source_qpn: u32,
}

impl KernCmd for ibv_create_qp_ex {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_CREATE_QP;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_ex_create_qp;
    type Resp = ib_uverbs_ex_create_qp_resp;
}

/// Command `IB_USER_VERBS_CMD_CREATE_QP_V4`: header, then `ib_uverbs_create_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_qp_v4 {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_create_qp_v4_anon_1,
}

/// Payload of `ibv_create_qp_v4`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_qp_v4_anon_1 {
    pub anon_1: ibv_create_qp_v4_anon_1_anon_1,
    pub core_payload: ib_uverbs_create_qp,
}

/// The fields of `ib_uverbs_create_qp`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_qp_v4_anon_1_anon_1 {
    pub response: __u64,
    pub user_handle: __u64,
    pub pd_handle: u32,
    pub send_cq_handle: u32,
    pub recv_cq_handle: u32,
    pub srq_handle: u32,
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
    pub sq_sig_all: u8,
    pub qp_type: u8,
    pub is_srq: u8,
    pub reserved: u8,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_create_qp_v4 {
    const CMD: u32 = IB_USER_VERBS_CMD_CREATE_QP_V4;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_create_qp;
    type Resp = ibv_create_qp_resp_v4;
}

/// Command `IB_USER_VERBS_CMD_CREATE_QP_V3`: header, then `ib_uverbs_create_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_qp_v3 {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_create_qp_v3_anon_1,
}

/// Payload of `ibv_create_qp_v3`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_qp_v3_anon_1 {
    pub anon_1: ibv_create_qp_v3_anon_1_anon_1,
    pub core_payload: ib_uverbs_create_qp,
}

/// The fields of `ib_uverbs_create_qp`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_qp_v3_anon_1_anon_1 {
    pub response: __u64,
    pub user_handle: __u64,
    pub pd_handle: u32,
    pub send_cq_handle: u32,
    pub recv_cq_handle: u32,
    pub srq_handle: u32,
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
    pub sq_sig_all: u8,
    pub qp_type: u8,
    pub is_srq: u8,
    pub reserved: u8,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_create_qp_v3 {
    const CMD: u32 = IB_USER_VERBS_CMD_CREATE_QP_V3;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_create_qp;
    type Resp = ibv_create_qp_resp_v3;
}

/// Command `IB_USER_VERBS_CMD_OPEN_QP`: header, then `ib_uverbs_open_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_open_qp {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_open_qp_anon_1,
}

/// Payload of `ibv_open_qp`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_open_qp_anon_1 {
    pub anon_1: ibv_open_qp_anon_1_anon_1,
    pub core_payload: ib_uverbs_open_qp,
}

/// The fields of `ib_uverbs_open_qp`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_open_qp_anon_1_anon_1 {
    pub response: __u64,
    pub user_handle: __u64,
    pub pd_handle: u32,
    pub qpn: u32,
    pub qp_type: u8,
    pub reserved: [u8; 7],
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_open_qp {
    const CMD: u32 = IB_USER_VERBS_CMD_OPEN_QP;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_open_qp;
    type Resp = ib_uverbs_create_qp_resp;
}

/// Command `IB_USER_VERBS_CMD_QUERY_QP`: header, then `ib_uverbs_query_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_qp {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_query_qp_anon_1,
}

/// Payload of `ibv_query_qp`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_query_qp_anon_1 {
    pub anon_1: ibv_query_qp_anon_1_anon_1,
    pub core_payload: ib_uverbs_query_qp,
}

/// The fields of `ib_uverbs_query_qp`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_qp_anon_1_anon_1 {
    pub response: __u64,
    pub qp_handle: u32,
    pub attr_mask: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_query_qp {
    const CMD: u32 = IB_USER_VERBS_CMD_QUERY_QP;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_query_qp;
    type Resp = ib_uverbs_query_qp_resp;
}

/// Command `IB_USER_VERBS_CMD_MODIFY_QP`: header, then `ib_uverbs_modify_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_qp {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_modify_qp_anon_1,
}

/// Payload of `ibv_modify_qp`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_modify_qp_anon_1 {
    pub anon_1: ibv_modify_qp_anon_1_anon_1,
    pub core_payload: ib_uverbs_modify_qp,
}

/// The fields of `ib_uverbs_modify_qp`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_qp_anon_1_anon_1 {
    pub dest: ib_uverbs_qp_dest,
    pub alt_dest: ib_uverbs_qp_dest,
    pub qp_handle: u32,
    pub attr_mask: u32,
    pub qkey: u32,
    pub rq_psn: u32,
    pub sq_psn: u32,
    pub dest_qp_num: u32,
    pub qp_access_flags: u32,
    pub pkey_index: u16,
    pub alt_pkey_index: u16,
    pub qp_state: u8,
    pub cur_qp_state: u8,
    pub path_mtu: u8,
    pub path_mig_state: u8,
    pub en_sqd_async_notify: u8,
    pub max_rd_atomic: u8,
    pub max_dest_rd_atomic: u8,
    pub min_rnr_timer: u8,
    pub port_num: u8,
    pub timeout: u8,
    pub retry_cnt: u8,
    pub rnr_retry: u8,
    pub alt_port_num: u8,
    pub alt_timeout: u8,
    pub reserved: [u8; 2],
    /// zero-length array: rdma-core declares `[0]` here, not a flexible array member.
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_modify_qp {
    const CMD: u32 = IB_USER_VERBS_CMD_MODIFY_QP;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_modify_qp;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_EX_CMD_MODIFY_QP`: header, then `ib_uverbs_ex_modify_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_qp_ex {
    pub hdr: ex_hdr,
    pub anon_1: ibv_modify_qp_ex_anon_1,
}

/// Payload of `ibv_modify_qp_ex`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_modify_qp_ex_anon_1 {
    pub anon_1: ibv_modify_qp_ex_anon_1_anon_1,
    pub core_payload: ib_uverbs_ex_modify_qp,
}

/// The fields of `ib_uverbs_ex_modify_qp`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_qp_ex_anon_1_anon_1 {
    pub base: ib_uverbs_modify_qp,
    pub rate_limit: u32,
    pub reserved: u32,
}

impl KernCmd for ibv_modify_qp_ex {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_MODIFY_QP;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_ex_modify_qp;
    type Resp = ib_uverbs_ex_modify_qp_resp;
}

/// Command `IB_USER_VERBS_CMD_DESTROY_QP`: header, then `ib_uverbs_destroy_qp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_qp {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_destroy_qp_anon_1,
}

/// Payload of `ibv_destroy_qp`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_destroy_qp_anon_1 {
    pub anon_1: ibv_destroy_qp_anon_1_anon_1,
    pub core_payload: ib_uverbs_destroy_qp,
}

/// The fields of `ib_uverbs_destroy_qp`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_qp_anon_1_anon_1 {
    pub response: __u64,
    pub qp_handle: u32,
    pub reserved: u32,
}

impl KernCmd for ibv_destroy_qp {
    const CMD: u32 = IB_USER_VERBS_CMD_DESTROY_QP;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_destroy_qp;
    type Resp = ib_uverbs_destroy_qp_resp;
}

/// Command `IB_USER_VERBS_CMD_POST_SEND`: header, then `ib_uverbs_post_send`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_post_send {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_post_send_anon_1,
}

/// Payload of `ibv_post_send`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_post_send_anon_1 {
    pub anon_1: ibv_post_send_anon_1_anon_1,
    pub core_payload: ib_uverbs_post_send,
}

/// The fields of `ib_uverbs_post_send`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_post_send_anon_1_anon_1 {
    pub response: __u64,
    pub qp_handle: u32,
    pub wr_count: u32,
    pub sge_count: u32,
    pub wqe_size: u32,
    pub send_wr: [ib_uverbs_send_wr; 0],
}

impl KernCmd for ibv_post_send {
    const CMD: u32 = IB_USER_VERBS_CMD_POST_SEND;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_post_send;
    type Resp = ib_uverbs_post_send_resp;
}

/// Command `IB_USER_VERBS_CMD_POST_RECV`: header, then `ib_uverbs_post_recv`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_post_recv {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_post_recv_anon_1,
}

/// Payload of `ibv_post_recv`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_post_recv_anon_1 {
    pub anon_1: ibv_post_recv_anon_1_anon_1,
    pub core_payload: ib_uverbs_post_recv,
}

/// The fields of `ib_uverbs_post_recv`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_post_recv_anon_1_anon_1 {
    pub response: __u64,
    pub qp_handle: u32,
    pub wr_count: u32,
    pub sge_count: u32,
    pub wqe_size: u32,
    pub recv_wr: [ib_uverbs_recv_wr; 0],
}

impl KernCmd for ibv_post_recv {
    const CMD: u32 = IB_USER_VERBS_CMD_POST_RECV;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_post_recv;
    type Resp = ib_uverbs_post_recv_resp;
}

/// Command `IB_USER_VERBS_CMD_ATTACH_MCAST`: header, then `ib_uverbs_attach_mcast`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_attach_mcast {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_attach_mcast_anon_1,
}

/// Payload of `ibv_attach_mcast`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_attach_mcast_anon_1 {
    pub anon_1: ibv_attach_mcast_anon_1_anon_1,
    pub core_payload: ib_uverbs_attach_mcast,
}

/// The fields of `ib_uverbs_attach_mcast`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_attach_mcast_anon_1_anon_1 {
    pub gid: [u8; 16],
    pub qp_handle: u32,
    pub mlid: u16,
    pub reserved: u16,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_attach_mcast {
    const CMD: u32 = IB_USER_VERBS_CMD_ATTACH_MCAST;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_attach_mcast;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_CMD_DETACH_MCAST`: header, then `ib_uverbs_detach_mcast`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_detach_mcast {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_detach_mcast_anon_1,
}

/// Payload of `ibv_detach_mcast`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_detach_mcast_anon_1 {
    pub anon_1: ibv_detach_mcast_anon_1_anon_1,
    pub core_payload: ib_uverbs_detach_mcast,
}

/// The fields of `ib_uverbs_detach_mcast`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_detach_mcast_anon_1_anon_1 {
    pub gid: [u8; 16],
    pub qp_handle: u32,
    pub mlid: u16,
    pub reserved: u16,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_detach_mcast {
    const CMD: u32 = IB_USER_VERBS_CMD_DETACH_MCAST;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_detach_mcast;
    type Resp = empty;
}
