//! The object verbs both an IBVERBS_1.1 export and its IBVERBS_1.0 twin (`capi::compat_1_0`)
//! perform (rdma-core: verbs.c's `ibv_create_srq` … `ibv_destroy_cq`, device.c's
//! `ibv_get_device_name`/`_guid`, the sysfs P_Key read of `ibv_query_pkey`): the checks, the
//! provider's op from the context's table, and the library's bookkeeping on the object.
//!
//! Each returns a [`Result`] whose `Err` is the library's own refusal (a NULL object: EINVAL,
//! a missing op) and whose `Ok` carries what the provider answered as it is: a pointer that may be
//! NULL with the provider's errno, or a provider status (0 or the positive errno, `errno` as the
//! provider left it). The exports name the C convention: `ret_null` or [`crate::cret::ret_status`].
//!
//! Called by `capi` only. Unsafe here: the caller's objects and the provider's ops.

use core::ffi::{c_char, c_int};

use crate::abi::verbs::{ibv_cq, ibv_device, ibv_pd, ibv_srq, ibv_srq_attr, ibv_srq_init_attr};
use crate::errno::{Errno, Result};
use crate::verbs::ctxpriv::ops_of;
use crate::verbs::qpcommon::init_lock;

/// The name of a listed device (`ibv_get_device_name`). EINVAL for NULL (Divergence: rdma-core
/// dereferences it).
///
/// # Safety
/// A non-NULL `device` came from `ibv_get_device_list` and is still held.
#[inline]
pub(crate) unsafe fn device_name(device: *mut ibv_device) -> Result<*const c_char> {
    if device.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: the caller's contract: a live device.
    Ok(unsafe { (&raw const (*device).name).cast() })
}

/// The node GUID of a listed device in host order (`ibv_get_device_guid`), 0 when sysfs has
/// none. EINVAL for NULL.
#[inline]
pub(crate) fn device_guid(device: *mut ibv_device) -> Result<u64> {
    if device.is_null() {
        return Err(Errno::EINVAL);
    }
    let v = crate::verbs::devlist::vdev_of(device);
    Ok(crate::verbs::devlist::device_guid(v).unwrap_or(0))
}

/// The P_Key at `index` of `port_num` into `*pkey`, network order (`ibv_query_pkey`, from
/// sysfs): `Ok(0)`, or `Ok(-1)` when sysfs has no such entry (`errno` as the failed read left
/// it, as rdma-core). EINVAL for a NULL context or buffer, or a context without a sysfs record.
///
/// # Safety
/// A non-NULL `context` is an open context of this library; `pkey` NULL or writable.
#[inline]
pub(crate) unsafe fn query_pkey(
    context: *mut crate::abi::verbs::ibv_context,
    port_num: u8,
    index: c_int,
    pkey: *mut u16,
) -> Result<c_int> {
    if context.is_null() || pkey.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: the caller's contract.
    let dir = unsafe { crate::verbs::gid::ibdev_path(context) }.ok_or(Errno::EINVAL)?;
    Ok(
        match crate::device::query::pkey(&dir, port_num.into(), index) {
            Some(v) => {
                // SAFETY: the caller's buffer.
                unsafe { *pkey = v.to_be() };
                0
            }
            None => -1,
        },
    )
}

/// A new SRQ on `pd` from the provider's `create_srq`, its context, user context, PD and event
/// lock set (`ibv_create_srq`).
///
/// # Safety
/// `pd` is NULL or a live PD of an open context; `attr` is NULL or the caller's attributes.
#[inline]
pub(crate) unsafe fn create_srq(
    pd: *mut ibv_pd,
    attr: *mut ibv_srq_init_attr,
) -> Result<*mut ibv_srq> {
    // SAFETY: the caller's PD (checked for NULL, as its context).
    let ctx = unsafe { pd.as_ref() }.map_or(core::ptr::null_mut(), |p| p.context);
    if ctx.is_null() || attr.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: an open context of this library.
    let f = unsafe { ops_of(ctx) }.create_srq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on the caller's PD and attributes.
    let srq = unsafe { f(pd, attr) };
    // SAFETY: the provider's new SRQ, not yet handed out.
    if let Some(s) = unsafe { srq.as_mut() } {
        s.context = ctx;
        // SAFETY: the caller's attributes (checked above).
        s.srq_context = unsafe { (*attr).srq_context };
        s.pd = pd;
        s.events_completed = 0;
        // SAFETY: the new SRQ's own lock, not in use by anyone yet.
        unsafe { init_lock(&raw mut s.mutex, &raw mut s.cond) };
    }
    Ok(srq)
}

/// The context of a live SRQ, or EINVAL for NULL (the SRQ or its context).
///
/// # Safety
/// `srq` is NULL or a live SRQ.
#[inline]
unsafe fn srq_ctx(srq: *mut ibv_srq) -> Result<*mut crate::abi::verbs::ibv_context> {
    // SAFETY: the caller's contract.
    let ctx = unsafe { srq.as_ref() }.map_or(core::ptr::null_mut(), |s| s.context);
    if ctx.is_null() {
        Err(Errno::EINVAL)
    } else {
        Ok(ctx)
    }
}

/// The provider's `modify_srq` (`ibv_modify_srq`).
///
/// # Safety
/// `srq` is NULL or a live SRQ; `attr` NULL or the caller's attributes.
#[inline]
pub(crate) unsafe fn modify_srq(
    srq: *mut ibv_srq,
    attr: *mut ibv_srq_attr,
    mask: c_int,
) -> Result<c_int> {
    // SAFETY: the caller's contract.
    let ctx = unsafe { srq_ctx(srq) }?;
    if attr.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: an open context of this library.
    let f = unsafe { ops_of(ctx) }.modify_srq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on the caller's SRQ and attributes.
    Ok(unsafe { f(srq, attr, mask) })
}

/// The provider's `query_srq` (`ibv_query_srq`).
///
/// # Safety
/// As for [`modify_srq`].
#[inline]
pub(crate) unsafe fn query_srq(srq: *mut ibv_srq, attr: *mut ibv_srq_attr) -> Result<c_int> {
    // SAFETY: the caller's contract.
    let ctx = unsafe { srq_ctx(srq) }?;
    if attr.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: an open context of this library.
    let f = unsafe { ops_of(ctx) }.query_srq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on the caller's SRQ and buffer.
    Ok(unsafe { f(srq, attr) })
}

/// The provider's `destroy_srq` (`ibv_destroy_srq`).
///
/// # Safety
/// `srq` is NULL or a live SRQ, not used again once this answers 0.
#[inline]
pub(crate) unsafe fn destroy_srq(srq: *mut ibv_srq) -> Result<c_int> {
    // SAFETY: the caller's contract.
    let ctx = unsafe { srq_ctx(srq) }?;
    // SAFETY: an open context of this library.
    let f = unsafe { ops_of(ctx) }
        .destroy_srq
        .ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on the caller's SRQ.
    Ok(unsafe { f(srq) })
}

/// The provider's `resize_cq` (`ibv_resize_cq`).
///
/// # Safety
/// `cq` is NULL or a live CQ of an open context.
#[inline]
pub(crate) unsafe fn resize_cq(cq: *mut ibv_cq, cqe: c_int) -> Result<c_int> {
    if cq.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: the caller's live CQ.
    let ctx = unsafe { (*cq).context };
    // SAFETY: an open context of this library.
    let f = unsafe { ops_of(ctx) }.resize_cq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on the caller's CQ.
    Ok(unsafe { f(cq, cqe) })
}

/// The provider's `destroy_cq` (which waits for the CQ's events to be acknowledged); on success
/// the CQ's completion channel, if any, is used by one CQ less (`ibv_destroy_cq`).
///
/// # Safety
/// `cq` is NULL or a live CQ of an open context, not used again once this answers 0.
#[inline]
pub(crate) unsafe fn destroy_cq(cq: *mut ibv_cq) -> Result<c_int> {
    if cq.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: a live CQ; the op frees it, so its channel is read first.
    let channel = unsafe { (*cq).channel };
    // SAFETY: as above.
    let ctx = unsafe { (*cq).context };
    // SAFETY: an open context of this library.
    let f = unsafe { ops_of(ctx) }.destroy_cq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on the caller's CQ.
    let ret = unsafe { f(cq) };
    if ret == 0 && !channel.is_null() {
        // SAFETY: a live channel (a CQ used it until now).
        let chctx = unsafe { (*channel).context };
        // SAFETY: the channel's live context.
        let mutex = unsafe { &raw mut (*chctx).mutex };
        // SAFETY: the context's mutex, initialised when it was opened.
        unsafe { libc::pthread_mutex_lock(mutex) };
        // SAFETY: the channel's use count, under its context's mutex.
        unsafe { (*channel).refcnt -= 1 };
        // SAFETY: locked just above by this thread.
        unsafe { libc::pthread_mutex_unlock(mutex) };
    }
    Ok(ret)
}
