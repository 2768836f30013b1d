//! Memory regions, memory windows and library-allocated buffers (rdma-core: verbs.c,
//! dummy_ops.c; cmd_mr.c, cmd_mw.c, cmd.c): the public verbs and the provider's commands, each a
//! declaration over `verbs::mr`.
//!
//! Registration keeps an MR's pages out of forked children unless it is on-demand (ODP) or a
//! dma-buf (see `verbs::mr`). Ops that provider ABI 34 lacks (`reg_mr_ex`, `alloc_buf`,
//! `free_buf`) behave as rdma-core's defaults for a provider without them.
//!
//! Divergence throughout: a NULL object, or a NULL `context` inside one, gives EINVAL (or is
//! ignored where there is no return value) where rdma-core would crash; so do provider
//! buffers shorter than the core request/response.
use core::ffi::{c_int, c_uint, c_void};

use crate::abi::driver::verbs_mr;
use crate::abi::kern_abi::{ibv_alloc_mw, ibv_command_buffer, ibv_reg_mr, ibv_rereg_mr};
use crate::abi::uapi::{ib_uverbs_alloc_mw_resp, ib_uverbs_reg_mr_resp, ib_uverbs_rereg_mr_resp};
use crate::abi::verbs::{ibv_buf, ibv_mr, ibv_mr_init_attr, ibv_mw, ibv_pd, ibv_sge};
use crate::capi::export::{Array, Buf, export};
use crate::verbs::cmdbuf::Chain;
use crate::verbs::handle::{Mr, Mw, Pd, Ptr, VerbsMr};
use crate::verbs::mr;

/// `struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)`
///
/// The C form of [`mr::reg`] with the I/O virtual address equal to `addr`: NULL with errno on
/// failure.
///
/// The IBVERBS_1.0 twin is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_reg_mr(pd: Pd, addr: *mut c_void, length: usize, access: c_int) -> Null<*mut ibv_mr> {
    mr::reg(pd, addr, length, addr as usize as u64, access as c_uint)
}

/// `struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, int access)`
///
/// The C form of [`mr::reg`] with a signed `access`: NULL with errno on failure.
#[export("IBVERBS_1.7")]
fn ibv_reg_mr_iova(
    pd: Pd,
    addr: *mut c_void,
    length: usize,
    iova: u64,
    access: c_int,
) -> Null<*mut ibv_mr> {
    mr::reg(pd, addr, length, iova, access as c_uint)
}

/// `struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access)`
///
/// The C form of [`mr::reg`]: NULL with errno on failure.
#[export("IBVERBS_1.8")]
fn ibv_reg_mr_iova2(
    pd: Pd,
    addr: *mut c_void,
    length: usize,
    iova: u64,
    access: c_uint,
) -> Null<*mut ibv_mr> {
    mr::reg(pd, addr, length, iova, access)
}

/// `struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access)`
///
/// The C form of [`mr::reg_dmabuf`]: NULL with errno on failure.
#[export("IBVERBS_1.12")]
fn ibv_reg_dmabuf_mr(
    pd: Pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
) -> Null<*mut ibv_mr> {
    mr::reg_dmabuf(pd, offset, length, iova, fd, access)
}

/// `struct ibv_mr *ibv_reg_mr_ex(struct ibv_pd *pd, struct ibv_mr_init_attr *mr_init_attr)`
///
/// The C form of [`mr::reg_ex`]: NULL with errno on failure.
///
/// Divergence: a NULL `mr_init_attr` gives EINVAL.
#[export("IBVERBS_1.15")]
fn ibv_reg_mr_ex(pd: Pd, mr_init_attr: Ptr<ibv_mr_init_attr>) -> Null<*mut ibv_mr> {
    mr::reg_ex(pd, mr_init_attr)
}

/// `int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr, size_t length, int access)`
///
/// The C form of [`mr::rereg`]: 0, or a negative `enum ibv_rereg_mr_err_code` with errno set.
///
/// Divergence: a NULL `mr` gives -1 (`IBV_REREG_MR_ERR_INPUT`) with EINVAL.
#[export("IBVERBS_1.1")]
fn ibv_rereg_mr(
    mr: Mr,
    flags: c_int,
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> MinusOne<c_int> {
    // The input error is the convention's -1 (`Err`); the other codes come back as values, with
    // errno set by the core.
    mr::rereg(mr, flags, pd, addr, length, access)
}

/// `int ibv_dereg_mr(struct ibv_mr *mr)`
///
/// The C form of [`mr::dereg`]: 0, or the positive errno.
///
/// The IBVERBS_1.0 twin is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_dereg_mr(mr: Mr) -> Status {
    Ok(mr::dereg(mr))
}

/// `struct ibv_mr *ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle)`
///
/// The C form of [`mr::import`]: NULL with errno on failure.
#[export("IBVERBS_1.10")]
fn ibv_import_mr(pd: Pd, mr_handle: u32) -> Null<*mut ibv_mr> {
    mr::import(pd, mr_handle)
}

/// `void ibv_unimport_mr(struct ibv_mr *mr)`
///
/// The C form of [`mr::unimport`].
#[export("IBVERBS_1.10")]
fn ibv_unimport_mr(mr: Mr) -> Void {
    mr::unimport(mr)
}

/// `void *ibv_alloc_buf(struct ibv_pd *pd, size_t size, struct ibv_buf **buf)`
///
/// The C form of [`mr::buf::alloc_buf`]: the memory, or NULL with errno.
///
/// Divergence: a NULL `pd` or `buf` gives EINVAL.
#[export("IBVERBS_1.17")]
fn ibv_alloc_buf(pd: Pd, size: usize, buf: Ptr<*mut ibv_buf>) -> Null<*mut c_void> {
    mr::buf::alloc_buf(pd, size, buf)
}

/// `void ibv_free_buf(struct ibv_buf *buf)`
///
/// The C form of [`mr::buf::free_buf`].
#[export("IBVERBS_1.17")]
fn ibv_free_buf(buf: Ptr<ibv_buf>) -> Void {
    mr::buf::free_buf(buf)
}

/// `struct ibv_mr *ibv_reg_buf_mr(struct ibv_pd *pd, struct ibv_buf *buf, void *addr, size_t length, int access)`
///
/// The C form of [`mr::reg_buf`]: NULL with errno on failure.
#[export("IBVERBS_1.17")]
fn ibv_reg_buf_mr(
    pd: Pd,
    buf: *mut ibv_buf,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> Null<*mut ibv_mr> {
    mr::reg_buf(pd, buf, addr, length, access)
}

/// `int ibv_export_buf_dmabuf_fd(struct ibv_buf *buf)`
///
/// The C form of [`mr::buf::export_buf_dmabuf_fd`]: the new fd, or -1 with errno.
///
/// Divergence: NULL gives -1 with EINVAL.
#[export("IBVERBS_1.18")]
fn ibv_export_buf_dmabuf_fd(buf: Ptr<ibv_buf>) -> MinusOne<c_int> {
    mr::buf::export_buf_dmabuf_fd(buf)
}

/// `int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va, int access, struct verbs_mr *vmr, struct ibv_reg_mr *cmd, size_t cmd_size, struct ib_uverbs_reg_mr_resp *resp, size_t resp_size)`
///
/// The C form of [`mr::cmd::reg`]: 0, or the positive errno.
///
/// Divergence: buffers shorter than the core request/response give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_reg_mr(
    pd: Pd,
    addr: *mut c_void,
    length: usize,
    hca_va: u64,
    access: c_int,
    vmr: Ptr<verbs_mr>,
    (cmd, cmd_size): Buf<ibv_reg_mr>,
    (resp, resp_size): Buf<ib_uverbs_reg_mr_resp>,
) -> Errno {
    mr::cmd::reg(
        pd,
        addr,
        length,
        hca_va,
        access,
        vmr,
        cmd.bytes(),
        resp.bytes(),
    )
}

/// `int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access, struct verbs_mr *vmr)`
///
/// The C form of [`mr::cmd::reg_dmabuf`]: 0, or the positive errno.
///
/// Provider ABI 34 signature of v44. rdma-core v54 appended `struct ibv_command_buffer *driver`
/// inside the same IBVERBS_PRIVATE_34 node, so its v54-v56 providers (Debian 13's) pass eight
/// arguments and v36-v53's seven. This reads the eighth place and takes it as the provider's
/// driver chain only for a provider of the v54-v56 layout (`pabi::LAYOUT_V54`, told when it
/// registered: `provider::release`); for any other it is not looked at (a seven-argument caller
/// leaves a stale stack slot or register there).
#[export(PRIVATE 34..57)]
fn ibv_cmd_reg_dmabuf_mr(
    pd: Pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
    vmr: Ptr<verbs_mr>,
    driver_v54: *mut ibv_command_buffer,
) -> Errno {
    let driver = mr::cmd::dmabuf_chain_v54(pd, driver_v54);
    mr::cmd::reg_dmabuf(pd, offset, length, iova, fd, access, vmr, driver)
}

/// `int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access, struct verbs_mr *vmr, struct ibv_command_buffer *driver)`
///
/// The C form of [`mr::cmd::reg_dmabuf`]: 0, or the positive errno.
///
/// The form of provider ABI 57 on: `driver` is always the provider's chain (NULL: none).
#[export(PRIVATE 57.. as ibv_cmd_reg_dmabuf_mr)]
fn reg_dmabuf_mr_driver(
    pd: Pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
    vmr: Ptr<verbs_mr>,
    driver: Chain,
) -> Errno {
    mr::cmd::reg_dmabuf(pd, offset, length, iova, fd, access, vmr, driver)
}

/// `int ibv_cmd_rereg_mr(struct verbs_mr *vmr, uint32_t flags, void *addr, size_t length, uint64_t hca_va, int access, struct ibv_pd *pd, struct ibv_rereg_mr *cmd, size_t cmd_sz, struct ib_uverbs_rereg_mr_resp *resp, size_t resp_sz)`
///
/// The C form of [`mr::cmd::rereg`]: 0, or the positive errno.
///
/// Divergence: buffers shorter than the core request/response give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_rereg_mr(
    vmr: VerbsMr,
    flags: u32,
    addr: *mut c_void,
    length: usize,
    hca_va: u64,
    access: c_int,
    pd: Option<Ptr<ibv_pd>>,
    (cmd, cmd_sz): Buf<ibv_rereg_mr>,
    (resp, resp_sz): Buf<ib_uverbs_rereg_mr_resp>,
) -> Errno {
    let (req, rsp) = (cmd.bytes(), resp.bytes());
    mr::cmd::rereg(vmr, flags, addr, length, hca_va, access, pd, req, rsp)
}

/// `int ibv_cmd_dereg_mr(struct verbs_mr *vmr)`
///
/// The C form of [`mr::cmd::dereg`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_dereg_mr(vmr: VerbsMr) -> Errno {
    mr::cmd::dereg(vmr)
}

/// `int ibv_cmd_query_mr(struct ibv_pd *pd, struct verbs_mr *vmr, uint32_t mr_handle)`
///
/// The C form of [`mr::cmd::query`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_mr(pd: Pd, vmr: Ptr<verbs_mr>, mr_handle: u32) -> Errno {
    mr::cmd::query(pd, vmr, mr_handle)
}

/// `int ibv_cmd_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice, uint32_t flags, struct ibv_sge *sg_list, uint32_t num_sge)`
///
/// The C form of [`mr::cmd::advise`]: 0, or the positive errno.
///
/// Divergence: a NULL `sg_list` with a non-zero `num_sge` gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_advise_mr(pd: Pd, advice: u32, flags: u32, (sg_list, num_sge): Array<ibv_sge>) -> Errno {
    mr::cmd::advise(pd, advice, flags, sg_list.bytes())
}

/// `int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type, struct ibv_mw *mw, struct ibv_alloc_mw *cmd, size_t cmd_size, struct ib_uverbs_alloc_mw_resp *resp, size_t resp_size)`
///
/// The C form of [`mr::cmd::alloc_mw`]: 0, or the positive errno.
///
/// Divergence: buffers shorter than the core request/response give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_alloc_mw(
    pd: Pd,
    r#type: u32,
    mw: Ptr<ibv_mw>,
    (cmd, cmd_size): Buf<ibv_alloc_mw>,
    (resp, resp_size): Buf<ib_uverbs_alloc_mw_resp>,
) -> Errno {
    mr::cmd::alloc_mw(pd, r#type, mw, cmd.bytes(), resp.bytes())
}

/// `int ibv_cmd_dealloc_mw(struct ibv_mw *mw)`
///
/// The C form of [`mr::cmd::dealloc_mw`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_dealloc_mw(mw: Mw) -> Errno {
    mr::cmd::dealloc_mw(mw)
}

/// `int ibv_cmd_reg_mr_ex(struct ibv_pd *pd, struct verbs_mr *vmr, struct ibv_mr_init_attr *mr_init_attr)`
///
/// The C form of [`mr::cmd::reg_ex`]: 0, or the positive errno (errno set too).
#[export(PRIVATE 59..)]
fn ibv_cmd_reg_mr_ex(pd: Pd, vmr: Ptr<verbs_mr>, mr_init_attr: Ptr<ibv_mr_init_attr>) -> Errno {
    mr::cmd::reg_ex(pd, vmr, mr_init_attr.read())
}

#[cfg(test)]
#[path = "mr_tests.rs"]
mod tests;
