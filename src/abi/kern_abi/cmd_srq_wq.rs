//! The SRQ, WQ and RWQ indirection table write commands as rdma-core's
//! `libibverbs/kern-abi.h` (provider ABI 34) lays them out: the command header, then an
//! anonymous union of the kernel payload's fields and the kernel struct itself (`core_payload`).

use super::*;

/// Command `IB_USER_VERBS_CMD_CREATE_SRQ`: header, then `ib_uverbs_create_srq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_srq {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_create_srq_anon_1,
}

/// Payload of `ibv_create_srq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_srq_anon_1 {
    pub anon_1: ibv_create_srq_anon_1_anon_1,
    pub core_payload: ib_uverbs_create_srq,
}

/// The fields of `ib_uverbs_create_srq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_srq_anon_1_anon_1 {
    pub response: __u64,
    pub user_handle: __u64,
    pub pd_handle: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub srq_limit: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_create_srq {
    const CMD: u32 = IB_USER_VERBS_CMD_CREATE_SRQ;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_create_srq;
    type Resp = ib_uverbs_create_srq_resp;
}

/// Command `IB_USER_VERBS_CMD_CREATE_SRQ_V5`: header, then `ib_uverbs_create_srq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_srq_v5 {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_create_srq_v5_anon_1,
}

/// Payload of `ibv_create_srq_v5`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_srq_v5_anon_1 {
    pub anon_1: ibv_create_srq_v5_anon_1_anon_1,
    pub core_payload: ib_uverbs_create_srq,
}

/// The fields of `ib_uverbs_create_srq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_srq_v5_anon_1_anon_1 {
    pub response: __u64,
    pub user_handle: __u64,
    pub pd_handle: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub srq_limit: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_create_srq_v5 {
    const CMD: u32 = IB_USER_VERBS_CMD_CREATE_SRQ_V5;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_create_srq;
    type Resp = ibv_create_srq_resp_v5;
}

/// Command `IB_USER_VERBS_CMD_CREATE_XSRQ`: header, then `ib_uverbs_create_xsrq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_xsrq {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_create_xsrq_anon_1,
}

/// Payload of `ibv_create_xsrq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_xsrq_anon_1 {
    pub anon_1: ibv_create_xsrq_anon_1_anon_1,
    pub core_payload: ib_uverbs_create_xsrq,
}

/// The fields of `ib_uverbs_create_xsrq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_xsrq_anon_1_anon_1 {
    pub response: __u64,
    pub user_handle: __u64,
    pub srq_type: u32,
    pub pd_handle: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub srq_limit: u32,
    pub max_num_tags: u32,
    pub xrcd_handle: u32,
    pub cq_handle: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_create_xsrq {
    const CMD: u32 = IB_USER_VERBS_CMD_CREATE_XSRQ;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_create_xsrq;
    type Resp = ib_uverbs_create_srq_resp;
}

/// Command `IB_USER_VERBS_CMD_MODIFY_SRQ`: header, then `ib_uverbs_modify_srq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_srq {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_modify_srq_anon_1,
}

/// Payload of `ibv_modify_srq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_modify_srq_anon_1 {
    pub anon_1: ibv_modify_srq_anon_1_anon_1,
    pub core_payload: ib_uverbs_modify_srq,
}

/// The fields of `ib_uverbs_modify_srq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_srq_anon_1_anon_1 {
    pub srq_handle: u32,
    pub attr_mask: u32,
    pub max_wr: u32,
    pub srq_limit: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_modify_srq {
    const CMD: u32 = IB_USER_VERBS_CMD_MODIFY_SRQ;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_modify_srq;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_CMD_MODIFY_SRQ_V3`: header, then `ib_uverbs_modify_srq_v3`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_srq_v3 {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_modify_srq_v3_anon_1,
}

/// Payload of `ibv_modify_srq_v3`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_modify_srq_v3_anon_1 {
    pub core_payload: ib_uverbs_modify_srq_v3,
}

impl KernCmd for ibv_modify_srq_v3 {
    const CMD: u32 = IB_USER_VERBS_CMD_MODIFY_SRQ_V3;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_modify_srq_v3;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_CMD_QUERY_SRQ`: header, then `ib_uverbs_query_srq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_srq {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_query_srq_anon_1,
}

/// Payload of `ibv_query_srq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_query_srq_anon_1 {
    pub anon_1: ibv_query_srq_anon_1_anon_1,
    pub core_payload: ib_uverbs_query_srq,
}

/// The fields of `ib_uverbs_query_srq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_srq_anon_1_anon_1 {
    pub response: __u64,
    pub srq_handle: u32,
    pub reserved: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_query_srq {
    const CMD: u32 = IB_USER_VERBS_CMD_QUERY_SRQ;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_query_srq;
    type Resp = ib_uverbs_query_srq_resp;
}

/// Command `IB_USER_VERBS_CMD_DESTROY_SRQ`: header, then `ib_uverbs_destroy_srq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_srq {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_destroy_srq_anon_1,
}

/// Payload of `ibv_destroy_srq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_destroy_srq_anon_1 {
    pub anon_1: ibv_destroy_srq_anon_1_anon_1,
    pub core_payload: ib_uverbs_destroy_srq,
}

/// The fields of `ib_uverbs_destroy_srq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_srq_anon_1_anon_1 {
    pub response: __u64,
    pub srq_handle: u32,
    pub reserved: u32,
}

impl KernCmd for ibv_destroy_srq {
    const CMD: u32 = IB_USER_VERBS_CMD_DESTROY_SRQ;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_destroy_srq;
    type Resp = ib_uverbs_destroy_srq_resp;
}

/// Command `IB_USER_VERBS_CMD_POST_SRQ_RECV`: header, then `ib_uverbs_post_srq_recv`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_post_srq_recv {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_post_srq_recv_anon_1,
}

/// Payload of `ibv_post_srq_recv`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_post_srq_recv_anon_1 {
    pub anon_1: ibv_post_srq_recv_anon_1_anon_1,
    pub core_payload: ib_uverbs_post_srq_recv,
}

/// The fields of `ib_uverbs_post_srq_recv`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_post_srq_recv_anon_1_anon_1 {
    pub response: __u64,
    pub srq_handle: u32,
    pub wr_count: u32,
    pub sge_count: u32,
    pub wqe_size: u32,
    pub recv: [ib_uverbs_recv_wr; 0],
}

impl KernCmd for ibv_post_srq_recv {
    const CMD: u32 = IB_USER_VERBS_CMD_POST_SRQ_RECV;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_post_srq_recv;
    type Resp = ib_uverbs_post_srq_recv_resp;
}

/// Command `IB_USER_VERBS_EX_CMD_CREATE_WQ`: header, then `ib_uverbs_ex_create_wq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_wq {
    pub hdr: ex_hdr,
    pub anon_1: ibv_create_wq_anon_1,
}

/// Payload of `ibv_create_wq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_wq_anon_1 {
    pub anon_1: ibv_create_wq_anon_1_anon_1,
    pub core_payload: ib_uverbs_ex_create_wq,
}

/// The fields of `ib_uverbs_ex_create_wq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_wq_anon_1_anon_1 {
    pub comp_mask: u32,
    pub wq_type: u32,
    pub user_handle: __u64,
    pub pd_handle: u32,
    pub cq_handle: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub create_flags: u32,
    pub reserved: u32,
}

impl KernCmd for ibv_create_wq {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_CREATE_WQ;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_ex_create_wq;
    type Resp = ib_uverbs_ex_create_wq_resp;
}

/// Command `IB_USER_VERBS_EX_CMD_MODIFY_WQ`: header, then `ib_uverbs_ex_modify_wq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_wq {
    pub hdr: ex_hdr,
    pub anon_1: ibv_modify_wq_anon_1,
}

/// Payload of `ibv_modify_wq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_modify_wq_anon_1 {
    pub anon_1: ibv_modify_wq_anon_1_anon_1,
    pub core_payload: ib_uverbs_ex_modify_wq,
}

/// The fields of `ib_uverbs_ex_modify_wq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_wq_anon_1_anon_1 {
    pub attr_mask: u32,
    pub wq_handle: u32,
    pub wq_state: u32,
    pub curr_wq_state: u32,
    pub flags: u32,
    pub flags_mask: u32,
}

impl KernCmd for ibv_modify_wq {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_MODIFY_WQ;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_ex_modify_wq;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_EX_CMD_DESTROY_WQ`: header, then `ib_uverbs_ex_destroy_wq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_wq {
    pub hdr: ex_hdr,
    pub anon_1: ibv_destroy_wq_anon_1,
}

/// Payload of `ibv_destroy_wq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_destroy_wq_anon_1 {
    pub anon_1: ibv_destroy_wq_anon_1_anon_1,
    pub core_payload: ib_uverbs_ex_destroy_wq,
}

/// The fields of `ib_uverbs_ex_destroy_wq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_wq_anon_1_anon_1 {
    pub comp_mask: u32,
    pub wq_handle: u32,
}

impl KernCmd for ibv_destroy_wq {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_DESTROY_WQ;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_ex_destroy_wq;
    type Resp = ib_uverbs_ex_destroy_wq_resp;
}

/// Command `IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL`:
/// header, then `ib_uverbs_ex_create_rwq_ind_table`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_rwq_ind_table {
    pub hdr: ex_hdr,
    pub anon_1: ibv_create_rwq_ind_table_anon_1,
}

/// Payload of `ibv_create_rwq_ind_table`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_rwq_ind_table_anon_1 {
    pub anon_1: ibv_create_rwq_ind_table_anon_1_anon_1,
    pub core_payload: ib_uverbs_ex_create_rwq_ind_table,
}

/// The fields of `ib_uverbs_ex_create_rwq_ind_table`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_rwq_ind_table_anon_1_anon_1 {
    pub comp_mask: u32,
    pub log_ind_tbl_size: u32,
    pub wq_handles: [u32; 0],
}

impl KernCmd for ibv_create_rwq_ind_table {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_ex_create_rwq_ind_table;
    type Resp = ib_uverbs_ex_create_rwq_ind_table_resp;
}

/// Command `IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL`:
/// header, then `ib_uverbs_ex_destroy_rwq_ind_table`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_rwq_ind_table {
    pub hdr: ex_hdr,
    pub anon_1: ibv_destroy_rwq_ind_table_anon_1,
}

/// Payload of `ibv_destroy_rwq_ind_table`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_destroy_rwq_ind_table_anon_1 {
    pub anon_1: ibv_destroy_rwq_ind_table_anon_1_anon_1,
    pub core_payload: ib_uverbs_ex_destroy_rwq_ind_table,
}

/// The fields of `ib_uverbs_ex_destroy_rwq_ind_table`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_rwq_ind_table_anon_1_anon_1 {
    pub comp_mask: u32,
    pub ind_tbl_handle: u32,
}

impl KernCmd for ibv_destroy_rwq_ind_table {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_ex_destroy_rwq_ind_table;
    type Resp = empty;
}
