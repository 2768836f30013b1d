//! Device list, identity, open and close (rdma-core: device.c).
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::{c_char, c_int};

use super::ret::ret_or;
use crate::abi::ctype::Be64;
use crate::abi::verbs::{ibv_context, ibv_device};
use crate::cret::CRet;
use crate::verbs::devlist;

/// `struct ibv_device **ibv_get_device_list(int *num_devices)`
///
/// A NULL-terminated array from libc's allocator, every device in it held once (released by
/// `ibv_free_device_list`). On error: NULL with errno (ENOSYS without uverbs support, ENOMEM),
/// `*num_devices` left 0.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_get_device_list(num_devices: *mut c_int) -> Raw<*mut *mut ibv_device> {
    if !num_devices.is_null() {
        // SAFETY: the caller passes a writable int or NULL.
        unsafe { *num_devices = 0 };
    }
    let list = |devs: Vec<*mut ibv_device>| -> crate::errno::Result<*mut *mut ibv_device> {
        // SAFETY: calloc of n+1 pointers; the zeroed last one terminates the list.
        let arr = unsafe { libc::calloc(devs.len() + 1, size_of::<*mut ibv_device>()) }
            .cast::<*mut ibv_device>();
        if arr.is_null() {
            for d in devs {
                devlist::device_put(devlist::vdev_of(d));
            }
            return Err(crate::errno::Errno::ENOMEM);
        }
        for (i, d) in devs.iter().enumerate() {
            // SAFETY: i < n, inside the allocation.
            unsafe { *arr.add(i) = *d };
        }
        if !num_devices.is_null() {
            // SAFETY: as above.
            unsafe { *num_devices = devs.len() as c_int };
        }
        Ok(LISTS.give(arr))
    };
    devlist::get_device_list().and_then(list).ret_null()
}

/// The lists `ibv_get_device_list` handed out and `ibv_free_device_list` has not freed.
pub(crate) static LISTS: crate::verbs::handed::Handed =
    crate::verbs::handed::Handed::new("device list");

/// `void ibv_free_device_list(struct ibv_device **list)`
///
/// Releases each device once and frees the array. Divergence: NULL, or an array that is not a
/// live list of `ibv_get_device_list`, is ignored (rdma-core crashes, or libc aborts the process).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_free_device_list(list: *mut *mut ibv_device) -> Raw<()> {
    if list.is_null() || !LISTS.take(list) {
        return;
    }
    let mut i = 0;
    loop {
        // SAFETY: the list came from ibv_get_device_list: NULL-terminated.
        let d = unsafe { *list.add(i) };
        if d.is_null() {
            break;
        }
        devlist::device_put(devlist::vdev_of(d));
        i += 1;
    }
    // SAFETY: allocated with calloc by ibv_get_device_list.
    unsafe { libc::free(list.cast()) };
}

/// `const char *ibv_get_device_name(struct ibv_device *device)`
///
/// `device->name`. Divergence: NULL device gives NULL with errno EINVAL (rdma-core crashes).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_get_device_name(device: *mut ibv_device) -> Raw<*const c_char> {
    // SAFETY: a device from ibv_get_device_list, alive while the caller holds it, or NULL.
    unsafe { crate::verbs::objects::device_name(device) }.ret_null()
}

/// `__be64 ibv_get_device_guid(struct ibv_device *device)`
///
/// The node GUID in network order: the value discovery read, else `node_guid` read from sysfs
/// now (and kept); 0 when it cannot be read. Divergence: NULL device gives 0 with errno EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_get_device_guid(device: *mut ibv_device) -> Raw<Be64> {
    Be64(ret_or(
        crate::verbs::objects::device_guid(device).map(u64::to_be),
        0,
    ))
}

/// `int ibv_get_device_index(struct ibv_device *device)`
///
/// The kernel's device index, or -1 when discovery had none (sysfs walk) — without errno, as
/// rdma-core. Divergence: NULL device gives -1 with errno EINVAL.
#[export("IBVERBS_1.9")]
fn ibv_get_device_index(device: *mut ibv_device) -> Raw<c_int> {
    if device.is_null() {
        return Err(crate::errno::Errno::EINVAL).ret_minus_one();
    }
    let v = devlist::vdev_of(device);
    // SAFETY: a listed device: its sysfs record lives as long as the device.
    unsafe {
        let s = (*v.0).sysfs;
        if s.is_null() { -1 } else { (*s).ibdev_idx }
    }
}

/// `struct ibv_context *ibv_open_device(struct ibv_device *device)`
///
/// `verbs_open_device(device, NULL)`. NULL with errno on failure.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_open_device(device: *mut ibv_device) -> Raw<*mut ibv_context> {
    // SAFETY: a device from ibv_get_device_list (or NULL, rejected).
    unsafe { crate::verbs::context::open_device(device, core::ptr::null_mut()) }.ret_null()
}

/// `int ibv_close_device(struct ibv_context *context)`
///
/// The provider's free_context. 0, as rdma-core always returns. Divergence: NULL gives -1 with
/// errno EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_close_device(context: *mut ibv_context) -> Raw<c_int> {
    if context.is_null() {
        return Err(crate::errno::Errno::EINVAL).ret_minus_one();
    }
    // SAFETY: an open context of this library.
    unsafe { crate::verbs::context::close_context(context) };
    0
}

/// `struct ibv_context *ibv_import_device(int cmd_fd)`
///
/// A context for a uverbs fd shared by another process: the listed device whose character device
/// is the fd's, rebuilt by its provider's `import_context`. NULL with errno: EINVAL (not a char
/// device), ENODEV (no such device), EOPNOTSUPP (the provider cannot import), or the provider's.
#[export("IBVERBS_1.10")]
fn ibv_import_device(cmd_fd: c_int) -> Raw<*mut ibv_context> {
    let Some(rdev) = crate::sys::cdev::char_rdev(cmd_fd) else {
        return Err(crate::errno::Errno::EINVAL).ret_null();
    };
    let Ok(devs) = devlist::get_device_list() else {
        return Err(crate::errno::Errno::ENODEV).ret_null();
    };
    // SAFETY: listed devices, each held once by get_device_list until released below.
    let r = unsafe { import(&devs, rdev, cmd_fd) };
    for d in devs {
        devlist::device_put(devlist::vdev_of(d));
    }
    r.ret_null()
}

/// The body of `ibv_import_device`.
///
/// # Safety
/// `devs` are held, listed devices.
unsafe fn import(
    devs: &[*mut ibv_device],
    rdev: u64,
    cmd_fd: c_int,
) -> crate::errno::Result<*mut ibv_context> {
    // SAFETY: the caller's contract; a listed device's sysfs record lives with it.
    unsafe {
        let found = devs.iter().map(|d| devlist::vdev_of(*d).0).find(|v| {
            let s = (**v).sysfs;
            !s.is_null() && (*s).sysfs_cdev == rdev
        });
        let Some(v) = found else {
            return Err(crate::errno::Errno::ENODEV);
        };
        let Some(imp) = (*v).ops.as_ref().and_then(|o| o.import_context) else {
            return Err(crate::errno::Errno::EOPNOTSUPP);
        };
        let vctx = imp(&raw mut (*v).device, cmd_fd);
        if vctx.is_null() {
            return Err(crate::errno::Errno(crate::sys::errno()));
        }
        let vctx =
            crate::verbs::ctxpriv::view34(vctx.cast(), crate::verbs::devlist::ops_abi((*v).ops));
        crate::verbs::context::finish_open(vctx, true)
    }
}
