//! The object verbs both an IBVERBS_1.1 export and its IBVERBS_1.0 twin (`capi::compat_1_0`)
//! perform (rdma-core: device.c's
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

use crate::abi::verbs::ibv_device;
use crate::errno::{Errno, Result};

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
