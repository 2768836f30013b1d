//! The IBVERBS_1.0 halves of the names exported twice, and `ibv_register_driver@IBVERBS_1.1`
//! (rdma-core: compat-1_0.c).
//!
//! A binary linked against libibverbs 1.0 gets wrappers (`types`) instead of the real objects:
//! each holds the real object last, mirrors a few of its fields, and is what the 1.0 symbols take
//! and return. Every 1.0 function unwraps its arguments and calls the core function the
//! IBVERBS_1.1 export of the same name calls, naming the same C convention (so it has that
//! export's argument checks and errno); constructors wrap the result, destructors free the wrapper
//! once the real object is gone. (The verbs whose 1.1 export has no core function of its own yet
//! still call that export: `tools/layers` lists them in EXPORT_CALLS_ALLOWED.) The real CQ, QP and
//! SRQ point back at their wrapper through `cq_context`/`qp_context`/`srq_context`, which is how
//! events are translated back ([`ibv_get_async_event_1_0`], `ibv_get_cq_event@IBVERBS_1.0`). A
//! 1.0 context's dispatch table carries the data-path wrappers of `datapath`.
//!
//! Divergences from rdma-core, all where it would crash or leave memory uninitialized: a NULL
//! wrapper is passed on as a NULL real object, so it is rejected with EINVAL in the 1.1 export's
//! convention; the wrappers come zeroed (a zeroed mutex/cond is glibc's static initializer) and
//! also mirror `handle` (all), `cmd_fd`/`async_fd`/`num_comp_vectors` (context) and `state` (QP,
//! after modify/query), which rdma-core leaves as garbage; the table slots other than the data
//! path are NULL rather than garbage. Like rdma-core, a 1.0 CQ's `cqe` is the size asked for.
//! `ibv_create_comp_channel` has no 1.0 twin; `real_context_of` is there for it to unwrap a 1.0
//! context (rdma-core reads the wrapper as a 1.1 context, past its end).
//!
//! Each IBVERBS_1.0 function is a plain Rust function bound to `name@IBVERBS_1.0` by `symver!`.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::{c_char, c_int};
use core::ptr::null_mut;

use crate::abi::verbs::{
    ibv_async_event, ibv_device, ibv_device_attr, ibv_event_type, ibv_gid, ibv_port_attr,
};
use crate::capi::ret::ret_or;
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::events;
use crate::verbs::handle::{Ctx, Ptr};

mod datapath;
mod objects;
#[cfg(test)]
mod tests;
pub(crate) mod types;

use types::{
    ibv_ah_1_0, ibv_context_1_0, ibv_cq_1_0, ibv_device_1_0, ibv_mr_1_0, ibv_pd_1_0, ibv_qp_1_0,
    ibv_srq_1_0,
};

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

/// A 1.0 wrapper: where its real object is.
trait Wrapper {
    type Real;
    fn real(&self) -> *mut Self::Real;
}

macro_rules! wrapper {
    ($($w:ty => $field:ident: $real:ty),* $(,)?) => {$(
        impl Wrapper for $w {
            type Real = $real;
            fn real(&self) -> *mut $real {
                self.$field
            }
        }
    )*};
}
wrapper! {
    ibv_device_1_0 => real_device: ibv_device,
    ibv_context_1_0 => real_context: crate::abi::verbs::ibv_context,
    ibv_pd_1_0 => real_pd: crate::abi::verbs::ibv_pd,
    ibv_mr_1_0 => real_mr: crate::abi::verbs::ibv_mr,
    ibv_cq_1_0 => real_cq: crate::abi::verbs::ibv_cq,
    ibv_srq_1_0 => real_srq: crate::abi::verbs::ibv_srq,
    ibv_qp_1_0 => real_qp: crate::abi::verbs::ibv_qp,
    ibv_ah_1_0 => real_ah: crate::abi::verbs::ibv_ah,
}

/// The real object of a wrapper, NULL for NULL.
///
/// # Safety
/// `w` is NULL or a live wrapper of this library.
unsafe fn real<W: Wrapper>(w: *mut W) -> *mut W::Real {
    // SAFETY: the caller's contract.
    unsafe { w.as_ref() }.map_or(null_mut(), W::real)
}

/// The 1.0 contexts now open, by address: see [`real_context_of`].
static OPEN_CONTEXTS: crate::sys::sync::Mutex<Vec<usize>> =
    crate::sys::sync::Mutex::new(Vec::new());

fn register_context(ctx: *mut ibv_context_1_0) {
    OPEN_CONTEXTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(ctx as usize);
}

fn unregister_context(ctx: *mut ibv_context_1_0) {
    let mut v = OPEN_CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
    v.retain(|&c| c != ctx as usize);
}

/// The context to use for `ctx` in a verb that exists only at IBVERBS_1.0 and so has no 1.0
/// twin to unwrap for it (`ibv_create_comp_channel`): the real context when `ctx` is a 1.0
/// context open in this process, else `ctx` itself. (rdma-core reads a 1.0 context there as a
/// 1.1 one, past the end of the wrapper.)
#[allow(dead_code, reason = "for ibv_create_comp_channel (events.rs) to call")]
pub(crate) fn real_context_of(
    ctx: *mut crate::abi::verbs::ibv_context,
) -> *mut crate::abi::verbs::ibv_context {
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

/// `struct ibv_device_1_0 **ibv_get_device_list(int *num)`
///
/// The devices `ibv_get_device_list` would list, each wrapped (each wrapper holds a reference on
/// its device, given back by `ibv_free_device_list@IBVERBS_1.0`). NULL with errno on failure,
/// `*num` then untouched.
#[export("IBVERBS_1.0" as ibv_get_device_list)]
fn ibv_get_device_list_1_0(num: *mut c_int) -> Raw<*mut *mut ibv_device_1_0> {
    let list = || -> Result<*mut *mut ibv_device_1_0> {
        let devs = crate::verbs::devlist::get_device_list()?;
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
                // SAFETY: w is a fresh wrapper; made < n: inside the array.
                unsafe {
                    (*w).real_device = d;
                    *l.add(made) = w;
                }
                made += 1;
            }
        }
        if made < n {
            // SAFETY: l is NULL or our array whose first `made` slots are wrappers.
            unsafe { free_list(l, &devs) };
            return Err(Errno::ENOMEM);
        }
        if !num.is_null() {
            // SAFETY: the caller's count.
            unsafe { *num = n as c_int };
        }
        Ok(LISTS_1_0.give(l))
    };
    list().ret_null()
}

/// Free a 1.0 device array `l` (NULL, or its wrappers up to the first NULL slot) and give back
/// the references on `devs`.
///
/// # Safety
/// `l` is NULL or a calloc'ed array whose slots are wrappers of [`alloc_zeroed`] up to a NULL.
unsafe fn free_list(l: *mut *mut ibv_device_1_0, devs: &[*mut ibv_device]) {
    if !l.is_null() {
        let mut i = 0;
        // SAFETY: the caller's contract: NULL-terminated (calloc'ed, at most n filled).
        while !unsafe { *l.add(i) }.is_null() {
            // SAFETY: a wrapper of ours.
            unsafe { free(*l.add(i)) };
            i += 1;
        }
        // SAFETY: the caller's array, from calloc.
        unsafe { libc::free(l.cast()) };
    }
    for &d in devs {
        crate::verbs::devlist::device_put(crate::verbs::devlist::vdev_of(d));
    }
}

/// The lists `ibv_get_device_list@IBVERBS_1.0` handed out and its free has not freed.
static LISTS_1_0: crate::verbs::handed::Handed =
    crate::verbs::handed::Handed::new("IBVERBS_1.0 device list");

/// `void ibv_free_device_list(struct ibv_device_1_0 **list)`
///
/// Frees the wrappers and the array, giving back each device's reference.
/// Divergence: NULL, or an array that is not a live 1.0 list, is ignored (rdma-core crashes, or
/// libc aborts the process).
#[export("IBVERBS_1.0" as ibv_free_device_list)]
fn ibv_free_device_list_1_0(list: *mut *mut ibv_device_1_0) -> Raw<()> {
    if list.is_null() || !LISTS_1_0.take(list) {
        return;
    }
    let mut devs = Vec::new();
    let mut i = 0;
    // SAFETY: a list from ibv_get_device_list@IBVERBS_1.0: NULL-terminated wrappers.
    while let Some(w) = unsafe { (*list.add(i)).as_ref() } {
        // Freeing must not fail for want of memory: a device not collected is released here.
        if devs.try_reserve(1).is_ok() {
            devs.push(w.real_device);
        } else {
            crate::verbs::devlist::device_put(crate::verbs::devlist::vdev_of(w.real_device));
        }
        i += 1;
    }
    // SAFETY: as above.
    unsafe { free_list(list, &devs) };
}

/// `const char *ibv_get_device_name(struct ibv_device_1_0 *device)`
///
/// The real device's name (`ibv_get_device_name`). Divergence: NULL gives NULL with errno EINVAL.
#[export("IBVERBS_1.0" as ibv_get_device_name)]
fn ibv_get_device_name_1_0(device: *mut ibv_device_1_0) -> Raw<*const c_char> {
    // SAFETY: a listed 1.0 device or NULL.
    unsafe { crate::verbs::objects::device_name(real(device)) }.ret_null()
}

/// `__be64 ibv_get_device_guid(struct ibv_device_1_0 *device)`
///
/// The real device's node GUID (`ibv_get_device_guid`), network order.
/// Divergence: NULL gives 0 with errno EINVAL.
#[export("IBVERBS_1.0" as ibv_get_device_guid)]
fn ibv_get_device_guid_1_0(device: *mut ibv_device_1_0) -> Raw<u64> {
    // SAFETY: as above.
    let device = unsafe { real(device) };
    ret_or(
        crate::verbs::objects::device_guid(device).map(u64::to_be),
        0,
    )
}

/// `struct ibv_context_1_0 *ibv_open_device(struct ibv_device_1_0 *device)`
///
/// Opens the real device and wraps the context; its table's data-path slots unwrap 1.0 objects
/// and work requests. NULL with errno on failure (ENOMEM, or `ibv_open_device`'s).
/// Divergence: NULL gives NULL with errno EINVAL; `cmd_fd`, `async_fd` and `num_comp_vectors`
/// are the real context's, and the other table slots NULL (rdma-core leaves them unset).
#[export("IBVERBS_1.0" as ibv_open_device)]
fn ibv_open_device_1_0(device: *mut ibv_device_1_0) -> Raw<*mut ibv_context_1_0> {
    let open = || -> Result<*mut ibv_context_1_0> {
        let ctx = alloc_zeroed::<ibv_context_1_0>()?;
        // SAFETY: a listed 1.0 device or NULL (rejected by ibv_open_device); ctx is ours.
        unsafe {
            let rc = match crate::verbs::context::open_device(real(device), null_mut()) {
                Ok(rc) => rc,
                Err(e) => {
                    free(ctx);
                    return Err(e);
                }
            };
            let c = &mut *ctx;
            c.device = device;
            c.real_context = rc;
            c.cmd_fd = (*rc).cmd_fd;
            c.async_fd = (*rc).async_fd;
            c.num_comp_vectors = (*rc).num_comp_vectors;
            c.ops.poll_cq = Some(datapath::poll_cq);
            c.ops.req_notify_cq = Some(datapath::req_notify_cq);
            c.ops.post_send = Some(datapath::post_send);
            c.ops.post_recv = Some(datapath::post_recv);
            c.ops.post_srq_recv = Some(datapath::post_srq_recv);
        }
        register_context(ctx);
        Ok(ctx)
    };
    open().ret_null()
}

/// `int ibv_close_device(struct ibv_context_1_0 *context)`
///
/// Closes the real context, then frees the wrapper. 0, or `ibv_close_device`'s failure (the
/// wrapper is then kept). Divergence: NULL gives -1 with errno EINVAL.
#[export("IBVERBS_1.0" as ibv_close_device)]
fn ibv_close_device_1_0(context: *mut ibv_context_1_0) -> Raw<c_int> {
    // SAFETY: a 1.0 context of this library or NULL.
    let rc = unsafe { real(context) };
    if rc.is_null() {
        return Err(Errno::EINVAL).ret_minus_one();
    }
    // SAFETY: the real context, open; the wrapper is not used again.
    unsafe { crate::verbs::context::close_context(rc) };
    unregister_context(context);
    // SAFETY: as above.
    unsafe { free(context) };
    0
}

/// Whether an event of this type names a CQ, a QP or an SRQ (`'c'`, `'q'`, `'s'`).
fn event_object(event_type: u32) -> Option<u8> {
    use ibv_event_type::*;
    let is = |t: ibv_event_type| event_type == t as u32;
    if is(IBV_EVENT_CQ_ERR) {
        Some(b'c')
    } else if [
        IBV_EVENT_QP_FATAL,
        IBV_EVENT_QP_REQ_ERR,
        IBV_EVENT_QP_ACCESS_ERR,
        IBV_EVENT_COMM_EST,
        IBV_EVENT_SQ_DRAINED,
        IBV_EVENT_PATH_MIG,
        IBV_EVENT_PATH_MIG_ERR,
        IBV_EVENT_QP_LAST_WQE_REACHED,
    ]
    .into_iter()
    .any(is)
    {
        Some(b'q')
    } else if is(IBV_EVENT_SRQ_ERR) || is(IBV_EVENT_SRQ_LIMIT_REACHED) {
        Some(b's')
    } else {
        None
    }
}

/// `int ibv_get_async_event(struct ibv_context_1_0 *context, struct ibv_async_event *event)`
///
/// `ibv_get_async_event` on the real context; a CQ, QP or SRQ in the event is replaced by its 1.0
/// wrapper. 0, or -1 with errno. Divergence: NULL context gives -1 with errno EINVAL.
#[export("IBVERBS_1.0" as ibv_get_async_event)]
fn ibv_get_async_event_1_0(
    context: *mut ibv_context_1_0,
    event: *mut ibv_async_event,
) -> Raw<c_int> {
    // SAFETY: a 1.0 context or NULL; on success the event names a live real object whose
    // back-pointer is its wrapper (set when the wrapper was made).
    unsafe {
        let ret = Ctx::from_raw(real(context))
            .and_then(|c| events::get_async_event(c, Ptr::from_raw(event)?))
            .ret_minus_one();
        if ret != 0 || event.is_null() {
            return ret;
        }
        let el = &mut (*event).element;
        match event_object((*event).event_type.raw()) {
            Some(b'c') if !el.cq.is_null() => el.cq = (*el.cq).cq_context.cast(),
            Some(b'q') if !el.qp.is_null() => el.qp = (*el.qp).qp_context.cast(),
            Some(b's') if !el.srq.is_null() => el.srq = (*el.srq).srq_context.cast(),
            _ => {}
        }
        ret
    }
}

/// `void ibv_ack_async_event(struct ibv_async_event *event)`
///
/// `ibv_ack_async_event` on a copy of the event whose 1.0 wrapper is replaced by the real object.
/// Divergence: a NULL event is passed on as is (rdma-core crashes).
#[export("IBVERBS_1.0" as ibv_ack_async_event)]
fn ibv_ack_async_event_1_0(event: *mut ibv_async_event) -> Raw<()> {
    if event.is_null() {
        return;
    }
    // SAFETY: an event from ibv_get_async_event@IBVERBS_1.0: its object is a 1.0 wrapper or NULL.
    unsafe {
        let mut ev = *event;
        let el = &mut ev.element;
        match event_object(ev.event_type.raw()) {
            Some(b'c') => el.cq = real(el.cq.cast::<ibv_cq_1_0>()),
            Some(b'q') => el.qp = real(el.qp.cast::<ibv_qp_1_0>()),
            Some(b's') => el.srq = real(el.srq.cast::<ibv_srq_1_0>()),
            _ => {}
        }
        events::ack_async_event((&mut ev).into());
    }
}

/// `int ibv_query_device(struct ibv_context_1_0 *context, struct ibv_device_attr *device_attr)`
///
/// `ibv_query_device` on the real context: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_query_device)]
fn ibv_query_device_1_0(
    context: *mut ibv_context_1_0,
    device_attr: *mut ibv_device_attr,
) -> Raw<c_int> {
    // SAFETY: a 1.0 context or NULL (rejected by the 1.1 export).
    unsafe { crate::verbs::query::query_device(real(context), device_attr) }
}

/// `int ibv_query_port(struct ibv_context_1_0 *context, uint8_t port_num, struct ibv_port_attr *port_attr)`
///
/// verbs.h's inline `ibv_query_port` on the real context, as rdma-core builds this symbol: the
/// context's `query_port` slot fills a whole `struct ibv_port_attr` of this library's headers
/// (56 bytes; rdma-core 44's was 52). 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_query_port)]
fn ibv_query_port_1_0(
    context: *mut ibv_context_1_0,
    port_num: u8,
    port_attr: *mut ibv_port_attr,
) -> Raw<c_int> {
    // SAFETY: a 1.0 context or NULL (rejected by lib_query_port); the caller's attribute buffer.
    unsafe {
        crate::verbs::query::lib_query_port(
            real(context),
            port_num,
            port_attr,
            size_of::<ibv_port_attr>(),
        )
    }
}

/// `int ibv_query_gid(struct ibv_context_1_0 *context, uint8_t port_num, int index, union ibv_gid *gid)`
///
/// `ibv_query_gid` on the real context: 0, or -1 with errno.
#[export("IBVERBS_1.0" as ibv_query_gid)]
fn ibv_query_gid_1_0(
    context: *mut ibv_context_1_0,
    port_num: u8,
    index: c_int,
    gid: *mut ibv_gid,
) -> Raw<c_int> {
    // SAFETY: as above.
    unsafe { crate::verbs::gid::query_gid_raw(real(context), port_num, index, gid) }
}

/// `int ibv_query_pkey(struct ibv_context_1_0 *context, uint8_t port_num, int index, __be16 *pkey)`
///
/// `ibv_query_pkey` on the real context: 0, or -1 with errno.
#[export("IBVERBS_1.0" as ibv_query_pkey)]
fn ibv_query_pkey_1_0(
    context: *mut ibv_context_1_0,
    port_num: u8,
    index: c_int,
    pkey: *mut u16,
) -> Raw<c_int> {
    // SAFETY: as above.
    unsafe { crate::verbs::objects::query_pkey(real(context), port_num, index, pkey) }
        .ret_minus_one()
}

/// `void ibv_register_driver(const char *name, ibv_driver_init_func_1_1 init_func)`
///
/// `ibv_driver_init_func_1_1` is `struct ibv_device *(*)(const char *uverbs_sys_path, int abi_version)`.
///
/// Not a stub: rdma-core keeps this IBVERBS_1.1-only name (no default version) as an empty function
/// so that old providers calling it still link; the driver interface has been private since
/// rdma-core 13 and the call has no effect.
#[export("IBVERBS_1.1" as ibv_register_driver)]
fn ibv_register_driver_1_1(
    _name: *const c_char,
    _init_func: Option<
        unsafe extern "C" fn(uverbs_sys_path: *const c_char, abi_version: c_int) -> *mut ibv_device,
    >,
) -> Raw<()> {
}
