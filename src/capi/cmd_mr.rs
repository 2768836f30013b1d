//! Provider command layer: MR, MW and DM commands (rdma-core: cmd_mr.c, cmd_mw.c, cmd_dm.c, cmd.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_int, c_uint, c_void};

use crate::abi::driver::{verbs_dm, verbs_mr};
use crate::abi::kern_abi::{ibv_alloc_mw, ibv_command_buffer, ibv_reg_mr, ibv_rereg_mr};
use crate::abi::uapi::{ib_uverbs_alloc_mw_resp, ib_uverbs_reg_mr_resp, ib_uverbs_rereg_mr_resp};
use crate::abi::verbs::{ibv_alloc_dm_attr, ibv_context, ibv_mw, ibv_pd, ibv_sge};
use crate::errno::{CRet, unimplemented};

/// `int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va, int access, struct verbs_mr *vmr, struct ibv_reg_mr *cmd, size_t cmd_size, struct ib_uverbs_reg_mr_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_reg_mr(
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    hca_va: u64,
    access: c_int,
    vmr: *mut verbs_mr,
    cmd: *mut ibv_reg_mr,
    cmd_size: usize,
    resp: *mut ib_uverbs_reg_mr_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_reg_mr")).ret_errno()
}

/// `int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access, struct verbs_mr *vmr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Provider ABI 34 signature of v44. rdma-core v54 appended `struct ibv_command_buffer *driver`
/// inside the same IBVERBS_PRIVATE_34 node; a v54-v56 provider passing it is served by this
/// definition (the extra argument is ignored), while the 8-argument form would read a stale stack
/// slot as `driver` when a v44 provider calls.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_reg_dmabuf_mr(
    pd: *mut ibv_pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
    vmr: *mut verbs_mr,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_reg_dmabuf_mr")).ret_errno()
}

/// `int ibv_cmd_reg_dm_mr(struct ibv_pd *pd, struct verbs_dm *dm, uint64_t offset, size_t length, unsigned int access, struct verbs_mr *vmr, struct ibv_command_buffer *link)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_reg_dm_mr(
    pd: *mut ibv_pd,
    dm: *mut verbs_dm,
    offset: u64,
    length: usize,
    access: c_uint,
    vmr: *mut verbs_mr,
    link: *mut ibv_command_buffer,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_reg_dm_mr")).ret_errno()
}

/// `int ibv_cmd_rereg_mr(struct verbs_mr *vmr, uint32_t flags, void *addr, size_t length, uint64_t hca_va, int access, struct ibv_pd *pd, struct ibv_rereg_mr *cmd, size_t cmd_sz, struct ib_uverbs_rereg_mr_resp *resp, size_t resp_sz)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_rereg_mr(
    vmr: *mut verbs_mr,
    flags: u32,
    addr: *mut c_void,
    length: usize,
    hca_va: u64,
    access: c_int,
    pd: *mut ibv_pd,
    cmd: *mut ibv_rereg_mr,
    cmd_sz: usize,
    resp: *mut ib_uverbs_rereg_mr_resp,
    resp_sz: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_rereg_mr")).ret_errno()
}

/// `int ibv_cmd_dereg_mr(struct verbs_mr *vmr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_dereg_mr(vmr: *mut verbs_mr) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_dereg_mr")).ret_errno()
}

/// `int ibv_cmd_query_mr(struct ibv_pd *pd, struct verbs_mr *vmr, uint32_t mr_handle)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_query_mr(
    pd: *mut ibv_pd,
    vmr: *mut verbs_mr,
    mr_handle: u32,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_query_mr")).ret_errno()
}

/// `int ibv_cmd_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice, uint32_t flags, struct ibv_sge *sg_list, uint32_t num_sge)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_advise_mr(
    pd: *mut ibv_pd,
    advice: u32,
    flags: u32,
    sg_list: *mut ibv_sge,
    num_sge: u32,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_advise_mr")).ret_errno()
}

/// `int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type, struct ibv_mw *mw, struct ibv_alloc_mw *cmd, size_t cmd_size, struct ib_uverbs_alloc_mw_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_alloc_mw(
    pd: *mut ibv_pd,
    r#type: u32,
    mw: *mut ibv_mw,
    cmd: *mut ibv_alloc_mw,
    cmd_size: usize,
    resp: *mut ib_uverbs_alloc_mw_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_alloc_mw")).ret_errno()
}

/// `int ibv_cmd_dealloc_mw(struct ibv_mw *mw)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_dealloc_mw(mw: *mut ibv_mw) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_dealloc_mw")).ret_errno()
}

/// `int ibv_cmd_alloc_dm(struct ibv_context *ctx, const struct ibv_alloc_dm_attr *dm_attr, struct verbs_dm *dm, struct ibv_command_buffer *link)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_alloc_dm(
    ctx: *mut ibv_context,
    dm_attr: *const ibv_alloc_dm_attr,
    dm: *mut verbs_dm,
    link: *mut ibv_command_buffer,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_alloc_dm")).ret_errno()
}

/// `int ibv_cmd_free_dm(struct verbs_dm *dm)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_free_dm(dm: *mut verbs_dm) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_free_dm")).ret_errno()
}
