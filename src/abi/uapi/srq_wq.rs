//! SRQ, WQ and RWQ indirection table payloads of the write commands (the kernel uapi
//! `rdma/ib_user_verbs.h`).

use super::ib_uverbs_recv_wr;

/// Request payload of `IB_USER_VERBS_CMD_POST_SRQ_RECV`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_post_srq_recv {
    pub response: u64,
    pub srq_handle: u32,
    pub wr_count: u32,
    pub sge_count: u32,
    pub wqe_size: u32,
    pub recv: [ib_uverbs_recv_wr; 0],
}

/// Response of `IB_USER_VERBS_CMD_POST_SRQ_RECV`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_post_srq_recv_resp {
    pub bad_wr: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_CREATE_SRQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_srq {
    pub response: u64,
    pub user_handle: u64,
    pub pd_handle: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub srq_limit: u32,
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_CREATE_XSRQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_xsrq {
    pub response: u64,
    pub user_handle: u64,
    pub srq_type: u32,
    pub pd_handle: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub srq_limit: u32,
    pub max_num_tags: u32,
    pub xrcd_handle: u32,
    pub cq_handle: u32,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_CREATE_SRQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_srq_resp {
    pub srq_handle: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub srqn: u32,
    pub driver_data: [u32; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_MODIFY_SRQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_modify_srq {
    pub srq_handle: u32,
    pub attr_mask: u32,
    pub max_wr: u32,
    pub srq_limit: u32,
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_QUERY_SRQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_query_srq {
    pub response: u64,
    pub srq_handle: u32,
    pub reserved: u32,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_QUERY_SRQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_query_srq_resp {
    pub max_wr: u32,
    pub max_sge: u32,
    pub srq_limit: u32,
    pub reserved: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_DESTROY_SRQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_destroy_srq {
    pub response: u64,
    pub srq_handle: u32,
    pub reserved: u32,
}

/// Response of `IB_USER_VERBS_CMD_DESTROY_SRQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_destroy_srq_resp {
    pub events_reported: u32,
}

/// Request payload of `IB_USER_VERBS_EX_CMD_CREATE_WQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_create_wq {
    pub comp_mask: u32,
    pub wq_type: u32,
    pub user_handle: u64,
    pub pd_handle: u32,
    pub cq_handle: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub create_flags: u32,
    pub reserved: u32,
}

/// Response of `IB_USER_VERBS_EX_CMD_CREATE_WQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_create_wq_resp {
    pub comp_mask: u32,
    pub response_length: u32,
    pub wq_handle: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub wqn: u32,
}

/// Request payload of `IB_USER_VERBS_EX_CMD_DESTROY_WQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_destroy_wq {
    pub comp_mask: u32,
    pub wq_handle: u32,
}

/// Response of `IB_USER_VERBS_EX_CMD_DESTROY_WQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_destroy_wq_resp {
    pub comp_mask: u32,
    pub response_length: u32,
    pub events_reported: u32,
    pub reserved: u32,
}

/// Request payload of `IB_USER_VERBS_EX_CMD_MODIFY_WQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_modify_wq {
    pub attr_mask: u32,
    pub wq_handle: u32,
    pub wq_state: u32,
    pub curr_wq_state: u32,
    pub flags: u32,
    pub flags_mask: u32,
}

/// Request payload of `IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_create_rwq_ind_table {
    pub comp_mask: u32,
    pub log_ind_tbl_size: u32,
    pub wq_handles: [u32; 0],
}

/// Response of `IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_create_rwq_ind_table_resp {
    pub comp_mask: u32,
    pub response_length: u32,
    pub ind_tbl_handle: u32,
    pub ind_tbl_num: u32,
}

/// Request payload of `IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_destroy_rwq_ind_table {
    pub comp_mask: u32,
    pub ind_tbl_handle: u32,
}
