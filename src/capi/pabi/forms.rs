//! The forms of the private functions whose C prototype a later provider ABI changed (rdma-core
//! v57 cmd_device.c, v59 cmd_cq.c, v64 cmd_qp.c, cmd_mr.c): each is exported only as a non-default
//! twin `name@IBVERBS_PRIVATE_<N>` for the ABIs that have its form, and calls the body the oldest
//! form calls (never that export). The oldest forms are in the command files of `capi`.
use core::ffi::{c_int, c_void};

use crate::abi::driver::{verbs_cq, verbs_create_cq_prov_attr, verbs_mr, verbs_qp};
use crate::abi::kern_abi::{ibv_command_buffer, ibv_create_qp_ex, ibv_get_context};
use crate::abi::uapi::{ib_uverbs_ex_create_qp_resp, ib_uverbs_get_context_resp};
use crate::abi::verbs::{
    ibv_context, ibv_cq_init_attr_ex, ibv_fd_arr, ibv_pd, ibv_qp_init_attr_ex,
};
use crate::capi::export::{Bytes, export};
use crate::cret::CRet;
use crate::errno::Errno;
use crate::verbs::cq;
use crate::verbs::handle::{Ctx, Ptr};

/// True when a provider's `driver` chain carries attributes (NULL or empty: false).
unsafe fn has_driver_attrs(driver: *mut ibv_command_buffer) -> bool {
    // SAFETY: the caller's contract: NULL or a command buffer chain.
    !driver.is_null() && unsafe { crate::capi::driver::final_num_attrs(0, driver) } != 0
}

/// `int ibv_cmd_get_context(struct verbs_context *context, struct ibv_get_context *cmd, size_t cmd_size, struct ibv_fd_arr *fd_arr, struct ib_uverbs_get_context_resp *resp, size_t resp_size)`
///
/// As the ABI-34 form, on the context of the provider's ABI, with the file descriptors `fd_arr`
/// gives (if not NULL) handed to the kernel as GET_CONTEXT's `FD_ARR` attribute (the write
/// fallback has no room for them, as in rdma-core). Divergence: a NULL `fd_arr->arr` with a
/// `count` gives EINVAL.
#[export(PRIVATE 57.. as ibv_cmd_get_context)]
fn get_context_fd<const ABI: u32>(
    context: *mut c_void,
    cmd: *mut ibv_get_context,
    cmd_size: usize,
    fd_arr: *mut ibv_fd_arr,
    resp: *mut ib_uverbs_get_context_resp,
    resp_size: usize,
) -> Errno {
    if context.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: NULL or the provider's fd array.
    let fds = match unsafe { fd_arr.as_ref() } {
        None => None,
        Some(a) if a.arr.is_null() && a.count != 0 => return Err(Errno::EINVAL),
        Some(a) => {
            let len = (a.count as usize).saturating_mul(size_of::<c_int>());
            // SAFETY: the provider's `count` ints at `arr` (none when NULL).
            Some(unsafe { crate::capi::cmd_device::provider_buf(a.arr, len) })
        }
    };
    let view = crate::verbs::ctxpriv::view34(context, ABI);
    // SAFETY: the C contract, on the context's common part.
    unsafe {
        crate::capi::cmd_device::get_context(view, cmd, cmd_size, resp, resp_size, fds.as_deref())
    }
}

/// `int ibv_cmd_create_cq_ex(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr, struct verbs_create_cq_prov_attr *prov_attr, struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags)`
///
/// As the ABI-34 form; with `CREATE_CQ_CMD_FLAGS_WITH_MEM_VA` or `_DMABUF` in `cmd_flags` the CQ
/// ring is the provider's, which `prov_attr` gives (EINVAL without it): its address, or its
/// dma-buf and offset, and length go to the kernel (ioctl only).
#[export(PRIVATE 59.. as ibv_cmd_create_cq_ex)]
fn create_cq_ex_prov(
    context: Ctx,
    cq_attr: Ptr<ibv_cq_init_attr_ex>,
    prov_attr: Option<Ptr<verbs_create_cq_prov_attr>>,
    cq: Ptr<verbs_cq>,
    (cmd, cmd_size): Bytes,
    (resp, resp_size): Bytes,
    cmd_flags: u32,
) -> Errno {
    let ring = cq::prov_buffer(prov_attr, cmd_flags)?;
    cq::cmd_create_ex(context, cq_attr, cq, cmd, resp, cmd_flags, None, ring)
}

/// `int ibv_cmd_create_cq_ex2(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr, struct verbs_create_cq_prov_attr *prov_attr, struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags, struct ibv_command_buffer *driver)`
///
/// As the ABI-34 form; `prov_attr` as for `ibv_cmd_create_cq_ex` (provider ABI 59 on).
#[export(PRIVATE 59.. as ibv_cmd_create_cq_ex2)]
fn create_cq_ex2_prov(
    context: Ctx,
    cq_attr: Ptr<ibv_cq_init_attr_ex>,
    prov_attr: Option<Ptr<verbs_create_cq_prov_attr>>,
    cq: Ptr<verbs_cq>,
    (cmd, cmd_size): Bytes,
    (resp, resp_size): Bytes,
    cmd_flags: u32,
    driver: Option<Ptr<ibv_command_buffer>>,
) -> Errno {
    let ring = cq::prov_buffer(prov_attr, cmd_flags)?;
    cq::cmd_create_ex(context, cq_attr, cq, cmd, resp, cmd_flags, driver, ring)
}

/// `int ibv_cmd_create_qp_ex2(struct ibv_context *context, struct verbs_qp *qp, struct ibv_qp_init_attr_ex *qp_attr, struct ibv_create_qp_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_qp_resp *resp, size_t resp_size, struct ibv_command_buffer *driver)`
///
/// As the ABI-34 form. Divergence: a `driver` chain carrying attributes gives EOPNOTSUPP,
/// nothing sent (the ABI-34 form has no way to pass them on).
#[export(PRIVATE 64.. as ibv_cmd_create_qp_ex2)]
fn create_qp_ex2_driver(
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    qp_attr: *mut ibv_qp_init_attr_ex,
    cmd: *mut ibv_create_qp_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_qp_resp,
    resp_size: usize,
    driver: *mut ibv_command_buffer,
) -> Raw<c_int> {
    // SAFETY: NULL or the provider's chain.
    if unsafe { has_driver_attrs(driver) } {
        return Errno::EOPNOTSUPP.ret_errno();
    }
    // SAFETY: the C contract, forwarded.
    unsafe {
        crate::capi::cmd_qp::create_qp_ext(
            context,
            qp,
            qp_attr,
            (cmd, cmd_size),
            (resp, resp_size),
            crate::cmd::qp::CREATE_QP_EX2_MASK,
            crate::cmd::qp::create_qp_ex2,
        )
    }
    .ret_errno()
}

/// `int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access, struct verbs_mr *vmr, struct ibv_command_buffer *driver)`
///
/// As the ABI-34 form, with the provider's `driver` attribute chain linked after the command's
/// own attributes (and written back).
#[export(PRIVATE 57.. as ibv_cmd_reg_dmabuf_mr)]
fn reg_dmabuf_mr_driver(
    pd: *mut ibv_pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
    vmr: *mut verbs_mr,
    driver: *mut ibv_command_buffer,
) -> Raw<c_int> {
    // SAFETY: the C contract, forwarded.
    unsafe { crate::capi::cmd_mr::reg_dmabuf_mr(pd, offset, length, iova, fd, access, vmr, driver) }
        .ret_errno()
}
