//! MR and MW commands (rdma-core: `libibverbs/cmd.c`: `ibv_cmd_reg_mr`, `ibv_cmd_rereg_mr`,
//! `ibv_cmd_alloc_mw`; `cmd_mr.c`: the destroy, `ibv_cmd_reg_mr_ex` and the ioctl-only MR
//! methods; `cmd_mw.c`: the destroy).
//!
//! `req`/`resp` are the provider's whole request/response structs (`cmd`, `cmd_size`;
//! `resp`, `resp_size`); the core fields are written into `req` as rdma-core does. Results are
//! returned for the caller to store into the provider's objects.
#![forbid(unsafe_code)]

use super::Ctx;
use super::fallback::{Fallback, execute_ioctl_fallback, op};
use super::ioctl::{Driver, IoctlArg, IoctlCmd, execute_ioctl, execute_linked};
use super::methods;
use super::pd::destroy_handle;
use super::wire::put_field;
use super::write::{CMD_HDR_SIZE, execute_cmd_write};
use crate::abi::kern_abi::*;
use crate::abi::uapi::*;
use crate::abi::verbs::{ibv_access_flags, ibv_rereg_mr_flags};
use crate::errno::{Errno, Result};
use crate::sys::pod;

const H: usize = CMD_HDR_SIZE;

/// `ibv_cmd_dereg_mr`: `UVERBS_METHOD_MR_DESTROY`, falling back to `IB_USER_VERBS_CMD_DEREG_MR`.
pub fn dereg_mr(ctx: Ctx<'_>, mr_handle: u32, allow_disassociate_destroy: bool) -> Result<()> {
    destroy_handle::<ibv_dereg_mr>(
        ctx,
        op::DEREG_MR,
        methods::MR_DESTROY,
        UVERBS_ATTR_DESTROY_MR_HANDLE,
        mr_handle,
        allow_disassociate_destroy,
    )
}

/// `ibv_cmd_dealloc_mw`: `UVERBS_METHOD_MW_DESTROY`, falling back to
/// `IB_USER_VERBS_CMD_DEALLOC_MW`.
pub fn dealloc_mw(ctx: Ctx<'_>, mw_handle: u32, allow_disassociate_destroy: bool) -> Result<()> {
    destroy_handle::<ibv_dealloc_mw>(
        ctx,
        op::DEALLOC_MW,
        methods::MW_DESTROY,
        UVERBS_ATTR_DESTROY_MW_HANDLE,
        mw_handle,
        allow_disassociate_destroy,
    )
}

/// Handle and keys of a registered MR.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MrKeys {
    pub handle: u32,
    pub lkey: u32,
    pub rkey: u32,
}

/// `ibv_cmd_reg_mr`: `IB_USER_VERBS_CMD_REG_MR`. An on-demand MR of length `SIZE_MAX` is the
/// implicit one (sent as length `u64::MAX`) and must have no address (EINVAL). The caller
/// records `mr_type = IBV_MR_TYPE_MR` and `access`.
///
/// Inlined into `ibv_cmd_reg_mr` whatever codegen unit that is in (`make bench-vm`'s
/// `ibv_reg_mr` rows: rxe's `reg_mr` calls it; as a call, 60 instructions more).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn reg_mr(
    ctx: Ctx<'_>,
    pd_handle: u32,
    addr: u64,
    length: usize,
    hca_va: u64,
    access: i32,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<MrKeys> {
    let mut len = length as u64;
    if access & ibv_access_flags::IBV_ACCESS_ON_DEMAND as i32 != 0 && length == usize::MAX {
        if addr != 0 {
            return Err(Errno::EINVAL);
        }
        len = u64::MAX;
    }
    // Checked once: the field stores below then need no bounds check of their own.
    let core = req
        .get_mut(..H + size_of::<ib_uverbs_reg_mr>())
        .ok_or(Errno::EINVAL)?;
    put_field!(core, H; ib_uverbs_reg_mr, start, addr)?;
    put_field!(core, H; ib_uverbs_reg_mr, length, len)?;
    put_field!(core, H; ib_uverbs_reg_mr, hca_va, hca_va)?;
    put_field!(core, H; ib_uverbs_reg_mr, pd_handle, pd_handle)?;
    put_field!(core, H; ib_uverbs_reg_mr, access_flags, access as u32)?;
    execute_cmd_write::<ibv_reg_mr>(ctx, req, resp)?;
    let r: ib_uverbs_reg_mr_resp = pod::read(resp);
    Ok(MrKeys {
        handle: r.mr_handle,
        lkey: r.lkey,
        rkey: r.rkey,
    })
}

/// `ibv_cmd_rereg_mr`: `IB_USER_VERBS_CMD_REREG_MR`; `pd_handle` is sent only with
/// `IBV_REREG_MR_CHANGE_PD`. Returns the new (lkey, rkey).
#[allow(clippy::too_many_arguments)]
pub fn rereg_mr(
    ctx: Ctx<'_>,
    mr_handle: u32,
    flags: u32,
    addr: u64,
    length: usize,
    hca_va: u64,
    access: i32,
    pd_handle: u32,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<(u32, u32)> {
    let change_pd = flags & ibv_rereg_mr_flags::IBV_REREG_MR_CHANGE_PD as u32 != 0;
    put_field!(req, H; ib_uverbs_rereg_mr, mr_handle, mr_handle)?;
    put_field!(req, H; ib_uverbs_rereg_mr, flags, flags)?;
    put_field!(req, H; ib_uverbs_rereg_mr, start, addr)?;
    put_field!(req, H; ib_uverbs_rereg_mr, length, length as u64)?;
    put_field!(req, H; ib_uverbs_rereg_mr, hca_va, hca_va)?;
    put_field!(req, H; ib_uverbs_rereg_mr, pd_handle, if change_pd { pd_handle } else { 0 })?;
    put_field!(req, H; ib_uverbs_rereg_mr, access_flags, access as u32)?;
    execute_cmd_write::<ibv_rereg_mr>(ctx, req, resp)?;
    let r: ib_uverbs_rereg_mr_resp = pod::read(resp);
    Ok((r.lkey, r.rkey))
}

/// `ibv_cmd_alloc_mw`: `IB_USER_VERBS_CMD_ALLOC_MW`; returns (handle, rkey).
pub fn alloc_mw(
    ctx: Ctx<'_>,
    pd_handle: u32,
    mw_type: u32,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<(u32, u32)> {
    put_field!(req, H; ib_uverbs_alloc_mw, pd_handle, pd_handle)?;
    put_field!(req, H; ib_uverbs_alloc_mw, mw_type, mw_type as u8)?;
    put_field!(req, H; ib_uverbs_alloc_mw, reserved, [0u8; 3])?;
    execute_cmd_write::<ibv_alloc_mw>(ctx, req, resp)?;
    let r: ib_uverbs_alloc_mw_resp = pod::read(resp);
    Ok((r.mw_handle, r.rkey))
}

/// `ibv_cmd_query_mr`: `UVERBS_METHOD_QUERY_MR` (ioctl only); returns (lkey, rkey, length).
/// The caller records the handle, `addr = NULL` and `mr_type = IBV_MR_TYPE_IMPORTED_MR`.
pub fn query_mr(ctx: Ctx<'_>, mr_handle: u32) -> Result<(u32, u32, u64)> {
    let (mut lkey, mut rkey, mut length) = (0u32, 0u32, 0u64);
    {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::QUERY_MR);
        cmd.in_obj(UVERBS_ATTR_QUERY_MR_HANDLE, mr_handle);
        cmd.out_pod(UVERBS_ATTR_QUERY_MR_RESP_LKEY, &mut lkey);
        cmd.out_pod(UVERBS_ATTR_QUERY_MR_RESP_RKEY, &mut rkey);
        cmd.out_pod(UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &mut length);
        execute_ioctl(ctx, &mut cmd)?;
    }
    Ok((lkey, rkey, length))
}

/// `ibv_cmd_reg_dmabuf_mr`: `UVERBS_METHOD_REG_DMABUF_MR` (ioctl only) with the provider's
/// `driver` chain. The caller records `addr = offset`, `length`, `mr_type = IBV_MR_TYPE_DMABUF_MR`.
#[allow(clippy::too_many_arguments)]
pub fn reg_dmabuf_mr(
    ctx: Ctx<'_>,
    pd_handle: u32,
    offset: u64,
    length: usize,
    iova: u64,
    fd: i32,
    access: i32,
    driver: &mut dyn Driver,
) -> Result<MrKeys> {
    let (mut lkey, mut rkey) = (0u32, 0u32);
    let handle = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::REG_DMABUF_MR);
        let h = cmd.out_obj(UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
        cmd.out_pod(UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, &mut lkey);
        cmd.out_pod(UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, &mut rkey);
        cmd.in_obj(UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, pd_handle);
        cmd.in_u64(UVERBS_ATTR_REG_DMABUF_MR_OFFSET, offset);
        cmd.in_u64(UVERBS_ATTR_REG_DMABUF_MR_LENGTH, length as u64);
        cmd.in_u64(UVERBS_ATTR_REG_DMABUF_MR_IOVA, iova);
        cmd.in_u32(UVERBS_ATTR_REG_DMABUF_MR_FD, fd as u32);
        cmd.in_u32(UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, access as u32);
        execute_linked(ctx, &mut cmd, driver)?;
        cmd.attr(h).map_or(0, |a| a.data as u32)
    };
    Ok(MrKeys { handle, lkey, rkey })
}

/// What `ibv_mr_init_attr` asks of `ibv_cmd_reg_mr_ex` (its fields, `comp_mask` holding
/// `IBV_REG_MR_MASK_*` bits; `dmah` is the DMA handle's handle when `IBV_REG_MR_MASK_DMAH` is
/// set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegMrEx {
    pub comp_mask: u64,
    pub length: usize,
    pub access: i32,
    pub iova: u64,
    pub addr: u64,
    pub fd: i32,
    pub fd_offset: u64,
    pub dmah: u32,
}

/// `ibv_cmd_reg_mr_ex`: `UVERBS_METHOD_REG_MR` from an address (`IBV_REG_MR_MASK_ADDR`) or a
/// dma-buf (`IBV_REG_MR_MASK_FD` with `_FD_OFFSET`; then `_IOVA` is required); any other
/// combination is EINVAL, as is the implicit on-demand MR (length `SIZE_MAX`, sent as
/// `u64::MAX`) with an address. The iova defaults to the address.
///
/// A kernel without the method (EPROTONOSUPPORT, remembered per context, or no ioctl at all)
/// gets the legacy `IB_USER_VERBS_CMD_REG_MR` for an address-based request without a DMA
/// handle, with no driver data; EOPNOTSUPP otherwise. Returns the keys and whether the MR is a
/// dma-buf one (the caller records `mr_type` and `access`).
pub fn reg_mr_ex(ctx: Ctx<'_>, pd_handle: u32, a: &RegMrEx) -> Result<(MrKeys, bool)> {
    use crate::abi::verbs::ibv_mr_init_attr_mask as m;
    let has = |b: m| a.comp_mask & b as u64 != 0;
    let fd_based = has(m::IBV_REG_MR_MASK_FD);
    let mut length = a.length as u64;
    let (mut lkey, mut rkey) = (0u32, 0u32);
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::REG_MR);
    if fd_based {
        if !has(m::IBV_REG_MR_MASK_FD_OFFSET) || has(m::IBV_REG_MR_MASK_ADDR) {
            return Err(Errno::EINVAL);
        }
        cmd.in_u64(UVERBS_ATTR_REG_MR_FD_OFFSET, a.fd_offset);
        cmd.in_fd(UVERBS_ATTR_REG_MR_FD, a.fd);
    } else {
        if has(m::IBV_REG_MR_MASK_FD_OFFSET) || !has(m::IBV_REG_MR_MASK_ADDR) {
            return Err(Errno::EINVAL);
        }
        cmd.in_u64(UVERBS_ATTR_REG_MR_ADDR, a.addr);
        if a.access & ibv_access_flags::IBV_ACCESS_ON_DEMAND as i32 != 0 && a.length == usize::MAX {
            if a.addr != 0 {
                return Err(Errno::EINVAL);
            }
            length = u64::MAX;
        }
    }
    if has(m::IBV_REG_MR_MASK_IOVA) {
        cmd.in_u64(UVERBS_ATTR_REG_MR_IOVA, a.iova);
    } else if !fd_based {
        cmd.in_u64(UVERBS_ATTR_REG_MR_IOVA, a.addr);
    } else {
        // The kernel needs an iova for a dma-buf MR.
        return Err(Errno::EINVAL);
    }
    let h = cmd.out_obj(UVERBS_ATTR_REG_MR_HANDLE);
    cmd.out_pod(UVERBS_ATTR_REG_MR_RESP_LKEY, &mut lkey);
    cmd.out_pod(UVERBS_ATTR_REG_MR_RESP_RKEY, &mut rkey);
    cmd.in_obj(UVERBS_ATTR_REG_MR_PD_HANDLE, pd_handle);
    cmd.in_u64(UVERBS_ATTR_REG_MR_LENGTH, length);
    cmd.in_u32(UVERBS_ATTR_REG_MR_ACCESS_FLAGS, a.access as u32);
    if has(m::IBV_REG_MR_MASK_DMAH) {
        cmd.in_obj(UVERBS_ATTR_REG_MR_DMA_HANDLE, a.dmah);
    }
    match execute_ioctl_fallback(ctx, op::REG_MR_EX, &mut cmd)? {
        Fallback::Success => {
            let handle = cmd.attr(h).map_or(0, |x| x.data as u32);
            drop(cmd);
            Ok((MrKeys { handle, lkey, rkey }, fd_based))
        }
        Fallback::TryWrite | Fallback::TryWriteEx => {
            if fd_based || has(m::IBV_REG_MR_MASK_DMAH) {
                return Err(Errno::EOPNOTSUPP);
            }
            let hca_va = if has(m::IBV_REG_MR_MASK_IOVA) {
                a.iova
            } else {
                a.addr
            };
            let mut req = [0u8; size_of::<ibv_reg_mr>()];
            let mut resp = [0u8; size_of::<ib_uverbs_reg_mr_resp>()];
            let keys = reg_mr(
                ctx,
                pd_handle,
                a.addr,
                length as usize,
                hca_va,
                a.access,
                &mut req,
                &mut resp,
            )?;
            Ok((keys, false))
        }
    }
}

/// `ibv_cmd_advise_mr`: `UVERBS_METHOD_ADVISE_MR` (ioctl only); `sg_list` is the caller's
/// `ibv_sge` array as bytes (`num_sge * 16`).
pub fn advise_mr(
    ctx: Ctx<'_>,
    pd_handle: u32,
    advice: u32,
    flags: u32,
    sg_list: &[u8],
) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::ADVISE_MR);
    cmd.in_obj(UVERBS_ATTR_ADVISE_MR_PD_HANDLE, pd_handle);
    cmd.in_u64(UVERBS_ATTR_ADVISE_MR_ADVICE, advice.into());
    cmd.in_u32(UVERBS_ATTR_ADVISE_MR_FLAGS, flags);
    cmd.in_bytes(UVERBS_ATTR_ADVISE_MR_SGE_LIST, sg_list);
    execute_ioctl(ctx, &mut cmd)
}
