//! Provider command layer: MR, MW and DM commands (rdma-core: cmd_mr.c, cmd_mw.c, cmd_dm.c, cmd.c).
//!
//! Each export turns the provider's objects into handles for `crate::cmd::pd` / `crate::cmd::dm`
//! and stores the kernel's answer back into them, as rdma-core does. Every one returns 0 or the
//! positive errno (also left in `errno`). Divergence throughout: a NULL object, or a NULL
//! `context` inside one, gives EINVAL where rdma-core would crash.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::{c_int, c_uint, c_void};

use super::cmd_device::{allow_disassociate, provider_bufs, with_cmd};
use crate::abi::driver::ibv_mr_type::{
    IBV_MR_TYPE_DMABUF_MR, IBV_MR_TYPE_IMPORTED_MR, IBV_MR_TYPE_MR,
};
use crate::abi::driver::{verbs_dm, verbs_mr};
use crate::abi::kern_abi::{ibv_alloc_mw, ibv_command_buffer, ibv_reg_mr, ibv_rereg_mr};
use crate::abi::uapi::{ib_uverbs_alloc_mw_resp, ib_uverbs_reg_mr_resp, ib_uverbs_rereg_mr_resp};
use crate::abi::verbs::ibv_access_flags::IBV_ACCESS_ON_DEMAND;
use crate::abi::verbs::ibv_dm_mask::IBV_DM_MASK_HANDLE;
use crate::abi::verbs::ibv_rereg_mr_flags::IBV_REREG_MR_CHANGE_PD;
use crate::abi::verbs::{ibv_alloc_dm_attr, ibv_context, ibv_mw, ibv_pd, ibv_sge};
use crate::cmd::CmdBuf;
use crate::cmd::pd::MrKeys;
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::mr::{self, MrStore};

/// Run `f` with the provider's `driver`/`link` chain (may be NULL) as [`CmdBuf`]s, then copy the
/// kernel's answers back into the C buffers.
///
/// # Safety
/// `chain` is NULL or heads a live command-buffer chain.
unsafe fn with_chain<T>(
    chain: *mut ibv_command_buffer,
    f: impl FnOnce(&mut Vec<CmdBuf>) -> Result<T>,
) -> Result<T> {
    // SAFETY: the caller's contract.
    let mut links = unsafe { crate::verbs::cmdbuf::chain_from_c(chain) }?;
    let r = f(&mut links);
    // SAFETY: `links` came from this chain.
    unsafe { crate::verbs::cmdbuf::chain_to_c(chain, &links) };
    r
}

/// `int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va, int access, struct verbs_mr *vmr, struct ibv_reg_mr *cmd, size_t cmd_size, struct ib_uverbs_reg_mr_resp *resp, size_t resp_size)`
///
/// REG_MR (write command) with the provider's request and response. An on-demand (ODP) MR of
/// length `SIZE_MAX` is the implicit whole-address-space MR and must have a NULL `addr` (else
/// EINVAL, nothing sent). On success sets the MR's handle, lkey, rkey and context, and
/// `vmr->mr_type = IBV_MR_TYPE_MR`, `vmr->access = access` (the public verb sets pd, addr and
/// length). Divergence: buffers shorter than the core request/response give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_reg_mr(
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
) -> Raw<c_int> {
    if pd.is_null() || vmr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // rdma-core's one check, before it looks at the PD: an implicit ODP MR covers the whole
    // address space, so it cannot have a start address.
    if access & IBV_ACCESS_ON_DEMAND as c_int != 0 && length == usize::MAX && !addr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's PD and MR, and its request/response buffers of the given sizes.
    unsafe {
        let (req, rsp) = match provider_bufs(cmd, cmd_size, resp, resp_size) {
            Ok(b) => b,
            Err(e) => return e.ret_errno(),
        };
        let (ctx, pdh) = ((*pd).context, (*pd).handle);
        let start = addr as usize as u64;
        with_cmd(ctx, |c| {
            crate::cmd::pd::reg_mr(c, pdh, start, length, hca_va, access, req, rsp)
        })
        .map(|keys| {
            mr::store(
                vmr,
                MrStore {
                    keys,
                    context: ctx,
                    pd: None,
                    range: None,
                    access: Some(access),
                    mr_type: IBV_MR_TYPE_MR as u32,
                },
            )
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access, struct verbs_mr *vmr)`
///
/// REG_DMABUF_MR (ioctl only): registers `length` bytes at `offset` of dma-buf `fd`. On success
/// sets the MR's handle, lkey, rkey, context and pd, `addr = offset`, `length`, and
/// `vmr->mr_type = IBV_MR_TYPE_DMABUF_MR`.
///
/// Provider ABI 34 signature of v44. rdma-core v54 appended `struct ibv_command_buffer *driver`
/// inside the same IBVERBS_PRIVATE_34 node; a v54-v56 provider passing it is served by this
/// definition (the extra argument is ignored, so its driver attributes are not sent), while the
/// 8-argument form would read a stale stack slot as `driver` when a v44 provider calls.
#[export(PRIVATE 34..57)]
fn ibv_cmd_reg_dmabuf_mr(
    pd: *mut ibv_pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
    vmr: *mut verbs_mr,
) -> Raw<c_int> {
    // SAFETY: the C contract, forwarded.
    unsafe {
        reg_dmabuf_mr(
            pd,
            offset,
            length,
            iova,
            fd,
            access,
            vmr,
            core::ptr::null_mut(),
        )
    }
    .ret_errno()
}

/// The body of `ibv_cmd_reg_dmabuf_mr` for every provider ABI: `driver` (NULL for the ABI-34
/// form) is the provider's attribute chain, linked after the command's own and written back.
///
/// # Safety
/// As for the export.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn reg_dmabuf_mr(
    pd: *mut ibv_pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
    vmr: *mut verbs_mr,
    driver: *mut ibv_command_buffer,
) -> Result<()> {
    if pd.is_null() || vmr.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: the provider's PD and MR, and its (possibly NULL) driver chain.
    unsafe {
        let (ctx, pdh) = ((*pd).context, (*pd).handle);
        let mut links = crate::verbs::cmdbuf::chain_from_c(driver)?;
        let r = with_cmd(ctx, |c| {
            crate::cmd::pd::reg_dmabuf_mr(c, pdh, offset, length, iova, fd, access, &mut links)
        });
        crate::verbs::cmdbuf::chain_to_c(driver, &links);
        r.map(|keys| {
            mr::store(
                vmr,
                MrStore {
                    keys,
                    context: ctx,
                    pd: Some(pd),
                    range: Some((offset as usize as *mut c_void, length)),
                    access: None,
                    mr_type: IBV_MR_TYPE_DMABUF_MR as u32,
                },
            )
        })
    }
}

/// `int ibv_cmd_reg_dm_mr(struct ibv_pd *pd, struct verbs_dm *dm, uint64_t offset, size_t length, unsigned int access, struct verbs_mr *vmr, struct ibv_command_buffer *link)`
///
/// DM_MR_REG (ioctl only, with the provider's `link` chain): registers `length` bytes at `offset`
/// of device memory `dm`. `access` must include `IBV_ACCESS_ZERO_BASED` (else EINVAL, nothing
/// sent). On success sets the MR's handle, context, lkey, rkey, length and pd, `addr = NULL` and
/// `vmr->mr_type = IBV_MR_TYPE_MR`.
#[export(PRIVATE 34..)]
fn ibv_cmd_reg_dm_mr(
    pd: *mut ibv_pd,
    dm: *mut verbs_dm,
    offset: u64,
    length: usize,
    access: c_uint,
    vmr: *mut verbs_mr,
    link: *mut ibv_command_buffer,
) -> Raw<c_int> {
    if pd.is_null() || dm.is_null() || vmr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's PD, DM and MR, and its (possibly NULL) link chain.
    unsafe {
        let (ctx, pdh, dmh) = ((*pd).context, (*pd).handle, (*dm).handle);
        with_chain(link, |l| {
            with_cmd(ctx, |c| {
                crate::cmd::dm::reg_dm_mr(c, pdh, dmh, offset, length, access, l)
            })
        })
        .map(|keys| {
            mr::store(
                vmr,
                MrStore {
                    keys,
                    context: ctx,
                    pd: Some(pd),
                    range: Some((core::ptr::null_mut(), length)),
                    access: None,
                    mr_type: IBV_MR_TYPE_MR as u32,
                },
            )
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_rereg_mr(struct verbs_mr *vmr, uint32_t flags, void *addr, size_t length, uint64_t hca_va, int access, struct ibv_pd *pd, struct ibv_rereg_mr *cmd, size_t cmd_sz, struct ib_uverbs_rereg_mr_resp *resp, size_t resp_sz)`
///
/// REREG_MR (write command) with the provider's request and response; `pd` is read only with
/// `IBV_REREG_MR_CHANGE_PD`. On success stores the new lkey and rkey, and with CHANGE_PD the new
/// PD's context (the public verb updates pd, addr and length). Divergence: CHANGE_PD with a NULL
/// `pd`, and buffers shorter than the core request/response, give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_rereg_mr(
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
) -> Raw<c_int> {
    let change_pd = flags & IBV_REREG_MR_CHANGE_PD as u32 != 0;
    if vmr.is_null() || (change_pd && pd.is_null()) {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's MR (and PD when changing it), and its request/response buffers.
    unsafe {
        let (req, rsp) = match provider_bufs(cmd, cmd_sz, resp, resp_sz) {
            Ok(b) => b,
            Err(e) => return e.ret_errno(),
        };
        let m = &raw mut (*vmr).ibv_mr;
        let (ctx, mrh) = ((*m).context, (*m).handle);
        let pdh = if change_pd { (*pd).handle } else { 0 };
        let start = addr as usize as u64;
        with_cmd(ctx, |c| {
            crate::cmd::pd::rereg_mr(c, mrh, flags, start, length, hca_va, access, pdh, req, rsp)
        })
        .map(|(lkey, rkey)| {
            (*m).lkey = lkey;
            (*m).rkey = rkey;
            if change_pd {
                (*m).context = (*pd).context;
            }
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_dereg_mr(struct verbs_mr *vmr)`
///
/// Destroys the MR by handle (MR_DESTROY ioctl, else the DEREG_MR write command). 0, or the
/// positive errno (EBUSY while a memory window is bound to it); EIO counts as success on a
/// disassociated device when allowed.
#[export(PRIVATE 34..)]
fn ibv_cmd_dereg_mr(vmr: *mut verbs_mr) -> Raw<c_int> {
    if vmr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's MR.
    unsafe {
        let m = &(*vmr).ibv_mr;
        let h = m.handle;
        with_cmd(m.context, |c| {
            crate::cmd::pd::dereg_mr(c, h, allow_disassociate())
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_query_mr(struct ibv_pd *pd, struct verbs_mr *vmr, uint32_t mr_handle)`
///
/// QUERY_MR (ioctl only) of the MR with `mr_handle` (one imported from another process): stores
/// its lkey, rkey and length, and on success its handle, `pd`, `pd`'s context, `addr = NULL`
/// and `vmr->mr_type = IBV_MR_TYPE_IMPORTED_MR`.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_mr(pd: *mut ibv_pd, vmr: *mut verbs_mr, mr_handle: u32) -> Raw<c_int> {
    if pd.is_null() || vmr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's PD and MR.
    unsafe {
        let ctx = (*pd).context;
        with_cmd(ctx, |c| crate::cmd::pd::query_mr(c, mr_handle))
            .map(|(lkey, rkey, length)| {
                mr::store(
                    vmr,
                    MrStore {
                        keys: MrKeys {
                            handle: mr_handle,
                            lkey,
                            rkey,
                        },
                        context: ctx,
                        pd: Some(pd),
                        range: Some((core::ptr::null_mut(), length as usize)),
                        access: None,
                        mr_type: IBV_MR_TYPE_IMPORTED_MR as u32,
                    },
                )
            })
            .ret_errno()
    }
}

/// `int ibv_cmd_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice, uint32_t flags, struct ibv_sge *sg_list, uint32_t num_sge)`
///
/// ADVISE_MR (ioctl only): `advice` (e.g. prefetch) for the `num_sge` ranges of `sg_list`.
/// Divergence: a NULL `sg_list` with a non-zero `num_sge` gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_advise_mr(
    pd: *mut ibv_pd,
    advice: u32,
    flags: u32,
    sg_list: *mut ibv_sge,
    num_sge: u32,
) -> Raw<c_int> {
    if pd.is_null() || (sg_list.is_null() && num_sge != 0) {
        return Errno::EINVAL.ret_errno();
    }
    let n = (num_sge as usize).saturating_mul(size_of::<ibv_sge>());
    let sges: &[u8] = if num_sge == 0 {
        &[]
    } else {
        // SAFETY: the caller's array of num_sge entries.
        unsafe { core::slice::from_raw_parts(sg_list.cast::<u8>(), n) }
    };
    // SAFETY: the provider's PD.
    unsafe {
        let h = (*pd).handle;
        with_cmd((*pd).context, |c| {
            crate::cmd::pd::advise_mr(c, h, advice, flags, sges)
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type, struct ibv_mw *mw, struct ibv_alloc_mw *cmd, size_t cmd_size, struct ib_uverbs_alloc_mw_resp *resp, size_t resp_size)`
///
/// ALLOC_MW (write command) of `type` with the provider's request and response. On success sets
/// the MW's context, pd, rkey, handle and type. Divergence: buffers shorter than the core
/// request/response give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_alloc_mw(
    pd: *mut ibv_pd,
    r#type: u32,
    mw: *mut ibv_mw,
    cmd: *mut ibv_alloc_mw,
    cmd_size: usize,
    resp: *mut ib_uverbs_alloc_mw_resp,
    resp_size: usize,
) -> Raw<c_int> {
    if pd.is_null() || mw.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's PD and MW, and its request/response buffers of the given sizes.
    unsafe {
        let (req, rsp) = match provider_bufs(cmd, cmd_size, resp, resp_size) {
            Ok(b) => b,
            Err(e) => return e.ret_errno(),
        };
        let (ctx, pdh) = ((*pd).context, (*pd).handle);
        with_cmd(ctx, |c| crate::cmd::pd::alloc_mw(c, pdh, r#type, req, rsp))
            .map(|(handle, rkey)| {
                let w = &mut *mw;
                w.context = ctx;
                w.pd = pd;
                w.rkey = rkey;
                w.handle = handle;
                w.r#type = r#type.into();
            })
            .ret_errno()
    }
}

/// `int ibv_cmd_dealloc_mw(struct ibv_mw *mw)`
///
/// Destroys the MW by handle (MW_DESTROY ioctl, else the DEALLOC_MW write command). 0, or the
/// positive errno; EIO counts as success on a disassociated device when allowed.
#[export(PRIVATE 34..)]
fn ibv_cmd_dealloc_mw(mw: *mut ibv_mw) -> Raw<c_int> {
    if mw.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's MW.
    unsafe {
        let h = (*mw).handle;
        with_cmd((*mw).context, |c| {
            crate::cmd::pd::dealloc_mw(c, h, allow_disassociate())
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_alloc_dm(struct ibv_context *ctx, const struct ibv_alloc_dm_attr *dm_attr, struct verbs_dm *dm, struct ibv_command_buffer *link)`
///
/// DM_ALLOC (ioctl only, with the provider's `link` chain) of `dm_attr->length` bytes at
/// alignment `2^log_align_req`. On success sets `dm->handle`, `dm->dm.handle`,
/// `dm->dm.comp_mask = IBV_DM_MASK_HANDLE` and `dm->dm.context`.
#[export(PRIVATE 34..)]
fn ibv_cmd_alloc_dm(
    ctx: *mut ibv_context,
    dm_attr: *const ibv_alloc_dm_attr,
    dm: *mut verbs_dm,
    link: *mut ibv_command_buffer,
) -> Raw<c_int> {
    if ctx.is_null() || dm_attr.is_null() || dm.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: an open context, the caller's attributes, the provider's DM and link chain.
    unsafe {
        let (len, align) = ((*dm_attr).length as u64, (*dm_attr).log_align_req);
        with_chain(link, |l| {
            with_cmd(ctx, |c| crate::cmd::dm::alloc_dm(c, len, align, l))
        })
        .map(|h| {
            (*dm).handle = h;
            (*dm).dm.handle = h;
            (*dm).dm.comp_mask = IBV_DM_MASK_HANDLE as u32;
            (*dm).dm.context = ctx;
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_free_dm(struct verbs_dm *dm)`
///
/// DM_FREE (ioctl only) by handle. 0, or the positive errno; EIO counts as success on a
/// disassociated device when allowed.
#[export(PRIVATE 34..)]
fn ibv_cmd_free_dm(dm: *mut verbs_dm) -> Raw<c_int> {
    if dm.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's DM.
    unsafe {
        let h = (*dm).handle;
        with_cmd((*dm).dm.context, |c| {
            crate::cmd::dm::free_dm(c, h, allow_disassociate())
        })
        .ret_errno()
    }
}
