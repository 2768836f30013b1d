//! Command numbers, header masks, limits and the value/flag enums of the kernel uapi
//! `rdma/ib_user_verbs.h` (rdma-core's `kernel-headers` copy).

/// Kernel uverbs ABI version this header describes.
pub const IB_USER_VERBS_ABI_VERSION: u32 = 6;
/// First extended command number that has no legacy twin.
pub const IB_USER_VERBS_CMD_THRESHOLD: u32 = 50;
/// Mask of the command number in `ib_uverbs_cmd_hdr.command`.
pub const IB_USER_VERBS_CMD_COMMAND_MASK: u32 = 0xff;
/// Flag in `ib_uverbs_cmd_hdr.command` marking an extended command.
pub const IB_USER_VERBS_CMD_FLAG_EXTENDED: u32 = 0x8000_0000;
/// Largest log2 size of an RWQ indirection table the kernel accepts.
pub const IB_USER_VERBS_MAX_LOG_IND_TBL_SIZE: u32 = 0x0d;
/// Size of a kernel device name buffer.
pub const IB_DEVICE_NAME_MAX: usize = 64;

// enum ib_uverbs_write_cmds: legacy write command numbers (`ib_uverbs_cmd_hdr.command`).
pub const IB_USER_VERBS_CMD_GET_CONTEXT: u32 = 0;
pub const IB_USER_VERBS_CMD_QUERY_DEVICE: u32 = 1;
pub const IB_USER_VERBS_CMD_QUERY_PORT: u32 = 2;
pub const IB_USER_VERBS_CMD_ALLOC_PD: u32 = 3;
pub const IB_USER_VERBS_CMD_DEALLOC_PD: u32 = 4;
pub const IB_USER_VERBS_CMD_CREATE_AH: u32 = 5;
pub const IB_USER_VERBS_CMD_MODIFY_AH: u32 = 6;
pub const IB_USER_VERBS_CMD_QUERY_AH: u32 = 7;
pub const IB_USER_VERBS_CMD_DESTROY_AH: u32 = 8;
pub const IB_USER_VERBS_CMD_REG_MR: u32 = 9;
pub const IB_USER_VERBS_CMD_REG_SMR: u32 = 10;
pub const IB_USER_VERBS_CMD_REREG_MR: u32 = 11;
pub const IB_USER_VERBS_CMD_QUERY_MR: u32 = 12;
pub const IB_USER_VERBS_CMD_DEREG_MR: u32 = 13;
pub const IB_USER_VERBS_CMD_ALLOC_MW: u32 = 14;
pub const IB_USER_VERBS_CMD_BIND_MW: u32 = 15;
pub const IB_USER_VERBS_CMD_DEALLOC_MW: u32 = 16;
pub const IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL: u32 = 17;
pub const IB_USER_VERBS_CMD_CREATE_CQ: u32 = 18;
pub const IB_USER_VERBS_CMD_RESIZE_CQ: u32 = 19;
pub const IB_USER_VERBS_CMD_DESTROY_CQ: u32 = 20;
pub const IB_USER_VERBS_CMD_POLL_CQ: u32 = 21;
pub const IB_USER_VERBS_CMD_PEEK_CQ: u32 = 22;
pub const IB_USER_VERBS_CMD_REQ_NOTIFY_CQ: u32 = 23;
pub const IB_USER_VERBS_CMD_CREATE_QP: u32 = 24;
pub const IB_USER_VERBS_CMD_QUERY_QP: u32 = 25;
pub const IB_USER_VERBS_CMD_MODIFY_QP: u32 = 26;
pub const IB_USER_VERBS_CMD_DESTROY_QP: u32 = 27;
pub const IB_USER_VERBS_CMD_POST_SEND: u32 = 28;
pub const IB_USER_VERBS_CMD_POST_RECV: u32 = 29;
pub const IB_USER_VERBS_CMD_ATTACH_MCAST: u32 = 30;
pub const IB_USER_VERBS_CMD_DETACH_MCAST: u32 = 31;
pub const IB_USER_VERBS_CMD_CREATE_SRQ: u32 = 32;
pub const IB_USER_VERBS_CMD_MODIFY_SRQ: u32 = 33;
pub const IB_USER_VERBS_CMD_QUERY_SRQ: u32 = 34;
pub const IB_USER_VERBS_CMD_DESTROY_SRQ: u32 = 35;
pub const IB_USER_VERBS_CMD_POST_SRQ_RECV: u32 = 36;
pub const IB_USER_VERBS_CMD_OPEN_XRCD: u32 = 37;
pub const IB_USER_VERBS_CMD_CLOSE_XRCD: u32 = 38;
pub const IB_USER_VERBS_CMD_CREATE_XSRQ: u32 = 39;
pub const IB_USER_VERBS_CMD_OPEN_QP: u32 = 40;

// Extended command numbers (sent with IB_USER_VERBS_CMD_FLAG_EXTENDED).
pub const IB_USER_VERBS_EX_CMD_QUERY_DEVICE: u32 = IB_USER_VERBS_CMD_QUERY_DEVICE;
pub const IB_USER_VERBS_EX_CMD_CREATE_CQ: u32 = IB_USER_VERBS_CMD_CREATE_CQ;
pub const IB_USER_VERBS_EX_CMD_CREATE_QP: u32 = IB_USER_VERBS_CMD_CREATE_QP;
pub const IB_USER_VERBS_EX_CMD_MODIFY_QP: u32 = IB_USER_VERBS_CMD_MODIFY_QP;
pub const IB_USER_VERBS_EX_CMD_CREATE_FLOW: u32 = IB_USER_VERBS_CMD_THRESHOLD;
pub const IB_USER_VERBS_EX_CMD_DESTROY_FLOW: u32 = 51;
pub const IB_USER_VERBS_EX_CMD_CREATE_WQ: u32 = 52;
pub const IB_USER_VERBS_EX_CMD_MODIFY_WQ: u32 = 53;
pub const IB_USER_VERBS_EX_CMD_DESTROY_WQ: u32 = 54;
pub const IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL: u32 = 55;
pub const IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL: u32 = 56;
pub const IB_USER_VERBS_EX_CMD_MODIFY_CQ: u32 = 57;

/// Flush placement types.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_placement_type {
    IB_FLUSH_GLOBAL = 1 << 0,
    IB_FLUSH_PERSISTENT = 1 << 1,
}

/// Flush selectivity levels.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_selectivity_level {
    IB_FLUSH_RANGE = 0,
    IB_FLUSH_MR = 1,
}

/// General on-demand paging capability bits.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_odp_general_cap_bits {
    IB_UVERBS_ODP_SUPPORT = 1 << 0,
    IB_UVERBS_ODP_SUPPORT_IMPLICIT = 1 << 1,
}

/// Per-transport on-demand paging capability bits.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_odp_transport_cap_bits {
    IB_UVERBS_ODP_SUPPORT_SEND = 1 << 0,
    IB_UVERBS_ODP_SUPPORT_RECV = 1 << 1,
    IB_UVERBS_ODP_SUPPORT_WRITE = 1 << 2,
    IB_UVERBS_ODP_SUPPORT_READ = 1 << 3,
    IB_UVERBS_ODP_SUPPORT_ATOMIC = 1 << 4,
    IB_UVERBS_ODP_SUPPORT_SRQ_RECV = 1 << 5,
    IB_UVERBS_ODP_SUPPORT_FLUSH = 1 << 6,
    IB_UVERBS_ODP_SUPPORT_ATOMIC_WRITE = 1 << 7,
}

/// Flags of the extended create-CQ command.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_ex_create_cq_flags {
    IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION = 1 << 0,
    IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN = 1 << 1,
}

/// Work completion opcodes on the wire.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_wc_opcode {
    IB_UVERBS_WC_SEND = 0,
    IB_UVERBS_WC_RDMA_WRITE = 1,
    IB_UVERBS_WC_RDMA_READ = 2,
    IB_UVERBS_WC_COMP_SWAP = 3,
    IB_UVERBS_WC_FETCH_ADD = 4,
    IB_UVERBS_WC_BIND_MW = 5,
    IB_UVERBS_WC_LOCAL_INV = 6,
    IB_UVERBS_WC_TSO = 7,
    IB_UVERBS_WC_FLUSH = 8,
    IB_UVERBS_WC_ATOMIC_WRITE = 9,
}

/// `comp_mask` bits of the extended create-QP command.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_create_qp_mask {
    IB_UVERBS_CREATE_QP_MASK_IND_TABLE = 1 << 0,
}

/// `comp_mask` bits of the extended create-QP command the kernel supports.
pub const IB_UVERBS_CREATE_QP_SUP_COMP_MASK: u32 =
    ib_uverbs_create_qp_mask::IB_UVERBS_CREATE_QP_MASK_IND_TABLE as u32;

/// Work request opcodes on the wire.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_wr_opcode {
    IB_UVERBS_WR_RDMA_WRITE = 0,
    IB_UVERBS_WR_RDMA_WRITE_WITH_IMM = 1,
    IB_UVERBS_WR_SEND = 2,
    IB_UVERBS_WR_SEND_WITH_IMM = 3,
    IB_UVERBS_WR_RDMA_READ = 4,
    IB_UVERBS_WR_ATOMIC_CMP_AND_SWP = 5,
    IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD = 6,
    IB_UVERBS_WR_LOCAL_INV = 7,
    IB_UVERBS_WR_BIND_MW = 8,
    IB_UVERBS_WR_SEND_WITH_INV = 9,
    IB_UVERBS_WR_TSO = 10,
    IB_UVERBS_WR_RDMA_READ_WITH_INV = 11,
    IB_UVERBS_WR_MASKED_ATOMIC_CMP_AND_SWP = 12,
    IB_UVERBS_WR_MASKED_ATOMIC_FETCH_AND_ADD = 13,
    IB_UVERBS_WR_FLUSH = 14,
    IB_UVERBS_WR_ATOMIC_WRITE = 15,
}

/// Device capability bits (bits 32 and up are `u64` constants).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_device_cap_flags {
    IB_UVERBS_DEVICE_RESIZE_MAX_WR = 1 << 0,
    IB_UVERBS_DEVICE_BAD_PKEY_CNTR = 1 << 1,
    IB_UVERBS_DEVICE_BAD_QKEY_CNTR = 1 << 2,
    IB_UVERBS_DEVICE_RAW_MULTI = 1 << 3,
    IB_UVERBS_DEVICE_AUTO_PATH_MIG = 1 << 4,
    IB_UVERBS_DEVICE_CHANGE_PHY_PORT = 1 << 5,
    IB_UVERBS_DEVICE_UD_AV_PORT_ENFORCE = 1 << 6,
    IB_UVERBS_DEVICE_CURR_QP_STATE_MOD = 1 << 7,
    IB_UVERBS_DEVICE_SHUTDOWN_PORT = 1 << 8,
    IB_UVERBS_DEVICE_PORT_ACTIVE_EVENT = 1 << 10,
    IB_UVERBS_DEVICE_SYS_IMAGE_GUID = 1 << 11,
    IB_UVERBS_DEVICE_RC_RNR_NAK_GEN = 1 << 12,
    IB_UVERBS_DEVICE_SRQ_RESIZE = 1 << 13,
    IB_UVERBS_DEVICE_N_NOTIFY_CQ = 1 << 14,
    IB_UVERBS_DEVICE_MEM_WINDOW = 1 << 17,
    IB_UVERBS_DEVICE_UD_IP_CSUM = 1 << 18,
    IB_UVERBS_DEVICE_XRC = 1 << 20,
    IB_UVERBS_DEVICE_MEM_MGT_EXTENSIONS = 1 << 21,
    IB_UVERBS_DEVICE_MEM_WINDOW_TYPE_2A = 1 << 23,
    IB_UVERBS_DEVICE_MEM_WINDOW_TYPE_2B = 1 << 24,
    IB_UVERBS_DEVICE_RC_IP_CSUM = 1 << 25,
    IB_UVERBS_DEVICE_RAW_IP_CSUM = 1 << 26,
    IB_UVERBS_DEVICE_MANAGED_FLOW_STEERING = 1 << 29,
}
pub const IB_UVERBS_DEVICE_RAW_SCATTER_FCS: u64 = 1 << 34;
pub const IB_UVERBS_DEVICE_PCI_WRITE_END_PADDING: u64 = 1 << 36;
pub const IB_UVERBS_DEVICE_FLUSH_GLOBAL: u64 = 1 << 38;
pub const IB_UVERBS_DEVICE_FLUSH_PERSISTENT: u64 = 1 << 39;
pub const IB_UVERBS_DEVICE_ATOMIC_WRITE: u64 = 1 << 40;
pub const IB_UVERBS_DEVICE_CC_DMA_BOUNCE: u64 = 1 << 41;

/// Raw packet QP capability bits.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ib_uverbs_raw_packet_caps {
    IB_UVERBS_RAW_PACKET_CAP_CVLAN_STRIPPING = 1 << 0,
    IB_UVERBS_RAW_PACKET_CAP_SCATTER_FCS = 1 << 1,
    IB_UVERBS_RAW_PACKET_CAP_IP_CSUM = 1 << 2,
    IB_UVERBS_RAW_PACKET_CAP_DELAY_DROP = 1 << 3,
}
