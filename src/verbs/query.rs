//! Device and port queries on an open context (rdma-core: verbs.c `__ibv_query_device`,
//! `__lib_query_port`, `__ibv_query_port`).
//!
//! These are op-table slots as much as verbs: the context's `query_port` slot and the
//! `_compat_query_*` slots old binaries call directly hold the functions below, and the exports
//! of [`capi::context`](crate::capi::context) forward to them. C conventions as rdma-core's: 0 or
//! the positive errno, a provider's answer passed on as it is (errno untouched), the library's own
//! refusals with errno set. Called by `capi`, [`verbs::context`](crate::verbs::context) (the slots)
//! and [`verbs::gid`](crate::verbs::gid).
use core::ffi::c_int;

use crate::errno::Result;

use crate::abi::verbs::{
    _compat_ibv_port_attr, ibv_context, ibv_device_attr, ibv_device_attr_ex, ibv_port_attr,
};
use crate::errno::Errno;
use crate::verbs::ctxpriv::ops_of;
use crate::verbs::handle::{Ctx, Ptr};

/// `ibv_query_device`: the provider's `query_device_ex` with the legacy attribute size (on failure
/// its errno, and errno as it left it).
#[inline]
pub(crate) fn device(ctx: Ctx, attr: Ptr<ibv_device_attr>) -> Result<c_int> {
    let q = ctx.ops().query_device_ex.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its context; `orig_attr` is the first member of
    // ibv_device_attr_ex, so the legacy struct is the head of one, and the size tells the
    // provider to fill only that.
    Ok(unsafe {
        q(
            ctx.raw(),
            core::ptr::null(),
            attr.as_ptr().cast::<ibv_device_attr_ex>(),
            size_of::<ibv_device_attr>(),
        )
    })
}

/// `ibv_query_port`: the exported symbol behind verbs.h's inline `ibv_query_port` for contexts
/// without the `query_port` slot, and for old binaries: fills the pre-`port_cap_flags2` attribute
/// layout (`struct _compat_ibv_port_attr`, [`COMPAT_PORT_ATTR_SIZE`] bytes).
#[inline]
pub(crate) fn port_compat(ctx: Ctx, port_num: u8, attr: Ptr<_compat_ibv_port_attr>) -> c_int {
    // SAFETY: an open context and the caller's compat-sized attribute (the handles' contract).
    unsafe {
        lib_query_port(
            ctx.raw(),
            port_num,
            attr.as_ptr().cast(),
            COMPAT_PORT_ATTR_SIZE,
        )
    }
}

/// `ibv_query_device` as the context's `_compat_query_device` slot (old binaries call it
/// directly): [`device`]. Divergence: NULL arguments give EINVAL (rdma-core crashes).
///
/// # Safety
/// `context` is NULL or open; `device_attr` is NULL or a writable `ibv_device_attr`.
pub(crate) unsafe extern "C" fn query_device(
    context: *mut ibv_context,
    device_attr: *mut ibv_device_attr,
) -> c_int {
    // SAFETY: the caller's contract.
    let c = unsafe { Ctx::from_raw(context) };
    // SAFETY: the export's contract: `device_attr` is NULL or valid for the call.
    let a = unsafe { Ptr::from_raw(device_attr) };
    crate::cret::ret_status(c.and_then(|c| device(c, a?)))
}

/// `ibv_query_port` (the compat layout) as the context's `_compat_query_port` slot: fills the
/// pre-`port_cap_flags2` attribute layout.
///
/// # Safety
/// `context` is NULL or open; `port_attr` is NULL or a writable `_compat_ibv_port_attr`.
pub(crate) unsafe extern "C" fn query_port_compat(
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
///
/// # Safety
/// `context` is NULL or open; `port_attr` is NULL or `port_attr_len` writable bytes.
pub(crate) unsafe extern "C" fn lib_query_port(
    context: *mut ibv_context,
    port_num: u8,
    port_attr: *mut ibv_port_attr,
    port_attr_len: usize,
) -> c_int {
    if context.is_null() || port_attr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: an open context (the caller's contract).
    let Some(q) = unsafe { ops_of(context) }.query_port else {
        return Errno::EOPNOTSUPP.ret_errno();
    };
    if port_attr_len == size_of::<ibv_port_attr>() {
        // The usual caller (verbs.h's inline ibv_query_port): a few stores instead of a call to
        // memset, and a tail call to the provider.
        // SAFETY: plain C data: all-zero bytes are a valid value.
        let zero: ibv_port_attr = unsafe { core::mem::zeroed() };
        // SAFETY: the caller's buffer holds a whole ibv_port_attr.
        unsafe { port_attr.write_unaligned(zero) };
        // SAFETY: the provider's op on its context, into the caller's full-sized attribute.
        return unsafe { q(context, port_num, port_attr) };
    }
    if port_attr_len < size_of::<ibv_port_attr>() {
        // SAFETY: plain C data: all-zero bytes are a valid value.
        let mut tmp: ibv_port_attr = unsafe { core::mem::zeroed() };
        // SAFETY: the provider's op on its context, into a full-sized attribute of ours.
        let rc = unsafe { q(context, port_num, &mut tmp) };
        if rc != 0 {
            return rc;
        }
        let src = (&raw const tmp).cast::<u8>();
        // SAFETY: the caller's buffer has port_attr_len bytes, fewer than `tmp` has.
        unsafe { core::ptr::copy_nonoverlapping(src, port_attr.cast::<u8>(), port_attr_len) };
        return 0;
    }
    // SAFETY: the caller's buffer has port_attr_len bytes.
    unsafe { core::ptr::write_bytes(port_attr.cast::<u8>(), 0, port_attr_len) };
    // SAFETY: the provider's op on its context, into the caller's full-sized attribute.
    unsafe { q(context, port_num, port_attr) }
}

/// `ibv_cmd_query_port_speed`: QUERY_PORT_SPEED (ioctl only:
/// [`cmd::device::query_port_speed`](crate::cmd::device::query_port_speed); rdma-core v62 on): the
/// port's speed; EOPNOTSUPP from a kernel without the method.
pub(crate) fn cmd_port_speed(
    ctx: crate::verbs::handle::Ctx,
    port_num: u32,
) -> crate::errno::Result<u64> {
    crate::cmd::device::query_port_speed(ctx.channel().cmd(), port_num)
}
