//! Shared receive queues (rdma-core: verbs.c).
//!
//! The verbs go to the context's op table; a provider's return value (and its errno) passes
//! through untouched. `ibv_create_srq` adds the core fields of the new SRQ.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::c_int;

use crate::abi::verbs::{ibv_pd, ibv_srq, ibv_srq_attr, ibv_srq_init_attr};
use crate::cret::CRet;
use crate::cret::ret_status;

/// `struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *srq_init_attr)`
///
/// The provider's `create_srq`, then the SRQ's context, user context, PD, event count and
/// event lock set by the library; the granted sizes are in `srq_init_attr->attr`. NULL with
/// errno on failure. Divergence: NULL arguments give NULL with errno EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_create_srq(pd: *mut ibv_pd, srq_init_attr: *mut ibv_srq_init_attr) -> Raw<*mut ibv_srq> {
    // SAFETY: the caller's PD (of an open context) and attributes, or NULL (refused).
    unsafe { crate::verbs::objects::create_srq(pd, srq_init_attr) }.ret_null()
}

/// `int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask)`
///
/// The provider's `modify_srq` (IBV_SRQ_MAX_WR resizes, IBV_SRQ_LIMIT arms the limit event).
/// 0, or the provider's positive errno. Divergence: NULL arguments give EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_modify_srq(
    srq: *mut ibv_srq,
    srq_attr: *mut ibv_srq_attr,
    srq_attr_mask: c_int,
) -> Raw<c_int> {
    // SAFETY: the caller's SRQ and attributes, or NULL (refused).
    ret_status(unsafe { crate::verbs::objects::modify_srq(srq, srq_attr, srq_attr_mask) })
}

/// `int ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr)`
///
/// The provider's `query_srq`. 0, or the provider's positive errno. Divergence: NULL arguments
/// give EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_query_srq(srq: *mut ibv_srq, srq_attr: *mut ibv_srq_attr) -> Raw<c_int> {
    // SAFETY: the caller's SRQ and buffer, or NULL (refused).
    ret_status(unsafe { crate::verbs::objects::query_srq(srq, srq_attr) })
}

/// `int ibv_destroy_srq(struct ibv_srq *srq)`
///
/// The provider's `destroy_srq` (which waits for the SRQ's async events to be acknowledged).
/// 0, or the provider's positive errno. Divergence: NULL gives EINVAL.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_destroy_srq(srq: *mut ibv_srq) -> Raw<c_int> {
    // SAFETY: the caller's SRQ, or NULL (refused).
    ret_status(unsafe { crate::verbs::objects::destroy_srq(srq) })
}
