//! The IBVERBS_1.0 compatibility layer (rdma-core: compat-1_0.c): what a binary linked against
//! libibverbs 1.0 gets instead of the real objects.
//!
//! Each 1.0 object is a wrapper ([`crate::abi::compat_1_0`]) that holds the real object last and
//! mirrors a few of its fields; the declarations of [`capi::compat_1_0`](crate::capi::compat_1_0)
//! take them as [`Wrap`] handles (EINVAL for a NULL wrapper, or one whose real object the
//! IBVERBS_1.1 export would refuse). The functions here make, unwrap and free the wrappers around
//! the core functions the IBVERBS_1.1 exports call ([`verbs::device`](crate::verbs::device), `pd`,
//! `mr`, `cq`, `srq`, `qp`, `ah`, `events`, ...), so that every 1.0 function has its 1.1 twin's
//! checks and errno: constructors allocate the wrapper, create the real object, then fill the
//! wrapper (and point the real CQ/QP/SRQ's `cq_context`/`qp_context`/`srq_context` back at it,
//! which is how events are translated back); a failure frees the wrapper and keeps the errno.
//! Destructors free the wrapper only once the real object is gone. A 1.0 context's dispatch table
//! carries the data-path functions of [`datapath`].
//!
//! Divergences from rdma-core, all where it would crash or leave memory uninitialized: the
//! wrappers come zeroed (a zeroed mutex/cond is glibc's static initializer) and also mirror
//! `handle` (all), `cmd_fd`/`async_fd`/`num_comp_vectors` (context) and `state` (QP, after
//! modify/query), which rdma-core leaves as garbage; the table slots other than the data path are
//! NULL rather than garbage. Like rdma-core, a 1.0 CQ's `cqe` is the size asked for.
//! `ibv_create_comp_channel` exists only at IBVERBS_1.0 and has no twin to unwrap a 1.0 context:
//! it takes its context as a 1.1 one, as rdma-core does.
//!
//! Called by [`capi::compat_1_0`](crate::capi::compat_1_0). Unsafe here: the wrappers this library
//! allocates and the caller's 1.0 objects.
use core::ffi::c_int;

use crate::abi::compat_1_0::{
    ibv_context_1_0, ibv_cq_1_0, ibv_device_1_0, ibv_qp_1_0, ibv_srq_1_0,
};
use crate::abi::verbs::{
    ibv_async_event, ibv_async_event_element, ibv_cq, ibv_device, ibv_event_type, ibv_port_attr,
    ibv_qp, ibv_srq,
};
use crate::errno::{Errno, Result};
use crate::verbs::devlist;
use crate::verbs::handle::{Ctx10, Dev10, Ptr, Wrap, Wrapper};

pub(crate) mod datapath;
pub(crate) mod objects;

/// A zeroed object from libc's allocator, or ENOMEM.
fn alloc_zeroed<T>() -> Result<*mut T> {
    // SAFETY: calloc of one T; every wrapper is valid all-zero.
    let p = unsafe { libc::calloc(1, size_of::<T>()) }.cast::<T>();
    if p.is_null() {
        Err(Errno::ENOMEM)
    } else {
        Ok(p)
    }
}

/// Free a wrapper from [`alloc_zeroed`] (errno is kept: glibc's free does not change it).
///
/// # Safety
/// `p` came from `alloc_zeroed` and is not used again.
unsafe fn free<T>(p: *mut T) {
    // SAFETY: the caller's contract.
    unsafe { libc::free(p.cast()) };
}

/// The real object of a wrapper, NULL for NULL (a 1.0 work request's or attribute's object,
/// passed on for the 1.1 function to judge).
///
/// # Safety
/// `w` is NULL or a live wrapper of this library.
unsafe fn real<W: Wrapper>(w: *mut W) -> *mut W::Obj {
    // SAFETY: the caller's contract.
    unsafe { w.as_ref() }.map_or(core::ptr::null_mut(), W::real_obj)
}

/// The lists [`get_device_list`] handed out and [`free_device_list`] has not freed.
static LISTS_1_0: crate::verbs::handed::Handed =
    crate::verbs::handed::Handed::new("IBVERBS_1.0 device list");

/// `ibv_get_device_list@IBVERBS_1.0`: the devices `ibv_get_device_list` lists, each wrapped (each
/// wrapper holds a reference on its device, given back by [`free_device_list`]), in a
/// NULL-terminated array from libc's allocator; `*num` (if given) its length, untouched on
/// failure (ENOSYS without uverbs, ENOMEM).
pub(crate) fn get_device_list(num: Option<Ptr<c_int>>) -> Result<*mut *mut ibv_device_1_0> {
    let devs = devlist::get_device_list()?;
    let n = devs.len();
    // SAFETY: calloc of n + 1 pointers: the wrappers, the terminator.
    let l = unsafe { libc::calloc(n + 1, size_of::<*mut ibv_device_1_0>()) }
        .cast::<*mut ibv_device_1_0>();
    let mut made = 0;
    if !l.is_null() {
        for &d in &devs {
            let Ok(w) = alloc_zeroed::<ibv_device_1_0>() else {
                break;
            };
            // SAFETY: a fresh wrapper of ours.
            unsafe { (*w).real_device = d };
            // SAFETY: made < n: inside the array.
            unsafe { l.wrapping_add(made).write(w) };
            made += 1;
        }
    }
    if l.is_null() || made < n {
        // SAFETY: NULL, or our array whose first `made` slots are wrappers, then NULLs.
        unsafe { free_list(l, &devs) };
        return Err(Errno::ENOMEM);
    }
    if let Some(num) = num {
        num.write(n as c_int);
    }
    Ok(LISTS_1_0.give(l))
}

/// The wrappers of a 1.0 device array, up to its NULL terminator.
///
/// # Safety
/// `l` is a NULL-terminated array of live wrappers, unchanged while the iterator is used.
unsafe fn slots(l: *mut *mut ibv_device_1_0) -> impl Iterator<Item = *mut ibv_device_1_0> {
    let mut i = 0;
    core::iter::from_fn(move || {
        // SAFETY: the caller's contract: NULL-terminated (i stops at the NULL).
        let w = unsafe { l.wrapping_add(i).read() };
        i += 1;
        (!w.is_null()).then_some(w)
    })
}

/// Free a 1.0 device array `l` (NULL, or its wrappers up to the first NULL slot) and give back
/// the references on `devs`.
///
/// # Safety
/// `l` is NULL or a calloc'ed array whose slots are wrappers of [`alloc_zeroed`] up to a NULL.
unsafe fn free_list(l: *mut *mut ibv_device_1_0, devs: &[*mut ibv_device]) {
    if !l.is_null() {
        // SAFETY: the caller's contract.
        for w in unsafe { slots(l) } {
            // SAFETY: a wrapper of ours, in no other slot.
            unsafe { free(w) };
        }
        // SAFETY: the caller's array, from calloc.
        unsafe { libc::free(l.cast()) };
    }
    for &d in devs {
        devlist::device_put(devlist::vdev_of(d));
    }
}

/// `ibv_free_device_list@IBVERBS_1.0`: frees the wrappers and the array, giving back each
/// device's reference. Divergence: NULL, or an array that is not a live 1.0 list, is ignored
/// (rdma-core crashes, or libc aborts the process).
pub(crate) fn free_device_list(list: *mut *mut ibv_device_1_0) {
    if list.is_null() || !LISTS_1_0.take(list) {
        return;
    }
    let mut devs = Vec::new();
    // SAFETY: a list of get_device_list (LISTS_1_0 knew it): NULL-terminated wrappers of ours.
    for w in unsafe { slots(list) } {
        // SAFETY: the list's entries are live 1.0 wrappers of ours (LISTS_1_0 knew the list).
        let d = unsafe { (*w).real_device };
        // Freeing must not fail for want of memory: a device not collected is released here.
        if devs.try_reserve(1).is_ok() {
            devs.push(d);
        } else {
            devlist::device_put(devlist::vdev_of(d));
        }
    }
    // SAFETY: a list of get_device_list_1_0's, its entries read; taken back once (LISTS_1_0.take).
    unsafe { free_list(list, &devs) };
}

/// `ibv_open_device@IBVERBS_1.0`: opens the real device
/// ([`device::open`](crate::verbs::device::open)) and wraps the context: `device`, the real
/// context's `cmd_fd`, `async_fd` and `num_comp_vectors`, and the data-path slots of [`datapath`],
/// which unwrap 1.0 objects and work requests (Divergence: the other slots NULL, the fds and
/// `num_comp_vectors` set; rdma-core leaves them unset). ENOMEM, or `ibv_open_device`'s errno.
pub(crate) fn open_device(device: Dev10) -> Result<*mut ibv_context_1_0> {
    let ctx = alloc_zeroed::<ibv_context_1_0>()?;
    let rc = match crate::verbs::device::open(device.real()) {
        Ok(rc) => rc,
        Err(e) => {
            // SAFETY: ours, not handed out.
            unsafe { free(ctx) };
            return Err(e);
        }
    };
    // SAFETY: the context the provider just opened.
    let r = unsafe { &*rc };
    // SAFETY: our fresh wrapper, not handed out yet.
    let c = unsafe { &mut *ctx };
    c.device = device.raw();
    c.real_context = rc;
    c.cmd_fd = r.cmd_fd;
    c.async_fd = r.async_fd;
    c.num_comp_vectors = r.num_comp_vectors;
    c.ops.poll_cq = Some(datapath::poll_cq);
    c.ops.req_notify_cq = Some(datapath::req_notify_cq);
    c.ops.post_send = Some(datapath::post_send);
    c.ops.post_recv = Some(datapath::post_recv);
    c.ops.post_srq_recv = Some(datapath::post_srq_recv);
    Ok(ctx)
}

/// `ibv_close_device@IBVERBS_1.0`: closes the real context
/// ([`device::close`](crate::verbs::device::close)), then frees the wrapper.
pub(crate) fn close_device(context: Ctx10) {
    crate::verbs::device::close(context.real());
    // SAFETY: our wrapper (the handle's contract), not used again (the C contract).
    unsafe { free(context.raw()) };
}

/// `ibv_query_port@IBVERBS_1.0`: verbs.h's inline `ibv_query_port` on the real context, as
/// rdma-core builds this symbol: the context's `query_port` slot
/// ([`lib_query_port`](crate::verbs::query::lib_query_port)) fills a whole `ibv_port_attr` of this
/// library's headers (56 bytes; rdma-core 44's was 52). 0, or the positive errno (EOPNOTSUPP
/// without the slot, errno set).
pub(crate) fn query_port(context: Ctx10, port_num: u8, attr: Ptr<ibv_port_attr>) -> c_int {
    let size = size_of::<ibv_port_attr>();
    let ctx = context.real().raw();
    // SAFETY: an open context (the handle's contract) and the caller's whole attribute (Ptr's).
    unsafe { crate::verbs::query::lib_query_port(ctx, port_num, attr.as_ptr(), size) }
}

/// The object an async event of this type names.
enum Named {
    Cq,
    Qp,
    Srq,
    None,
}

fn named(event_type: u32) -> Named {
    use ibv_event_type::*;
    let is = |t: ibv_event_type| event_type == t as u32;
    let qp = [
        IBV_EVENT_QP_FATAL,
        IBV_EVENT_QP_REQ_ERR,
        IBV_EVENT_QP_ACCESS_ERR,
        IBV_EVENT_COMM_EST,
        IBV_EVENT_SQ_DRAINED,
        IBV_EVENT_PATH_MIG,
        IBV_EVENT_PATH_MIG_ERR,
        IBV_EVENT_QP_LAST_WQE_REACHED,
    ];
    if is(IBV_EVENT_CQ_ERR) {
        Named::Cq
    } else if qp.into_iter().any(is) {
        Named::Qp
    } else if is(IBV_EVENT_SRQ_ERR) || is(IBV_EVENT_SRQ_LIMIT_REACHED) {
        Named::Srq
    } else {
        Named::None
    }
}

/// Replace the object an event's `element` names (a pointer, unless NULL) by `f` of it.
///
/// # Safety
/// `el` is an event's `element`, readable and writable, whose pointer member is NULL or a live
/// `T`.
unsafe fn replace<T, U>(el: *mut ibv_async_event_element, f: impl FnOnce(&T) -> *mut U) {
    // SAFETY: the caller's contract: the member is a pointer.
    let p = unsafe { el.cast::<*mut T>().read() };
    // SAFETY: the caller's contract: the member read is NULL or a live `T`.
    if let Some(o) = unsafe { p.as_ref() } {
        // SAFETY: the caller's contract: `el` is writable, and every pointer member starts the union.
        unsafe { el.cast::<*mut U>().write(f(o)) };
    }
}

/// `ibv_get_async_event@IBVERBS_1.0`: `ibv_get_async_event` on the real context; a CQ, QP or SRQ
/// in the event is replaced by its 1.0 wrapper (its context pointer, set when the wrapper was
/// made). 0, or the 1.1 function's error.
pub(crate) fn get_async_event(context: Ctx10, event: Ptr<ibv_async_event>) -> Result<c_int> {
    let ret = crate::verbs::events::get_async_event(context.real(), event)?;
    let e = event.as_ptr();
    // SAFETY: the caller's event (`Ptr`), just filled.
    let t = unsafe { (*e).event_type }.raw();
    // SAFETY: the caller's event (`Ptr`), just filled: the place of its `element` union.
    let el = unsafe { &raw mut (*e).element };
    // SAFETY (each arm): the member the event type names is NULL or a live real object of this
    // library, whose context pointer is its wrapper.
    match named(t) {
        // SAFETY: a CQ event: the member is NULL or a live CQ of this library (see the match).
        Named::Cq => unsafe { replace(el, |c: &ibv_cq| c.cq_context) },
        // SAFETY: a QP event: the member is NULL or a live QP of this library (see the match).
        Named::Qp => unsafe { replace(el, |q: &ibv_qp| q.qp_context) },
        // SAFETY: an SRQ event: the member is NULL or a live SRQ of this library (see the match).
        Named::Srq => unsafe { replace(el, |s: &ibv_srq| s.srq_context) },
        Named::None => {}
    }
    Ok(ret)
}

/// `ibv_ack_async_event@IBVERBS_1.0`: `ibv_ack_async_event` on a copy of the event whose 1.0
/// wrapper is replaced by the real object.
pub(crate) fn ack_async_event(event: Ptr<ibv_async_event>) {
    let mut ev = event.read();
    let el = &raw mut ev.element;
    // SAFETY (each arm): an event from ibv_get_async_event@IBVERBS_1.0 (the C contract): the
    // member its type names is NULL or a 1.0 wrapper of this library.
    match named(ev.event_type.raw()) {
        // SAFETY: a CQ event: the member is NULL or a 1.0 CQ wrapper of this library (see the match).
        Named::Cq => unsafe { replace(el, ibv_cq_1_0::real_obj) },
        // SAFETY: a QP event: the member is NULL or a 1.0 QP wrapper of this library (see the match).
        Named::Qp => unsafe { replace(el, ibv_qp_1_0::real_obj) },
        // SAFETY: an SRQ event: the member is NULL or a 1.0 SRQ wrapper of this library (see the match).
        Named::Srq => unsafe { replace(el, ibv_srq_1_0::real_obj) },
        Named::None => {}
    }
    crate::verbs::events::ack_async_event((&mut ev).into());
}

/// The wrapper of a destroyed real object, freed when its destructor's `status` is 0 (kept
/// otherwise). Returns `status`.
fn destroyed<W: Wrapper>(w: Wrap<W>, status: c_int) -> c_int {
    if status == 0 {
        // SAFETY: our wrapper (the handle's contract), whose real object is gone; the caller
        // does not use it again (the C contract of a destructor that succeeded).
        unsafe { free(w.raw()) };
    }
    status
}
