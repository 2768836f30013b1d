//! Provider command layer: CQ commands (rdma-core: cmd_cq.c, cmd.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::driver::verbs_cq;
use crate::abi::kern_abi::{
    ibv_command_buffer, ibv_create_cq, ibv_create_cq_ex, ibv_modify_cq, ibv_resize_cq,
};
use crate::abi::uapi::{
    ib_uverbs_create_cq_resp, ib_uverbs_ex_create_cq_resp, ib_uverbs_resize_cq_resp,
};
use crate::abi::verbs::{
    ibv_comp_channel, ibv_context, ibv_cq, ibv_cq_init_attr_ex, ibv_modify_cq_attr, ibv_wc,
};
use crate::errno::{CRet, unimplemented};

/// `int ibv_cmd_create_cq(struct ibv_context *context, int cqe, struct ibv_comp_channel *channel, int comp_vector, struct ibv_cq *cq, struct ibv_create_cq *cmd, size_t cmd_size, struct ib_uverbs_create_cq_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_cq(
    context: *mut ibv_context,
    cqe: c_int,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
    cq: *mut ibv_cq,
    cmd: *mut ibv_create_cq,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_cq_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_cq")).ret_errno()
}

/// `int ibv_cmd_create_cq_ex(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr, struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Provider ABI 34 signature (v44-v56). Provider ABI 59 (v59) inserted `struct
/// verbs_create_cq_prov_attr *prov_attr` after `cq_attr`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_cq_ex(
    context: *mut ibv_context,
    cq_attr: *const ibv_cq_init_attr_ex,
    cq: *mut verbs_cq,
    cmd: *mut ibv_create_cq_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_cq_resp,
    resp_size: usize,
    cmd_flags: u32,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_cq_ex")).ret_errno()
}

/// `int ibv_cmd_create_cq_ex2(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr, struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags, struct ibv_command_buffer *driver)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Provider ABI 34 signature of v53-v56 (the name is not in v44); provider ABI 59 (v59) inserted
/// `struct verbs_create_cq_prov_attr *prov_attr` after `cq_attr`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_cq_ex2(
    context: *mut ibv_context,
    cq_attr: *const ibv_cq_init_attr_ex,
    cq: *mut verbs_cq,
    cmd: *mut ibv_create_cq_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_cq_resp,
    resp_size: usize,
    cmd_flags: u32,
    driver: *mut ibv_command_buffer,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_cq_ex2")).ret_errno()
}

/// `int ibv_cmd_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// rdma-core returns the number of completions, or -1.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_poll_cq(cq: *mut ibv_cq, ne: c_int, wc: *mut ibv_wc) -> c_int {
    Err(unimplemented("ibv_cmd_poll_cq")).ret_minus_one()
}

/// `int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_req_notify_cq(cq: *mut ibv_cq, solicited_only: c_int) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_req_notify_cq")).ret_errno()
}

/// `int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe, struct ibv_resize_cq *cmd, size_t cmd_size, struct ib_uverbs_resize_cq_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_resize_cq(
    cq: *mut ibv_cq,
    cqe: c_int,
    cmd: *mut ibv_resize_cq,
    cmd_size: usize,
    resp: *mut ib_uverbs_resize_cq_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_resize_cq")).ret_errno()
}

/// `int ibv_cmd_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr, struct ibv_modify_cq *cmd, size_t cmd_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_modify_cq(
    cq: *mut ibv_cq,
    attr: *mut ibv_modify_cq_attr,
    cmd: *mut ibv_modify_cq,
    cmd_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_modify_cq")).ret_errno()
}

/// `int ibv_cmd_destroy_cq(struct ibv_cq *cq)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_destroy_cq(cq: *mut ibv_cq) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_destroy_cq")).ret_errno()
}
