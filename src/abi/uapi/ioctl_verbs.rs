//! The kernel uapi `rdma/ib_user_ioctl_verbs.h`: value and flag enums shared by the write and
//! ioctl paths, and the records only the ioctl methods carry.

use super::ib_uverbs_query_port_resp;

/// First bit of the optional access-flag range (the kernel may ignore these).
pub const IB_UVERBS_ACCESS_OPTIONAL_FIRST: u32 = 1 << 20;
/// Last bit of the optional access-flag range.
pub const IB_UVERBS_ACCESS_OPTIONAL_LAST: u32 = 1 << 29;

/// Optional core features the kernel reports on get-context.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_core_support {
    IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS = 1 << 0,
    IB_UVERBS_CORE_SUPPORT_ROBUST_UDATA = 1 << 1,
}

/// Memory access flags.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_access_flags {
    IB_UVERBS_ACCESS_LOCAL_WRITE = 1 << 0,
    IB_UVERBS_ACCESS_REMOTE_WRITE = 1 << 1,
    IB_UVERBS_ACCESS_REMOTE_READ = 1 << 2,
    IB_UVERBS_ACCESS_REMOTE_ATOMIC = 1 << 3,
    IB_UVERBS_ACCESS_MW_BIND = 1 << 4,
    IB_UVERBS_ACCESS_ZERO_BASED = 1 << 5,
    IB_UVERBS_ACCESS_ON_DEMAND = 1 << 6,
    IB_UVERBS_ACCESS_HUGETLB = 1 << 7,
    IB_UVERBS_ACCESS_FLUSH_GLOBAL = 1 << 8,
    IB_UVERBS_ACCESS_FLUSH_PERSISTENT = 1 << 9,
    IB_UVERBS_ACCESS_RELAXED_ORDERING = 0x100000,
    IB_UVERBS_ACCESS_OPTIONAL_RANGE = 0x3ff00000,
}

/// SRQ types.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_srq_type {
    IB_UVERBS_SRQT_BASIC = 0,
    IB_UVERBS_SRQT_XRC = 1,
    IB_UVERBS_SRQT_TM = 2,
}

/// WQ types.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_wq_type {
    IB_UVERBS_WQT_RQ = 0,
}

/// WQ creation and modify flags.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_wq_flags {
    IB_UVERBS_WQ_FLAGS_CVLAN_STRIPPING = 1 << 0,
    IB_UVERBS_WQ_FLAGS_SCATTER_FCS = 1 << 1,
    IB_UVERBS_WQ_FLAGS_DELAY_DROP = 1 << 2,
    IB_UVERBS_WQ_FLAGS_PCI_WRITE_END_PADDING = 1 << 3,
}

/// QP types on the wire.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_qp_type {
    IB_UVERBS_QPT_RC = 2,
    IB_UVERBS_QPT_UC = 3,
    IB_UVERBS_QPT_UD = 4,
    IB_UVERBS_QPT_RAW_PACKET = 8,
    IB_UVERBS_QPT_XRC_INI = 9,
    IB_UVERBS_QPT_XRC_TGT = 10,
    IB_UVERBS_QPT_DRIVER = 255,
}

/// QP creation flags.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_qp_create_flags {
    IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK = 1 << 1,
    IB_UVERBS_QP_CREATE_SCATTER_FCS = 1 << 8,
    IB_UVERBS_QP_CREATE_CVLAN_STRIPPING = 1 << 9,
    IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING = 1 << 11,
    IB_UVERBS_QP_CREATE_SQ_SIG_ALL = 1 << 12,
}

/// Port capability bits (bit 31 is a `u32` constant).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_query_port_cap_flags {
    IB_UVERBS_PCF_SM = 1 << 1,
    IB_UVERBS_PCF_NOTICE_SUP = 1 << 2,
    IB_UVERBS_PCF_TRAP_SUP = 1 << 3,
    IB_UVERBS_PCF_OPT_IPD_SUP = 1 << 4,
    IB_UVERBS_PCF_AUTO_MIGR_SUP = 1 << 5,
    IB_UVERBS_PCF_SL_MAP_SUP = 1 << 6,
    IB_UVERBS_PCF_MKEY_NVRAM = 1 << 7,
    IB_UVERBS_PCF_PKEY_NVRAM = 1 << 8,
    IB_UVERBS_PCF_LED_INFO_SUP = 1 << 9,
    IB_UVERBS_PCF_SM_DISABLED = 1 << 10,
    IB_UVERBS_PCF_SYS_IMAGE_GUID_SUP = 1 << 11,
    IB_UVERBS_PCF_PKEY_SW_EXT_PORT_TRAP_SUP = 1 << 12,
    IB_UVERBS_PCF_EXTENDED_SPEEDS_SUP = 1 << 14,
    IB_UVERBS_PCF_CM_SUP = 1 << 16,
    IB_UVERBS_PCF_SNMP_TUNNEL_SUP = 1 << 17,
    IB_UVERBS_PCF_REINIT_SUP = 1 << 18,
    IB_UVERBS_PCF_DEVICE_MGMT_SUP = 1 << 19,
    IB_UVERBS_PCF_VENDOR_CLASS_SUP = 1 << 20,
    IB_UVERBS_PCF_DR_NOTICE_SUP = 1 << 21,
    IB_UVERBS_PCF_CAP_MASK_NOTICE_SUP = 1 << 22,
    IB_UVERBS_PCF_BOOT_MGMT_SUP = 1 << 23,
    IB_UVERBS_PCF_LINK_LATENCY_SUP = 1 << 24,
    IB_UVERBS_PCF_CLIENT_REG_SUP = 1 << 25,
    IB_UVERBS_PCF_LINK_SPEED_WIDTH_TABLE_SUP = 1 << 27,
    IB_UVERBS_PCF_VENDOR_SPECIFIC_MADS_TABLE_SUP = 1 << 28,
    IB_UVERBS_PCF_MCAST_PKEY_TRAP_SUPPRESSION_SUP = 1 << 29,
    IB_UVERBS_PCF_MCAST_FDB_TOP_SUP = 1 << 30,
    IB_UVERBS_PCF_IP_BASED_GIDS = 1 << 26,
}
pub const IB_UVERBS_PCF_HIERARCHY_INFO_SUP: u32 = 1 << 31;

/// Port flags of the query-port response.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_query_port_flags {
    IB_UVERBS_QPF_GRH_REQUIRED = 1 << 0,
}

/// ESP key material kinds.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_flow_action_esp_keymat {
    IB_UVERBS_FLOW_ACTION_ESP_KEYMAT_AES_GCM = 0,
}

/// AES-GCM IV algorithms of an ESP action.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_flow_action_esp_keymat_aes_gcm_iv_algo {
    IB_UVERBS_FLOW_ACTION_IV_ALGO_SEQ = 0,
}

/// ESP replay protection kinds.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_flow_action_esp_replay {
    IB_UVERBS_FLOW_ACTION_ESP_REPLAY_NONE = 0,
    IB_UVERBS_FLOW_ACTION_ESP_REPLAY_BMP = 1,
}

/// ESP action flags (the zero-valued defaults beyond the first are constants).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_flow_action_esp_flags {
    IB_UVERBS_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO = 0,
    IB_UVERBS_FLOW_ACTION_ESP_FLAGS_FULL_OFFLOAD = 1 << 0,
    IB_UVERBS_FLOW_ACTION_ESP_FLAGS_TRANSPORT = 1 << 1,
    IB_UVERBS_FLOW_ACTION_ESP_FLAGS_ENCRYPT = 1 << 2,
    IB_UVERBS_FLOW_ACTION_ESP_FLAGS_ESN_NEW_WINDOW = 1 << 3,
}
pub const IB_UVERBS_FLOW_ACTION_ESP_FLAGS_TUNNEL: u32 =
    ib_uverbs_flow_action_esp_flags::IB_UVERBS_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO as u32;
pub const IB_UVERBS_FLOW_ACTION_ESP_FLAGS_DECRYPT: u32 =
    ib_uverbs_flow_action_esp_flags::IB_UVERBS_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO as u32;

/// Flags of the read-counters method.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_read_counters_flags {
    IB_UVERBS_READ_COUNTERS_PREFER_CACHED = 1 << 0,
}

/// Advice kinds of the advise-MR method.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_advise_mr_advice {
    IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH = 0,
    IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE = 1,
    IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT = 2,
}

/// Flags of the advise-MR method.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_advise_mr_flag {
    IB_UVERBS_ADVISE_MR_FLAG_FLUSH = 1 << 0,
}

/// Kernel driver ids (`ib_uverbs_ioctl_hdr.driver_id`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum rdma_driver_id {
    RDMA_DRIVER_UNKNOWN = 0,
    RDMA_DRIVER_MLX5 = 1,
    RDMA_DRIVER_MLX4 = 2,
    RDMA_DRIVER_CXGB3 = 3,
    RDMA_DRIVER_CXGB4 = 4,
    RDMA_DRIVER_MTHCA = 5,
    RDMA_DRIVER_BNXT_RE = 6,
    RDMA_DRIVER_OCRDMA = 7,
    RDMA_DRIVER_NES = 8,
    RDMA_DRIVER_I40IW = 9,
    RDMA_DRIVER_VMW_PVRDMA = 10,
    RDMA_DRIVER_QEDR = 11,
    RDMA_DRIVER_HNS = 12,
    RDMA_DRIVER_USNIC = 13,
    RDMA_DRIVER_RXE = 14,
    RDMA_DRIVER_HFI1 = 15,
    RDMA_DRIVER_QIB = 16,
    RDMA_DRIVER_EFA = 17,
    RDMA_DRIVER_SIW = 18,
    RDMA_DRIVER_ERDMA = 19,
    RDMA_DRIVER_MANA = 20,
    RDMA_DRIVER_IONIC = 21,
}
pub const RDMA_DRIVER_IRDMA: u32 = rdma_driver_id::RDMA_DRIVER_I40IW as u32;

/// GID types.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_gid_type {
    IB_UVERBS_GID_TYPE_IB = 0,
    IB_UVERBS_GID_TYPE_ROCE_V1 = 1,
    IB_UVERBS_GID_TYPE_ROCE_V2 = 2,
}

/// Kinds of `ib_uverbs_buffer_desc`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_buffer_type {
    IB_UVERBS_BUFFER_TYPE_DMABUF = 0,
    IB_UVERBS_BUFFER_TYPE_VA = 1,
}

/// Entries of a completion counter.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_comp_cntr_entry {
    IB_UVERBS_COMP_CNTR_ENTRY_COMP = 0,
    IB_UVERBS_COMP_CNTR_ENTRY_ERR = 1,
}

/// Operations of the modify-completion-counter method.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_comp_cntr_modify_op {
    IB_UVERBS_COMP_CNTR_MODIFY_OP_SET = 0,
    IB_UVERBS_COMP_CNTR_MODIFY_OP_INC = 1,
}

/// Operations a completion counter attached to a QP counts.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_qp_attach_comp_cntr_op {
    IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_SEND = 1 << 0,
    IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_RECV = 1 << 1,
    IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_RDMA_READ = 1 << 2,
    IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_READ = 1 << 3,
    IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_RDMA_WRITE = 1 << 4,
    IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE = 1 << 5,
}

/// Response of the ioctl query-port method.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_query_port_resp_ex {
    pub legacy_resp: ib_uverbs_query_port_resp,
    pub port_cap_flags2: u16,
    pub reserved: [u8; 2],
    pub active_speed_ex: u32,
}

/// QP capacities as the ioctl create-QP method carries them.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_qp_cap {
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
}

/// One GID table entry as the query-GID methods return it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_gid_entry {
    pub gid: [u64; 2],
    pub gid_index: u32,
    pub port_num: u32,
    pub gid_type: u32,
    pub netdev_ifindex: u32,
}

/// A dma-buf or user-VA buffer passed as a UMEM attribute.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_buffer_desc {
    pub r#type: u32,
    pub fd: i32,
    pub flags: u32,
    pub optional_flags: u32,
    pub addr: u64,
    pub length: u64,
}
