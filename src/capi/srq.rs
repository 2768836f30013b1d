//! Shared receive queues (rdma-core: verbs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::verbs::{ibv_pd, ibv_srq, ibv_srq_attr, ibv_srq_init_attr};
use crate::errno::{CRet, unimplemented};

/// `struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *srq_init_attr)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_create_srq_1_1")]
pub unsafe extern "C" fn ibv_create_srq(
    pd: *mut ibv_pd,
    srq_init_attr: *mut ibv_srq_init_attr,
) -> *mut ibv_srq {
    Err(unimplemented("ibv_create_srq")).ret_null()
}
super::symver!(ibv_create_srq, v1_1, "@@IBVERBS_1.1", ibv_create_srq);

/// `int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_modify_srq_1_1")]
pub unsafe extern "C" fn ibv_modify_srq(
    srq: *mut ibv_srq,
    srq_attr: *mut ibv_srq_attr,
    srq_attr_mask: c_int,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_modify_srq")).ret_errno()
}
super::symver!(ibv_modify_srq, v1_1, "@@IBVERBS_1.1", ibv_modify_srq);

/// `int ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_query_srq_1_1")]
pub unsafe extern "C" fn ibv_query_srq(srq: *mut ibv_srq, srq_attr: *mut ibv_srq_attr) -> c_int {
    Err::<(), _>(unimplemented("ibv_query_srq")).ret_errno()
}
super::symver!(ibv_query_srq, v1_1, "@@IBVERBS_1.1", ibv_query_srq);

/// `int ibv_destroy_srq(struct ibv_srq *srq)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_destroy_srq_1_1")]
pub unsafe extern "C" fn ibv_destroy_srq(srq: *mut ibv_srq) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_srq")).ret_errno()
}
super::symver!(ibv_destroy_srq, v1_1, "@@IBVERBS_1.1", ibv_destroy_srq);
