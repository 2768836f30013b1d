//! Provider command layer: flow, flow action and counters commands (rdma-core: cmd_flow.c,
//! cmd_flow_action.c, cmd_counters.c, cmd.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_int, c_void};

use crate::abi::driver::{verbs_counters, verbs_flow_action};
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::verbs::{
    ibv_context, ibv_counters_init_attr, ibv_flow, ibv_flow_action_esp_attr, ibv_flow_attr, ibv_qp,
};
use crate::errno::{CRet, unimplemented};

/// `int ibv_cmd_create_flow(struct ibv_qp *qp, struct ibv_flow *flow_id, struct ibv_flow_attr *flow_attr, void *ucmd, size_t ucmd_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_flow(
    qp: *mut ibv_qp,
    flow_id: *mut ibv_flow,
    flow_attr: *mut ibv_flow_attr,
    ucmd: *mut c_void,
    ucmd_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_flow")).ret_errno()
}

/// `int ibv_cmd_destroy_flow(struct ibv_flow *flow_id)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_destroy_flow(flow_id: *mut ibv_flow) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_destroy_flow")).ret_errno()
}

/// `int ibv_cmd_create_flow_action_esp(struct ibv_context *ctx, struct ibv_flow_action_esp_attr *attr, struct verbs_flow_action *flow_action, struct ibv_command_buffer *driver)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_flow_action_esp(
    ctx: *mut ibv_context,
    attr: *mut ibv_flow_action_esp_attr,
    flow_action: *mut verbs_flow_action,
    driver: *mut ibv_command_buffer,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_flow_action_esp")).ret_errno()
}

/// `int ibv_cmd_modify_flow_action_esp(struct verbs_flow_action *flow_action, struct ibv_flow_action_esp_attr *attr, struct ibv_command_buffer *driver)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_modify_flow_action_esp(
    flow_action: *mut verbs_flow_action,
    attr: *mut ibv_flow_action_esp_attr,
    driver: *mut ibv_command_buffer,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_modify_flow_action_esp")).ret_errno()
}

/// `int ibv_cmd_destroy_flow_action(struct verbs_flow_action *action)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_destroy_flow_action(action: *mut verbs_flow_action) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_destroy_flow_action")).ret_errno()
}

/// `int ibv_cmd_create_counters(struct ibv_context *context, struct ibv_counters_init_attr *init_attr, struct verbs_counters *vcounters, struct ibv_command_buffer *link)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_counters(
    context: *mut ibv_context,
    init_attr: *mut ibv_counters_init_attr,
    vcounters: *mut verbs_counters,
    link: *mut ibv_command_buffer,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_counters")).ret_errno()
}

/// `int ibv_cmd_destroy_counters(struct verbs_counters *vcounters)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_destroy_counters(vcounters: *mut verbs_counters) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_destroy_counters")).ret_errno()
}

/// `int ibv_cmd_read_counters(struct verbs_counters *vcounters, uint64_t *counters_value, uint32_t ncounters, uint32_t flags, struct ibv_command_buffer *link)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_read_counters(
    vcounters: *mut verbs_counters,
    counters_value: *mut u64,
    ncounters: u32,
    flags: u32,
    link: *mut ibv_command_buffer,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_read_counters")).ret_errno()
}
