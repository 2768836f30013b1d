//! Completion counters, IBVERBS_1.18 (rdma-core: verbs.c).
//!
//! rdma-core hands every one of these to a context op that provider ABI 34 does not have, so each
//! answers as rdma-core's default op does for a provider without it: EOPNOTSUPP (NULL with errno
//! for `ibv_create_comp_cntr`; the positive value, errno untouched, for the others).
//! Divergence throughout: a NULL object, or a NULL `context` inside one, gives EINVAL (errno
//! set) where rdma-core would crash.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::verbs::{
    ibv_comp_cntr, ibv_comp_cntr_caps, ibv_comp_cntr_init_attr, ibv_context, ibv_qp,
    ibv_qp_attach_comp_cntr_attr,
};
use crate::errno::{CRet, Errno};

/// EOPNOTSUPP for a live counter (its context set), EINVAL otherwise.
///
/// # Safety
/// A non-NULL `c` is a live counter.
unsafe fn no_op(c: *mut ibv_comp_cntr) -> c_int {
    // SAFETY: the caller's contract.
    match unsafe { c.as_ref() } {
        Some(c) if !c.context.is_null() => libc::EOPNOTSUPP,
        _ => Err::<(), _>(Errno::EINVAL).ret_errno(),
    }
}

/// `int _ibv_query_comp_cntr_caps(struct ibv_context *context, struct ibv_comp_cntr_caps *caps, size_t caps_size)`
///
/// Zeroes the first `caps_size` bytes of `caps`, then EOPNOTSUPP (no `query_comp_cntr_caps`
/// op at provider ABI 34). Divergence: a NULL `context`, or a NULL `caps` with a non-zero size,
/// gives EINVAL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _ibv_query_comp_cntr_caps(
    context: *mut ibv_context,
    caps: *mut ibv_comp_cntr_caps,
    caps_size: usize,
) -> c_int {
    if context.is_null() || (caps.is_null() && caps_size != 0) {
        return Err::<(), _>(Errno::EINVAL).ret_errno();
    }
    if caps_size != 0 {
        // SAFETY: the caller's buffer of caps_size bytes.
        unsafe { core::ptr::write_bytes(caps.cast::<u8>(), 0, caps_size) };
    }
    libc::EOPNOTSUPP
}

/// `struct ibv_comp_cntr *ibv_create_comp_cntr(struct ibv_context *context, struct ibv_comp_cntr_init_attr *cc_attr)`
///
/// NULL with errno EOPNOTSUPP (no `create_comp_cntr` op at provider ABI 34). Divergence: a NULL
/// `context` gives EINVAL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_create_comp_cntr(
    context: *mut ibv_context,
    cc_attr: *mut ibv_comp_cntr_init_attr,
) -> *mut ibv_comp_cntr {
    if context.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    Err(Errno::EOPNOTSUPP).ret_null()
}

/// `int ibv_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)`
///
/// EOPNOTSUPP (no `destroy_comp_cntr` op at provider ABI 34).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_destroy_comp_cntr(comp_cntr: *mut ibv_comp_cntr) -> c_int {
    // SAFETY: the caller's counter, or NULL.
    unsafe { no_op(comp_cntr) }
}

/// `int ibv_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// EOPNOTSUPP (no `set_comp_cntr` op at provider ABI 34).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_set_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: u64) -> c_int {
    // SAFETY: the caller's counter, or NULL.
    unsafe { no_op(comp_cntr) }
}

/// `int ibv_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// EOPNOTSUPP (no `set_err_comp_cntr` op at provider ABI 34).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_set_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: u64) -> c_int {
    // SAFETY: the caller's counter, or NULL.
    unsafe { no_op(comp_cntr) }
}

/// `int ibv_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// EOPNOTSUPP (no `inc_comp_cntr` op at provider ABI 34).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_inc_comp_cntr(comp_cntr: *mut ibv_comp_cntr, amount: u64) -> c_int {
    // SAFETY: the caller's counter, or NULL.
    unsafe { no_op(comp_cntr) }
}

/// `int ibv_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// EOPNOTSUPP (no `inc_err_comp_cntr` op at provider ABI 34).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_inc_err_comp_cntr(
    comp_cntr: *mut ibv_comp_cntr,
    amount: u64,
) -> c_int {
    // SAFETY: the caller's counter, or NULL.
    unsafe { no_op(comp_cntr) }
}

/// `int ibv_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// EOPNOTSUPP (no `read_comp_cntr` op at provider ABI 34); `*value` untouched.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_read_comp_cntr(
    comp_cntr: *mut ibv_comp_cntr,
    value: *mut u64,
) -> c_int {
    // SAFETY: the caller's counter, or NULL.
    unsafe { no_op(comp_cntr) }
}

/// `int ibv_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// EOPNOTSUPP (no `read_err_comp_cntr` op at provider ABI 34); `*value` untouched.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_read_err_comp_cntr(
    comp_cntr: *mut ibv_comp_cntr,
    value: *mut u64,
) -> c_int {
    // SAFETY: the caller's counter, or NULL.
    unsafe { no_op(comp_cntr) }
}

/// `int ibv_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr, struct ibv_qp_attach_comp_cntr_attr *attr)`
///
/// EOPNOTSUPP (no `qp_attach_comp_cntr` op at provider ABI 34). Divergence: a NULL `qp` or QP
/// context gives EINVAL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_qp_attach_comp_cntr(
    qp: *mut ibv_qp,
    comp_cntr: *mut ibv_comp_cntr,
    attr: *mut ibv_qp_attach_comp_cntr_attr,
) -> c_int {
    // SAFETY: the caller's QP, or NULL.
    match unsafe { qp.as_ref() } {
        Some(q) if !q.context.is_null() => libc::EOPNOTSUPP,
        _ => Err::<(), _>(Errno::EINVAL).ret_errno(),
    }
}
