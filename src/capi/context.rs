//! Device, port, GID and P_Key queries on an open context (rdma-core: verbs.c, cmd_device.c), as
//! declarations over `verbs::query` and `verbs::gid`.
//!
//! Divergence throughout: NULL arguments give EINVAL (errno set; -1 where the function returns
//! -1 on failure) where rdma-core would crash.
use core::ffi::c_int;

use crate::abi::verbs::{_compat_ibv_port_attr, ibv_device_attr, ibv_gid, ibv_gid_entry};
use crate::capi::export::export;
use crate::errno::Errno;
use crate::verbs::handle::{Ctx, Ptr};
use crate::verbs::{gid, query};

/// `int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)`
///
/// The C form of [`query::device`]: 0, or the positive errno.
#[export("IBVERBS_1.1")]
fn ibv_query_device(context: Ctx, device_attr: Ptr<ibv_device_attr>) -> Status {
    query::device(context, device_attr)
}

/// `int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)`
///
/// The C form of [`query::port_compat`]: 0, or the positive errno.
#[export("IBVERBS_1.1")]
fn ibv_query_port(context: Ctx, port_num: u8, port_attr: Ptr<_compat_ibv_port_attr>) -> Status {
    Ok(query::port_compat(context, port_num, port_attr))
}

/// `int ibv_query_port_speed(struct ibv_context *context, uint32_t port_num, uint64_t *port_speed)`
///
/// The port's effective speed: the provider's `query_port_speed` (ABI 64 on: efa and mlx5 ask the
/// kernel through `ibv_cmd_query_port_speed`). Without one (every ABI-34 provider) this answers
/// as rdma-core's default: EOPNOTSUPP (positive, errno untouched), `*port_speed` untouched.
#[export("IBVERBS_1.16")]
fn ibv_query_port_speed(context: Ctx, port_num: u32, port_speed: *mut u64) -> Status {
    let op = context.ops().query_port_speed;
    let op = op.ok_or(Errno::EOPNOTSUPP.quiet())?;
    // SAFETY: the provider's op on its own context, with what the caller gave.
    Ok(unsafe { op(context.raw(), port_num, port_speed) })
}

/// `int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)`
///
/// The C form of [`gid::gid`]: 0, or -1 with errno.
#[export("IBVERBS_1.1")]
fn ibv_query_gid(context: Ctx, port_num: u8, index: c_int, gid: Ptr<ibv_gid>) -> MinusOne<c_int> {
    gid::gid(context, port_num, index, gid).map(|()| 0)
}

/// `int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num, uint32_t gid_index, struct ibv_gid_entry *entry, uint32_t flags, size_t entry_size)`
///
/// The C form of [`gid::gid_ex`]: 0, or the positive errno.
#[export("IBVERBS_1.11")]
fn _ibv_query_gid_ex(
    context: Ctx,
    port_num: u32,
    gid_index: u32,
    entry: Ptr<ibv_gid_entry>,
    flags: u32,
    entry_size: usize,
) -> Errno {
    gid::gid_ex(context, port_num, gid_index, entry, flags, entry_size)
}

/// `ssize_t _ibv_query_gid_table(struct ibv_context *context, struct ibv_gid_entry *entries, size_t max_entries, uint32_t flags, size_t entry_size)`
///
/// The C form of [`gid::gid_table`]: the count, or the negated errno.
#[export("IBVERBS_1.11")]
fn _ibv_query_gid_table(
    context: *mut crate::abi::verbs::ibv_context,
    entries: *mut ibv_gid_entry,
    max_entries: usize,
    flags: u32,
    entry_size: usize,
) -> Raw<libc::ssize_t> {
    // Raw: the error is the negated errno, which no convention names.
    // SAFETY: the C contract: NULL or an open context.
    let r = unsafe { Ctx::from_raw(context) }
        .and_then(|c| gid::gid_table(c, entries, max_entries, flags, entry_size));
    super::ret::ret_neg_errno_count(r.map(|n| n as isize))
}

/// `int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index, __be16 *pkey)`
///
/// The C form of [`gid::pkey`]: 0, or -1 with errno.
#[export("IBVERBS_1.1")]
fn ibv_query_pkey(context: Ctx, port_num: u8, index: c_int, pkey: Ptr<u16>) -> MinusOne<c_int> {
    gid::pkey(context, port_num, index, pkey)
}

/// `int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num, __be16 pkey)`
///
/// The C form of [`gid::pkey_index`].
#[export("IBVERBS_1.5")]
fn ibv_get_pkey_index(context: Ctx, port_num: u8, pkey: u16) -> MinusOne<c_int> {
    gid::pkey_index(context, port_num, pkey)
}
