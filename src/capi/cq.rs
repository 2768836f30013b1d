//! Completion queues (rdma-core: verbs.c).
//!
//! The provider makes, resizes and destroys the CQ; the library fills in the core fields
//! (`verbs_init_cq`) and keeps the completion channel's use count, under the context's mutex,
//! which `ibv_destroy_comp_channel` checks.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::{c_int, c_void};

use crate::abi::verbs::{ibv_comp_channel, ibv_context, ibv_cq};
use crate::cret::CRet;
use crate::cret::ret_status;
use crate::errno::Errno;
use crate::verbs::ctxpriv::ops_of;

/// The body of [`ibv_create_cq`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_create_cq`].
#[inline(always)]
pub(crate) unsafe fn create_cq_edge(
    context: *mut ibv_context,
    cqe: c_int,
    cq_context: *mut c_void,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
) -> *mut ibv_cq {
    if context.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: an open context of this library; the provider's op sets errno on failure.
    unsafe {
        let Some(create) = ops_of(context).create_cq else {
            return Err(Errno::EOPNOTSUPP).ret_null();
        };
        let cq = create(context, cqe, channel, comp_vector);
        if !cq.is_null() {
            crate::verbs::context::init_cq(cq, context, channel, cq_context);
        }
        cq
    }
}

/// `struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)`
///
/// A CQ of at least `cqe` entries from the provider's `create_cq` op, its completion events going
/// to `channel` (optional; its use count goes up) on vector `comp_vector`. NULL with errno on
/// failure (the provider's or kernel's: EINVAL for a `cqe` below 1 or above the device's
/// `max_cqe` on rxe). Divergence: a NULL context gives EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_create_cq(
    context: *mut ibv_context,
    cqe: c_int,
    cq_context: *mut c_void,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
) -> Raw<*mut ibv_cq> {
    // SAFETY: the export's C contract is the body's.
    unsafe { create_cq_edge(context, cqe, cq_context, channel, comp_vector) }
}

/// `int ibv_resize_cq(struct ibv_cq *cq, int cqe)`
///
/// Resizes a CQ to at least `cqe` entries (the provider's `resize_cq` op; `cq->cqe` becomes the
/// new size). 0, or the positive errno. Divergence: NULL gives EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_resize_cq(cq: *mut ibv_cq, cqe: c_int) -> Raw<c_int> {
    // SAFETY: a live CQ of an open context, or NULL (refused).
    ret_status(unsafe { crate::verbs::objects::resize_cq(cq, cqe) })
}

/// `int ibv_destroy_cq(struct ibv_cq *cq)`
///
/// Destroys a CQ through the provider's `destroy_cq` op (which waits until every completion and
/// asynchronous event the kernel reported for it was acknowledged); on success its channel's use
/// count goes down. 0, or the positive errno (the CQ then stays). Divergence: NULL gives EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_destroy_cq(cq: *mut ibv_cq) -> Raw<c_int> {
    // SAFETY: a live CQ of an open context, or NULL (refused).
    ret_status(unsafe { crate::verbs::objects::destroy_cq(cq) })
}
