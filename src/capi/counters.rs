//! Completion counters, IBVERBS_1.18 (rdma-core: verbs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::verbs::{
    ibv_comp_cntr, ibv_comp_cntr_caps, ibv_comp_cntr_init_attr, ibv_context, ibv_qp,
    ibv_qp_attach_comp_cntr_attr,
};
use crate::errno::{CRet, unimplemented};

/// `int _ibv_query_comp_cntr_caps(struct ibv_context *context, struct ibv_comp_cntr_caps *caps, size_t caps_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _ibv_query_comp_cntr_caps(
    context: *mut ibv_context,
    caps: *mut ibv_comp_cntr_caps,
    caps_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("_ibv_query_comp_cntr_caps")).ret_errno()
}

/// `struct ibv_comp_cntr *ibv_create_comp_cntr(struct ibv_context *context, struct ibv_comp_cntr_init_attr *cc_attr)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_create_comp_cntr(
    context: *mut ibv_context,
    cc_attr: *mut ibv_comp_cntr_init_attr,
) -> *mut ibv_comp_cntr {
    Err(unimplemented("ibv_create_comp_cntr")).ret_null()
}

/// `int ibv_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_destroy_comp_cntr(comp_cntr: *mut ibv_comp_cntr) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_comp_cntr")).ret_errno()
}

/// `int ibv_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_set_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: u64) -> c_int {
    Err::<(), _>(unimplemented("ibv_set_comp_cntr")).ret_errno()
}

/// `int ibv_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_set_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: u64) -> c_int {
    Err::<(), _>(unimplemented("ibv_set_err_comp_cntr")).ret_errno()
}

/// `int ibv_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_inc_comp_cntr(comp_cntr: *mut ibv_comp_cntr, amount: u64) -> c_int {
    Err::<(), _>(unimplemented("ibv_inc_comp_cntr")).ret_errno()
}

/// `int ibv_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_inc_err_comp_cntr(
    comp_cntr: *mut ibv_comp_cntr,
    amount: u64,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_inc_err_comp_cntr")).ret_errno()
}

/// `int ibv_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_read_comp_cntr(
    comp_cntr: *mut ibv_comp_cntr,
    value: *mut u64,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_read_comp_cntr")).ret_errno()
}

/// `int ibv_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_read_err_comp_cntr(
    comp_cntr: *mut ibv_comp_cntr,
    value: *mut u64,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_read_err_comp_cntr")).ret_errno()
}

/// `int ibv_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr, struct ibv_qp_attach_comp_cntr_attr *attr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_qp_attach_comp_cntr(
    qp: *mut ibv_qp,
    comp_cntr: *mut ibv_comp_cntr,
    attr: *mut ibv_qp_attach_comp_cntr_attr,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_qp_attach_comp_cntr")).ret_errno()
}
