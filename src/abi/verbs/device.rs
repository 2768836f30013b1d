//! rdma-core v65 `libibverbs/verbs.h`, in part:
//! GIDs, device and port attributes, capability flags and asynchronous events.

use core::ffi::{c_char, c_int, c_uint, c_void};

use super::*;
use crate::abi::ctype::{Be64, CEnum};

/// A 128-bit port GID, as raw bytes or as prefix plus interface id.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_gid {
    pub raw: [u8; 16],
    pub global: ibv_gid_global,
}

/// The two big-endian halves of a GID.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_gid_global {
    pub subnet_prefix: Be64,
    pub interface_id: Be64,
}

/// Kind of a GID table entry (`ibv_gid_entry::gid_type`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_gid_type {
    IBV_GID_TYPE_IB = 0,
    IBV_GID_TYPE_ROCE_V1 = 1,
    IBV_GID_TYPE_ROCE_V2 = 2,
}

/// One GID table entry as returned by `ibv_query_gid_ex` / `ibv_query_gid_table`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_gid_entry {
    pub gid: ibv_gid,
    pub gid_index: u32,
    pub port_num: u32,
    pub gid_type: u32,
    pub ndev_ifindex: u32,
}

/// Node type of an RDMA device (`ibv_device::node_type`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_node_type {
    IBV_NODE_UNKNOWN = -1,
    IBV_NODE_CA = 1,
    IBV_NODE_SWITCH = 2,
    IBV_NODE_ROUTER = 3,
    IBV_NODE_RNIC = 4,
    IBV_NODE_USNIC = 5,
    IBV_NODE_USNIC_UDP = 6,
    IBV_NODE_UNSPECIFIED = 7,
}

/// Transport of an RDMA device (`ibv_device::transport_type`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_transport_type {
    IBV_TRANSPORT_UNKNOWN = -1,
    IBV_TRANSPORT_IB = 0,
    IBV_TRANSPORT_IWARP = 1,
    IBV_TRANSPORT_USNIC = 2,
    IBV_TRANSPORT_USNIC_UDP = 3,
    IBV_TRANSPORT_UNSPECIFIED = 4,
}

/// Bits of `ibv_device_attr::device_cap_flags` (low 32 bits of the 64-bit caps).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_device_cap_flags {
    IBV_DEVICE_RESIZE_MAX_WR = 1 << 0,
    IBV_DEVICE_BAD_PKEY_CNTR = 1 << 1,
    IBV_DEVICE_BAD_QKEY_CNTR = 1 << 2,
    IBV_DEVICE_RAW_MULTI = 1 << 3,
    IBV_DEVICE_AUTO_PATH_MIG = 1 << 4,
    IBV_DEVICE_CHANGE_PHY_PORT = 1 << 5,
    IBV_DEVICE_UD_AV_PORT_ENFORCE = 1 << 6,
    IBV_DEVICE_CURR_QP_STATE_MOD = 1 << 7,
    IBV_DEVICE_SHUTDOWN_PORT = 1 << 8,
    IBV_DEVICE_INIT_TYPE = 1 << 9,
    IBV_DEVICE_PORT_ACTIVE_EVENT = 1 << 10,
    IBV_DEVICE_SYS_IMAGE_GUID = 1 << 11,
    IBV_DEVICE_RC_RNR_NAK_GEN = 1 << 12,
    IBV_DEVICE_SRQ_RESIZE = 1 << 13,
    IBV_DEVICE_N_NOTIFY_CQ = 1 << 14,
    IBV_DEVICE_MEM_WINDOW = 1 << 17,
    IBV_DEVICE_UD_IP_CSUM = 1 << 18,
    IBV_DEVICE_XRC = 1 << 20,
    IBV_DEVICE_MEM_MGT_EXTENSIONS = 1 << 21,
    IBV_DEVICE_MEM_WINDOW_TYPE_2A = 1 << 23,
    IBV_DEVICE_MEM_WINDOW_TYPE_2B = 1 << 24,
    IBV_DEVICE_RC_IP_CSUM = 1 << 25,
    IBV_DEVICE_RAW_IP_CSUM = 1 << 26,
    IBV_DEVICE_MANAGED_FLOW_STEERING = 1 << 29,
}

/// Result of `ibv_is_fork_initialized`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_fork_status {
    IBV_FORK_DISABLED = 0,
    IBV_FORK_ENABLED = 1,
    IBV_FORK_UNNEEDED = 2,
}

/// How far atomic operations are guaranteed to be atomic.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_atomic_cap {
    IBV_ATOMIC_NONE = 0,
    IBV_ATOMIC_HCA = 1,
    IBV_ATOMIC_GLOB = 2,
}

/// Request for `ibv_alloc_dm`: size, alignment and mask.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_alloc_dm_attr {
    pub length: usize,
    pub log_align_req: u32,
    pub comp_mask: u32,
}

/// Bits of `ibv_alloc_dm_attr::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_dm_mask {
    IBV_DM_MASK_HANDLE = 1,
}

/// Device memory allocated with `ibv_alloc_dm`; the copy callbacks are the provider's.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_dm {
    pub context: *mut ibv_context,
    pub memcpy_to_dm: Option<
        unsafe extern "C" fn(
            dm: *mut ibv_dm,
            dm_offset: u64,
            host_addr: *const c_void,
            length: usize,
        ) -> c_int,
    >,
    pub memcpy_from_dm: Option<
        unsafe extern "C" fn(
            host_addr: *mut c_void,
            dm: *mut ibv_dm,
            dm_offset: u64,
            length: usize,
        ) -> c_int,
    >,
    pub comp_mask: u32,
    pub handle: u32,
}

/// Device limits and capabilities from `ibv_query_device`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_device_attr {
    pub fw_ver: [c_char; 64],
    pub node_guid: Be64,
    pub sys_image_guid: Be64,
    pub max_mr_size: u64,
    pub page_size_cap: u64,
    pub vendor_id: u32,
    pub vendor_part_id: u32,
    pub hw_ver: u32,
    pub max_qp: c_int,
    pub max_qp_wr: c_int,
    pub device_cap_flags: c_uint,
    pub max_sge: c_int,
    pub max_sge_rd: c_int,
    pub max_cq: c_int,
    pub max_cqe: c_int,
    pub max_mr: c_int,
    pub max_pd: c_int,
    pub max_qp_rd_atom: c_int,
    pub max_ee_rd_atom: c_int,
    pub max_res_rd_atom: c_int,
    pub max_qp_init_rd_atom: c_int,
    pub max_ee_init_rd_atom: c_int,
    pub atomic_cap: CEnum<ibv_atomic_cap>,
    pub max_ee: c_int,
    pub max_rdd: c_int,
    pub max_mw: c_int,
    pub max_raw_ipv6_qp: c_int,
    pub max_raw_ethy_qp: c_int,
    pub max_mcast_grp: c_int,
    pub max_mcast_qp_attach: c_int,
    pub max_total_mcast_qp_attach: c_int,
    pub max_ah: c_int,
    pub max_fmr: c_int,
    pub max_map_per_fmr: c_int,
    pub max_srq: c_int,
    pub max_srq_wr: c_int,
    pub max_srq_sge: c_int,
    pub max_pkeys: u16,
    pub local_ca_ack_delay: u8,
    pub phys_port_cnt: u8,
}

/// Input of `ibv_query_device_ex` (only `comp_mask` today).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_device_ex_input {
    pub comp_mask: u32,
}

/// Bits of `ibv_odp_caps::general_caps`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_odp_general_caps {
    IBV_ODP_SUPPORT = 1,
    IBV_ODP_SUPPORT_IMPLICIT = 2,
}

/// Per-transport on-demand-paging capability bits.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_odp_transport_cap_bits {
    IBV_ODP_SUPPORT_SEND = 1 << 0,
    IBV_ODP_SUPPORT_RECV = 1 << 1,
    IBV_ODP_SUPPORT_WRITE = 1 << 2,
    IBV_ODP_SUPPORT_READ = 1 << 3,
    IBV_ODP_SUPPORT_ATOMIC = 1 << 4,
    IBV_ODP_SUPPORT_SRQ_RECV = 1 << 5,
    IBV_ODP_SUPPORT_FLUSH = 1 << 6,
    IBV_ODP_SUPPORT_ATOMIC_WRITE = 1 << 7,
}

/// On-demand paging capabilities.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_odp_caps {
    pub general_caps: u64,
    pub per_transport_caps: ibv_odp_caps_per_transport_caps,
}

/// On-demand paging capability bits for each transport.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_odp_caps_per_transport_caps {
    pub rc_odp_caps: u32,
    pub uc_odp_caps: u32,
    pub ud_odp_caps: u32,
}

/// TCP segmentation offload limits.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_tso_caps {
    pub max_tso: u32,
    pub supported_qpts: u32,
}

/// Receive-side-scaling hash functions.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_rx_hash_function_flags {
    IBV_RX_HASH_FUNC_TOEPLITZ = 1,
}

/// Packet fields a receive-side-scaling hash may cover.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_rx_hash_fields {
    IBV_RX_HASH_SRC_IPV4 = 1 << 0,
    IBV_RX_HASH_DST_IPV4 = 1 << 1,
    IBV_RX_HASH_SRC_IPV6 = 1 << 2,
    IBV_RX_HASH_DST_IPV6 = 1 << 3,
    IBV_RX_HASH_SRC_PORT_TCP = 1 << 4,
    IBV_RX_HASH_DST_PORT_TCP = 1 << 5,
    IBV_RX_HASH_SRC_PORT_UDP = 1 << 6,
    IBV_RX_HASH_DST_PORT_UDP = 1 << 7,
    IBV_RX_HASH_IPSEC_SPI = 1 << 8,
}
/// Member of `enum ibv_rx_hash_fields` (does not fit a Rust `repr(C)` discriminant).
pub const IBV_RX_HASH_INNER: u32 = 1u32 << 31;

/// Receive-side-scaling capabilities.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_rss_caps {
    pub supported_qpts: u32,
    pub max_rwq_indirection_tables: u32,
    pub max_rwq_indirection_table_size: u32,
    pub rx_hash_fields_mask: u64,
    pub rx_hash_function: u8,
}

/// Packet pacing rate limits.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_packet_pacing_caps {
    pub qp_rate_limit_min: u32,
    pub qp_rate_limit_max: u32,
    pub supported_qpts: u32,
}

/// Bits of `ibv_device_attr_ex::raw_packet_caps`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_raw_packet_caps {
    IBV_RAW_PACKET_CAP_CVLAN_STRIPPING = 1 << 0,
    IBV_RAW_PACKET_CAP_SCATTER_FCS = 1 << 1,
    IBV_RAW_PACKET_CAP_IP_CSUM = 1 << 2,
    IBV_RAW_PACKET_CAP_DELAY_DROP = 1 << 3,
}

/// Bits of `ibv_tm_caps::capability_flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_tm_cap_flags {
    IBV_TM_CAP_RC = 1,
}

/// Tag matching capabilities.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_tm_caps {
    pub max_rndv_hdr_size: u32,
    pub max_num_tags: u32,
    pub flags: u32,
    pub max_ops: u32,
    pub max_sge: u32,
}

/// Completion queue moderation limits.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_cq_moderation_caps {
    pub max_cq_count: u16,
    pub max_cq_period: u16,
}

/// Bits of the PCIe atomic operation size masks.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_pci_atomic_op_size {
    IBV_PCI_ATOMIC_OPERATION_4_BYTE_SIZE_SUP = 1,
    IBV_PCI_ATOMIC_OPERATION_8_BYTE_SIZE_SUP = 2,
    IBV_PCI_ATOMIC_OPERATION_16_BYTE_SIZE_SUP = 4,
}

/// PCIe atomic operations the device supports.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_pci_atomic_caps {
    pub fetch_add: u16,
    pub swap: u16,
    pub compare_swap: u16,
}

/// Extended device attributes from `ibv_query_device_ex`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_device_attr_ex {
    pub orig_attr: ibv_device_attr,
    pub comp_mask: u32,
    pub odp_caps: ibv_odp_caps,
    pub completion_timestamp_mask: u64,
    pub hca_core_clock: u64,
    pub device_cap_flags_ex: u64,
    pub tso_caps: ibv_tso_caps,
    pub rss_caps: ibv_rss_caps,
    pub max_wq_type_rq: u32,
    pub packet_pacing_caps: ibv_packet_pacing_caps,
    pub raw_packet_caps: u32,
    pub tm_caps: ibv_tm_caps,
    pub cq_mod_caps: ibv_cq_moderation_caps,
    pub max_dm_size: u64,
    pub pci_atomic_caps: ibv_pci_atomic_caps,
    pub xrc_odp_caps: u32,
    pub phys_port_cnt_ex: u32,
}

/// Path MTU codes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_mtu {
    IBV_MTU_256 = 1,
    IBV_MTU_512 = 2,
    IBV_MTU_1024 = 3,
    IBV_MTU_2048 = 4,
    IBV_MTU_4096 = 5,
}

/// Logical state of a port.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_port_state {
    IBV_PORT_NOP = 0,
    IBV_PORT_DOWN = 1,
    IBV_PORT_INIT = 2,
    IBV_PORT_ARMED = 3,
    IBV_PORT_ACTIVE = 4,
    IBV_PORT_ACTIVE_DEFER = 5,
}

// Link layer of a port (`ibv_port_attr::link_layer`).
pub const IBV_LINK_LAYER_UNSPECIFIED: u32 = 0;
pub const IBV_LINK_LAYER_INFINIBAND: u32 = 1;
pub const IBV_LINK_LAYER_ETHERNET: u32 = 2;

/// Bits of `ibv_port_attr::port_cap_flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_port_cap_flags {
    IBV_PORT_SM = 1 << 1,
    IBV_PORT_NOTICE_SUP = 1 << 2,
    IBV_PORT_TRAP_SUP = 1 << 3,
    IBV_PORT_OPT_IPD_SUP = 1 << 4,
    IBV_PORT_AUTO_MIGR_SUP = 1 << 5,
    IBV_PORT_SL_MAP_SUP = 1 << 6,
    IBV_PORT_MKEY_NVRAM = 1 << 7,
    IBV_PORT_PKEY_NVRAM = 1 << 8,
    IBV_PORT_LED_INFO_SUP = 1 << 9,
    IBV_PORT_SYS_IMAGE_GUID_SUP = 1 << 11,
    IBV_PORT_PKEY_SW_EXT_PORT_TRAP_SUP = 1 << 12,
    IBV_PORT_EXTENDED_SPEEDS_SUP = 1 << 14,
    IBV_PORT_CAP_MASK2_SUP = 1 << 15,
    IBV_PORT_CM_SUP = 1 << 16,
    IBV_PORT_SNMP_TUNNEL_SUP = 1 << 17,
    IBV_PORT_REINIT_SUP = 1 << 18,
    IBV_PORT_DEVICE_MGMT_SUP = 1 << 19,
    IBV_PORT_VENDOR_CLASS_SUP = 1 << 20,
    IBV_PORT_DR_NOTICE_SUP = 1 << 21,
    IBV_PORT_CAP_MASK_NOTICE_SUP = 1 << 22,
    IBV_PORT_BOOT_MGMT_SUP = 1 << 23,
    IBV_PORT_LINK_LATENCY_SUP = 1 << 24,
    IBV_PORT_CLIENT_REG_SUP = 1 << 25,
    IBV_PORT_IP_BASED_GIDS = 1 << 26,
}

/// Bits of `ibv_port_attr::port_cap_flags2`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_port_cap_flags2 {
    IBV_PORT_SET_NODE_DESC_SUP = 1 << 0,
    IBV_PORT_INFO_EXT_SUP = 1 << 1,
    IBV_PORT_VIRT_SUP = 1 << 2,
    IBV_PORT_SWITCH_PORT_STATE_TABLE_SUP = 1 << 3,
    IBV_PORT_LINK_WIDTH_2X_SUP = 1 << 4,
    IBV_PORT_LINK_SPEED_HDR_SUP = 1 << 5,
    IBV_PORT_LINK_SPEED_NDR_SUP = 1 << 10,
    IBV_PORT_LINK_SPEED_XDR_SUP = 1 << 12,
}

/// Port attributes from `ibv_query_port`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_port_attr {
    pub state: CEnum<ibv_port_state>,
    pub max_mtu: CEnum<ibv_mtu>,
    pub active_mtu: CEnum<ibv_mtu>,
    pub gid_tbl_len: c_int,
    pub port_cap_flags: u32,
    pub max_msg_sz: u32,
    pub bad_pkey_cntr: u32,
    pub qkey_viol_cntr: u32,
    pub pkey_tbl_len: u16,
    pub lid: u16,
    pub sm_lid: u16,
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
    pub port_cap_flags2: u16,
    /// pabi: 57 (not in the provider ABI 34 layout, rdma-core v44's; every later ABI has it)
    pub active_speed_ex: u32,
}

/// Kind of an asynchronous event.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_event_type {
    IBV_EVENT_CQ_ERR = 0,
    IBV_EVENT_QP_FATAL = 1,
    IBV_EVENT_QP_REQ_ERR = 2,
    IBV_EVENT_QP_ACCESS_ERR = 3,
    IBV_EVENT_COMM_EST = 4,
    IBV_EVENT_SQ_DRAINED = 5,
    IBV_EVENT_PATH_MIG = 6,
    IBV_EVENT_PATH_MIG_ERR = 7,
    IBV_EVENT_DEVICE_FATAL = 8,
    IBV_EVENT_PORT_ACTIVE = 9,
    IBV_EVENT_PORT_ERR = 10,
    IBV_EVENT_LID_CHANGE = 11,
    IBV_EVENT_PKEY_CHANGE = 12,
    IBV_EVENT_SM_CHANGE = 13,
    IBV_EVENT_SRQ_ERR = 14,
    IBV_EVENT_SRQ_LIMIT_REACHED = 15,
    IBV_EVENT_QP_LAST_WQE_REACHED = 16,
    IBV_EVENT_CLIENT_REREGISTER = 17,
    IBV_EVENT_GID_CHANGE = 18,
    IBV_EVENT_WQ_FATAL = 19,
    IBV_EVENT_DEVICE_SPEED_CHANGE = 20,
}

/// An asynchronous event from `ibv_get_async_event`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_async_event {
    pub element: ibv_async_event_element,
    pub event_type: CEnum<ibv_event_type>,
}

/// The object an asynchronous event concerns.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_async_event_element {
    pub cq: *mut ibv_cq,
    pub qp: *mut ibv_qp,
    pub srq: *mut ibv_srq,
    pub wq: *mut ibv_wq,
    pub port_num: c_int,
}

/// Device capability bit above 32 bits (`ibv_device_attr_ex::device_cap_flags_ex`).
pub const IBV_DEVICE_RAW_SCATTER_FCS: u64 = 1u64 << 34;
/// Device capability bit above 32 bits (`ibv_device_attr_ex::device_cap_flags_ex`).
pub const IBV_DEVICE_PCI_WRITE_END_PADDING: u64 = 1u64 << 36;
/// Device capability bit above 32 bits (`ibv_device_attr_ex::device_cap_flags_ex`).
pub const IBV_DEVICE_CC_DMA_BOUNCE: u64 = 1u64 << 41;
