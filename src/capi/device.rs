//! Device list, identity, open and close (rdma-core: device.c), as declarations over
//! `verbs::device`.
//!
//! Divergence throughout: a NULL device or context gives EINVAL (errno set; NULL, 0 or -1 as the
//! function returns) where rdma-core would crash.
use core::ffi::{c_char, c_int};

use crate::abi::ctype::Be64;
use crate::abi::verbs::{ibv_context, ibv_device};
use crate::capi::export::export;
use crate::verbs::device;
use crate::verbs::handle::{Ctx, Dev, Ptr};

/// `struct ibv_device **ibv_get_device_list(int *num_devices)`
///
/// A NULL-terminated array from libc's allocator, every device in it held once (released by
/// `ibv_free_device_list`). On error: NULL with errno (ENOSYS without uverbs support, ENOMEM),
/// `*num_devices` left 0.
#[export("IBVERBS_1.1")]
fn ibv_get_device_list(num_devices: Option<Ptr<c_int>>) -> Null<*mut *mut ibv_device> {
    device::get_list(num_devices)
}

/// `void ibv_free_device_list(struct ibv_device **list)`
///
/// Releases each device once and frees the array. Divergence: NULL, or an array that is not a
/// live list of `ibv_get_device_list`, is ignored (rdma-core crashes, or libc aborts the process).
#[export("IBVERBS_1.1")]
fn ibv_free_device_list(list: *mut *mut ibv_device) -> Void {
    device::free_list(list)
}

/// `const char *ibv_get_device_name(struct ibv_device *device)`
///
/// `device->name`.
#[export("IBVERBS_1.1")]
fn ibv_get_device_name(device: Dev) -> Null<*const c_char> {
    Ok(device::name(device))
}

/// `__be64 ibv_get_device_guid(struct ibv_device *device)`
///
/// The node GUID in network order: the value discovery read, else `node_guid` read from sysfs
/// now (and kept); 0 when it cannot be read (and for NULL, errno EINVAL: no error channel).
#[export("IBVERBS_1.1")]
fn ibv_get_device_guid(device: *mut ibv_device) -> Raw<Be64> {
    // Raw: the error value is 0, which no convention names.
    // SAFETY: the C contract: NULL or a held device.
    let d = unsafe { Dev::from_raw(device) };
    Be64(super::ret::ret_or(d.map(|d| device::guid(d).to_be()), 0))
}

/// `int ibv_get_device_index(struct ibv_device *device)`
///
/// The kernel's device index, or -1 when discovery had none (sysfs walk) — without errno, as
/// rdma-core.
#[export("IBVERBS_1.9")]
fn ibv_get_device_index(device: Dev) -> MinusOne<c_int> {
    Ok(device::index(device))
}

/// `struct ibv_context *ibv_open_device(struct ibv_device *device)`
///
/// `verbs_open_device(device, NULL)`. NULL with errno on failure.
#[export("IBVERBS_1.1")]
fn ibv_open_device(device: Dev) -> Null<*mut ibv_context> {
    device::open(device)
}

/// `int ibv_close_device(struct ibv_context *context)`
///
/// The provider's free_context. 0, as rdma-core always returns.
#[export("IBVERBS_1.1")]
fn ibv_close_device(context: Ctx) -> MinusOne<c_int> {
    device::close(context);
    Ok(0)
}

/// `struct ibv_context *ibv_import_device(int cmd_fd)`
///
/// A context for a uverbs fd shared by another process: the listed device whose character device
/// is the fd's, rebuilt by its provider's `import_context`. NULL with errno: EINVAL (not a char
/// device), ENODEV (no such device), EOPNOTSUPP (the provider cannot import), or the provider's.
#[export("IBVERBS_1.10")]
fn ibv_import_device(cmd_fd: c_int) -> Null<*mut ibv_context> {
    device::import(cmd_fd)
}
