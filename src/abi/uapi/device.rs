//! Context, device, port, PD, XRCD, MR, MW and CQ payloads of the write commands, and the
//! event records (the kernel uapi `rdma/ib_user_verbs.h`, rdma-core's `kernel-headers` copy).

/// One record read from the async event file.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_async_event_desc {
    pub element: u64,
    pub event_type: u32,
    pub reserved: u32,
}

/// One record read from a completion channel.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_comp_event_desc {
    pub cq_handle: u64,
}

/// Limits of CQ moderation.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_cq_moderation_caps {
    pub max_cq_moderation_count: u16,
    pub max_cq_moderation_period: u16,
    pub reserved: u32,
}

/// Header every write command starts with.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_cmd_hdr {
    pub command: u32,
    pub in_words: u16,
    pub out_words: u16,
}

/// Second header of an extended write command.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_cmd_hdr {
    pub response: u64,
    pub provider_in_words: u16,
    pub provider_out_words: u16,
    pub cmd_hdr_reserved: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_GET_CONTEXT`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_get_context {
    pub response: u64,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_GET_CONTEXT`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_get_context_resp {
    pub async_fd: u32,
    pub num_comp_vectors: u32,
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_QUERY_DEVICE`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_query_device {
    pub response: u64,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_QUERY_DEVICE`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_query_device_resp {
    pub fw_ver: u64,
    /// Big-endian on the wire.
    pub node_guid: u64,
    /// Big-endian on the wire.
    pub sys_image_guid: u64,
    pub max_mr_size: u64,
    pub page_size_cap: u64,
    pub vendor_id: u32,
    pub vendor_part_id: u32,
    pub hw_ver: u32,
    pub max_qp: u32,
    pub max_qp_wr: u32,
    pub device_cap_flags: u32,
    pub max_sge: u32,
    pub max_sge_rd: u32,
    pub max_cq: u32,
    pub max_cqe: u32,
    pub max_mr: u32,
    pub max_pd: u32,
    pub max_qp_rd_atom: u32,
    pub max_ee_rd_atom: u32,
    pub max_res_rd_atom: u32,
    pub max_qp_init_rd_atom: u32,
    pub max_ee_init_rd_atom: u32,
    pub atomic_cap: u32,
    pub max_ee: u32,
    pub max_rdd: u32,
    pub max_mw: u32,
    pub max_raw_ipv6_qp: u32,
    pub max_raw_ethy_qp: u32,
    pub max_mcast_grp: u32,
    pub max_mcast_qp_attach: u32,
    pub max_total_mcast_qp_attach: u32,
    pub max_ah: u32,
    pub max_fmr: u32,
    pub max_map_per_fmr: u32,
    pub max_srq: u32,
    pub max_srq_wr: u32,
    pub max_srq_sge: u32,
    pub max_pkeys: u16,
    pub local_ca_ack_delay: u8,
    pub phys_port_cnt: u8,
    pub reserved: [u8; 4],
}

/// Request payload of `IB_USER_VERBS_EX_CMD_QUERY_DEVICE`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_query_device {
    pub comp_mask: u32,
    pub reserved: u32,
}

/// On-demand paging capabilities.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_odp_caps {
    pub general_caps: u64,
    pub per_transport_caps: ib_uverbs_odp_caps_per_transport_caps,
    pub reserved: u32,
}

/// Type of `ib_uverbs_odp_caps.per_transport_caps`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_odp_caps_per_transport_caps {
    pub rc_odp_caps: u32,
    pub uc_odp_caps: u32,
    pub ud_odp_caps: u32,
}

/// RSS capabilities.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_rss_caps {
    pub supported_qpts: u32,
    pub max_rwq_indirection_tables: u32,
    pub max_rwq_indirection_table_size: u32,
    pub reserved: u32,
}

/// Tag matching capabilities.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_tm_caps {
    pub max_rndv_hdr_size: u32,
    pub max_num_tags: u32,
    pub flags: u32,
    pub max_ops: u32,
    pub max_sge: u32,
    pub reserved: u32,
}

/// Response of `IB_USER_VERBS_EX_CMD_QUERY_DEVICE`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_query_device_resp {
    pub base: ib_uverbs_query_device_resp,
    pub comp_mask: u32,
    pub response_length: u32,
    pub odp_caps: ib_uverbs_odp_caps,
    pub timestamp_mask: u64,
    pub hca_core_clock: u64,
    pub device_cap_flags_ex: u64,
    pub rss_caps: ib_uverbs_rss_caps,
    pub max_wq_type_rq: u32,
    pub raw_packet_caps: u32,
    pub tm_caps: ib_uverbs_tm_caps,
    pub cq_moderation_caps: ib_uverbs_cq_moderation_caps,
    pub max_dm_size: u64,
    pub xrc_odp_caps: u32,
    pub reserved: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_QUERY_PORT`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_query_port {
    pub response: u64,
    pub port_num: u8,
    pub reserved: [u8; 7],
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_QUERY_PORT`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_query_port_resp {
    pub port_cap_flags: u32,
    pub max_msg_sz: u32,
    pub bad_pkey_cntr: u32,
    pub qkey_viol_cntr: u32,
    pub gid_tbl_len: u32,
    pub pkey_tbl_len: u16,
    pub lid: u16,
    pub sm_lid: u16,
    pub state: u8,
    pub max_mtu: u8,
    pub active_mtu: u8,
    pub lmc: u8,
    pub max_vl_num: u8,
    pub sm_sl: u8,
    pub subnet_timeout: u8,
    pub init_type_reply: u8,
    pub active_width: u8,
    pub active_speed: u8,
    pub phys_state: u8,
    pub link_layer: u8,
    pub flags: u8,
    pub reserved: u8,
}

/// Request payload of `IB_USER_VERBS_CMD_ALLOC_PD`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_alloc_pd {
    pub response: u64,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_ALLOC_PD`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_alloc_pd_resp {
    pub pd_handle: u32,
    pub driver_data: [u32; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_DEALLOC_PD`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_dealloc_pd {
    pub pd_handle: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_OPEN_XRCD`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_open_xrcd {
    pub response: u64,
    pub fd: u32,
    pub oflags: u32,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_OPEN_XRCD`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_open_xrcd_resp {
    pub xrcd_handle: u32,
    pub driver_data: [u32; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_CLOSE_XRCD`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_close_xrcd {
    pub xrcd_handle: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_REG_MR`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_reg_mr {
    pub response: u64,
    pub start: u64,
    pub length: u64,
    pub hca_va: u64,
    pub pd_handle: u32,
    pub access_flags: u32,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_REG_MR`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_reg_mr_resp {
    pub mr_handle: u32,
    pub lkey: u32,
    pub rkey: u32,
    pub driver_data: [u32; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_REREG_MR`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_rereg_mr {
    pub response: u64,
    pub mr_handle: u32,
    pub flags: u32,
    pub start: u64,
    pub length: u64,
    pub hca_va: u64,
    pub pd_handle: u32,
    pub access_flags: u32,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_REREG_MR`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_rereg_mr_resp {
    pub lkey: u32,
    pub rkey: u32,
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_DEREG_MR`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_dereg_mr {
    pub mr_handle: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_ALLOC_MW`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_alloc_mw {
    pub response: u64,
    pub pd_handle: u32,
    pub mw_type: u8,
    pub reserved: [u8; 3],
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_ALLOC_MW`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_alloc_mw_resp {
    pub mw_handle: u32,
    pub rkey: u32,
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_DEALLOC_MW`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_dealloc_mw {
    pub mw_handle: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_comp_channel {
    pub response: u64,
}

/// Response of `IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_comp_channel_resp {
    pub fd: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_CREATE_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_cq {
    pub response: u64,
    pub user_handle: u64,
    pub cqe: u32,
    pub comp_vector: u32,
    pub comp_channel: i32,
    pub reserved: u32,
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_EX_CMD_CREATE_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_create_cq {
    pub user_handle: u64,
    pub cqe: u32,
    pub comp_vector: u32,
    pub comp_channel: i32,
    pub comp_mask: u32,
    pub flags: u32,
    pub reserved: u32,
}

/// Response of `IB_USER_VERBS_CMD_CREATE_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_cq_resp {
    pub cq_handle: u32,
    pub cqe: u32,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_EX_CMD_CREATE_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_create_cq_resp {
    pub base: ib_uverbs_create_cq_resp,
    pub comp_mask: u32,
    pub response_length: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_RESIZE_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_resize_cq {
    pub response: u64,
    pub cq_handle: u32,
    pub cqe: u32,
    pub driver_data: [u64; 0],
}

/// Response of `IB_USER_VERBS_CMD_RESIZE_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_resize_cq_resp {
    pub cqe: u32,
    pub reserved: u32,
    pub driver_data: [u64; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_POLL_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_poll_cq {
    pub response: u64,
    pub cq_handle: u32,
    pub ne: u32,
}

/// Work completion as the poll-CQ command returns it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_wc {
    pub wr_id: u64,
    pub status: u32,
    pub opcode: u32,
    pub vendor_err: u32,
    pub byte_len: u32,
    pub ex: ib_uverbs_wc_ex,
    pub qp_num: u32,
    pub src_qp: u32,
    pub wc_flags: u32,
    pub pkey_index: u16,
    pub slid: u16,
    pub sl: u8,
    pub dlid_path_bits: u8,
    pub port_num: u8,
    pub reserved: u8,
}

/// Type of `ib_uverbs_wc.ex`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_wc_ex {
    /// Big-endian on the wire.
    pub imm_data: u32,
    pub invalidate_rkey: u32,
}

/// Response of `IB_USER_VERBS_CMD_POLL_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_poll_cq_resp {
    pub count: u32,
    pub reserved: u32,
    pub wc: [ib_uverbs_wc; 0],
}

/// Request payload of `IB_USER_VERBS_CMD_REQ_NOTIFY_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_req_notify_cq {
    pub cq_handle: u32,
    pub solicited_only: u32,
}

/// Request payload of `IB_USER_VERBS_CMD_DESTROY_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_destroy_cq {
    pub response: u64,
    pub cq_handle: u32,
    pub reserved: u32,
}

/// Response of `IB_USER_VERBS_CMD_DESTROY_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_destroy_cq_resp {
    pub comp_events_reported: u32,
    pub async_events_reported: u32,
}

/// CQ moderation count and period.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_cq_moderation {
    pub cq_count: u16,
    pub cq_period: u16,
}

/// Request payload of `IB_USER_VERBS_EX_CMD_MODIFY_CQ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ex_modify_cq {
    pub cq_handle: u32,
    pub attr_mask: u32,
    pub attr: ib_uverbs_cq_moderation,
    pub reserved: u32,
}

/// Timecounter page a driver may map read-only into user space.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_clock_info {
    pub sign: u32,
    pub resv: u32,
    pub nsec: u64,
    pub cycles: u64,
    pub frac: u64,
    pub mult: u32,
    pub shift: u32,
    pub mask: u64,
    pub overflow_period: u64,
}
