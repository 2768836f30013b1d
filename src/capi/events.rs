//! Asynchronous events and completion channels (rdma-core: device.c, verbs.c), each a declaration
//! over `verbs::events`.
//!
//! An event is one fixed-size record read from a kernel fd: the context's `async_fd` for
//! asynchronous events, a channel's fd for completion events. A read that cannot return a whole
//! record (a non-blocking fd with nothing queued: EAGAIN) consumes nothing, so no event is lost.
//! Acknowledging bumps the affiliated object's counter under its mutex and wakes its destroy,
//! which waits until the counters reach what the kernel reported.
//!
//! Divergence throughout: a NULL argument gives EINVAL (-1 with errno EINVAL for the getters,
//! before anything is read), or is ignored where there is no return value, where rdma-core would
//! crash.
use core::ffi::{c_int, c_uint, c_void};

use crate::abi::verbs::{ibv_async_event, ibv_comp_channel, ibv_cq};
use crate::capi::export::export;
use crate::verbs::events;
use crate::verbs::handle::{Channel, Ctx, Ptr};

/// `int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)`
///
/// The C form of [`events::get_async_event`]: 0, or -1 with errno.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_get_async_event(context: Ctx, event: Ptr<ibv_async_event>) -> MinusOne<c_int> {
    events::get_async_event(context, event)
}

/// `void ibv_ack_async_event(struct ibv_async_event *event)`
///
/// The C form of [`events::ack_async_event`].
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_ack_async_event(event: Ptr<ibv_async_event>) -> Void {
    events::ack_async_event(event)
}

/// `struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)`
///
/// The C form of [`events::create_comp_channel`]: NULL with errno on failure.
#[export("IBVERBS_1.0")]
fn ibv_create_comp_channel(context: Ctx) -> Null<*mut ibv_comp_channel> {
    events::create_comp_channel(context)
}

/// `int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)`
///
/// The C form of [`events::destroy_comp_channel`]: 0, or the positive errno.
///
/// Divergence: a channel whose `context` is NULL gives EINVAL too.
#[export("IBVERBS_1.0")]
fn ibv_destroy_comp_channel(channel: Channel) -> Errno {
    events::destroy_comp_channel(channel)
}

/// `int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)`
///
/// The C form of [`events::get_cq_event`]: 0, or -1 with errno.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_get_cq_event(
    channel: Ptr<ibv_comp_channel>,
    cq: Ptr<*mut ibv_cq>,
    cq_context: Ptr<*mut c_void>,
) -> MinusOne<c_int> {
    events::get_cq_event(channel, cq, cq_context)
}

/// `void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)`
///
/// The C form of [`events::ack_cq_events`].
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_ack_cq_events(cq: Ptr<ibv_cq>, nevents: c_uint) -> Void {
    events::ack_cq_events(cq, nevents)
}
