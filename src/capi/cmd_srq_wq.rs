//! Provider command layer: SRQ, WQ and RSS indirection table commands (rdma-core: cmd_srq.c,
//! cmd_wq.c, cmd_rwq_ind.c, cmd.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::driver::verbs_srq;
use crate::abi::kern_abi::{
    ibv_create_srq, ibv_create_wq, ibv_create_xsrq, ibv_modify_srq, ibv_modify_wq, ibv_query_srq,
};
use crate::abi::uapi::{
    ib_uverbs_create_srq_resp, ib_uverbs_ex_create_rwq_ind_table_resp, ib_uverbs_ex_create_wq_resp,
};
use crate::abi::verbs::{
    ibv_context, ibv_pd, ibv_recv_wr, ibv_rwq_ind_table, ibv_rwq_ind_table_init_attr, ibv_srq,
    ibv_srq_attr, ibv_srq_init_attr, ibv_srq_init_attr_ex, ibv_wq, ibv_wq_attr, ibv_wq_init_attr,
};
use crate::errno::{CRet, unimplemented};

/// `int ibv_cmd_create_srq(struct ibv_pd *pd, struct ibv_srq *srq, struct ibv_srq_init_attr *attr, struct ibv_create_srq *cmd, size_t cmd_size, struct ib_uverbs_create_srq_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_srq(
    pd: *mut ibv_pd,
    srq: *mut ibv_srq,
    attr: *mut ibv_srq_init_attr,
    cmd: *mut ibv_create_srq,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_srq_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_srq")).ret_errno()
}

/// `int ibv_cmd_create_srq_ex(struct ibv_context *context, struct verbs_srq *srq, struct ibv_srq_init_attr_ex *attr_ex, struct ibv_create_xsrq *cmd, size_t cmd_size, struct ib_uverbs_create_srq_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_srq_ex(
    context: *mut ibv_context,
    srq: *mut verbs_srq,
    attr_ex: *mut ibv_srq_init_attr_ex,
    cmd: *mut ibv_create_xsrq,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_srq_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_srq_ex")).ret_errno()
}

/// `int ibv_cmd_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask, struct ibv_modify_srq *cmd, size_t cmd_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_modify_srq(
    srq: *mut ibv_srq,
    srq_attr: *mut ibv_srq_attr,
    srq_attr_mask: c_int,
    cmd: *mut ibv_modify_srq,
    cmd_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_modify_srq")).ret_errno()
}

/// `int ibv_cmd_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, struct ibv_query_srq *cmd, size_t cmd_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_query_srq(
    srq: *mut ibv_srq,
    srq_attr: *mut ibv_srq_attr,
    cmd: *mut ibv_query_srq,
    cmd_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_query_srq")).ret_errno()
}

/// `int ibv_cmd_destroy_srq(struct ibv_srq *srq)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_destroy_srq(srq: *mut ibv_srq) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_destroy_srq")).ret_errno()
}

/// `int ibv_cmd_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_post_srq_recv(
    srq: *mut ibv_srq,
    wr: *mut ibv_recv_wr,
    bad_wr: *mut *mut ibv_recv_wr,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_post_srq_recv")).ret_errno()
}

/// `int ibv_cmd_create_wq(struct ibv_context *context, struct ibv_wq_init_attr *wq_init_attr, struct ibv_wq *wq, struct ibv_create_wq *cmd, size_t cmd_size, struct ib_uverbs_ex_create_wq_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_wq(
    context: *mut ibv_context,
    wq_init_attr: *mut ibv_wq_init_attr,
    wq: *mut ibv_wq,
    cmd: *mut ibv_create_wq,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_wq_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_wq")).ret_errno()
}

/// `int ibv_cmd_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr, struct ibv_modify_wq *cmd, size_t cmd_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_modify_wq(
    wq: *mut ibv_wq,
    attr: *mut ibv_wq_attr,
    cmd: *mut ibv_modify_wq,
    cmd_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_modify_wq")).ret_errno()
}

/// `int ibv_cmd_destroy_wq(struct ibv_wq *wq)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_destroy_wq(wq: *mut ibv_wq) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_destroy_wq")).ret_errno()
}

/// `int ibv_cmd_create_rwq_ind_table(struct ibv_context *context, struct ibv_rwq_ind_table_init_attr *init_attr, struct ibv_rwq_ind_table *rwq_ind_table, struct ib_uverbs_ex_create_rwq_ind_table_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_rwq_ind_table(
    context: *mut ibv_context,
    init_attr: *mut ibv_rwq_ind_table_init_attr,
    rwq_ind_table: *mut ibv_rwq_ind_table,
    resp: *mut ib_uverbs_ex_create_rwq_ind_table_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_rwq_ind_table")).ret_errno()
}

/// `int ibv_cmd_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_destroy_rwq_ind_table(
    rwq_ind_table: *mut ibv_rwq_ind_table,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_destroy_rwq_ind_table")).ret_errno()
}
