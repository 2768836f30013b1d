//! The completion channel, CQ and flow write commands as rdma-core's
//! `libibverbs/kern-abi.h` (provider ABI 34) lays them out: the command header, then an
//! anonymous union of the kernel payload's fields and the kernel struct itself (`core_payload`).

use super::*;

/// Command `IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL`: header, then `ib_uverbs_create_comp_channel`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_comp_channel {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_create_comp_channel_anon_1,
}

/// Payload of `ibv_create_comp_channel`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_comp_channel_anon_1 {
    pub anon_1: ibv_create_comp_channel_anon_1_anon_1,
    pub core_payload: ib_uverbs_create_comp_channel,
}

/// The fields of `ib_uverbs_create_comp_channel`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_comp_channel_anon_1_anon_1 {
    pub response: __u64,
}

impl KernCmd for ibv_create_comp_channel {
    const CMD: u32 = IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_create_comp_channel;
    type Resp = ib_uverbs_create_comp_channel_resp;
}

/// Command `IB_USER_VERBS_CMD_CREATE_CQ`: header, then `ib_uverbs_create_cq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_cq {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_create_cq_anon_1,
}

/// Payload of `ibv_create_cq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_cq_anon_1 {
    pub anon_1: ibv_create_cq_anon_1_anon_1,
    pub core_payload: ib_uverbs_create_cq,
}

/// The fields of `ib_uverbs_create_cq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_cq_anon_1_anon_1 {
    pub response: __u64,
    pub user_handle: __u64,
    pub cqe: u32,
    pub comp_vector: u32,
    pub comp_channel: i32,
    pub reserved: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_create_cq {
    const CMD: u32 = IB_USER_VERBS_CMD_CREATE_CQ;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_create_cq;
    type Resp = ib_uverbs_create_cq_resp;
}

/// Command `IB_USER_VERBS_EX_CMD_CREATE_CQ`: header, then `ib_uverbs_ex_create_cq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_cq_ex {
    pub hdr: ex_hdr,
    pub anon_1: ibv_create_cq_ex_anon_1,
}

/// Payload of `ibv_create_cq_ex`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_cq_ex_anon_1 {
    pub anon_1: ibv_create_cq_ex_anon_1_anon_1,
    pub core_payload: ib_uverbs_ex_create_cq,
}

/// The fields of `ib_uverbs_ex_create_cq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_cq_ex_anon_1_anon_1 {
    pub user_handle: __u64,
    pub cqe: u32,
    pub comp_vector: u32,
    pub comp_channel: i32,
    pub comp_mask: u32,
    pub flags: u32,
    pub reserved: u32,
}

impl KernCmd for ibv_create_cq_ex {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_CREATE_CQ;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_ex_create_cq;
    type Resp = ib_uverbs_ex_create_cq_resp;
}

/// Command `IB_USER_VERBS_CMD_RESIZE_CQ`: header, then `ib_uverbs_resize_cq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_resize_cq {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_resize_cq_anon_1,
}

/// Payload of `ibv_resize_cq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_resize_cq_anon_1 {
    pub anon_1: ibv_resize_cq_anon_1_anon_1,
    pub core_payload: ib_uverbs_resize_cq,
}

/// The fields of `ib_uverbs_resize_cq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_resize_cq_anon_1_anon_1 {
    pub response: __u64,
    pub cq_handle: u32,
    pub cqe: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_resize_cq {
    const CMD: u32 = IB_USER_VERBS_CMD_RESIZE_CQ;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_resize_cq;
    type Resp = ib_uverbs_resize_cq_resp;
}

/// Command `IB_USER_VERBS_CMD_DESTROY_CQ`: header, then `ib_uverbs_destroy_cq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_cq {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_destroy_cq_anon_1,
}

/// Payload of `ibv_destroy_cq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_destroy_cq_anon_1 {
    pub anon_1: ibv_destroy_cq_anon_1_anon_1,
    pub core_payload: ib_uverbs_destroy_cq,
}

/// The fields of `ib_uverbs_destroy_cq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_cq_anon_1_anon_1 {
    pub response: __u64,
    pub cq_handle: u32,
    pub reserved: u32,
}

impl KernCmd for ibv_destroy_cq {
    const CMD: u32 = IB_USER_VERBS_CMD_DESTROY_CQ;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_destroy_cq;
    type Resp = ib_uverbs_destroy_cq_resp;
}

/// Command `IB_USER_VERBS_CMD_POLL_CQ`: header, then `ib_uverbs_poll_cq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_poll_cq {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_poll_cq_anon_1,
}

/// Payload of `ibv_poll_cq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_poll_cq_anon_1 {
    pub anon_1: ibv_poll_cq_anon_1_anon_1,
    pub core_payload: ib_uverbs_poll_cq,
}

/// The fields of `ib_uverbs_poll_cq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_poll_cq_anon_1_anon_1 {
    pub response: __u64,
    pub cq_handle: u32,
    pub ne: u32,
}

impl KernCmd for ibv_poll_cq {
    const CMD: u32 = IB_USER_VERBS_CMD_POLL_CQ;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_poll_cq;
    type Resp = ib_uverbs_poll_cq_resp;
}

/// Command `IB_USER_VERBS_CMD_REQ_NOTIFY_CQ`: header, then `ib_uverbs_req_notify_cq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_req_notify_cq {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_req_notify_cq_anon_1,
}

/// Payload of `ibv_req_notify_cq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_req_notify_cq_anon_1 {
    pub anon_1: ibv_req_notify_cq_anon_1_anon_1,
    pub core_payload: ib_uverbs_req_notify_cq,
}

/// The fields of `ib_uverbs_req_notify_cq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_req_notify_cq_anon_1_anon_1 {
    pub cq_handle: u32,
    pub solicited_only: u32,
}

impl KernCmd for ibv_req_notify_cq {
    const CMD: u32 = IB_USER_VERBS_CMD_REQ_NOTIFY_CQ;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_req_notify_cq;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_EX_CMD_MODIFY_CQ`: header, then `ib_uverbs_ex_modify_cq`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_cq {
    pub hdr: ex_hdr,
    pub anon_1: ibv_modify_cq_anon_1,
}

/// Payload of `ibv_modify_cq`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_modify_cq_anon_1 {
    pub anon_1: ibv_modify_cq_anon_1_anon_1,
    pub core_payload: ib_uverbs_ex_modify_cq,
}

/// The fields of `ib_uverbs_ex_modify_cq`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_modify_cq_anon_1_anon_1 {
    pub cq_handle: u32,
    pub attr_mask: u32,
    pub attr: ib_uverbs_cq_moderation,
    pub reserved: u32,
}

impl KernCmd for ibv_modify_cq {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_MODIFY_CQ;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_ex_modify_cq;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_EX_CMD_CREATE_FLOW`: header, then `ib_uverbs_create_flow`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_flow {
    pub hdr: ex_hdr,
    pub anon_1: ibv_create_flow_anon_1,
}

/// Payload of `ibv_create_flow`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_flow_anon_1 {
    pub anon_1: ibv_create_flow_anon_1_anon_1,
    pub core_payload: ib_uverbs_create_flow,
}

/// The fields of `ib_uverbs_create_flow`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_flow_anon_1_anon_1 {
    pub comp_mask: u32,
    pub qp_handle: u32,
    pub flow_attr: ib_uverbs_flow_attr,
}

impl KernCmd for ibv_create_flow {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_CREATE_FLOW;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_create_flow;
    type Resp = ib_uverbs_create_flow_resp;
}

/// Command `IB_USER_VERBS_EX_CMD_DESTROY_FLOW`: header, then `ib_uverbs_destroy_flow`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_flow {
    pub hdr: ex_hdr,
    pub anon_1: ibv_destroy_flow_anon_1,
}

/// Payload of `ibv_destroy_flow`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_destroy_flow_anon_1 {
    pub anon_1: ibv_destroy_flow_anon_1_anon_1,
    pub core_payload: ib_uverbs_destroy_flow,
}

/// The fields of `ib_uverbs_destroy_flow`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_flow_anon_1_anon_1 {
    pub comp_mask: u32,
    pub flow_handle: u32,
}

impl KernCmd for ibv_destroy_flow {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_DESTROY_FLOW;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_destroy_flow;
    type Resp = empty;
}
