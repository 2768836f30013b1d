//! Asynchronous events and completion channels (rdma-core: device.c, verbs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_int, c_uint, c_void};

use crate::abi::verbs::{ibv_async_event, ibv_comp_channel, ibv_context, ibv_cq};
use crate::errno::{CRet, unimplemented};

/// `int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_get_async_event_1_1")]
pub unsafe extern "C" fn ibv_get_async_event(
    context: *mut ibv_context,
    event: *mut ibv_async_event,
) -> c_int {
    Err(unimplemented("ibv_get_async_event")).ret_minus_one()
}
super::symver!(ibv_get_async_event, v1_1, "@@IBVERBS_1.1", ibv_get_async_event);

/// `void ibv_ack_async_event(struct ibv_async_event *event)`
///
/// Stub: does nothing (no return value to carry the failure).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_ack_async_event_1_1")]
pub unsafe extern "C" fn ibv_ack_async_event(event: *mut ibv_async_event) {
    let _ = unimplemented("ibv_ack_async_event");
}
super::symver!(ibv_ack_async_event, v1_1, "@@IBVERBS_1.1", ibv_ack_async_event);

/// `struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_create_comp_channel(
    context: *mut ibv_context,
) -> *mut ibv_comp_channel {
    Err(unimplemented("ibv_create_comp_channel")).ret_null()
}

/// `int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_destroy_comp_channel(channel: *mut ibv_comp_channel) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_comp_channel")).ret_errno()
}

/// `int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_get_cq_event_1_1")]
pub unsafe extern "C" fn ibv_get_cq_event(
    channel: *mut ibv_comp_channel,
    cq: *mut *mut ibv_cq,
    cq_context: *mut *mut c_void,
) -> c_int {
    Err(unimplemented("ibv_get_cq_event")).ret_minus_one()
}
super::symver!(ibv_get_cq_event, v1_1, "@@IBVERBS_1.1", ibv_get_cq_event);

/// `void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)`
///
/// Stub: does nothing (no return value to carry the failure).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_ack_cq_events_1_1")]
pub unsafe extern "C" fn ibv_ack_cq_events(cq: *mut ibv_cq, nevents: c_uint) {
    let _ = unimplemented("ibv_ack_cq_events");
}
super::symver!(ibv_ack_cq_events, v1_1, "@@IBVERBS_1.1", ibv_ack_cq_events);
