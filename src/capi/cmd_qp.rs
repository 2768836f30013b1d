//! Provider command layer: QP and post commands (rdma-core: cmd_qp.c, cmd.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::driver::verbs_qp;
use crate::abi::kern_abi::{
    ibv_create_qp, ibv_create_qp_ex, ibv_modify_qp, ibv_modify_qp_ex, ibv_open_qp, ibv_query_qp,
};
use crate::abi::uapi::{
    ib_uverbs_create_qp_resp, ib_uverbs_ex_create_qp_resp,
    ib_uverbs_ex_modify_qp_resp,
};
use crate::abi::verbs::{
    ibv_context, ibv_pd, ibv_qp, ibv_qp_attr, ibv_qp_init_attr,
    ibv_qp_init_attr_ex, ibv_qp_open_attr, ibv_recv_wr, ibv_send_wr,
};
use crate::errno::{CRet, unimplemented};

/// `int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_qp_init_attr *attr, struct ibv_create_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_qp(
    pd: *mut ibv_pd,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_init_attr,
    cmd: *mut ibv_create_qp,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_qp_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_qp")).ret_errno()
}

/// `int ibv_cmd_create_qp_ex(struct ibv_context *context, struct verbs_qp *qp, struct ibv_qp_init_attr_ex *attr_ex, struct ibv_create_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_qp_ex(
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    attr_ex: *mut ibv_qp_init_attr_ex,
    cmd: *mut ibv_create_qp,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_qp_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_qp_ex")).ret_errno()
}

/// `int ibv_cmd_create_qp_ex2(struct ibv_context *context, struct verbs_qp *qp, struct ibv_qp_init_attr_ex *qp_attr, struct ibv_create_qp_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_qp_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Provider ABI 34 signature (v44-v56). Provider ABI 65 (v65) appended `struct ibv_command_buffer
/// *driver`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_qp_ex2(
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    qp_attr: *mut ibv_qp_init_attr_ex,
    cmd: *mut ibv_create_qp_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_qp_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_qp_ex2")).ret_errno()
}

/// `int ibv_cmd_open_qp(struct ibv_context *context, struct verbs_qp *qp, int vqp_sz, struct ibv_qp_open_attr *attr, struct ibv_open_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_open_qp(
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    vqp_sz: c_int,
    attr: *mut ibv_qp_open_attr,
    cmd: *mut ibv_open_qp,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_qp_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_open_qp")).ret_errno()
}

/// `int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *qp_attr, int attr_mask, struct ibv_qp_init_attr *qp_init_attr, struct ibv_query_qp *cmd, size_t cmd_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_query_qp(
    qp: *mut ibv_qp,
    qp_attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    qp_init_attr: *mut ibv_qp_init_attr,
    cmd: *mut ibv_query_qp,
    cmd_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_query_qp")).ret_errno()
}

/// `int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_modify_qp *cmd, size_t cmd_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_modify_qp(
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    cmd: *mut ibv_modify_qp,
    cmd_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_modify_qp")).ret_errno()
}

/// `int ibv_cmd_modify_qp_ex(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_modify_qp_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_modify_qp_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_modify_qp_ex(
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    cmd: *mut ibv_modify_qp_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_modify_qp_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_modify_qp_ex")).ret_errno()
}

/// `int ibv_cmd_destroy_qp(struct ibv_qp *qp)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_destroy_qp(qp: *mut ibv_qp) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_destroy_qp")).ret_errno()
}

/// `int ibv_cmd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_post_send(
    ibqp: *mut ibv_qp,
    wr: *mut ibv_send_wr,
    bad_wr: *mut *mut ibv_send_wr,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_post_send")).ret_errno()
}

/// `int ibv_cmd_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_post_recv(
    ibqp: *mut ibv_qp,
    wr: *mut ibv_recv_wr,
    bad_wr: *mut *mut ibv_recv_wr,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_post_recv")).ret_errno()
}
