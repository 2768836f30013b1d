//! Flow steering rules, flow actions and flow counters: the provider's commands (rdma-core:
//! cmd.c, cmd_flow.c, cmd_flow_action.c, cmd_counters.c), each a declaration over
//! `verbs::flow`.
//!
//! Each returns 0 or the positive errno (also left in errno unless said otherwise).
//! Divergence throughout: a NULL object or argument, or a NULL `context` inside an object, gives
//! EINVAL where rdma-core would crash.
use core::ffi::c_int;

use crate::abi::driver::{verbs_counters, verbs_flow_action};
use crate::abi::verbs::{
    ibv_counters_init_attr, ibv_flow, ibv_flow_action_esp_attr, ibv_flow_attr, ibv_qp,
};
use crate::capi::export::{Array, Bytes, export};
use crate::cret::CRet;
use crate::errno::Errno;
use crate::verbs::cmdbuf::Chain;
use crate::verbs::flow;
use crate::verbs::handle::{Counters, Ctx, Flow, FlowAction, Ptr, Qp};

/// `int ibv_cmd_create_flow(struct ibv_qp *qp, struct ibv_flow *flow_id, struct ibv_flow_attr *flow_attr, void *ucmd, size_t ucmd_size)`
///
/// The C form of [`flow::cmd_create_flow`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_flow(
    qp: Qp,
    flow_id: Ptr<ibv_flow>,
    flow_attr: Ptr<ibv_flow_attr>,
    (ucmd, ucmd_size): Bytes,
) -> Errno {
    flow::cmd_create_flow(qp, flow_id, flow_attr, ucmd)
}

/// [`ibv_cmd_create_flow`] on a given command channel (the fake-kernel tests' seam): 0, or the
/// positive errno (also in errno).
///
/// # Safety
/// As for the export: `qp` (with its context) and `flow_id` are the provider's live objects,
/// `flow_attr` is followed by its specs; NULL gives EINVAL.
pub unsafe fn create_flow_with(
    c: crate::cmd::Ctx<'_>,
    qp: *mut ibv_qp,
    flow_id: *mut ibv_flow,
    flow_attr: *mut ibv_flow_attr,
    ucmd: &[u8],
) -> c_int {
    // SAFETY: the caller's contract (each of the three below).
    let q = unsafe { Qp::from_raw(qp) };
    // SAFETY: the export's contract: `flow_id` is NULL or valid for the call.
    let f = unsafe { Ptr::from_raw(flow_id) };
    // SAFETY: the export's contract: `flow_attr` is NULL or valid for the call.
    let a = unsafe { Ptr::from_raw(flow_attr) };
    (|| flow::create_flow_on(c, q?, f?, a?, ucmd))().ret_errno()
}

/// `int ibv_cmd_destroy_flow(struct ibv_flow *flow_id)`
///
/// The C form of [`flow::cmd_destroy_flow`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_flow(flow_id: Flow) -> Errno {
    flow::cmd_destroy_flow(flow_id)
}

/// `int ibv_cmd_create_flow_action_esp(struct ibv_context *ctx, struct ibv_flow_action_esp_attr *attr, struct verbs_flow_action *flow_action, struct ibv_command_buffer *driver)`
///
/// The C form of [`flow::cmd_create_flow_action_esp`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_flow_action_esp(
    ctx: Ctx,
    attr: Ptr<ibv_flow_action_esp_attr>,
    flow_action: Ptr<verbs_flow_action>,
    driver: Chain,
) -> Errno {
    flow::cmd_create_flow_action_esp(ctx, attr, flow_action, driver)
}

/// `int ibv_cmd_modify_flow_action_esp(struct verbs_flow_action *flow_action, struct ibv_flow_action_esp_attr *attr, struct ibv_command_buffer *driver)`
///
/// The C form of [`flow::cmd_modify_flow_action_esp`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_flow_action_esp(
    flow_action: FlowAction,
    attr: Ptr<ibv_flow_action_esp_attr>,
    driver: Chain,
) -> Errno {
    flow::cmd_modify_flow_action_esp(flow_action, attr, driver)
}

/// `int ibv_cmd_destroy_flow_action(struct verbs_flow_action *action)`
///
/// The C form of [`flow::cmd_destroy_flow_action`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_flow_action(action: FlowAction) -> Errno {
    flow::cmd_destroy_flow_action(action)
}

/// `int ibv_cmd_create_counters(struct ibv_context *context, struct ibv_counters_init_attr *init_attr, struct verbs_counters *vcounters, struct ibv_command_buffer *link)`
///
/// The C form of [`flow::cmd_create_counters`]: 0, or the positive errno.
///
/// First, any `init_attr->comp_mask` bit is EOPNOTSUPP with errno left alone, as rdma-core
/// ([`flow::check_counters_attr`], made quiet here).
#[export(PRIVATE 34..)]
fn ibv_cmd_create_counters(
    context: Ctx,
    init_attr: Ptr<ibv_counters_init_attr>,
    vcounters: Ptr<verbs_counters>,
    link: Chain,
) -> Errno {
    flow::check_counters_attr(init_attr).map_err(Errno::quiet)?;
    flow::cmd_create_counters(context, vcounters, link)
}

/// `int ibv_cmd_destroy_counters(struct verbs_counters *vcounters)`
///
/// The C form of [`flow::cmd_destroy_counters`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_counters(vcounters: Counters) -> Errno {
    flow::cmd_destroy_counters(vcounters)
}

/// `int ibv_cmd_read_counters(struct verbs_counters *vcounters, uint64_t *counters_value, uint32_t ncounters, uint32_t flags, struct ibv_command_buffer *link)`
///
/// The C form of [`flow::cmd_read_counters`]: 0, or the positive errno.
///
/// Divergence: a NULL `counters_value` with a nonzero count gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_read_counters(
    vcounters: Counters,
    (counters_value, ncounters): Array<u64>,
    flags: u32,
    link: Chain,
) -> Errno {
    flow::cmd_read_counters(vcounters, counters_value.slice(), flags, link)
}
