//! QP, AH and multicast payloads of the write commands, and the address
//! and work-request records they carry (the kernel uapi `rdma/ib_user_verbs.h`).

/// GRH part of an address vector.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_global_route {
    pub dgid: [u8; 16],
    pub flow_label: u32,
    pub sgid_index: u8,
    pub hop_limit: u8,
    pub traffic_class: u8,
    pub reserved: u8,
}

/// Address vector as the write commands carry it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ah_attr {
    pub grh: ib_uverbs_global_route,
    pub dlid: u16,
    pub sl: u8,
    pub src_path_bits: u8,
    pub static_rate: u8,
    pub is_global: u8,
    pub port_num: u8,
    pub reserved: u8,
}

/// QP attributes (kernel layout, not sent by the write path).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_qp_attr {
    pub qp_attr_mask: u32,
    pub qp_state: u32,
    pub cur_qp_state: u32,
    pub path_mtu: u32,
    pub path_mig_state: u32,
    pub qkey: u32,
    pub rq_psn: u32,
    pub sq_psn: u32,
    pub dest_qp_num: u32,
    pub qp_access_flags: u32,
    pub ah_attr: ib_uverbs_ah_attr,
    pub alt_ah_attr: ib_uverbs_ah_attr,
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
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
    pub reserved: [u8; 5],
}

/// Request payload of `IB_USER_VERBS_CMD_CREATE_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_qp {
    pub response: u64,
    pub user_handle: u64,
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
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_EX_CMD_CREATE_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_create_qp {
    pub user_handle: u64,
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

/// Request payload of `IB_USER_VERBS_CMD_OPEN_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_open_qp {
    pub response: u64,
    pub user_handle: u64,
    pub pd_handle: u32,
    pub qpn: u32,
    pub qp_type: u8,
    pub reserved: [u8; 7],
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_CREATE_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_qp_resp {
    pub qp_handle: u32,
    pub qpn: u32,
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
    pub reserved: u32,
    pub driver_data: [u32; 0],
}

/// Response of `IB_USER_VERBS_EX_CMD_CREATE_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_create_qp_resp {
    pub base: ib_uverbs_create_qp_resp,
    pub comp_mask: u32,
    pub response_length: u32,
}

/// Path (address vector) part of query/modify QP.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_qp_dest {
    pub dgid: [u8; 16],
    pub flow_label: u32,
    pub dlid: u16,
    pub reserved: u16,
    pub sgid_index: u8,
    pub hop_limit: u8,
    pub traffic_class: u8,
    pub sl: u8,
    pub src_path_bits: u8,
    pub static_rate: u8,
    pub is_global: u8,
    pub port_num: u8,
}

/// Request payload of `IB_USER_VERBS_CMD_QUERY_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_query_qp {
    pub response: u64,
    pub qp_handle: u32,
    pub attr_mask: u32,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_QUERY_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_query_qp_resp {
    pub dest: ib_uverbs_qp_dest,
    pub alt_dest: ib_uverbs_qp_dest,
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
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
    pub sq_sig_all: u8,
    pub reserved: [u8; 5],
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_MODIFY_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_modify_qp {
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
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_EX_CMD_MODIFY_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_modify_qp {
    pub base: ib_uverbs_modify_qp,
    pub rate_limit: u32,
    pub reserved: u32,
}

/// Response of `IB_USER_VERBS_EX_CMD_MODIFY_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_modify_qp_resp {
    pub comp_mask: u32,
    pub response_length: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_DESTROY_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_destroy_qp {
    pub response: u64,
    pub qp_handle: u32,
    pub reserved: u32,
}

/// Response of `IB_USER_VERBS_CMD_DESTROY_QP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_destroy_qp_resp {
    pub events_reported: u32,
}

/// Scatter/gather entry (documents the ABI; same as `ibv_sge`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_sge {
    pub addr: u64,
    pub length: u32,
    pub lkey: u32,
}

/// Send work request header in a post-send command.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_send_wr {
    pub wr_id: u64,
    pub num_sge: u32,
    pub opcode: u32,
    pub send_flags: u32,
    pub ex: ib_uverbs_send_wr_ex,
    pub wr: ib_uverbs_send_wr_wr,
}

/// Type of `ib_uverbs_send_wr.ex`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_send_wr_ex {
    /// Big-endian on the wire.
    pub imm_data: u32,
    pub invalidate_rkey: u32,
}

/// Type of `ib_uverbs_send_wr.wr`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_send_wr_wr {
    pub rdma: ib_uverbs_send_wr_wr_rdma,
    pub atomic: ib_uverbs_send_wr_wr_atomic,
    pub ud: ib_uverbs_send_wr_wr_ud,
}

/// Type of `ib_uverbs_send_wr.wr.rdma`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_send_wr_wr_rdma {
    pub remote_addr: u64,
    pub rkey: u32,
    pub reserved: u32,
}

/// Type of `ib_uverbs_send_wr.wr.atomic`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_send_wr_wr_atomic {
    pub remote_addr: u64,
    pub compare_add: u64,
    pub swap: u64,
    pub rkey: u32,
    pub reserved: u32,
}

/// Type of `ib_uverbs_send_wr.wr.ud`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_send_wr_wr_ud {
    pub ah: u32,
    pub remote_qpn: u32,
    pub remote_qkey: u32,
    pub reserved: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_POST_SEND`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_post_send {
    pub response: u64,
    pub qp_handle: u32,
    pub wr_count: u32,
    pub sge_count: u32,
    pub wqe_size: u32,
    pub send_wr: [ib_uverbs_send_wr; 0],
}

/// Response of `IB_USER_VERBS_CMD_POST_SEND`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_post_send_resp {
    pub bad_wr: u32,
}

/// Receive work request header in a post-recv command.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_recv_wr {
    pub wr_id: u64,
    pub num_sge: u32,
    pub reserved: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_POST_RECV`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_post_recv {
    pub response: u64,
    pub qp_handle: u32,
    pub wr_count: u32,
    pub sge_count: u32,
    pub wqe_size: u32,
    pub recv_wr: [ib_uverbs_recv_wr; 0],
}

/// Response of `IB_USER_VERBS_CMD_POST_RECV`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_post_recv_resp {
    pub bad_wr: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_CREATE_AH`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_ah {
    pub response: u64,
    pub user_handle: u64,
    pub pd_handle: u32,
    pub reserved: u32,
    pub attr: ib_uverbs_ah_attr,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_CREATE_AH`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_ah_resp {
    pub ah_handle: u32,
    pub driver_data: [u32; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_DESTROY_AH`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_destroy_ah {
    pub ah_handle: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_ATTACH_MCAST`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_attach_mcast {
    pub gid: [u8; 16],
    pub qp_handle: u32,
    pub mlid: u16,
    pub reserved: u16,
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_DETACH_MCAST`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_detach_mcast {
    pub gid: [u8; 16],
    pub qp_handle: u32,
    pub mlid: u16,
    pub reserved: u16,
    pub driver_data: [u64; 0],
}
