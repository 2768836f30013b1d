//! Device, port, GID and P_Key queries on an open context (rdma-core: verbs.c, cmd_device.c).
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::c_int;

use super::ret::ret_neg_errno_count;
use crate::abi::driver::verbs_query_gid_attr_mask::{
    VERBS_QUERY_GID_ATTR_GID, VERBS_QUERY_GID_ATTR_NDEV_IFINDEX, VERBS_QUERY_GID_ATTR_TYPE,
};
use crate::abi::verbs::{
    _compat_ibv_port_attr, ibv_context, ibv_device_attr, ibv_gid, ibv_gid_entry,
};
use crate::cret::CRet;
use crate::cret::quiet;
use crate::errno::Errno;

/// `int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)`
///
/// The provider's `query_device_ex` with the legacy attribute size. 0, or the positive errno.
/// Divergence: NULL arguments give EINVAL (rdma-core crashes).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_query_device(context: *mut ibv_context, device_attr: *mut ibv_device_attr) -> Raw<c_int> {
    // SAFETY: the C contract; NULL arguments are refused there.
    unsafe { crate::verbs::query::query_device(context, device_attr) }
}

/// `int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)`
///
/// The exported symbol behind verbs.h's inline `ibv_query_port` for contexts without the
/// `query_port` slot, and for old binaries: fills the pre-`port_cap_flags2` attribute layout
/// (52 bytes). 0, or the positive errno. Divergence: NULL arguments give EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_query_port(
    context: *mut ibv_context,
    port_num: u8,
    port_attr: *mut _compat_ibv_port_attr,
) -> Raw<c_int> {
    // SAFETY: the C contract; NULL arguments are refused there.
    unsafe { crate::verbs::query::query_port_compat(context, port_num, port_attr) }
}

/// `int ibv_query_port_speed(struct ibv_context *context, uint32_t port_num, uint64_t *port_speed)`
///
/// The port's effective speed: the provider's `query_port_speed` (ABI 65: efa and mlx5 ask the
/// kernel through `ibv_cmd_query_port_speed`). Without one (every ABI-34 provider) this answers
/// as rdma-core's default: EOPNOTSUPP (positive, errno untouched), `*port_speed` untouched.
/// Divergence: a NULL `context` gives EINVAL (errno set).
#[export("IBVERBS_1.16")]
fn ibv_query_port_speed(
    context: *mut ibv_context,
    port_num: u32,
    port_speed: *mut u64,
) -> Raw<c_int> {
    if context.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: an open context of this library; the provider's op takes what the caller gave.
    unsafe {
        match crate::verbs::ctxpriv::ops_of(context).query_port_speed {
            Some(f) => f(context, port_num, port_speed),
            None => quiet(Errno::EOPNOTSUPP),
        }
    }
}

/// The body of [`ibv_query_gid`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_query_gid`].
#[inline(always)]
pub(crate) unsafe fn query_gid_edge(
    context: *mut ibv_context,
    port_num: u8,
    index: c_int,
    gid: *mut ibv_gid,
) -> c_int {
    if context.is_null() || gid.is_null() {
        return Err(Errno::EINVAL).ret_minus_one();
    }
    // SAFETY: zeroed plain data.
    let mut entry: ibv_gid_entry = unsafe { core::mem::zeroed() };
    // SAFETY: an open context; entry is ours.
    let r = unsafe {
        crate::verbs::gid::query_gid_entry(
            context,
            port_num.into(),
            index as u32,
            &mut entry,
            size_of::<ibv_gid_entry>(),
            0,
            ATTR_GID,
        )
    };
    match r {
        // SAFETY: the caller's GID buffer.
        Ok(()) => unsafe { *gid = entry.gid },
        // An empty slot: the zero GID and success, with errno left at ENODATA as rdma-core's
        // failed kernel query leaves it.
        Err(e) if e.0 == libc::ENODATA => {
            // SAFETY: as above.
            unsafe { *gid = core::mem::zeroed() };
            crate::sys::set_errno(libc::ENODATA);
        }
        Err(e) => return Err(e).ret_minus_one(),
    }
    0
}

/// `int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)`
///
/// One GID; an empty table slot reads as the zero GID with success. -1 with errno on failure.
/// Divergence: NULL arguments give -1 with errno EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_query_gid(
    context: *mut ibv_context,
    port_num: u8,
    index: c_int,
    gid: *mut ibv_gid,
) -> Raw<c_int> {
    // SAFETY: the export's C contract is the body's.
    unsafe { query_gid_edge(context, port_num, index, gid) }
}

const ATTR_GID: u32 = VERBS_QUERY_GID_ATTR_GID as u32;
const ATTR_ALL: u32 = VERBS_QUERY_GID_ATTR_GID as u32
    | VERBS_QUERY_GID_ATTR_TYPE as u32
    | VERBS_QUERY_GID_ATTR_NDEV_IFINDEX as u32;

/// `int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num, uint32_t gid_index, struct ibv_gid_entry *entry, uint32_t flags, size_t entry_size)`
///
/// One GID table entry (GID, type, net device): the kernel's answer, or sysfs's on kernels
/// without the ioctl. 0, or the positive errno (ENODATA for an empty slot).
/// Divergence: NULL arguments give EINVAL.
#[export("IBVERBS_1.11")]
fn _ibv_query_gid_ex(
    context: *mut ibv_context,
    port_num: u32,
    gid_index: u32,
    entry: *mut ibv_gid_entry,
    flags: u32,
    entry_size: usize,
) -> Raw<c_int> {
    if context.is_null() || entry.is_null() || entry_size < size_of::<ibv_gid_entry>() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: an open context and the caller's entry.
    unsafe {
        crate::verbs::gid::query_gid_entry(
            context, port_num, gid_index, entry, entry_size, flags, ATTR_ALL,
        )
    }
    .ret_errno()
}

/// `ssize_t _ibv_query_gid_table(struct ibv_context *context, struct ibv_gid_entry *entries, size_t max_entries, uint32_t flags, size_t entry_size)`
///
/// Every non-empty GID of every port, as entries `entry_size` bytes apart. The count, or the
/// negated errno (EINVAL when more than `max_entries` exist). Divergence: NULL context EINVAL.
#[export("IBVERBS_1.11")]
fn _ibv_query_gid_table(
    context: *mut ibv_context,
    entries: *mut ibv_gid_entry,
    max_entries: usize,
    flags: u32,
    entry_size: usize,
) -> Raw<libc::ssize_t> {
    if context.is_null() || (entries.is_null() && max_entries > 0) {
        return ret_neg_errno_count(Err(Errno::EINVAL));
    }
    // SAFETY: an open context; the caller's array holds max_entries entries of entry_size bytes.
    let r = unsafe {
        crate::verbs::gid::query_gid_table(context, entries, max_entries, flags, entry_size)
    };
    ret_neg_errno_count(r.map(|n| n as isize))
}

/// `int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index, __be16 *pkey)`
///
/// `ports/<port>/pkeys/<index>` from sysfs, in network order. -1 on failure (errno from the
/// read). Divergence: NULL arguments give -1 with errno EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_query_pkey(
    context: *mut ibv_context,
    port_num: u8,
    index: c_int,
    pkey: *mut u16,
) -> Raw<c_int> {
    // SAFETY: an open context or NULL (refused); the caller's buffer.
    unsafe { crate::verbs::objects::query_pkey(context, port_num, index, pkey) }.ret_minus_one()
}

/// `int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num, __be16 pkey)`
///
/// The first table index holding `pkey` (network order), or -1 when the table ends first.
#[export("IBVERBS_1.5")]
fn ibv_get_pkey_index(context: *mut ibv_context, port_num: u8, pkey: u16) -> Raw<c_int> {
    let mut i: c_int = 0;
    loop {
        let mut v = 0u16;
        // SAFETY: an open context or NULL (refused, as ibv_query_pkey does); v is ours.
        if unsafe { crate::verbs::objects::query_pkey(context, port_num, i, &mut v) }
            .ret_minus_one()
            < 0
        {
            return -1;
        }
        if v == pkey {
            return i;
        }
        i = match i.checked_add(1) {
            Some(n) => n,
            None => return -1,
        };
    }
}
