//! The object verbs both an IBVERBS_1.1 export and its IBVERBS_1.0 twin (`capi::compat_1_0`)
//! perform (rdma-core: verbs.c's `ibv_query_qp` … `ibv_detach_mcast`, device.c's
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

use crate::abi::verbs::ibv_qp_attr_mask::IBV_QP_STATE;
use crate::abi::verbs::{
    ibv_ah, ibv_ah_attr, ibv_device, ibv_gid, ibv_pd, ibv_qp, ibv_qp_attr, ibv_qp_init_attr,
};
use crate::cret::quiet;
use crate::errno::{Errno, Result};
use crate::verbs::ctxpriv::ops_of;

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

/// The provider's `query_qp`; on success with `IBV_QP_STATE` asked, `qp->state` follows the
/// answer (`ibv_query_qp`).
///
/// # Safety
/// `qp` is NULL or a live QP; `attr` and `init_attr` NULL or the caller's buffers.
#[inline]
pub(crate) unsafe fn query_qp(
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    init_attr: *mut ibv_qp_init_attr,
) -> Result<c_int> {
    // SAFETY: the caller's QP (checked for NULL, as its context).
    let ctx = unsafe { qp.as_ref() }.map_or(core::ptr::null_mut(), |q| q.context);
    if ctx.is_null() || attr.is_null() || init_attr.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: an open context of this library.
    let f = unsafe { ops_of(ctx) }.query_qp.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on the caller's QP and buffers.
    let ret = unsafe { f(qp, attr, attr_mask, init_attr) };
    if ret == 0 && attr_mask & IBV_QP_STATE as c_int != 0 {
        // SAFETY: the provider filled the caller's attributes.
        let state = unsafe { (*attr).qp_state };
        // SAFETY: the caller's live QP.
        unsafe { (*qp).state = state };
    }
    Ok(ret)
}

/// A new AH on `pd` from the provider's `create_ah`, its context and PD set (`ibv_create_ah`).
///
/// # Safety
/// `pd` is NULL or a live PD of an open context; `attr` the caller's attributes.
#[inline]
pub(crate) unsafe fn create_ah(pd: *mut ibv_pd, attr: *mut ibv_ah_attr) -> Result<*mut ibv_ah> {
    // SAFETY: the caller's PD (checked for NULL, as its context).
    let ctx = unsafe { pd.as_ref() }.map_or(core::ptr::null_mut(), |p| p.context);
    if ctx.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: an open context of this library.
    let op = unsafe { ops_of(ctx) }.create_ah.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on the caller's PD and attributes.
    let ah = unsafe { op(pd, attr) };
    // SAFETY: the provider's new AH, not yet handed out.
    if let Some(a) = unsafe { ah.as_mut() } {
        a.context = ctx;
        a.pd = pd;
    }
    Ok(ah)
}

/// The provider's `destroy_ah` (`ibv_destroy_ah`); a missing op answers EOPNOTSUPP as rdma-core's
/// default op does, `errno` untouched.
///
/// # Safety
/// `ah` is NULL or a live AH, not used again once this answers 0.
#[inline]
pub(crate) unsafe fn destroy_ah(ah: *mut ibv_ah) -> Result<c_int> {
    // SAFETY: the caller's AH (checked for NULL, as its context).
    let ctx = unsafe { ah.as_ref() }.map_or(core::ptr::null_mut(), |a| a.context);
    if ctx.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: an open context of this library.
    Ok(match unsafe { ops_of(ctx) }.destroy_ah {
        // SAFETY: the provider's op on the caller's AH.
        Some(op) => unsafe { op(ah) },
        None => quiet(Errno::EOPNOTSUPP),
    })
}

/// Which multicast op [`mcast`] runs.
#[derive(Clone, Copy)]
pub(crate) enum Mcast {
    Attach,
    Detach,
}

/// The provider's `attach_mcast` or `detach_mcast` for UD QP `qp` and group `gid`/`lid`
/// (`ibv_attach_mcast`, `ibv_detach_mcast`); a missing op answers EOPNOTSUPP, `errno` untouched.
///
/// # Safety
/// `qp` is NULL or a live QP; `gid` NULL or the caller's GID.
#[inline]
pub(crate) unsafe fn mcast(
    which: Mcast,
    qp: *mut ibv_qp,
    gid: *const ibv_gid,
    lid: u16,
) -> Result<c_int> {
    // SAFETY: the caller's QP (checked for NULL, as its context).
    let ctx = unsafe { qp.as_ref() }.map_or(core::ptr::null_mut(), |q| q.context);
    if ctx.is_null() || gid.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: an open context of this library.
    let ops = unsafe { ops_of(ctx) };
    let op = match which {
        Mcast::Attach => ops.attach_mcast,
        Mcast::Detach => ops.detach_mcast,
    };
    Ok(match op {
        // SAFETY: the provider's op on the caller's QP and GID.
        Some(op) => unsafe { op(qp, gid, lid) },
        None => quiet(Errno::EOPNOTSUPP),
    })
}
