//! The IBVERBS_1.0 compatibility layer (rdma-core: compat-1_0.c): what a binary linked against
//! libibverbs 1.0 gets instead of the real objects.
//!
//! Each 1.0 object is a wrapper (`crate::abi::compat_1_0`) that holds the real object last and
//! mirrors a few of its fields. The functions here make, unwrap and free those wrappers around
//! the core functions the IBVERBS_1.1 exports call (`verbs::device`, `pd`, `mr`, `ah`, `query`,
//! ...), so that every 1.0 function has its 1.1 twin's checks and errno: constructors allocate
//! the wrapper, create the real object, then fill the wrapper (and point the real CQ/QP/SRQ's
//! `cq_context`/`qp_context`/`srq_context` back at it, which is how events are translated back);
//! a failure frees the wrapper and keeps the errno. Destructors free the wrapper only once the
//! real object is gone. A 1.0 context's dispatch table carries the data-path functions of
//! [`datapath`]; the 1.0 contexts open in this process are registered ([`real_context_of`]).
//!
//! Divergences from rdma-core, all where it would crash or leave memory uninitialized: the
//! wrappers come zeroed (a zeroed mutex/cond is glibc's static initializer) and also mirror
//! `handle` (all), `cmd_fd`/`async_fd`/`num_comp_vectors` (context) and `state` (QP, after
//! modify/query), which rdma-core leaves as garbage; the table slots other than the data path are
//! NULL rather than garbage. Like rdma-core, a 1.0 CQ's `cqe` is the size asked for.
//!
//! Called by `capi::compat_1_0` (and `capi::events` for [`real_context_of`]). Unsafe here: the
//! wrappers this library allocates and the caller's 1.0 objects.
use core::ffi::c_int;
use core::ptr::null_mut;

use crate::abi::compat_1_0::{ibv_context_1_0, ibv_device_1_0};
use crate::abi::verbs::{ibv_context, ibv_device, ibv_port_attr};
use crate::errno::{Errno, Result};
use crate::verbs::devlist;
use crate::verbs::handle::{Ctx10, Dev10, Ptr, Wrapper};

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

/// The real object of a wrapper, NULL for NULL.
///
/// # Safety
/// `w` is NULL or a live wrapper of this library.
pub(crate) unsafe fn real<W: Wrapper>(w: *mut W) -> *mut W::Obj {
    // SAFETY: the caller's contract.
    unsafe { w.as_ref() }.map_or(null_mut(), W::real_obj)
}

/// The 1.0 contexts now open, by address: see [`real_context_of`].
static OPEN_CONTEXTS: crate::sys::sync::Mutex<Vec<usize>> =
    crate::sys::sync::Mutex::new(Vec::new());

/// Remember an open 1.0 context; ENOMEM when the registry cannot grow.
fn register_context(ctx: *mut ibv_context_1_0) -> Result<()> {
    let mut v = OPEN_CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
    v.try_reserve(1).map_err(|_| Errno::ENOMEM)?;
    v.push(ctx as usize);
    Ok(())
}

fn unregister_context(ctx: *mut ibv_context_1_0) {
    let mut v = OPEN_CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
    v.retain(|&c| c != ctx as usize);
}

/// The context to use for `ctx` in a verb that exists only at IBVERBS_1.0 and so has no 1.0
/// twin to unwrap it (`ibv_create_comp_channel`): the real context when `ctx` is a 1.0 context
/// open in this process, else `ctx` itself. (rdma-core reads a 1.0 context there as a 1.1 one,
/// past the end of the wrapper.) Only the address is compared: nothing is read from a `ctx`
/// that is not a registered 1.0 context.
pub(crate) fn real_context_of(ctx: *mut ibv_context) -> *mut ibv_context {
    let open = OPEN_CONTEXTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .contains(&(ctx as usize));
    if open {
        // SAFETY: a registered address is a live 1.0 context of ours.
        unsafe { (*ctx.cast::<ibv_context_1_0>()).real_context }
    } else {
        ctx
    }
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

/// Free a 1.0 device array `l` (NULL, or its wrappers up to the first NULL slot) and give back
/// the references on `devs`.
///
/// # Safety
/// `l` is NULL or a calloc'ed array whose slots are wrappers of [`alloc_zeroed`] up to a NULL.
unsafe fn free_list(l: *mut *mut ibv_device_1_0, devs: &[*mut ibv_device]) {
    if !l.is_null() {
        let mut i = 0;
        loop {
            // SAFETY: the caller's contract: NULL-terminated (i stops at the NULL).
            let w = unsafe { l.wrapping_add(i).read() };
            if w.is_null() {
                break;
            }
            // SAFETY: a wrapper of ours, in no other slot.
            unsafe { free(w) };
            i += 1;
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
    let mut i = 0;
    loop {
        // SAFETY: a list of get_device_list: NULL-terminated wrappers (i stops at the NULL).
        let w = unsafe { list.wrapping_add(i).read() };
        // SAFETY: NULL or a wrapper of ours.
        let Some(w) = (unsafe { w.as_ref() }) else {
            break;
        };
        // Freeing must not fail for want of memory: a device not collected is released here.
        if devs.try_reserve(1).is_ok() {
            devs.push(w.real_device);
        } else {
            devlist::device_put(devlist::vdev_of(w.real_device));
        }
        i += 1;
    }
    // SAFETY: as above, taken back once (LISTS_1_0.take).
    unsafe { free_list(list, &devs) };
}

/// `ibv_open_device@IBVERBS_1.0`: opens the real device (`ibv_open_device`) and wraps the
/// context: `device`, the real context's `cmd_fd`, `async_fd` and `num_comp_vectors`, and the
/// data-path slots of [`datapath`] (the other slots NULL). ENOMEM, or `ibv_open_device`'s errno.
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
    if let Err(e) = register_context(ctx) {
        // SAFETY: the context just opened, not handed out.
        unsafe { crate::verbs::context::close_context(rc) };
        // SAFETY: ours, not handed out.
        unsafe { free(ctx) };
        return Err(e);
    }
    Ok(ctx)
}

/// `ibv_close_device@IBVERBS_1.0`: closes the real context (`ibv_close_device`), then frees the
/// wrapper.
pub(crate) fn close_device(context: Ctx10) {
    unregister_context(context.raw());
    crate::verbs::device::close(context.real());
    // SAFETY: our wrapper (the handle's contract), not used again (the C contract).
    unsafe { free(context.raw()) };
}

/// `ibv_query_port@IBVERBS_1.0`: verbs.h's inline `ibv_query_port` on the real context, as
/// rdma-core builds this symbol: the context's `query_port` slot fills a whole `ibv_port_attr`
/// of this library's headers. 0, or the positive errno (EOPNOTSUPP without the slot, errno set).
pub(crate) fn query_port(context: Ctx10, port_num: u8, attr: Ptr<ibv_port_attr>) -> c_int {
    let size = size_of::<ibv_port_attr>();
    let ctx = context.real().raw();
    // SAFETY: an open context (the handle's contract) and the caller's whole attribute (Ptr's).
    unsafe { crate::verbs::query::lib_query_port(ctx, port_num, attr.as_ptr(), size) }
}
