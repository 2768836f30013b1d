//! rdma-core's provider-facing command structs at provider ABI 34: `libibverbs/kern-abi.h`
//! (unchanged from v44 to v65) and the command buffer of `libibverbs/cmd_ioctl.h`.
//!
//! Each write command `ibv_X` is the command header (`ib_uverbs_cmd_hdr`, or `ex_hdr` for the
//! extended ones) followed by an anonymous union (`anon_1`) of the kernel payload's fields
//! (`anon_1.anon_1`, which C sees as direct members) and the kernel struct itself
//! (`anon_1.core_payload`). Providers extend these with their own driver data, so the layout is
//! ABI. The `KernCmd` trait records what rdma-core's `IBV_ABI_REQ` / `IBV_KABI_REQ` /
//! `IBV_KABI_RESP` typedefs name: command number, header kind, kernel request and response types.
//!
//! Layouts are checked against `layouts-v44.0-pabi34.tsv` by `tests/abi_layout_kern.rs`.

use crate::abi::ctype::__u64;
use crate::abi::uapi::*;

mod cmd_cq_flow;
mod cmd_device;
mod cmd_qp;
mod cmd_srq_wq;
mod command_buffer;

pub use cmd_cq_flow::*;
pub use cmd_device::*;
pub use cmd_qp::*;
pub use cmd_srq_wq::*;
pub use command_buffer::*;

/// Oldest kernel uverbs ABI version rdma-core can drive.
pub const IB_USER_VERBS_MIN_ABI_VERSION: u32 = 3;
/// Newest kernel uverbs ABI version rdma-core can drive.
pub const IB_USER_VERBS_MAX_ABI_VERSION: u32 = 6;

// Command numbers of the old-ABI variants (same numbers, older payloads).
pub const IB_USER_VERBS_CMD_MODIFY_SRQ_V3: u32 = IB_USER_VERBS_CMD_MODIFY_SRQ;
pub const IB_USER_VERBS_CMD_CREATE_SRQ_V5: u32 = IB_USER_VERBS_CMD_CREATE_SRQ;
pub const IB_USER_VERBS_CMD_CREATE_QP_V4: u32 = IB_USER_VERBS_CMD_CREATE_QP;
pub const IB_USER_VERBS_CMD_CREATE_QP_V3: u32 = IB_USER_VERBS_CMD_CREATE_QP;

/// Links a write-command struct to its command number and kernel payload types.
pub trait KernCmd {
    /// `IB_USER_VERBS_CMD_*`, or `IB_USER_VERBS_EX_CMD_*` when `EXTENDED`.
    const CMD: u32;
    /// Starts with `ex_hdr` and is sized in 8-byte units (otherwise `ib_uverbs_cmd_hdr`, 4-byte).
    const EXTENDED: bool;
    /// The kernel request struct (`core_payload`).
    type Req;
    /// The kernel response struct; `empty` when the command has none.
    type Resp;
}

/// The zero-size payload of commands without a response (a GNU C empty struct).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct empty {}

/// The two headers an extended write command starts with.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ex_hdr {
    pub hdr: ib_uverbs_cmd_hdr,
    pub ex_hdr: ib_uverbs_ex_cmd_hdr,
}

/// Short IPv4 filter of the original flow API.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_kern_ipv4_filter {
    pub src_ip: u32,
    pub dst_ip: u32,
}

/// Short IPv4 flow spec of the original flow API.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_kern_spec_ipv4 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
    pub val: ibv_kern_ipv4_filter,
    pub mask: ibv_kern_ipv4_filter,
}

/// Any one flow spec, as the create-flow command builds them.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_kern_spec {
    pub anon_1: ibv_kern_spec_anon_1,
}

/// Anonymous union inside `ibv_kern_spec`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_kern_spec_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub eth: ib_uverbs_flow_spec_eth,
    pub ipv4: ibv_kern_spec_ipv4,
    pub ipv4_ext: ib_uverbs_flow_spec_ipv4,
    pub esp: ib_uverbs_flow_spec_esp,
    pub tcp_udp: ib_uverbs_flow_spec_tcp_udp,
    pub ipv6: ib_uverbs_flow_spec_ipv6,
    pub gre: ib_uverbs_flow_spec_gre,
    pub tunnel: ib_uverbs_flow_spec_tunnel,
    pub mpls: ib_uverbs_flow_spec_mpls,
    pub flow_tag: ib_uverbs_flow_spec_action_tag,
    pub drop: ib_uverbs_flow_spec_action_drop,
    pub handle: ib_uverbs_flow_spec_action_handle,
    pub flow_count: ib_uverbs_flow_spec_action_count,
}

/// Modify-SRQ payload of kernel ABI 3.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_modify_srq_v3 {
    pub srq_handle: u32,
    pub attr_mask: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub srq_limit: u32,
    pub reserved: u32,
}

/// Create-QP response of kernel ABI 3.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_qp_resp_v3 {
    pub qp_handle: u32,
    pub qpn: u32,
}

/// Create-QP response of kernel ABI 4.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_qp_resp_v4 {
    pub qp_handle: u32,
    pub qpn: u32,
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
}

/// Create-SRQ response of kernel ABI 5 and older.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_srq_resp_v5 {
    pub srq_handle: u32,
}
