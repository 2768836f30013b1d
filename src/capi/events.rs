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
/// Reads the next asynchronous event from the context's `async_fd` (blocking unless the caller
/// made the fd non-blocking), fills `event` (the affiliated CQ, QP, SRQ or WQ the kernel echoes
/// back, else the port number), then lets the provider see it (`async_event` op). 0, or -1 with
/// errno (the read's, e.g. EAGAIN on a non-blocking fd with nothing queued; the event stays
/// queued).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_get_async_event(context: Ctx, event: Ptr<ibv_async_event>) -> MinusOne<c_int> {
    events::get_async_event(context, event)
}

/// `void ibv_ack_async_event(struct ibv_async_event *event)`
///
/// Acknowledges an event from `ibv_get_async_event`: for a CQ, QP, SRQ or WQ event, one more
/// acknowledged event on that object (its destroy waits for these); port and device events need
/// nothing. No return value. Divergence: a NULL object in the event is ignored too.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_ack_async_event(event: Ptr<ibv_async_event>) -> Void {
    events::ack_async_event(event)
}

/// `struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)`
///
/// A new completion channel: the kernel's CREATE_COMP_CHANNEL command gives its fd; no CQ uses
/// it yet. NULL with errno on failure (the command's, e.g. EMFILE).
#[export("IBVERBS_1.0")]
fn ibv_create_comp_channel(context: Ctx) -> Null<*mut ibv_comp_channel> {
    events::create_comp_channel(context)
}

/// `int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)`
///
/// Closes and frees a channel that no CQ uses (checked under the context's mutex). 0, or EBUSY
/// while a CQ still uses it. Divergence: a channel whose `context` is NULL gives EINVAL too.
#[export("IBVERBS_1.0")]
fn ibv_destroy_comp_channel(channel: Channel) -> Errno {
    events::destroy_comp_channel(channel)
}

/// `int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)`
///
/// Reads the next completion event from the channel's fd (blocking unless the caller made it
/// non-blocking): `*cq` is the CQ that was armed with `ibv_req_notify_cq`, `*cq_context` its user
/// context; the provider then sees it (`cq_event` op). Every event must later be acknowledged
/// with `ibv_ack_cq_events`. 0, or -1 with errno (the read's, e.g. EAGAIN on a non-blocking fd
/// with nothing queued; the event stays queued).
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
/// Acknowledges `nevents` completion events of `cq` (from `ibv_get_cq_event`), under the CQ's
/// mutex; its destroy waits until all reported events are acknowledged. No return value.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_ack_cq_events(cq: Ptr<ibv_cq>, nevents: c_uint) -> Void {
    events::ack_cq_events(cq, nevents)
}
