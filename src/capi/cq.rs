//! Completion queues (rdma-core: verbs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_int, c_void};

use crate::abi::verbs::{ibv_comp_channel, ibv_context, ibv_cq};
use crate::errno::{CRet, unimplemented};

/// `struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_create_cq_1_1")]
pub unsafe extern "C" fn ibv_create_cq(
    context: *mut ibv_context,
    cqe: c_int,
    cq_context: *mut c_void,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
) -> *mut ibv_cq {
    Err(unimplemented("ibv_create_cq")).ret_null()
}
super::symver!(ibv_create_cq, v1_1, "@@IBVERBS_1.1", ibv_create_cq);

/// `int ibv_resize_cq(struct ibv_cq *cq, int cqe)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_resize_cq_1_1")]
pub unsafe extern "C" fn ibv_resize_cq(cq: *mut ibv_cq, cqe: c_int) -> c_int {
    Err::<(), _>(unimplemented("ibv_resize_cq")).ret_errno()
}
super::symver!(ibv_resize_cq, v1_1, "@@IBVERBS_1.1", ibv_resize_cq);

/// `int ibv_destroy_cq(struct ibv_cq *cq)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_destroy_cq_1_1")]
pub unsafe extern "C" fn ibv_destroy_cq(cq: *mut ibv_cq) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_cq")).ret_errno()
}
super::symver!(ibv_destroy_cq, v1_1, "@@IBVERBS_1.1", ibv_destroy_cq);
