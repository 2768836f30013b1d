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
/// [`ibv_reg_mr_iova2`] with the I/O virtual address equal to `addr`. The IBVERBS_1.0 twin is in
/// `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_reg_mr(pd: Pd, addr: *mut c_void, length: usize, access: c_int) -> Null<*mut ibv_mr> {
    mr::reg(pd, addr, length, addr as usize as u64, access as c_uint)
}

/// `struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, int access)`
///
/// [`ibv_reg_mr_iova2`] with a signed `access`.
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
/// Registers `length` bytes at `addr`, seen by the device at `iova`, through the provider's
/// `reg_mr`. The optional-access bits are dropped unless the kernel supports them. Unless the MR
/// is on-demand, its pages are first marked don't-fork (failure: NULL with that errno) and
/// released again if the provider fails. On success the MR's context, pd, addr and length are
/// set. NULL with errno on failure.
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
/// Registers `length` bytes at `offset` of dma-buf `fd` through the provider's `reg_dmabuf_mr`
/// (no fork protection: nothing in this process is pinned). On success the MR's context, pd,
/// `addr = offset` and length are set. NULL with errno on failure.
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
/// Registers memory described by `mr_init_attr` (read only; its `comp_mask` says which of iova,
/// addr, fd, fd_offset, dmah and buf are given). A `buf` from [`ibv_alloc_buf`] is checked to
/// belong to `pd` and to contain the range. Address-based, non-ODP ranges get fork protection as
/// in [`ibv_reg_mr_iova2`]. The request then goes to the provider's `reg_mr_ex` (ABI 65); without
/// one (every ABI-34 provider), as in rdma-core, it is served by the provider's `reg_mr` or
/// `reg_dmabuf_mr` (a DMA handle is EOPNOTSUPP). On success sets the MR's context, pd, length,
/// and addr (the address, or `fd_offset` for a dma-buf). NULL with errno on failure.
/// Divergence: a NULL `mr_init_attr`, or BUF with a NULL `buf`, gives EINVAL.
#[export("IBVERBS_1.15")]
fn ibv_reg_mr_ex(pd: Pd, mr_init_attr: Ptr<ibv_mr_init_attr>) -> Null<*mut ibv_mr> {
    mr::reg_ex(pd, mr_init_attr)
}

/// `int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr, size_t length, int access)`
///
/// Changes an MR's translation (`addr`, `length`), PD and/or access through the provider's
/// `rereg_mr`. Returns 0 or an `enum ibv_rereg_mr_err_code`, errno set:
/// `IBV_REREG_MR_ERR_INPUT` (-1, EINVAL) for an MR not registered by address, unknown flags, a
/// translation change with no address or length, or access bits without CHANGE_ACCESS;
/// `_DONT_FORK_NEW` (-2) when the new range cannot be marked don't-fork; `_CMD` (-4) when the
/// provider fails (a provider without the op: EOPNOTSUPP), `_CMD_AND_DO_FORK_NEW` (-5) if the new
/// range's mark could not be undone then; `_DO_FORK_OLD` (-3) when the old range's mark cannot be
/// released after success. On success updates `pd` and, with a new translation, `addr` and
/// `length`. Divergence: a NULL `mr`, or CHANGE_PD with a NULL `pd`, gives -1 with EINVAL.
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
/// The provider's `dereg_mr`: 0, or the positive errno it returns (errno as the provider left
/// it; a provider without the op: EOPNOTSUPP, errno untouched). After success an
/// address-registered, non-ODP MR's range is released from fork protection. The IBVERBS_1.0 twin
/// is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_dereg_mr(mr: Mr) -> Status {
    Ok(mr::dereg(mr))
}

/// `struct ibv_mr *ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle)`
///
/// The MR with `mr_handle` of another process sharing the command fd, from the provider's
/// `import_mr`. NULL with errno on failure (EOPNOTSUPP when the provider cannot import).
#[export("IBVERBS_1.10")]
fn ibv_import_mr(pd: Pd, mr_handle: u32) -> Null<*mut ibv_mr> {
    mr::import(pd, mr_handle)
}

/// `void ibv_unimport_mr(struct ibv_mr *mr)`
///
/// Forgets an imported MR (the provider's `unimport_mr`) without destroying the kernel object.
#[export("IBVERBS_1.10")]
fn ibv_unimport_mr(mr: Mr) -> Void {
    mr::unimport(mr)
}

/// `void *ibv_alloc_buf(struct ibv_pd *pd, size_t size, struct ibv_buf **buf)`
///
/// The provider's `alloc_buf` (ABI 65; mlx5 may place the buffer in a dma-buf heap). Without one
/// (every ABI-34 provider), rdma-core's default: `size` bytes of page-aligned memory for
/// registering on `pd`. `*buf` receives the handle for [`ibv_reg_buf_mr`] and [`ibv_free_buf`].
/// The memory, or NULL with errno (ENOMEM). Divergence: a NULL `pd` or `buf` gives EINVAL.
#[export("IBVERBS_1.17")]
fn ibv_alloc_buf(pd: Pd, size: usize, buf: Ptr<*mut ibv_buf>) -> Null<*mut c_void> {
    mr::buf::alloc_buf(pd, size, buf)
}

/// `void ibv_free_buf(struct ibv_buf *buf)`
///
/// Frees a buffer from [`ibv_alloc_buf`] and its handle (deregister its MRs first), by the
/// provider's `free_buf` where its `alloc_buf` made it (ABI 65). NULL is ignored. Divergence: so
/// is a handle [`ibv_alloc_buf`] did not hand out (rdma-core frees it: libc aborts the process).
#[export("IBVERBS_1.17")]
fn ibv_free_buf(buf: Ptr<ibv_buf>) -> Void {
    mr::buf::free_buf(buf)
}

/// `struct ibv_mr *ibv_reg_buf_mr(struct ibv_pd *pd, struct ibv_buf *buf, void *addr, size_t length, int access)`
///
/// [`ibv_reg_mr_ex`] of `length` bytes at `addr` inside `buf` (BUF and ADDR given): NULL with
/// EINVAL unless `buf` belongs to `pd` and holds the whole range.
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
/// A new close-on-exec duplicate of a dma-buf backed buffer's fd, or -1 with errno: ENODATA for
/// plain memory (every buffer at provider ABI 34), else fcntl's. Divergence: NULL gives -1 with
/// EINVAL.
#[export("IBVERBS_1.18")]
fn ibv_export_buf_dmabuf_fd(buf: Ptr<ibv_buf>) -> MinusOne<c_int> {
    mr::buf::export_buf_dmabuf_fd(buf)
}

/// `int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va, int access, struct verbs_mr *vmr, struct ibv_reg_mr *cmd, size_t cmd_size, struct ib_uverbs_reg_mr_resp *resp, size_t resp_size)`
///
/// REG_MR (write command) with the provider's request and response. An on-demand (ODP) MR of
/// length `SIZE_MAX` is the implicit whole-address-space MR and must have a NULL `addr` (else
/// EINVAL, nothing sent). On success sets the MR's handle, lkey, rkey and context, and
/// `vmr->mr_type = IBV_MR_TYPE_MR`, `vmr->access = access` (the public verb sets pd, addr and
/// length). 0, or the positive errno. Divergence: buffers shorter than the core
/// request/response give EINVAL.
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
/// REG_DMABUF_MR (ioctl only): registers `length` bytes at `offset` of dma-buf `fd`. On success
/// sets the MR's handle, lkey, rkey, context and pd, `addr = offset`, `length`, and
/// `vmr->mr_type = IBV_MR_TYPE_DMABUF_MR`. 0, or the positive errno.
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
/// As the ABI-34 form, with the provider's `driver` attribute chain linked after the command's
/// own attributes (and written back).
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
/// REREG_MR (write command) with the provider's request and response; `pd` is read only with
/// `IBV_REREG_MR_CHANGE_PD`. On success stores the new lkey and rkey, and with CHANGE_PD the new
/// PD's context (the public verb updates pd, addr and length). 0, or the positive errno.
/// Divergence: CHANGE_PD with a NULL `pd`, and buffers shorter than the core request/response,
/// give EINVAL.
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
/// Destroys the MR by handle (MR_DESTROY ioctl, else the DEREG_MR write command). 0, or the
/// positive errno (EBUSY while a memory window is bound to it); EIO counts as success on a
/// disassociated device when allowed.
#[export(PRIVATE 34..)]
fn ibv_cmd_dereg_mr(vmr: VerbsMr) -> Errno {
    mr::cmd::dereg(vmr)
}

/// `int ibv_cmd_query_mr(struct ibv_pd *pd, struct verbs_mr *vmr, uint32_t mr_handle)`
///
/// QUERY_MR (ioctl only) of the MR with `mr_handle` (one imported from another process): stores
/// its lkey, rkey and length, and on success its handle, `pd`, `pd`'s context, `addr = NULL`
/// and `vmr->mr_type = IBV_MR_TYPE_IMPORTED_MR`. 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_mr(pd: Pd, vmr: Ptr<verbs_mr>, mr_handle: u32) -> Errno {
    mr::cmd::query(pd, vmr, mr_handle)
}

/// `int ibv_cmd_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice, uint32_t flags, struct ibv_sge *sg_list, uint32_t num_sge)`
///
/// ADVISE_MR (ioctl only): `advice` (e.g. prefetch) for the `num_sge` ranges of `sg_list`. 0, or
/// the positive errno. Divergence: a NULL `sg_list` with a non-zero `num_sge` gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_advise_mr(pd: Pd, advice: u32, flags: u32, (sg_list, num_sge): Array<ibv_sge>) -> Errno {
    mr::cmd::advise(pd, advice, flags, sg_list.bytes())
}

/// `int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type, struct ibv_mw *mw, struct ibv_alloc_mw *cmd, size_t cmd_size, struct ib_uverbs_alloc_mw_resp *resp, size_t resp_size)`
///
/// ALLOC_MW (write command) of `type` with the provider's request and response. On success sets
/// the MW's context, pd, rkey, handle and type. 0, or the positive errno. Divergence: buffers
/// shorter than the core request/response give EINVAL.
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
/// Destroys the MW by handle (MW_DESTROY ioctl, else the DEALLOC_MW write command). 0, or the
/// positive errno; EIO counts as success on a disassociated device when allowed.
#[export(PRIVATE 34..)]
fn ibv_cmd_dealloc_mw(mw: Mw) -> Errno {
    mr::cmd::dealloc_mw(mw)
}

/// `int ibv_cmd_reg_mr_ex(struct ibv_pd *pd, struct verbs_mr *vmr, struct ibv_mr_init_attr *mr_init_attr)`
///
/// UVERBS_METHOD_REG_MR (see `crate::cmd::mr::reg_mr_ex` for which `comp_mask` combinations are
/// accepted): on success sets the MR's handle, context, lkey and rkey, `vmr->mr_type`
/// (`IBV_MR_TYPE_DMABUF_MR` for a dma-buf, else `IBV_MR_TYPE_MR`) and `vmr->access`. A kernel
/// without the method gets the legacy REG_MR write for an address-based request (EOPNOTSUPP for a
/// dma-buf or DMA handle one). 0, or the positive errno (errno set too). Divergence: DMAH with a
/// NULL `dmah` gives EINVAL.
#[export(PRIVATE 59..)]
fn ibv_cmd_reg_mr_ex(pd: Pd, vmr: Ptr<verbs_mr>, mr_init_attr: Ptr<ibv_mr_init_attr>) -> Errno {
    mr::cmd::reg_ex(pd, vmr, mr_init_attr.read())
}

#[cfg(test)]
#[path = "mr_tests.rs"]
mod tests;
