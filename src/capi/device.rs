//! Device list, identity, open and close (rdma-core: device.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_char, c_int};

use super::ret::ret_or;
use crate::abi::verbs::{ibv_context, ibv_device};
use crate::errno::{CRet, unimplemented};

/// `struct ibv_device **ibv_get_device_list(int *num_devices)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_get_device_list_1_1")]
pub unsafe extern "C" fn ibv_get_device_list(num_devices: *mut c_int) -> *mut *mut ibv_device {
    Err(unimplemented("ibv_get_device_list")).ret_null()
}
super::symver!(ibv_get_device_list, v1_1, "@@IBVERBS_1.1", ibv_get_device_list);

/// `void ibv_free_device_list(struct ibv_device **list)`
///
/// Stub: does nothing (no return value to carry the failure).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_free_device_list_1_1")]
pub unsafe extern "C" fn ibv_free_device_list(list: *mut *mut ibv_device) {
    let _ = unimplemented("ibv_free_device_list");
}
super::symver!(ibv_free_device_list, v1_1, "@@IBVERBS_1.1", ibv_free_device_list);

/// `const char *ibv_get_device_name(struct ibv_device *device)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// rdma-core has no failure path (it returns `device->name`); NULL is what the man page names for
/// failure.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_get_device_name_1_1")]
pub unsafe extern "C" fn ibv_get_device_name(device: *mut ibv_device) -> *const c_char {
    Err(unimplemented("ibv_get_device_name")).ret_null()
}
super::symver!(ibv_get_device_name, v1_1, "@@IBVERBS_1.1", ibv_get_device_name);

/// `__be64 ibv_get_device_guid(struct ibv_device *device)`
///
/// Stub: returns 0, with errno EOPNOTSUPP.
///
/// rdma-core returns 0 when it cannot read the node GUID; errno is set as well.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_get_device_guid_1_1")]
pub unsafe extern "C" fn ibv_get_device_guid(device: *mut ibv_device) -> u64 {
    ret_or(Err(unimplemented("ibv_get_device_guid")), 0)
}
super::symver!(ibv_get_device_guid, v1_1, "@@IBVERBS_1.1", ibv_get_device_guid);

/// `int ibv_get_device_index(struct ibv_device *device)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// rdma-core returns -1 when the kernel gives no index (without setting errno); we set errno too.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_get_device_index(device: *mut ibv_device) -> c_int {
    Err(unimplemented("ibv_get_device_index")).ret_minus_one()
}

/// `struct ibv_context *ibv_open_device(struct ibv_device *device)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_open_device_1_1")]
pub unsafe extern "C" fn ibv_open_device(device: *mut ibv_device) -> *mut ibv_context {
    Err(unimplemented("ibv_open_device")).ret_null()
}
super::symver!(ibv_open_device, v1_1, "@@IBVERBS_1.1", ibv_open_device);

/// `int ibv_close_device(struct ibv_context *context)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// rdma-core always returns 0; its man page documents -1 on failure.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_close_device_1_1")]
pub unsafe extern "C" fn ibv_close_device(context: *mut ibv_context) -> c_int {
    Err(unimplemented("ibv_close_device")).ret_minus_one()
}
super::symver!(ibv_close_device, v1_1, "@@IBVERBS_1.1", ibv_close_device);

/// `struct ibv_context *ibv_import_device(int cmd_fd)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub extern "C" fn ibv_import_device(cmd_fd: c_int) -> *mut ibv_context {
    Err(unimplemented("ibv_import_device")).ret_null()
}
