//! Device, port, GID and P_Key queries on an open context (rdma-core: verbs.c, cmd_device.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use super::ret::ret_neg_errno_count;
use crate::abi::verbs::{
    _compat_ibv_port_attr, ibv_context, ibv_device_attr, ibv_gid, ibv_gid_entry,
};
use crate::errno::{CRet, unimplemented};

/// `int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_query_device_1_1")]
pub unsafe extern "C" fn ibv_query_device(
    context: *mut ibv_context,
    device_attr: *mut ibv_device_attr,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_query_device")).ret_errno()
}
super::symver!(ibv_query_device, v1_1, "@@IBVERBS_1.1", ibv_query_device);

/// `int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// The buffer is the pre-`active_speed_ex` `ibv_port_attr` (verbs.h's inline `ibv_query_port` calls
/// the provider op directly for the full one).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_query_port_1_1")]
pub unsafe extern "C" fn ibv_query_port(
    context: *mut ibv_context,
    port_num: u8,
    port_attr: *mut _compat_ibv_port_attr,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_query_port")).ret_errno()
}
super::symver!(ibv_query_port, v1_1, "@@IBVERBS_1.1", ibv_query_port);

/// `int ibv_query_port_speed(struct ibv_context *context, uint32_t port_num, uint64_t *port_speed)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_query_port_speed(
    context: *mut ibv_context,
    port_num: u32,
    port_speed: *mut u64,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_query_port_speed")).ret_errno()
}

/// `int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_query_gid_1_1")]
pub unsafe extern "C" fn ibv_query_gid(
    context: *mut ibv_context,
    port_num: u8,
    index: c_int,
    gid: *mut ibv_gid,
) -> c_int {
    Err(unimplemented("ibv_query_gid")).ret_minus_one()
}
super::symver!(ibv_query_gid, v1_1, "@@IBVERBS_1.1", ibv_query_gid);

/// `int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num, uint32_t gid_index, struct ibv_gid_entry *entry, uint32_t flags, size_t entry_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _ibv_query_gid_ex(
    context: *mut ibv_context,
    port_num: u32,
    gid_index: u32,
    entry: *mut ibv_gid_entry,
    flags: u32,
    entry_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("_ibv_query_gid_ex")).ret_errno()
}

/// `ssize_t _ibv_query_gid_table(struct ibv_context *context, struct ibv_gid_entry *entries, size_t max_entries, uint32_t flags, size_t entry_size)`
///
/// Stub: returns -EOPNOTSUPP, errno set too (rdma-core: the entry count, or a negative errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _ibv_query_gid_table(
    context: *mut ibv_context,
    entries: *mut ibv_gid_entry,
    max_entries: usize,
    flags: u32,
    entry_size: usize,
) -> libc::ssize_t {
    ret_neg_errno_count(Err(unimplemented("_ibv_query_gid_table")))
}

/// `int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index, __be16 *pkey)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_query_pkey_1_1")]
pub unsafe extern "C" fn ibv_query_pkey(
    context: *mut ibv_context,
    port_num: u8,
    index: c_int,
    pkey: *mut u16,
) -> c_int {
    Err(unimplemented("ibv_query_pkey")).ret_minus_one()
}
super::symver!(ibv_query_pkey, v1_1, "@@IBVERBS_1.1", ibv_query_pkey);

/// `int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num, __be16 pkey)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_get_pkey_index(
    context: *mut ibv_context,
    port_num: u8,
    pkey: u16,
) -> c_int {
    Err(unimplemented("ibv_get_pkey_index")).ret_minus_one()
}
