//! Queue pairs and their ECE (rdma-core: verbs.c).
//!
//! The verbs go to the context's op table (`get_ops`), whose slots hold the provider's op or
//! the default that fails EOPNOTSUPP; a provider's return value (and its errno) passes through
//! untouched. What the library adds is its bookkeeping: `qp->state` after a modify or query
//! that covers the state.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::c_int;

use super::ret::ret_or;
use crate::abi::ctype::CEnum;
use crate::abi::driver::verbs_qp;
use crate::abi::driver::verbs_qp_mask::{VERBS_QP_EX, VERBS_QP_XRCD};
use crate::abi::verbs::ibv_qp_attr_mask::IBV_QP_STATE;
use crate::abi::verbs::ibv_query_qp_data_in_order_caps::*;
use crate::abi::verbs::ibv_query_qp_data_in_order_flags::*;
use crate::abi::verbs::{
    ibv_ece, ibv_pd, ibv_qp, ibv_qp_attr, ibv_qp_ex, ibv_qp_init_attr, ibv_wr_opcode,
};
use crate::cret::CRet;
use crate::cret::ret_status;
use crate::errno::Errno;
use crate::verbs::ctxpriv::ops_of;

/// The body of [`ibv_create_qp`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_create_qp`].
#[inline(always)]
pub(crate) unsafe fn create_qp_edge(
    pd: *mut ibv_pd,
    qp_init_attr: *mut ibv_qp_init_attr,
) -> *mut ibv_qp {
    // SAFETY: the caller's PD (of an open context) and attributes.
    unsafe {
        if pd.is_null() || (*pd).context.is_null() || qp_init_attr.is_null() {
            return Err(Errno::EINVAL).ret_null();
        }
        match ops_of((*pd).context).create_qp {
            Some(f) => f(pd, qp_init_attr),
            None => Err(Errno::EOPNOTSUPP).ret_null(),
        }
    }
}

/// `struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)`
///
/// The provider's `create_qp`: a QP in state RESET with the granted capabilities written back
/// into `qp_init_attr->cap`, or NULL with errno. Divergence: NULL arguments give NULL with
/// errno EINVAL (rdma-core crashes).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_create_qp(pd: *mut ibv_pd, qp_init_attr: *mut ibv_qp_init_attr) -> Raw<*mut ibv_qp> {
    // SAFETY: the export's C contract is the body's.
    unsafe { create_qp_edge(pd, qp_init_attr) }
}

/// `int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init_attr)`
///
/// The provider's `query_qp`; on success with IBV_QP_STATE in the mask, `qp->state` takes the
/// reported state. 0, or the provider's positive errno. Divergence: NULL arguments give EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_query_qp(
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    init_attr: *mut ibv_qp_init_attr,
) -> Raw<c_int> {
    // SAFETY: the caller's QP and buffers, or NULL (refused).
    ret_status(unsafe { crate::verbs::objects::query_qp(qp, attr, attr_mask, init_attr) })
}

/// The body of [`ibv_modify_qp`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_modify_qp`].
#[inline(always)]
pub(crate) unsafe fn modify_qp_edge(
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
) -> c_int {
    // SAFETY: the caller's QP and attributes.
    unsafe {
        if qp.is_null() || (*qp).context.is_null() || attr.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let Some(f) = ops_of((*qp).context).modify_qp else {
            return Errno::EOPNOTSUPP.ret_errno();
        };
        let ret = f(qp, attr, attr_mask);
        if ret == 0 && attr_mask & IBV_QP_STATE as c_int != 0 {
            (*qp).state = (*attr).qp_state;
        }
        ret
    }
}

/// `int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)`
///
/// The provider's `modify_qp`; on success with IBV_QP_STATE in the mask, `qp->state` becomes
/// `attr->qp_state`. 0, or the provider's positive errno. Divergence: NULL arguments give
/// EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_modify_qp(qp: *mut ibv_qp, attr: *mut ibv_qp_attr, attr_mask: c_int) -> Raw<c_int> {
    // SAFETY: the export's C contract is the body's.
    unsafe { modify_qp_edge(qp, attr, attr_mask) }
}

/// The body of [`ibv_destroy_qp`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_destroy_qp`].
#[inline(always)]
pub(crate) unsafe fn destroy_qp_edge(qp: *mut ibv_qp) -> c_int {
    // SAFETY: the caller's QP.
    unsafe {
        if qp.is_null() || (*qp).context.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        match ops_of((*qp).context).destroy_qp {
            Some(f) => f(qp),
            None => Errno::EOPNOTSUPP.ret_errno(),
        }
    }
}

/// `int ibv_destroy_qp(struct ibv_qp *qp)`
///
/// The provider's `destroy_qp` (which waits for the QP's async events to be acknowledged).
/// 0, or the provider's positive errno. Divergence: NULL gives EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_destroy_qp(qp: *mut ibv_qp) -> Raw<c_int> {
    // SAFETY: the export's C contract is the body's.
    unsafe { destroy_qp_edge(qp) }
}

/// `struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)`
///
/// The extended view of a QP its provider created with the extended interface (its
/// `verbs_qp` carries VERBS_QP_EX): the same address. NULL, errno untouched, for any other QP.
/// Divergence: NULL gives NULL with errno EINVAL.
///
/// Within provider ABI 34 `verbs_qp` has two layouts (see [`vqp_is_ex`]); both are understood.
#[export("IBVERBS_1.6")]
fn ibv_qp_to_qp_ex(qp: *mut ibv_qp) -> Raw<*mut ibv_qp_ex> {
    if qp.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: as rdma-core, every provider QP is the head of a verbs_qp (either layout is at
    // least as long as the v44 one read here).
    let (at_352, at_360) = unsafe {
        let v = qp.cast::<verbs_qp>();
        ((*v).comp_mask, (&raw const (*v).xrcd).cast::<u32>().read())
    };
    if vqp_is_ex(at_352, at_360) {
        qp.cast()
    } else {
        core::ptr::null_mut()
    }
}

/// Whether a provider's `verbs_qp` carries VERBS_QP_EX, from its 32-bit words at byte 352 and
/// 360 (right after the v44 `ibv_qp_ex`).
///
/// Providers built from rdma-core v44 headers (Debian 12) keep `comp_mask` at 352 and the low
/// half of `xrcd` at 360 (non-NULL only with VERBS_QP_XRCD). Those built from v45-v56 headers
/// (Debian 13; still provider ABI 34) appended `wr_flush` to `ibv_qp_ex`: 352 is the low half
/// of that function pointer (NULL, or an address with bits beyond the two mask bits), and
/// `comp_mask` is at 360. So: a word at 352 that is a valid mask answers; a zero one defers to
/// 360 (zero in a v44 struct without XRCD); anything else is a pointer, and 360 answers.
fn vqp_is_ex(at_352: u32, at_360: u32) -> bool {
    let (xrcd, ex) = (VERBS_QP_XRCD as u32, VERBS_QP_EX as u32);
    match at_352 {
        0 => at_360 & ex != 0,
        m if m & !(xrcd | ex) == 0 => m & ex != 0,
        _ => at_360 & ex != 0,
    }
}

/// `int ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t flags)`
///
/// Whether data of operation `op` lands in memory in order (rdma-core v65 semantics): flags
/// other than RETURN_CAPS and DEVICE_ONLY give 0; otherwise the provider's answer, where a
/// whole-message guarantee implies the 128-byte one — returned as capability bits with
/// RETURN_CAPS, else as 1 (whole message in order) or 0. Providers without the op answer 0.
/// Divergence: NULL gives 0 with errno EINVAL.
#[export("IBVERBS_1.14")]
fn ibv_query_qp_data_in_order(qp: *mut ibv_qp, op: CEnum<ibv_wr_opcode>, flags: u32) -> Raw<c_int> {
    // SAFETY: the caller's QP.
    unsafe {
        if qp.is_null() || (*qp).context.is_null() {
            return ret_or(Err(Errno::EINVAL), 0);
        }
        let known = IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS as u32
            | IBV_QUERY_QP_DATA_IN_ORDER_DEVICE_ONLY as u32;
        if flags & !known != 0 {
            return 0;
        }
        let Some(f) = ops_of((*qp).context).query_qp_data_in_order else {
            return 0;
        };
        let mut result = f(qp, op.raw(), flags);
        if result & IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG as c_int != 0 {
            result |= IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES as c_int;
        }
        if flags & IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS as u32 != 0 {
            result
        } else {
            c_int::from(result & IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG as c_int != 0)
        }
    }
}

/// `int ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)`
///
/// The provider's `set_ece`; a zero `vendor_id` is EOPNOTSUPP (errno set) without asking it.
/// 0, or the positive errno. Divergence: NULL arguments give EINVAL.
#[export("IBVERBS_1.10")]
fn ibv_set_ece(qp: *mut ibv_qp, ece: *mut ibv_ece) -> Raw<c_int> {
    // SAFETY: the caller's QP and ECE record.
    unsafe {
        if qp.is_null() || (*qp).context.is_null() || ece.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        if (*ece).vendor_id == 0 {
            return Errno::EOPNOTSUPP.ret_errno();
        }
        match ops_of((*qp).context).set_ece {
            Some(f) => f(qp, ece),
            None => Errno::EOPNOTSUPP.ret_errno(),
        }
    }
}

/// `int ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)`
///
/// The provider's `query_ece`. 0, or the positive errno (EOPNOTSUPP, errno untouched, from a
/// provider without ECE). Divergence: NULL arguments give EINVAL.
#[export("IBVERBS_1.10")]
fn ibv_query_ece(qp: *mut ibv_qp, ece: *mut ibv_ece) -> Raw<c_int> {
    // SAFETY: the caller's QP and ECE record.
    unsafe {
        if qp.is_null() || (*qp).context.is_null() || ece.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        match ops_of((*qp).context).query_ece {
            Some(f) => f(qp, ece),
            None => Errno::EOPNOTSUPP.ret_errno(),
        }
    }
}

#[cfg(test)]
#[path = "qp_tests.rs"]
mod tests;
