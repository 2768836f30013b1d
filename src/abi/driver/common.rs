//! rdma-core `libibverbs/driver.h`: the enums and constants, which no provider ABI bump has
//! changed, and ccan's `list_node` that the device records embed.

/// ccan's intrusive doubly linked list link (`struct list_node`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct list_node {
    pub next: *mut list_node,
    pub prev: *mut list_node,
}

// Log levels of the provider logging helpers.
pub const VERBS_LOG_LEVEL_NONE: u32 = 0;
pub const VERBS_LOG_ERR: u32 = 1;
pub const VERBS_LOG_WARN: u32 = 2;
pub const VERBS_LOG_INFO: u32 = 3;
pub const VERBS_LOG_DEBUG: u32 = 4;

/// Bits of `verbs_xrcd::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum verbs_xrcd_mask {
    VERBS_XRCD_HANDLE = 1,
    VERBS_XRCD_RESERVED = 2,
}

/// Flags a provider passes to the core's extended create-CQ command.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum create_cq_cmd_flags {
    CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX = 1,
    /// Provider ABI 65: the CQ ring is the provider's buffer at a virtual address.
    CREATE_CQ_CMD_FLAGS_WITH_MEM_VA = 2,
    /// Provider ABI 65: the CQ ring is the provider's buffer in a dma-buf.
    CREATE_CQ_CMD_FLAGS_WITH_MEM_DMABUF = 4,
}

/// Bits of `verbs_qp::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum verbs_qp_mask {
    VERBS_QP_XRCD = 1,
    VERBS_QP_EX = 2,
}

/// GID type as read from sysfs.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_gid_type_sysfs {
    IBV_GID_TYPE_SYSFS_IB_ROCE_V1 = 0,
    IBV_GID_TYPE_SYSFS_ROCE_V2 = 1,
}

/// Which GID attributes the core's GID query should fill.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum verbs_query_gid_attr_mask {
    VERBS_QUERY_GID_ATTR_GID = 1,
    VERBS_QUERY_GID_ATTR_TYPE = 2,
    VERBS_QUERY_GID_ATTR_NDEV_IFINDEX = 4,
}

/// How a `verbs_mr` came to be.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_mr_type {
    IBV_MR_TYPE_MR = 0,
    IBV_MR_TYPE_NULL_MR = 1,
    IBV_MR_TYPE_IMPORTED_MR = 2,
    IBV_MR_TYPE_DMABUF_MR = 3,
}

/// Kind of a `verbs_flow_action`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_flow_action_type {
    IBV_FLOW_ACTION_UNSPECIFIED = 0,
    IBV_FLOW_ACTION_ESP = 1,
}

// Kinds of `verbs_match_ent` (the table ends with a `VERBS_MATCH_SENTINEL` entry).
pub const VERBS_MATCH_SENTINEL: u32 = 0;
pub const VERBS_MATCH_PCI: u32 = 1;
pub const VERBS_MATCH_MODALIAS: u32 = 2;
pub const VERBS_MATCH_DRIVER_ID: u32 = 3;

// Bits of `verbs_sysfs_dev::flags`: which optional sysfs files were read.
pub const VSYSFS_READ_MODALIAS: u32 = 1;
pub const VSYSFS_READ_NODE_GUID: u32 = 2;
