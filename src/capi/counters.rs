//! Completion counters, IBVERBS_1.18 (rdma-core: verbs.c).
//!
//! rdma-core hands every one of these to a context op that only provider ABI 65 has: an ABI-65
//! provider's op (efa's, over `ibv_cmd_*_comp_cntr`) is called as is; without one (every ABI-34
//! provider) each answers as rdma-core's default op does: EOPNOTSUPP (NULL with errno for
//! `ibv_create_comp_cntr`; the positive value, errno untouched, for the others).
//! Divergence throughout: a NULL object, or a NULL `context` inside one, gives EINVAL (errno
//! set) where rdma-core would crash.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::c_int;

use crate::abi::driver::verbs_context_ops as Ops;
use crate::abi::verbs::{
    ibv_comp_cntr, ibv_comp_cntr_caps, ibv_comp_cntr_init_attr, ibv_context, ibv_qp,
    ibv_qp_attach_comp_cntr_attr,
};
use crate::cret::CRet;
use crate::cret::quiet;
use crate::errno::Errno;

/// The op `pick` chooses from the provider of a live counter (its context set), or the value to
/// return instead: EOPNOTSUPP (errno untouched) when the provider has none (every ABI-34
/// provider), EINVAL (errno set) for a NULL counter or context.
///
/// # Safety
/// A non-NULL `c` is a live counter of a context of this library.
unsafe fn cntr_op<F>(
    c: *mut ibv_comp_cntr,
    pick: impl FnOnce(&Ops) -> Option<F>,
) -> Result<F, c_int> {
    // SAFETY: the caller's contract.
    match unsafe { c.as_ref() } {
        Some(x) if !x.context.is_null() => {
            // SAFETY: as above: the counter's open context.
            pick(unsafe { crate::verbs::ctxpriv::ops_of(x.context) }).ok_or(libc::EOPNOTSUPP)
        }
        _ => Err(Errno::EINVAL.ret_errno()),
    }
}

/// `int _ibv_query_comp_cntr_caps(struct ibv_context *context, struct ibv_comp_cntr_caps *caps, size_t caps_size)`
///
/// Zeroes the first `caps_size` bytes of `caps`, then the provider's `query_comp_cntr_caps`
/// (ABI 65), else EOPNOTSUPP. Divergence: a NULL `context`, a NULL `caps` with a non-zero size,
/// or a size past isize::MAX, gives EINVAL (rdma-core's memset crashes).
#[export("IBVERBS_1.18")]
fn _ibv_query_comp_cntr_caps(
    context: *mut ibv_context,
    caps: *mut ibv_comp_cntr_caps,
    caps_size: usize,
) -> Raw<c_int> {
    // No object is longer than isize::MAX bytes: such a size is garbage.
    if context.is_null() || (caps.is_null() && caps_size != 0) || caps_size > isize::MAX as usize {
        return Errno::EINVAL.ret_errno();
    }
    if caps_size != 0 {
        // SAFETY: the caller's buffer of caps_size bytes.
        unsafe { core::ptr::write_bytes(caps.cast::<u8>(), 0, caps_size) };
    }
    // SAFETY: an open context of this library; the provider's op takes what the caller gave.
    unsafe {
        match crate::verbs::ctxpriv::ops_of(context).query_comp_cntr_caps {
            Some(f) => f(context, caps, caps_size),
            None => quiet(Errno::EOPNOTSUPP),
        }
    }
}

/// `struct ibv_comp_cntr *ibv_create_comp_cntr(struct ibv_context *context, struct ibv_comp_cntr_init_attr *cc_attr)`
///
/// The provider's `create_comp_cntr` (ABI 65), else NULL with errno EOPNOTSUPP. Divergence: a NULL
/// `context` gives EINVAL.
#[export("IBVERBS_1.18")]
fn ibv_create_comp_cntr(
    context: *mut ibv_context,
    cc_attr: *mut ibv_comp_cntr_init_attr,
) -> Raw<*mut ibv_comp_cntr> {
    if context.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: an open context of this library; the provider's op takes what the caller gave.
    unsafe {
        match crate::verbs::ctxpriv::ops_of(context).create_comp_cntr {
            Some(f) => f(context, cc_attr),
            None => Err(Errno::EOPNOTSUPP).ret_null(),
        }
    }
}

/// `int ibv_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)`
///
/// The provider's `destroy_comp_cntr` (ABI 65), else EOPNOTSUPP.
#[export("IBVERBS_1.18")]
fn ibv_destroy_comp_cntr(comp_cntr: *mut ibv_comp_cntr) -> Raw<c_int> {
    // SAFETY: the caller's counter, or NULL; the provider's op takes what the caller gave.
    unsafe {
        match cntr_op(comp_cntr, |o| o.destroy_comp_cntr) {
            Ok(f) => f(comp_cntr),
            Err(r) => r,
        }
    }
}

/// `int ibv_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// The provider's `set_comp_cntr` (ABI 65), else EOPNOTSUPP.
#[export("IBVERBS_1.18")]
fn ibv_set_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: u64) -> Raw<c_int> {
    // SAFETY: the caller's counter, or NULL; the provider's op takes what the caller gave.
    unsafe {
        match cntr_op(comp_cntr, |o| o.set_comp_cntr) {
            Ok(f) => f(comp_cntr, value),
            Err(r) => r,
        }
    }
}

/// `int ibv_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// The provider's `set_err_comp_cntr` (ABI 65), else EOPNOTSUPP.
#[export("IBVERBS_1.18")]
fn ibv_set_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: u64) -> Raw<c_int> {
    // SAFETY: the caller's counter, or NULL; the provider's op takes what the caller gave.
    unsafe {
        match cntr_op(comp_cntr, |o| o.set_err_comp_cntr) {
            Ok(f) => f(comp_cntr, value),
            Err(r) => r,
        }
    }
}

/// `int ibv_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// The provider's `inc_comp_cntr` (ABI 65), else EOPNOTSUPP.
#[export("IBVERBS_1.18")]
fn ibv_inc_comp_cntr(comp_cntr: *mut ibv_comp_cntr, amount: u64) -> Raw<c_int> {
    // SAFETY: the caller's counter, or NULL; the provider's op takes what the caller gave.
    unsafe {
        match cntr_op(comp_cntr, |o| o.inc_comp_cntr) {
            Ok(f) => f(comp_cntr, amount),
            Err(r) => r,
        }
    }
}

/// `int ibv_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// The provider's `inc_err_comp_cntr` (ABI 65), else EOPNOTSUPP.
#[export("IBVERBS_1.18")]
fn ibv_inc_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, amount: u64) -> Raw<c_int> {
    // SAFETY: the caller's counter, or NULL; the provider's op takes what the caller gave.
    unsafe {
        match cntr_op(comp_cntr, |o| o.inc_err_comp_cntr) {
            Ok(f) => f(comp_cntr, amount),
            Err(r) => r,
        }
    }
}

/// `int ibv_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The provider's `read_comp_cntr` (ABI 65), else EOPNOTSUPP; `*value` untouched.
#[export("IBVERBS_1.18")]
fn ibv_read_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: *mut u64) -> Raw<c_int> {
    // SAFETY: the caller's counter, or NULL; the provider's op takes what the caller gave.
    unsafe {
        match cntr_op(comp_cntr, |o| o.read_comp_cntr) {
            Ok(f) => f(comp_cntr, value),
            Err(r) => r,
        }
    }
}

/// `int ibv_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The provider's `read_err_comp_cntr` (ABI 65), else EOPNOTSUPP; `*value` untouched.
#[export("IBVERBS_1.18")]
fn ibv_read_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: *mut u64) -> Raw<c_int> {
    // SAFETY: the caller's counter, or NULL; the provider's op takes what the caller gave.
    unsafe {
        match cntr_op(comp_cntr, |o| o.read_err_comp_cntr) {
            Ok(f) => f(comp_cntr, value),
            Err(r) => r,
        }
    }
}

/// `int ibv_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr, struct ibv_qp_attach_comp_cntr_attr *attr)`
///
/// The provider's `qp_attach_comp_cntr` (ABI 65), else EOPNOTSUPP. Divergence: a NULL `qp` or QP
/// context gives EINVAL.
#[export("IBVERBS_1.18")]
fn ibv_qp_attach_comp_cntr(
    qp: *mut ibv_qp,
    comp_cntr: *mut ibv_comp_cntr,
    attr: *mut ibv_qp_attach_comp_cntr_attr,
) -> Raw<c_int> {
    // SAFETY: the caller's QP, or NULL; the provider's op takes what the caller gave.
    unsafe {
        match qp.as_ref() {
            Some(q) if !q.context.is_null() => {
                match crate::verbs::ctxpriv::ops_of(q.context).qp_attach_comp_cntr {
                    Some(f) => f(qp, comp_cntr, attr),
                    None => quiet(Errno::EOPNOTSUPP),
                }
            }
            _ => Errno::EINVAL.ret_errno(),
        }
    }
}
