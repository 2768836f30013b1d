//! Device, port, GID and P_Key queries on an open context (rdma-core: verbs.c, cmd_device.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use super::ret::ret_neg_errno_count;
use super::ctxpriv::ops_of;
use crate::abi::verbs::{
    _compat_ibv_port_attr, ibv_context, ibv_device_attr, ibv_device_attr_ex, ibv_gid,
    ibv_gid_entry, ibv_port_attr,
};
use crate::errno::{CRet, Errno, unimplemented};

/// `int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)`
///
/// The provider's `query_device_ex` with the legacy attribute size. 0, or the positive errno.
/// Divergence: NULL arguments give EINVAL (rdma-core crashes).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_query_device_1_1")]
pub unsafe extern "C" fn ibv_query_device(
    context: *mut ibv_context,
    device_attr: *mut ibv_device_attr,
) -> c_int {
    if context.is_null() || device_attr.is_null() {
        return Err::<(), _>(Errno::EINVAL).ret_errno();
    }
    // SAFETY: an open context; `orig_attr` is the first member of ibv_device_attr_ex, so the
    // legacy struct is the head of one, and the size tells the provider to fill only that.
    unsafe {
        match ops_of(context).query_device_ex {
            Some(q) => q(
                context,
                core::ptr::null(),
                device_attr.cast::<ibv_device_attr_ex>(),
                size_of::<ibv_device_attr>(),
            ),
            None => Err::<(), _>(Errno::EOPNOTSUPP).ret_errno(),
        }
    }
}
super::symver!(ibv_query_device, v1_1, "@@IBVERBS_1.1", ibv_query_device);

/// `int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)`
///
/// The exported symbol behind verbs.h's inline `ibv_query_port` for contexts without the
/// `query_port` slot, and for old binaries: fills the pre-`port_cap_flags2` attribute layout
/// (52 bytes). 0, or the positive errno. Divergence: NULL arguments give EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_query_port_1_1")]
pub unsafe extern "C" fn ibv_query_port(
    context: *mut ibv_context,
    port_num: u8,
    port_attr: *mut _compat_ibv_port_attr,
) -> c_int {
    // SAFETY: forwarded; lib_query_port checks its arguments.
    unsafe { lib_query_port(context, port_num, port_attr.cast(), COMPAT_PORT_ATTR_SIZE) }
}

/// `sizeof(struct _compat_ibv_port_attr)`: `ibv_port_attr` up to and including `flags`, padded.
const COMPAT_PORT_ATTR_SIZE: usize = 52;

/// rdma-core's `__lib_query_port`, the context's `query_port` slot: the provider fills a full
/// `ibv_port_attr` (a zeroed temporary when the caller's is shorter), the caller gets
/// `port_attr_len` bytes of it.
pub(crate) unsafe extern "C" fn lib_query_port(
    context: *mut ibv_context,
    port_num: u8,
    port_attr: *mut ibv_port_attr,
    port_attr_len: usize,
) -> c_int {
    if context.is_null() || port_attr.is_null() {
        return Err::<(), _>(Errno::EINVAL).ret_errno();
    }
    // SAFETY: an open context; the caller's buffer has port_attr_len bytes.
    unsafe {
        let Some(q) = ops_of(context).query_port else {
            return Err::<(), _>(Errno::EOPNOTSUPP).ret_errno();
        };
        if port_attr_len < size_of::<ibv_port_attr>() {
            let mut tmp: ibv_port_attr = core::mem::zeroed();
            let rc = q(context, port_num, &mut tmp);
            if rc != 0 {
                return rc;
            }
            core::ptr::copy_nonoverlapping(
                (&raw const tmp).cast::<u8>(),
                port_attr.cast::<u8>(),
                port_attr_len,
            );
            return 0;
        }
        core::ptr::write_bytes(port_attr.cast::<u8>(), 0, port_attr_len);
        q(context, port_num, port_attr)
    }
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
