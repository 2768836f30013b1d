//! Asynchronous events and completion channels (rdma-core: device.c, verbs.c).
//!
//! An event is one fixed-size record read from a kernel fd: the context's `async_fd` for
//! asynchronous events, a channel's fd for completion events. A read that cannot return a whole
//! record (a non-blocking fd with nothing queued: EAGAIN) consumes nothing, so no event is lost.
//! Acknowledging bumps the affiliated object's counter under its mutex and wakes its destroy,
//! which waits until the counters reach what the kernel reported.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use crate::verbs::ctxpriv::Context;
use core::ffi::{c_int, c_uint, c_void};

use crate::abi::uapi::{ib_uverbs_async_event_desc, ib_uverbs_comp_event_desc};
use crate::abi::verbs::ibv_event_type::*;
use crate::abi::verbs::{
    ibv_async_event, ibv_comp_channel, ibv_context, ibv_cq, ibv_qp, ibv_srq, ibv_wq,
};
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::sys::pod;
use crate::verbs::ctxpriv::{live_ops_of, ops_of};

/// One whole record of `T` from `fd` (not zeroed first: the kernel writes all of it), or the
/// read's errno (a short read, which the kernel never gives, is EIO).
#[inline(always)]
fn read_record<T: pod::Pod>(fd: c_int) -> Result<T> {
    // Divergence: rdma-core returns -1 with errno left as it was on a short read; the kernel
    // never reads short, so we call it EIO.
    crate::sys::heap::read_pod(fd)
}

/// -1 with errno `e`: the failure return of the event getters, out of their way.
#[cold]
#[inline(never)]
fn fail(e: Errno) -> c_int {
    Err(e).ret_minus_one()
}

/// The kinds of object an asynchronous event can name.
enum Affiliation {
    Cq,
    Qp,
    Srq,
    Wq,
    /// A port number, or nothing (device events).
    Port,
}

/// What `element` of an event of this type holds (rdma-core's grouping). One `match` on
/// constants: a table lookup, not a chain of comparisons.
const fn affiliation(event_type: u32) -> Affiliation {
    const CQ_ERR: u32 = IBV_EVENT_CQ_ERR as u32;
    const QP_FATAL: u32 = IBV_EVENT_QP_FATAL as u32;
    const QP_REQ_ERR: u32 = IBV_EVENT_QP_REQ_ERR as u32;
    const QP_ACCESS_ERR: u32 = IBV_EVENT_QP_ACCESS_ERR as u32;
    const COMM_EST: u32 = IBV_EVENT_COMM_EST as u32;
    const SQ_DRAINED: u32 = IBV_EVENT_SQ_DRAINED as u32;
    const PATH_MIG: u32 = IBV_EVENT_PATH_MIG as u32;
    const PATH_MIG_ERR: u32 = IBV_EVENT_PATH_MIG_ERR as u32;
    const LAST_WQE: u32 = IBV_EVENT_QP_LAST_WQE_REACHED as u32;
    const SRQ_ERR: u32 = IBV_EVENT_SRQ_ERR as u32;
    const SRQ_LIMIT: u32 = IBV_EVENT_SRQ_LIMIT_REACHED as u32;
    const WQ_FATAL: u32 = IBV_EVENT_WQ_FATAL as u32;
    match event_type {
        CQ_ERR => Affiliation::Cq,
        QP_FATAL | QP_REQ_ERR | QP_ACCESS_ERR | COMM_EST | SQ_DRAINED | PATH_MIG | PATH_MIG_ERR
        | LAST_WQE => Affiliation::Qp,
        SRQ_ERR | SRQ_LIMIT => Affiliation::Srq,
        WQ_FATAL => Affiliation::Wq,
        _ => Affiliation::Port,
    }
}

/// The body of [`ibv_get_async_event`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_get_async_event`].
#[inline(always)]
pub(crate) unsafe fn get_async_event_edge(
    context: *mut ibv_context,
    event: *mut ibv_async_event,
) -> c_int {
    if context.is_null() || event.is_null() {
        return fail(Errno::EINVAL);
    }
    // SAFETY: an open context and the caller's event.
    unsafe {
        let ev: ib_uverbs_async_event_desc = match read_record((*context).async_fd) {
            Ok(ev) => ev,
            Err(e) => return fail(e),
        };
        (*event).event_type = ev.event_type.into();
        let el = &raw mut (*event).element;
        match affiliation(ev.event_type) {
            Affiliation::Cq => (*el).cq = ev.element as usize as *mut _,
            Affiliation::Qp => (*el).qp = ev.element as usize as *mut _,
            Affiliation::Srq => (*el).srq = ev.element as usize as *mut _,
            Affiliation::Wq => (*el).wq = ev.element as usize as *mut _,
            Affiliation::Port => (*el).port_num = ev.element as c_int,
        }
        // Empty while the provider has none: the default does nothing.
        if let Some(f) = ops_of(context).async_event {
            f(context, event);
        }
    }
    0
}

/// `int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)`
///
/// Reads the next asynchronous event from the context's `async_fd` (blocking unless the caller
/// made the fd non-blocking), fills `event` (the affiliated CQ, QP, SRQ or WQ the kernel echoes
/// back, else the port number), then lets the provider see it (`async_event` op). 0, or -1 with
/// errno (the read's, e.g. EAGAIN on a non-blocking fd with nothing queued; the event stays
/// queued). Divergence: NULL arguments give -1 with errno EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_get_async_event(context: *mut ibv_context, event: *mut ibv_async_event) -> Raw<c_int> {
    // SAFETY: the export's C contract is the body's.
    unsafe { get_async_event_edge(context, event) }
}

/// Count `n` events on the object whose mutex is at `mutex`: the counter `COUNTER` bytes past
/// the mutex `+= n` under it, then wake one waiter on the condition variable `COND` bytes past
/// it. Addressed from the mutex, so one pointer (and `n`) is all that lives across the calls.
/// One copy per kind of object (the offsets are constants in it), not inlined, so that the
/// exports stay free of the registers it keeps across the lock: they return without a frame when
/// there is nothing to count.
///
/// # Safety
/// `mutex` is the mutex of a live, initialised object with those fields at those distances.
#[inline(never)]
unsafe fn count_events<const COND: usize, const COUNTER: usize>(mutex: *mut u8, n: u32) {
    // SAFETY: the caller's contract: the object's mutex.
    unsafe { libc::pthread_mutex_lock(mutex.cast()) };
    let counter = mutex.wrapping_add(COUNTER).cast::<u32>();
    // SAFETY: the object's counter, under its mutex.
    unsafe { *counter = (*counter).wrapping_add(n) };
    // SAFETY: the object's condition variable.
    unsafe { libc::pthread_cond_signal(mutex.wrapping_add(COND).cast()) };
    // SAFETY: locked above.
    unsafe { libc::pthread_mutex_unlock(mutex.cast()) };
}

/// How an object of type `$t` counts events on its counter `$counter`: the mutex's offset in
/// the object and the [`count_events`] for that object type (the cond and the counter follow
/// the mutex in every such type; a type where they did not would not compile).
macro_rules! count_events_of {
    ($t:ty, $counter:ident) => {
        (
            core::mem::offset_of!($t, mutex),
            count_events::<
                { core::mem::offset_of!($t, cond) - core::mem::offset_of!($t, mutex) },
                { core::mem::offset_of!($t, $counter) - core::mem::offset_of!($t, mutex) },
            > as Count,
        )
    };
}

/// How acknowledged events are counted on an object, given its mutex ([`count_events`]).
type Count = unsafe fn(*mut u8, u32);

/// The body of [`ibv_ack_async_event`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_ack_async_event`].
#[inline(always)]
pub(crate) unsafe fn ack_async_event_edge(event: *mut ibv_async_event) {
    if event.is_null() {
        return;
    }
    // SAFETY: an event filled by ibv_get_async_event.
    let t = unsafe { (*event).event_type.raw() };
    // One table load decides: port and device events (and unknown types) count nothing.
    let Some(&Some((mutex, count))) = COUNT_BY_TYPE.get(t as usize) else {
        return;
    };
    // SAFETY: the event type says the element holds an object pointer; the union's four
    // pointer members share one place, so reading it as `cq` reads whichever it is.
    let obj = unsafe { (*event).element.cq }.cast::<u8>();
    if !obj.is_null() {
        // SAFETY: the event's object is still alive (the caller may not destroy it before
        // acknowledging), of the type its event says, and `mutex`/`count` are that type's.
        unsafe { count(obj.wrapping_add(mutex), 1) };
    }
}

/// How the object each event type names counts it ([`count_events_of`]), indexed by type; None
/// for port and device events (and the types past the table, which [`affiliation`] also calls
/// port events).
static COUNT_BY_TYPE: [Option<(usize, Count)>; 32] = {
    let mut table: [Option<(usize, Count)>; 32] = [None; 32];
    let mut t = 0;
    while t < table.len() {
        table[t] = match affiliation(t as u32) {
            Affiliation::Cq => Some(count_events_of!(ibv_cq, async_events_completed)),
            Affiliation::Qp => Some(count_events_of!(ibv_qp, events_completed)),
            Affiliation::Srq => Some(count_events_of!(ibv_srq, events_completed)),
            Affiliation::Wq => Some(count_events_of!(ibv_wq, events_completed)),
            Affiliation::Port => None,
        };
        t += 1;
    }
    table
};

/// `void ibv_ack_async_event(struct ibv_async_event *event)`
///
/// Acknowledges an event from `ibv_get_async_event`: for a CQ, QP, SRQ or WQ event, one more
/// acknowledged event on that object (its destroy waits for these); port and device events need
/// nothing. No return value. Divergence: a NULL event, or a NULL object in it, is ignored.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_ack_async_event(event: *mut ibv_async_event) -> Raw<()> {
    // SAFETY: the export's C contract is the body's.
    unsafe { ack_async_event_edge(event) }
}

/// `struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)`
///
/// A new completion channel: the kernel's CREATE_COMP_CHANNEL command gives its fd; no CQ uses
/// it yet. NULL with errno on failure (the command's, e.g. EMFILE). Divergence: a NULL context
/// gives EINVAL.
#[export("IBVERBS_1.0")]
fn ibv_create_comp_channel(context: *mut ibv_context) -> Raw<*mut ibv_comp_channel> {
    if context.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: an open context of this library.
    let r = unsafe {
        let Ok(cx) = Context::from_raw(context) else {
            return Err(Errno::EINVAL).ret_null();
        };
        crate::cmd::cq::create_comp_channel(cx.cmd())
    };
    r.map(|fd| {
        Box::into_raw(Box::new(ibv_comp_channel {
            context,
            fd,
            refcnt: 0,
        }))
    })
    .ret_null()
}

/// `int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)`
///
/// Closes and frees a channel that no CQ uses (checked under the context's mutex). 0, or EBUSY
/// while a CQ still uses it. Divergence: NULL gives EINVAL.
#[export("IBVERBS_1.0")]
fn ibv_destroy_comp_channel(channel: *mut ibv_comp_channel) -> Raw<c_int> {
    if channel.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: a channel from ibv_create_comp_channel (a Box of ours) and its live context.
    unsafe {
        let mutex = &raw mut (*(*channel).context).mutex;
        libc::pthread_mutex_lock(mutex);
        let r = if (*channel).refcnt != 0 {
            Err(Errno::EBUSY)
        } else {
            crate::sys::cdev::close((*channel).fd);
            drop(Box::from_raw(channel));
            Ok(())
        };
        libc::pthread_mutex_unlock(mutex);
        r.ret_errno()
    }
}

/// The body of [`ibv_get_cq_event`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_get_cq_event`].
#[inline(always)]
pub(crate) unsafe fn get_cq_event_edge(
    channel: *mut ibv_comp_channel,
    cq: *mut *mut ibv_cq,
    cq_context: *mut *mut c_void,
) -> c_int {
    if channel.is_null() || cq.is_null() || cq_context.is_null() {
        return fail(Errno::EINVAL);
    }
    // SAFETY: a live channel; the kernel echoes the CQ address given at creation, a CQ that
    // cannot be destroyed while this event is unacknowledged.
    unsafe {
        let ev: ib_uverbs_comp_event_desc = match read_record((*channel).fd) {
            Ok(ev) => ev,
            Err(e) => return fail(e),
        };
        let c = ev.cq_handle as usize as *mut ibv_cq;
        *cq = c;
        if c.is_null() {
            // Divergence: rdma-core would crash on a CQ address of 0; the kernel never sends one.
            return fail(Errno::EIO);
        }
        *cq_context = (*c).cq_context;
        // The CQ was created on a context of this library with ops, so its private part is
        // there (no test for a missing one); the slot is empty while the provider has no
        // cq_event op (the default does nothing).
        if let Some(f) = live_ops_of((*c).context).cq_event {
            f(c);
        }
    }
    0
}

/// `int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)`
///
/// Reads the next completion event from the channel's fd (blocking unless the caller made it
/// non-blocking): `*cq` is the CQ that was armed with `ibv_req_notify_cq`, `*cq_context` its user
/// context; the provider then sees it (`cq_event` op). Every event must later be acknowledged
/// with `ibv_ack_cq_events`. 0, or -1 with errno (the read's, e.g. EAGAIN on a non-blocking fd
/// with nothing queued; the event stays queued). Divergence: NULL arguments give -1 with errno
/// EINVAL, before anything is read.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_get_cq_event(
    channel: *mut ibv_comp_channel,
    cq: *mut *mut ibv_cq,
    cq_context: *mut *mut c_void,
) -> Raw<c_int> {
    // SAFETY: the export's C contract is the body's.
    unsafe { get_cq_event_edge(channel, cq, cq_context) }
}

/// The body of [`ibv_ack_cq_events`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_ack_cq_events`].
#[inline(always)]
pub(crate) unsafe fn ack_cq_events_edge(cq: *mut ibv_cq, nevents: c_uint) {
    if cq.is_null() {
        return;
    }
    let (mutex, count) = count_events_of!(ibv_cq, comp_events_completed);
    // SAFETY: a CQ initialised by verbs_init_cq: its mutex, cond and counter.
    unsafe { count(cq.cast::<u8>().wrapping_add(mutex), nevents) };
}

/// `void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)`
///
/// Acknowledges `nevents` completion events of `cq` (from `ibv_get_cq_event`), under the CQ's
/// mutex; its destroy waits until all reported events are acknowledged. No return value.
/// Divergence: a NULL CQ is ignored.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_ack_cq_events(cq: *mut ibv_cq, nevents: c_uint) -> Raw<()> {
    // SAFETY: the export's C contract is the body's.
    unsafe { ack_cq_events_edge(cq, nevents) }
}

#[cfg(test)]
mod tests {
    use super::{Affiliation, affiliation};

    /// rdma-core's grouping, written out per event type (IBV_EVENT_* 0..=20, then beyond).
    #[test]
    fn affiliation_of_every_event_type() {
        let kind = |t| match affiliation(t) {
            Affiliation::Cq => 'c',
            Affiliation::Qp => 'q',
            Affiliation::Srq => 's',
            Affiliation::Wq => 'w',
            Affiliation::Port => 'p',
        };
        let got: String = (0..=22).map(kind).collect();
        // CQ_ERR; QP_FATAL..PATH_MIG_ERR; DEVICE_FATAL, PORT_ACTIVE, PORT_ERR, LID, PKEY, SM;
        // SRQ_ERR, SRQ_LIMIT; QP_LAST_WQE; CLIENT_REREG, GID_CHANGE; WQ_FATAL; SPEED; beyond.
        assert_eq!(got, "cqqqqqqqppppppssqppwppp");
        assert!(matches!(affiliation(u32::MAX), Affiliation::Port));
    }
}
