//! Completion channels, completion and asynchronous events, and the event lock of every CQ, QP,
//! SRQ and WQ (rdma-core: verbs.c `ibv_create_comp_channel`, `ibv_destroy_comp_channel`,
//! `ibv_get_cq_event`, `ibv_ack_cq_events`; device.c `ibv_get_async_event`,
//! `ibv_ack_async_event`; the waits that end the destroys of cmd_cq.c, cmd_qp.c, cmd_srq.c and
//! cmd_wq.c).
//!
//! An event is one fixed-size record read from a kernel fd: the context's `async_fd` for
//! asynchronous events, a channel's fd for completion events. A read that cannot return a whole
//! record (a non-blocking fd with nothing queued: EAGAIN) consumes nothing, so no event is lost.
//! Acknowledging bumps the affiliated object's counter under its mutex and wakes its destroy,
//! which waits ([`destroy_and_wait`]) until the counters reach what the kernel reported.
//!
//! Called by [`capi::events`](crate::capi::events) (and the 1.0 twins), and by the destroys of
//! [`verbs::cq`](crate::verbs::cq), [`srq`](crate::verbs::srq), [`wq`](crate::verbs::wq) and the
//! QP's ([`verbs::qp`](crate::verbs::qp)).
use core::ffi::{c_int, c_void};

use crate::abi::uapi::{ib_uverbs_async_event_desc, ib_uverbs_comp_event_desc};
use crate::abi::verbs::ibv_event_type::*;
use crate::abi::verbs::{ibv_async_event, ibv_comp_channel, ibv_cq, ibv_qp, ibv_srq, ibv_wq};
use crate::errno::{Errno, Result};
use crate::verbs::handle::{Channel, Ctx, Ptr};

/// One whole record of `T` from `fd` (not zeroed first: the kernel writes all of it), or the
/// read's errno. Divergence: rdma-core returns -1 with errno left as it was on a short read; the
/// kernel never reads short, so we call it EIO.
#[inline(always)]
fn read_record<T: crate::sys::pod::Pod>(fd: c_int) -> Result<T> {
    crate::sys::heap::read_pod(fd)
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

/// The event types whose `element` names an object (bit `t`: type `t`; [`affiliation`]).
const OBJECT_EVENTS: u32 = {
    let mut mask = 0;
    let mut t = 0;
    while t < u32::BITS {
        if !matches!(affiliation(t), Affiliation::Port) {
            mask |= 1 << t;
        }
        t += 1;
    }
    mask
};

// Always inlined into both versions of the export: bench row ibv_get_async_event+ibv_ack_async_event.
/// `ibv_get_async_event`: the next record of the context's `async_fd` (blocking unless the caller
/// made the fd non-blocking) into `event` (the affiliated CQ, QP, SRQ or WQ the kernel echoes back,
/// else the port number), then the provider's `async_event` op sees it. On failure the read's
/// errno (e.g. EAGAIN on a non-blocking fd with nothing queued; the event stays queued).
#[inline(always)]
pub(crate) fn get_async_event(ctx: Ctx, event: Ptr<ibv_async_event>) -> Result<c_int> {
    // SAFETY: an open context (the handle's contract).
    let fd = unsafe { (*ctx.raw()).async_fd };
    let ev: ib_uverbs_async_event_desc = read_record(fd)?;
    let e = event.as_ptr();
    // SAFETY: the caller's event (`Ptr`), writable for the call; `event_type` a plain field.
    unsafe { (*e).event_type = ev.event_type.into() };
    // SAFETY: the caller's event (`Ptr`): the place of its `element` union, in bounds of it.
    let el = unsafe { &raw mut (*e).element };
    let v = ev.element;
    // Each arm writes the union member rdma-core writes (all of them at the union's start).
    match affiliation(ev.event_type) {
        // SAFETY: `el` is the union's start in the caller's event; a CQ event's member is the CQ pointer there.
        Affiliation::Cq => unsafe { el.cast::<*mut ibv_cq>().write(v as usize as *mut _) },
        // SAFETY: `el` is the union's start in the caller's event; a QP event's member is the QP pointer there.
        Affiliation::Qp => unsafe { el.cast::<*mut ibv_qp>().write(v as usize as *mut _) },
        // SAFETY: `el` is the union's start in the caller's event; an SRQ event's member is its pointer there.
        Affiliation::Srq => unsafe { el.cast::<*mut ibv_srq>().write(v as usize as *mut _) },
        // SAFETY: `el` is the union's start in the caller's event; a WQ event's member is the WQ pointer there.
        Affiliation::Wq => unsafe { el.cast::<*mut ibv_wq>().write(v as usize as *mut _) },
        // SAFETY: `el` is the union's start in the caller's event; a port event's member is the port number.
        Affiliation::Port => unsafe { el.cast::<c_int>().write(v as c_int) },
    }
    // Empty while the provider has none: the default does nothing.
    if let Some(f) = ctx.ops().async_event {
        // SAFETY: the provider's op on its own context and the event it is handed.
        unsafe { f(ctx.raw(), e) };
    }
    Ok(0)
}

/// The objects whose destroy waits for acknowledged events: where their event lock is
/// (addresses only: nothing is read).
trait EventLock {
    /// The mutex of the object at `obj`.
    fn mutex(obj: *mut Self) -> *mut libc::pthread_mutex_t;
    /// The object whose mutex is at `mutex`.
    fn of_mutex(mutex: *mut libc::pthread_mutex_t) -> *mut Self;
    /// The condition variable of the object at `obj`.
    fn cond(obj: *mut Self) -> *mut libc::pthread_cond_t;
}

macro_rules! event_lock {
    ($($t:ty),*) => {$(
        impl EventLock for $t {
            #[inline]
            fn mutex(obj: *mut Self) -> *mut libc::pthread_mutex_t {
                obj.wrapping_byte_add(core::mem::offset_of!($t, mutex)).cast()
            }
            #[inline]
            fn of_mutex(mutex: *mut libc::pthread_mutex_t) -> *mut Self {
                mutex.wrapping_byte_sub(core::mem::offset_of!($t, mutex)).cast()
            }
            #[inline]
            fn cond(obj: *mut Self) -> *mut libc::pthread_cond_t {
                obj.wrapping_byte_add(core::mem::offset_of!($t, cond)).cast()
            }
        }
    )*};
}
event_lock!(ibv_cq, ibv_qp, ibv_srq, ibv_wq);

/// The counter of `$t` named `$field`, as a projection from the object's address.
macro_rules! counter {
    ($t:ty, $field:ident) => {
        |obj: *mut $t| {
            obj.wrapping_byte_add(core::mem::offset_of!($t, $field))
                .cast::<u32>()
        }
    };
}

/// `n` more acknowledged events on the object whose mutex is `mutex`: its counter (`counter`
/// of the object) `+= n` under the mutex, then one waiter on its condition variable woken (its
/// destroy, in [`destroy_and_wait`]).
///
/// Given the mutex, not the object: the mutex is then the one pointer kept across the lock
/// calls (the others are constant distances from it). Not inlined, so that the acks stay short
/// and `ibv_ack_async_event` returns without a frame for port and device events (bench rows
/// ibv_get_cq_event+ibv_ack_cq_events and ibv_get_async_event+ibv_ack_async_event).
///
/// # Safety
/// `mutex` is the initialised event lock's mutex of a live object of type `T`; `counter` gives
/// one of its counters.
#[inline(never)]
unsafe fn count_events<T: EventLock>(
    mutex: *mut libc::pthread_mutex_t,
    counter: impl Fn(*mut T) -> *mut u32,
    n: u32,
) {
    // SAFETY: the caller's contract: the object's mutex.
    unsafe { libc::pthread_mutex_lock(mutex) };
    let obj = T::of_mutex(mutex);
    let c = counter(obj);
    // SAFETY: the object's counter, under its mutex.
    let v = unsafe { c.read() };
    // SAFETY: the same counter, still under the object's mutex: no other ack writes it meanwhile.
    unsafe { c.write(v.wrapping_add(n)) };
    // SAFETY: the object's condition variable.
    unsafe { libc::pthread_cond_signal(T::cond(obj)) };
    // SAFETY: locked above.
    unsafe { libc::pthread_mutex_unlock(mutex) };
}

// Always inlined into both versions of the export: bench row ibv_get_async_event+ibv_ack_async_event.
/// `ibv_ack_async_event`: acknowledges an event from `ibv_get_async_event`: for a CQ, QP, SRQ or WQ
/// event, one more acknowledged event on that object (its destroy waits for these); port and device
/// events, and a NULL object, need nothing.
#[inline(always)]
pub(crate) fn ack_async_event(event: Ptr<ibv_async_event>) {
    let e = event.as_ptr();
    // SAFETY: an event filled by ibv_get_async_event (`Ptr`).
    let t = unsafe { (*e).event_type.raw() };
    // One bit test decides: port and device events (and unknown types) count nothing.
    if t >= u32::BITS || OBJECT_EVENTS & (1 << t) == 0 {
        return;
    }
    // SAFETY: the event filled by ibv_get_async_event (`Ptr`): the place of its `element` union.
    let el = unsafe { &raw const (*e).element };
    // SAFETY: the event type says the element holds an object pointer; the union's four
    // pointer members share its start, so reading a pointer there reads whichever it is.
    let obj = unsafe { el.cast::<*mut u8>().read() };
    if obj.is_null() {
        return;
    }
    // The event's object is still alive (the caller may not destroy it before acknowledging),
    // of the type its event says, with its event lock initialised at its creation.
    match affiliation(t) {
        // SAFETY: a CQ event's live CQ: its initialised event mutex, and its async ack counter.
        Affiliation::Cq => unsafe {
            count_events(
                ibv_cq::mutex(obj.cast()),
                counter!(ibv_cq, async_events_completed),
                1,
            )
        },
        // SAFETY: a QP event's live QP: its initialised event mutex, and its ack counter.
        Affiliation::Qp => unsafe {
            count_events(
                ibv_qp::mutex(obj.cast()),
                counter!(ibv_qp, events_completed),
                1,
            )
        },
        // SAFETY: an SRQ event's live SRQ: its initialised event mutex, and its ack counter.
        Affiliation::Srq => unsafe {
            count_events(
                ibv_srq::mutex(obj.cast()),
                counter!(ibv_srq, events_completed),
                1,
            )
        },
        // SAFETY: a WQ event's live WQ: its initialised event mutex, and its ack counter.
        Affiliation::Wq => unsafe {
            count_events(
                ibv_wq::mutex(obj.cast()),
                counter!(ibv_wq, events_completed),
                1,
            )
        },
        Affiliation::Port => {}
    }
}

/// `ibv_create_comp_channel`: the kernel's CREATE_COMP_CHANNEL command
/// ([`cmd::cq::create_comp_channel`](crate::cmd::cq::create_comp_channel)) gives its fd; no CQ uses
/// it yet. The command's errno (e.g. EMFILE) when it fails.
pub(crate) fn create_comp_channel(ctx: Ctx) -> Result<*mut ibv_comp_channel> {
    let fd = crate::cmd::cq::create_comp_channel(ctx.channel().cmd())?;
    Ok(Box::into_raw(Box::new(ibv_comp_channel {
        context: ctx.raw(),
        fd,
        refcnt: 0,
    })))
}

/// `ibv_destroy_comp_channel`: closes and frees a channel no CQ uses (checked under its
/// context's mutex); EBUSY while a CQ still uses it.
pub(crate) fn destroy_comp_channel(channel: Channel) -> Result<()> {
    let ch = channel.raw();
    // SAFETY: the channel's open context (the handle's contract).
    let mutex = unsafe { &raw mut (*channel.context()).mutex };
    // SAFETY: the context's mutex, initialised when it was opened.
    unsafe { libc::pthread_mutex_lock(mutex) };
    // SAFETY: a channel from ibv_create_comp_channel; its use count, under the mutex.
    let r = if unsafe { (*ch).refcnt } != 0 {
        Err(Errno::EBUSY)
    } else {
        // SAFETY: the channel from ibv_create_comp_channel: its fd, a plain field, closed once here.
        crate::sys::cdev::close(unsafe { (*ch).fd });
        // SAFETY: a Box of ibv_create_comp_channel's, which no CQ uses any more.
        drop(unsafe { Box::from_raw(ch) });
        Ok(())
    };
    // SAFETY: locked above by this thread.
    unsafe { libc::pthread_mutex_unlock(mutex) };
    r
}

// Always inlined into both versions of the export: bench row ibv_get_cq_event+ibv_ack_cq_events.
/// `ibv_get_cq_event`: the next record of the channel's fd (blocking unless the caller made it
/// non-blocking): `*cq` is the CQ the kernel echoes (the address given at its creation, armed with
/// `ibv_req_notify_cq`), `*cq_context` its user context; then the provider's `cq_event` op sees it.
/// Every event must later be acknowledged (`ibv_ack_cq_events`: [`ack_cq_events`]). On failure the
/// read's errno (e.g. EAGAIN on a non-blocking fd with nothing queued; the event stays queued).
#[inline(always)]
pub(crate) fn get_cq_event(
    channel: Ptr<ibv_comp_channel>,
    cq: Ptr<*mut ibv_cq>,
    cq_context: Ptr<*mut c_void>,
) -> Result<c_int> {
    // SAFETY: a live channel (`Ptr`).
    let fd = unsafe { (*channel.as_ptr()).fd };
    let ev: ib_uverbs_comp_event_desc = read_record(fd)?;
    let c = ev.cq_handle as usize as *mut ibv_cq;
    cq.write(c);
    if c.is_null() {
        // Divergence: rdma-core would crash on a CQ address of 0; the kernel never sends one.
        return Err(Errno::EIO);
    }
    // SAFETY: the kernel echoes the CQ address given at creation: a live CQ, which cannot be
    // destroyed while this event is unacknowledged.
    cq_context.write(unsafe { (*c).cq_context });
    // SAFETY: the same live CQ (the kernel's echo): its `context`, a plain field.
    let ctx = unsafe { (*c).context };
    // The CQ was created on a context of this library with ops, so its private part is there
    // (no test for a missing one), and so is its `cq_event` (called without a test, as rdma-core
    // does: bench row ibv_get_cq_event+ibv_ack_cq_events).
    // SAFETY: that context, live while its CQ is.
    let f = unsafe { crate::verbs::ctxpriv::live_ops_of(ctx) }.cq_event;
    // SAFETY: a context this library initialised has a `cq_event` (its default, which does
    // nothing, or the provider's): `ops::init_defaults` sets it, `set_ops` never empties it.
    let f = unsafe { f.unwrap_unchecked() };
    // SAFETY: the provider's op (or the default) on its own CQ.
    unsafe { f(c) };
    Ok(0)
}

// Always inlined into both versions of the export: bench row ibv_get_cq_event+ibv_ack_cq_events.
/// `ibv_ack_cq_events`: `nevents` (`n`) more acknowledged completion events (from
/// `ibv_get_cq_event`) on `cq`, under its mutex (its destroy waits for them).
#[inline(always)]
pub(crate) fn ack_cq_events(cq: Ptr<ibv_cq>, n: u32) {
    let c = cq.as_ptr();
    // SAFETY: a CQ initialised by verbs_init_cq (`Ptr`): its event lock and counter.
    unsafe { count_events(ibv_cq::mutex(c), counter!(ibv_cq, comp_events_completed), n) };
}

/// Initialise an object's event lock (`pthread_mutex_init` / `pthread_cond_init` with default
/// attributes, which cannot fail).
///
/// # Safety
/// Both point to writable storage not in use by another thread.
pub(crate) unsafe fn init_lock(mutex: *mut libc::pthread_mutex_t, cond: *mut libc::pthread_cond_t) {
    // SAFETY: the caller's contract: writable storage nobody uses; default attributes.
    unsafe { libc::pthread_mutex_init(mutex, core::ptr::null()) };
    // SAFETY: the caller's contract: writable storage nobody uses for the condition variable; default attributes.
    unsafe { libc::pthread_cond_init(cond, core::ptr::null()) };
}

/// The end of every destroy that waits for acknowledged events (rdma-core: cmd_qp.c, cmd_srq.c,
/// cmd_wq.c, cmd_cq.c): after a destroy command that answered with the kernel's event counts
/// (`Some`), block on the object's condition variable until `reached` says every reported event
/// was acknowledged; a forgiven EIO (`None`) and errors return at once.
///
/// # Safety
/// `mutex` and `cond` are the object's initialised event lock; `reached` reads only what the
/// ack verbs write under that mutex.
pub(crate) unsafe fn destroy_and_wait<R>(
    destroyed: Result<Option<R>>,
    mutex: *mut libc::pthread_mutex_t,
    cond: *mut libc::pthread_cond_t,
    reached: impl Fn(&R) -> bool,
) -> Result<()> {
    let Some(reported) = destroyed? else {
        return Ok(());
    };
    // SAFETY: the caller's contract: an initialised mutex.
    unsafe { libc::pthread_mutex_lock(mutex) };
    while !reached(&reported) {
        // SAFETY: the caller's contract; this thread holds `mutex`.
        unsafe { libc::pthread_cond_wait(cond, mutex) };
    }
    // SAFETY: this thread holds `mutex`.
    unsafe { libc::pthread_mutex_unlock(mutex) };
    Ok(())
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
