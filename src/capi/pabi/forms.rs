//! The forms of the private functions whose C prototype a later provider ABI changed (rdma-core
//! v57 cmd_device.c, v59 cmd_cq.c, v64 cmd_qp.c): each is exported only as a non-default twin
//! `name@IBVERBS_PRIVATE_<N>` for the ABIs that have its form, and calls the body the oldest
//! form calls (never that export). The oldest forms are in the command files of `capi`; the MR
//! form (`ibv_cmd_reg_dmabuf_mr` with `driver`, 57 on) is beside its older one in
//! [`capi::mr`](crate::capi::mr).
use core::ffi::c_void;

use crate::abi::driver::{verbs_cq, verbs_create_cq_prov_attr, verbs_qp};
use crate::abi::kern_abi::{ibv_command_buffer, ibv_create_qp_ex, ibv_get_context};
use crate::abi::uapi::{ib_uverbs_ex_create_qp_resp, ib_uverbs_get_context_resp};
use crate::abi::verbs::{ibv_cq_init_attr_ex, ibv_fd_arr, ibv_qp_init_attr_ex};
use crate::capi::export::{Buf, BufAny, Bytes, export};
use crate::errno::Errno;
use crate::verbs::cq;
use crate::verbs::handle::{Ctx, Ptr};

/// True when a provider's `driver` chain carries attributes (NULL or empty: false).
unsafe fn has_driver_attrs(driver: *mut ibv_command_buffer) -> bool {
    // SAFETY: the caller's contract: NULL or a command buffer chain.
    !driver.is_null()
        && unsafe { crate::verbs::cmdbuf::Chain::from_raw(driver) }.final_num_attrs(0) != 0
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
    (cmd, cmd_size): Buf<ibv_get_context>,
    fd_arr: Option<Ptr<ibv_fd_arr>>,
    (resp, resp_size): Buf<ib_uverbs_get_context_resp>,
) -> Errno {
    let fds = crate::verbs::device::fd_array(fd_arr)?;
    // The layout of the context (ABI 59 has two: verbs::ctxlayout).
    let layout = crate::verbs::ctxlayout::of(ABI, context);
    // SAFETY: NULL or the provider's context of its ABI: its common part, in place.
    let view = unsafe { Ptr::from_raw(crate::verbs::ctxpriv::view34(context, layout)) }?;
    crate::verbs::device::cmd_get_context(view, cmd.bytes(), resp.bytes(), fds.as_deref())
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
/// nothing sent (the ABI-34 form has no way to pass them on); NULL arguments (checked first) give
/// EINVAL.
#[export(PRIVATE 64.. as ibv_cmd_create_qp_ex2)]
fn create_qp_ex2_driver(
    context: Ctx,
    qp: Ptr<verbs_qp>,
    qp_attr: Ptr<ibv_qp_init_attr_ex>,
    (cmd, cmd_size): BufAny<ibv_create_qp_ex>,
    (resp, resp_size): BufAny<ib_uverbs_ex_create_qp_resp>,
    driver: *mut ibv_command_buffer,
) -> Errno {
    // SAFETY: the C contract: NULL or the provider's chain.
    if unsafe { has_driver_attrs(driver) } {
        return Err(Errno::EOPNOTSUPP);
    }
    let (req, rsp, mask) = (
        cmd.bytes(),
        resp.bytes(),
        crate::cmd::qp::CREATE_QP_EX2_MASK,
    );
    crate::verbs::qp::cmd_create_ex(
        context,
        qp,
        qp_attr,
        req,
        rsp,
        mask,
        crate::cmd::qp::create_qp_ex2,
    )
}
