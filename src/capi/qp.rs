//! Queue pairs and their ECE (rdma-core: verbs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use super::ret::ret_or;
use crate::abi::verbs::{ibv_ece, ibv_pd, ibv_qp, ibv_qp_attr, ibv_qp_ex, ibv_qp_init_attr};
use crate::errno::{CRet, unimplemented};

/// `struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_create_qp_1_1")]
pub unsafe extern "C" fn ibv_create_qp(
    pd: *mut ibv_pd,
    qp_init_attr: *mut ibv_qp_init_attr,
) -> *mut ibv_qp {
    Err(unimplemented("ibv_create_qp")).ret_null()
}
super::symver!(ibv_create_qp, v1_1, "@@IBVERBS_1.1", ibv_create_qp);

/// `int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init_attr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_query_qp_1_1")]
pub unsafe extern "C" fn ibv_query_qp(
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    init_attr: *mut ibv_qp_init_attr,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_query_qp")).ret_errno()
}
super::symver!(ibv_query_qp, v1_1, "@@IBVERBS_1.1", ibv_query_qp);

/// `int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_modify_qp_1_1")]
pub unsafe extern "C" fn ibv_modify_qp(
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_modify_qp")).ret_errno()
}
super::symver!(ibv_modify_qp, v1_1, "@@IBVERBS_1.1", ibv_modify_qp);

/// `int ibv_destroy_qp(struct ibv_qp *qp)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_destroy_qp_1_1")]
pub unsafe extern "C" fn ibv_destroy_qp(qp: *mut ibv_qp) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_qp")).ret_errno()
}
super::symver!(ibv_destroy_qp, v1_1, "@@IBVERBS_1.1", ibv_destroy_qp);

/// `struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// rdma-core returns NULL (without errno) for a QP that has no extended interface.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_qp_to_qp_ex(qp: *mut ibv_qp) -> *mut ibv_qp_ex {
    Err(unimplemented("ibv_qp_to_qp_ex")).ret_null()
}

/// `int ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t flags)`
///
/// Stub: returns 0, with errno EOPNOTSUPP.
///
/// No error channel: 0 ("not in order", no capabilities) is what rdma-core answers for unknown
/// flags or a provider without the op.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_query_qp_data_in_order(qp: *mut ibv_qp, op: u32, flags: u32) -> c_int {
    ret_or(Err(unimplemented("ibv_query_qp_data_in_order")), 0)
}

/// `int ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_set_ece(qp: *mut ibv_qp, ece: *mut ibv_ece) -> c_int {
    Err::<(), _>(unimplemented("ibv_set_ece")).ret_errno()
}

/// `int ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_query_ece(qp: *mut ibv_qp, ece: *mut ibv_ece) -> c_int {
    Err::<(), _>(unimplemented("ibv_query_ece")).ret_errno()
}
