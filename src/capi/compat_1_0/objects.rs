//! The IBVERBS_1.0 object verbs: PD, MR, CQ (and its events), SRQ, QP, AH, multicast
//! (rdma-core: compat-1_0.c), each a declaration over
//! [`verbs::compat_1_0::objects`](crate::verbs::compat_1_0::objects).
//!
//! Constructors wrap what the IBVERBS_1.1 export's core function makes (NULL with errno on
//! failure, the wrapper freed), destructors free the wrapper only once the real object is
//! destroyed, everything else unwraps and forwards. See the module above for the divergences.
use core::ffi::{c_int, c_uint, c_void};

use crate::abi::compat_1_0::{
    ibv_ah_1_0, ibv_cq_1_0, ibv_mr_1_0, ibv_pd_1_0, ibv_qp_1_0, ibv_qp_init_attr_1_0, ibv_srq_1_0,
};
use crate::abi::verbs::{
    ibv_ah_attr, ibv_comp_channel, ibv_gid, ibv_qp_attr, ibv_srq_attr, ibv_srq_init_attr,
};
use crate::capi::export::export;
use crate::verbs::compat_1_0::objects as compat;
use crate::verbs::handle::{Ah10, Cq10, Ctx10, Mr10, Pd10, Ptr, Qp10, Srq10};

/// `struct ibv_pd_1_0 *ibv_alloc_pd(struct ibv_context_1_0 *context)`
///
/// The C form of [`compat::alloc_pd`]: NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_alloc_pd)]
fn ibv_alloc_pd_1_0(context: Ctx10) -> Null<*mut ibv_pd_1_0> {
    compat::alloc_pd(context)
}

/// `int ibv_dealloc_pd(struct ibv_pd_1_0 *pd)`
///
/// The C form of [`compat::dealloc_pd`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_dealloc_pd)]
fn ibv_dealloc_pd_1_0(pd: Pd10) -> Status {
    Ok(compat::dealloc_pd(pd))
}

/// `struct ibv_mr_1_0 *ibv_reg_mr(struct ibv_pd_1_0 *pd, void *addr, size_t length, int access)`
///
/// The C form of [`compat::reg_mr`]: NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_reg_mr)]
fn ibv_reg_mr_1_0(
    pd: Pd10,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> Null<*mut ibv_mr_1_0> {
    compat::reg_mr(pd, addr, length, access)
}

/// `int ibv_dereg_mr(struct ibv_mr_1_0 *mr)`
///
/// The C form of [`compat::dereg_mr`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_dereg_mr)]
fn ibv_dereg_mr_1_0(mr: Mr10) -> Status {
    Ok(compat::dereg_mr(mr))
}

/// `struct ibv_cq_1_0 *ibv_create_cq(struct ibv_context_1_0 *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)`
///
/// The C form of [`compat::create_cq`]: NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_create_cq)]
fn ibv_create_cq_1_0(
    context: Ctx10,
    cqe: c_int,
    cq_context: *mut c_void,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
) -> Null<*mut ibv_cq_1_0> {
    compat::create_cq(context, cqe, cq_context, channel, comp_vector)
}

/// `int ibv_resize_cq(struct ibv_cq_1_0 *cq, int cqe)`
///
/// The C form of [`compat::resize_cq`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_resize_cq)]
fn ibv_resize_cq_1_0(cq: Cq10, cqe: c_int) -> Status {
    compat::resize_cq(cq, cqe)
}

/// `int ibv_destroy_cq(struct ibv_cq_1_0 *cq)`
///
/// The C form of [`compat::destroy_cq`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_destroy_cq)]
fn ibv_destroy_cq_1_0(cq: Cq10) -> Status {
    compat::destroy_cq(cq)
}

/// `int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq_1_0 **cq, void **cq_context)`
///
/// The C form of [`compat::get_cq_event`]: 0, or -1 with errno.
///
/// Divergence: NULL `cq` or `cq_context` gives -1 with errno EINVAL before anything is read
/// (rdma-core crashes after consuming the event).
#[export("IBVERBS_1.0" as ibv_get_cq_event)]
fn ibv_get_cq_event_1_0(
    channel: Ptr<ibv_comp_channel>,
    cq: Ptr<*mut ibv_cq_1_0>,
    cq_context: Ptr<*mut c_void>,
) -> MinusOne<c_int> {
    compat::get_cq_event(channel, cq, cq_context)
}

/// `void ibv_ack_cq_events(struct ibv_cq_1_0 *cq, unsigned int nevents)`
///
/// The C form of [`compat::ack_cq_events`].
#[export("IBVERBS_1.0" as ibv_ack_cq_events)]
fn ibv_ack_cq_events_1_0(cq: Ptr<ibv_cq_1_0>, nevents: c_uint) -> Void {
    compat::ack_cq_events(cq, nevents)
}

/// `struct ibv_srq_1_0 *ibv_create_srq(struct ibv_pd_1_0 *pd, struct ibv_srq_init_attr *srq_init_attr)`
///
/// The C form of [`compat::create_srq`]: NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_create_srq)]
fn ibv_create_srq_1_0(pd: Pd10, srq_init_attr: Ptr<ibv_srq_init_attr>) -> Null<*mut ibv_srq_1_0> {
    compat::create_srq(pd, srq_init_attr)
}

/// `int ibv_modify_srq(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask)`
///
/// The C form of [`compat::modify_srq`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_modify_srq)]
fn ibv_modify_srq_1_0(srq: Srq10, srq_attr: Ptr<ibv_srq_attr>, srq_attr_mask: c_int) -> Status {
    compat::modify_srq(srq, srq_attr, srq_attr_mask)
}

/// `int ibv_query_srq(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr)`
///
/// The C form of [`compat::query_srq`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_query_srq)]
fn ibv_query_srq_1_0(srq: Srq10, srq_attr: Ptr<ibv_srq_attr>) -> Status {
    compat::query_srq(srq, srq_attr)
}

/// `int ibv_destroy_srq(struct ibv_srq_1_0 *srq)`
///
/// The C form of [`compat::destroy_srq`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_destroy_srq)]
fn ibv_destroy_srq_1_0(srq: Srq10) -> Status {
    compat::destroy_srq(srq)
}

/// `struct ibv_qp_1_0 *ibv_create_qp(struct ibv_pd_1_0 *pd, struct ibv_qp_init_attr_1_0 *qp_init_attr)`
///
/// The C form of [`compat::create_qp`]: NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_create_qp)]
fn ibv_create_qp_1_0(pd: Pd10, qp_init_attr: Ptr<ibv_qp_init_attr_1_0>) -> Null<*mut ibv_qp_1_0> {
    compat::create_qp(pd, qp_init_attr)
}

/// `int ibv_query_qp(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr_1_0 *init_attr)`
///
/// The C form of [`compat::query_qp`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_query_qp)]
fn ibv_query_qp_1_0(
    qp: Qp10,
    attr: Ptr<ibv_qp_attr>,
    attr_mask: c_int,
    init_attr: Ptr<ibv_qp_init_attr_1_0>,
) -> Status {
    Ok(compat::query_qp(qp, attr, attr_mask, init_attr))
}

/// `int ibv_modify_qp(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr, int attr_mask)`
///
/// The C form of [`compat::modify_qp`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_modify_qp)]
fn ibv_modify_qp_1_0(qp: Qp10, attr: Ptr<ibv_qp_attr>, attr_mask: c_int) -> Status {
    Ok(compat::modify_qp(qp, attr, attr_mask))
}

/// `int ibv_destroy_qp(struct ibv_qp_1_0 *qp)`
///
/// The C form of [`compat::destroy_qp`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_destroy_qp)]
fn ibv_destroy_qp_1_0(qp: Qp10) -> Status {
    Ok(compat::destroy_qp(qp))
}

/// `struct ibv_ah_1_0 *ibv_create_ah(struct ibv_pd_1_0 *pd, struct ibv_ah_attr *attr)`
///
/// The C form of [`compat::create_ah`]: NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_create_ah)]
fn ibv_create_ah_1_0(pd: Pd10, attr: *mut ibv_ah_attr) -> Null<*mut ibv_ah_1_0> {
    compat::create_ah(pd, attr)
}

/// `int ibv_destroy_ah(struct ibv_ah_1_0 *ah)`
///
/// The C form of [`compat::destroy_ah`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_destroy_ah)]
fn ibv_destroy_ah_1_0(ah: Ah10) -> Status {
    Ok(compat::destroy_ah(ah))
}

/// `int ibv_attach_mcast(struct ibv_qp_1_0 *qp, union ibv_gid *gid, uint16_t lid)`
///
/// The C form of [`compat::attach_mcast`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_attach_mcast)]
fn ibv_attach_mcast_1_0(qp: Qp10, gid: Ptr<ibv_gid>, lid: u16) -> Status {
    Ok(compat::attach_mcast(qp, gid, lid))
}

/// `int ibv_detach_mcast(struct ibv_qp_1_0 *qp, union ibv_gid *gid, uint16_t lid)`
///
/// The C form of [`compat::detach_mcast`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_detach_mcast)]
fn ibv_detach_mcast_1_0(qp: Qp10, gid: Ptr<ibv_gid>, lid: u16) -> Status {
    Ok(compat::detach_mcast(qp, gid, lid))
}
