//! The device list, a device's identity, opening and closing (rdma-core: device.c
//! `ibv_get_device_list`, `ibv_free_device_list`, `ibv_get_device_name`/`_guid`/`_index`,
//! `ibv_open_device`, `ibv_close_device`, `ibv_import_device`).
//!
//! The registry itself (discovery, matching, references) is `devlist`; contexts are `context`.
//! Called by `capi::device` and the 1.0 twins.
use core::ffi::{c_char, c_int};

use crate::abi::verbs::{ibv_context, ibv_device};
use crate::errno::{Errno, Result};
use crate::verbs::devlist;
use crate::verbs::handle::{Ctx, Dev, Ptr};

/// The lists [`get_list`] handed out and [`free_list`] has not freed.
pub(crate) static LISTS: crate::verbs::handed::Handed =
    crate::verbs::handed::Handed::new("device list");

/// `ibv_get_device_list`: a NULL-terminated array from libc's allocator, every device in it held
/// once; `*num_devices` (if given) its length, 0 on failure (ENOSYS without uverbs, ENOMEM).
pub(crate) fn get_list(num_devices: Option<Ptr<c_int>>) -> Result<*mut *mut ibv_device> {
    if let Some(n) = num_devices {
        n.write(0);
    }
    let devs = devlist::get_device_list()?;
    // SAFETY: calloc of n+1 pointers; the zeroed last one terminates the list.
    let arr = unsafe { libc::calloc(devs.len() + 1, size_of::<*mut ibv_device>()) }
        .cast::<*mut ibv_device>();
    if arr.is_null() {
        for d in devs {
            devlist::device_put(devlist::vdev_of(d));
        }
        return Err(Errno::ENOMEM);
    }
    for (i, d) in devs.iter().enumerate() {
        let slot = arr.wrapping_add(i);
        // SAFETY: i < n, inside the allocation.
        unsafe { slot.write(*d) };
    }
    if let Some(n) = num_devices {
        n.write(devs.len() as c_int);
    }
    Ok(LISTS.give(arr))
}

/// `ibv_free_device_list`: each device released once and the array freed. Divergence: NULL, or
/// an array that is not a live list of [`get_list`], is ignored (rdma-core crashes, or libc
/// aborts the process).
pub(crate) fn free_list(list: *mut *mut ibv_device) {
    if list.is_null() || !LISTS.take(list) {
        return;
    }
    let mut i = 0;
    loop {
        let slot = list.wrapping_add(i);
        // SAFETY: a live list of get_list: NULL-terminated (i stops at the NULL), ours until
        // freed below.
        let d = unsafe { slot.read() };
        if d.is_null() {
            break;
        }
        devlist::device_put(devlist::vdev_of(d));
        i += 1;
    }
    // SAFETY: allocated with calloc by get_list, handed back once (LISTS.take).
    unsafe { libc::free(list.cast()) };
}

/// `ibv_get_device_name`: `device->name`.
#[inline]
pub(crate) fn name(device: Dev) -> *const c_char {
    // SAFETY: a held device (Dev's contract); only the member's address is taken.
    unsafe { (&raw const (*device.raw()).name).cast() }
}

/// `ibv_get_device_guid`: the node GUID in host order: the value discovery read, else `node_guid`
/// read from sysfs now (and kept); 0 when it cannot be read.
#[inline]
pub(crate) fn guid(device: Dev) -> u64 {
    devlist::device_guid(device.vdev()).unwrap_or(0)
}

/// `ibv_get_device_index`: the kernel's device index, or -1 when discovery had none (sysfs walk).
pub(crate) fn index(device: Dev) -> c_int {
    let v = device.vdev();
    // SAFETY: a listed device: its sysfs record (or NULL) lives as long as the device.
    let s = unsafe { (*v.0).sysfs };
    if s.is_null() {
        return -1;
    }
    // SAFETY: as above: not NULL.
    unsafe { (*s).ibdev_idx }
}

/// `ibv_open_device`: `verbs_open_device(device, NULL)`.
pub(crate) fn open(device: Dev) -> Result<*mut ibv_context> {
    // SAFETY: a held device (Dev's contract).
    unsafe { crate::verbs::context::open_device(device.raw(), core::ptr::null_mut()) }
}

/// `ibv_close_device`: the provider's free_context.
pub(crate) fn close(context: Ctx) {
    // SAFETY: an open context of this library (Ctx's contract), closed once by its caller.
    unsafe { crate::verbs::context::close_context(context.raw()) }
}

/// `ibv_import_device`: a context for a uverbs fd shared by another process: the listed device
/// whose character device is the fd's, rebuilt by its provider's `import_context`. EINVAL (not a
/// char device), ENODEV (no such device), EOPNOTSUPP (the provider cannot import), or the
/// provider's errno.
pub(crate) fn import(cmd_fd: c_int) -> Result<*mut ibv_context> {
    let rdev = crate::sys::cdev::char_rdev(cmd_fd).ok_or(Errno::EINVAL)?;
    let devs = devlist::get_device_list().map_err(|_| Errno::ENODEV)?;
    let r = import_from(&devs, rdev, cmd_fd);
    for d in devs {
        devlist::device_put(devlist::vdev_of(d));
    }
    r
}

/// [`import`] among `devs`, listed and held.
fn import_from(devs: &[*mut ibv_device], rdev: u64, cmd_fd: c_int) -> Result<*mut ibv_context> {
    let found = devs.iter().map(|d| devlist::vdev_of(*d).0).find(|v| {
        // SAFETY: a held, listed device; its sysfs record (or NULL) lives with it.
        let s = unsafe { (**v).sysfs };
        // SAFETY: as above.
        !s.is_null() && unsafe { (*s).sysfs_cdev } == rdev
    });
    let v = found.ok_or(Errno::ENODEV)?;
    // SAFETY: as above: its provider's ops were set when the provider took it.
    let ops = unsafe { (*v).ops };
    // SAFETY: a provider's static table, or NULL.
    let imp = unsafe { ops.as_ref() }
        .and_then(|o| o.import_context)
        .ok_or(Errno::EOPNOTSUPP)?;
    // The public device is the first member of the verbs_device.
    let dev = v.cast::<ibv_device>();
    // SAFETY: the provider's op on its own device and the caller's fd.
    let vctx = unsafe { imp(dev, cmd_fd) };
    if vctx.is_null() {
        return Err(Errno(crate::sys::errno()));
    }
    let vctx = crate::verbs::ctxpriv::view34(vctx.cast(), devlist::ops_abi(ops));
    // SAFETY: the context the provider just returned.
    unsafe { crate::verbs::context::finish_open(vctx, true) }
}
