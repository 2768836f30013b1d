//! Provider command layer: context, device, PD and XRCD commands (rdma-core: cmd_device.c,
//! cmd_pd.c, cmd_xrcd.c, cmd.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::driver::{verbs_context_pabi34 as verbs_context, verbs_xrcd};
use crate::abi::kern_abi::{
    ibv_alloc_pd, ibv_command_buffer, ibv_get_context, ibv_open_xrcd, ibv_query_port,
};
use crate::abi::uapi::{
    ib_uverbs_alloc_pd_resp, ib_uverbs_ex_query_device_resp, ib_uverbs_get_context_resp,
    ib_uverbs_open_xrcd_resp,
};
use crate::abi::verbs::{
    ibv_context, ibv_device_attr_ex, ibv_pd, ibv_port_attr, ibv_query_device_ex_input,
    ibv_xrcd_init_attr,
};
use crate::errno::{CRet, unimplemented};

/// `int ibv_cmd_get_context(struct verbs_context *context, struct ibv_get_context *cmd, size_t cmd_size, struct ib_uverbs_get_context_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Provider ABI 34 signature (v44-v56). Provider ABI 57 (v57) inserted `struct ibv_fd_arr *fd_arr`
/// before `resp`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_get_context(
    context: *mut verbs_context,
    cmd: *mut ibv_get_context,
    cmd_size: usize,
    resp: *mut ib_uverbs_get_context_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_get_context")).ret_errno()
}

/// `int ibv_cmd_query_context(struct ibv_context *ctx, struct ibv_command_buffer *driver)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_query_context(
    ctx: *mut ibv_context,
    driver: *mut ibv_command_buffer,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_query_context")).ret_errno()
}

/// `int ibv_cmd_query_device_any(struct ibv_context *context, const struct ibv_query_device_ex_input *input, struct ibv_device_attr_ex *attr, size_t attr_size, struct ib_uverbs_ex_query_device_resp *resp, size_t *resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_query_device_any(
    context: *mut ibv_context,
    input: *const ibv_query_device_ex_input,
    attr: *mut ibv_device_attr_ex,
    attr_size: usize,
    resp: *mut ib_uverbs_ex_query_device_resp,
    resp_size: *mut usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_query_device_any")).ret_errno()
}

/// `int ibv_cmd_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr, struct ibv_query_port *cmd, size_t cmd_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_query_port(
    context: *mut ibv_context,
    port_num: u8,
    port_attr: *mut ibv_port_attr,
    cmd: *mut ibv_query_port,
    cmd_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_query_port")).ret_errno()
}

/// `int ibv_cmd_alloc_pd(struct ibv_context *context, struct ibv_pd *pd, struct ibv_alloc_pd *cmd, size_t cmd_size, struct ib_uverbs_alloc_pd_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_alloc_pd(
    context: *mut ibv_context,
    pd: *mut ibv_pd,
    cmd: *mut ibv_alloc_pd,
    cmd_size: usize,
    resp: *mut ib_uverbs_alloc_pd_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_alloc_pd")).ret_errno()
}

/// `int ibv_cmd_dealloc_pd(struct ibv_pd *pd)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_dealloc_pd(pd: *mut ibv_pd) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_dealloc_pd")).ret_errno()
}

/// `int ibv_cmd_open_xrcd(struct ibv_context *context, struct verbs_xrcd *xrcd, int vxrcd_size, struct ibv_xrcd_init_attr *attr, struct ibv_open_xrcd *cmd, size_t cmd_size, struct ib_uverbs_open_xrcd_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_open_xrcd(
    context: *mut ibv_context,
    xrcd: *mut verbs_xrcd,
    vxrcd_size: c_int,
    attr: *mut ibv_xrcd_init_attr,
    cmd: *mut ibv_open_xrcd,
    cmd_size: usize,
    resp: *mut ib_uverbs_open_xrcd_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_open_xrcd")).ret_errno()
}

/// `int ibv_cmd_close_xrcd(struct verbs_xrcd *xrcd)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_close_xrcd(xrcd: *mut verbs_xrcd) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_close_xrcd")).ret_errno()
}
