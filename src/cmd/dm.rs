//! Device memory and counters commands, ioctl only (rdma-core: `libibverbs/cmd_dm.c`:
//! `ibv_cmd_alloc_dm`, `ibv_cmd_free_dm`, `ibv_cmd_reg_dm_mr`; `cmd_counters.c`:
//! `ibv_cmd_create_counters`, `ibv_cmd_destroy_counters`, `ibv_cmd_read_counters`).
//!
//! Each takes the provider's `driver` (or `link`) chain where rdma-core does, which gets the
//! kernel's answers back.
#![forbid(unsafe_code)]

use super::Ctx;
use super::fallback::destroy_result;
use super::ioctl::{Driver, IoctlArg, IoctlCmd, execute_ioctl, execute_linked};
use super::methods;
use super::mr::MrKeys;
use crate::abi::uapi::*;
use crate::abi::verbs::ibv_access_flags::IBV_ACCESS_ZERO_BASED;
use crate::errno::{Errno, Result};

/// Run `cmd` with `link` appended and return the value of attribute `h` (a new object's
/// handle) on success.
pub(super) fn run_linked(
    ctx: Ctx<'_>,
    cmd: &mut IoctlCmd<'_>,
    link: &mut dyn Driver,
    h: usize,
) -> Result<u32> {
    execute_linked(ctx, cmd, link)?;
    Ok(cmd.attr(h).map_or(0, |a| a.data as u32))
}

/// `ibv_cmd_alloc_dm`: `UVERBS_METHOD_DM_ALLOC`; returns the DM handle (the caller sets
/// `dm->handle`, `dm->dm.handle`, `IBV_DM_MASK_HANDLE` and the context).
pub fn alloc_dm(
    ctx: Ctx<'_>,
    length: u64,
    log_align_req: u32,
    link: &mut dyn Driver,
) -> Result<u32> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::DM_ALLOC);
    let h = cmd.out_obj(UVERBS_ATTR_ALLOC_DM_HANDLE);
    cmd.in_u64(UVERBS_ATTR_ALLOC_DM_LENGTH, length);
    cmd.in_u32(UVERBS_ATTR_ALLOC_DM_ALIGNMENT, log_align_req);
    run_linked(ctx, &mut cmd, link, h)
}

/// `ibv_cmd_free_dm`: `UVERBS_METHOD_DM_FREE` (a destroy).
pub fn free_dm(ctx: Ctx<'_>, dm_handle: u32, allow_disassociate_destroy: bool) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::DM_FREE);
    cmd.in_obj(UVERBS_ATTR_FREE_DM_HANDLE, dm_handle);
    destroy_result(execute_ioctl(ctx, &mut cmd), allow_disassociate_destroy)
}

/// `ibv_cmd_reg_dm_mr`: `UVERBS_METHOD_DM_MR_REG`; `access` must include
/// `IBV_ACCESS_ZERO_BASED` (else EINVAL). The caller records length, `addr = NULL` and
/// `mr_type = IBV_MR_TYPE_MR`.
#[allow(clippy::too_many_arguments)]
pub fn reg_dm_mr(
    ctx: Ctx<'_>,
    pd_handle: u32,
    dm_handle: u32,
    offset: u64,
    length: usize,
    access: u32,
    link: &mut dyn Driver,
) -> Result<MrKeys> {
    if access & IBV_ACCESS_ZERO_BASED as u32 == 0 {
        return Err(Errno::EINVAL);
    }
    let (mut lkey, mut rkey) = (0u32, 0u32);
    let handle = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::DM_MR_REG);
        let h = cmd.out_obj(UVERBS_ATTR_REG_DM_MR_HANDLE);
        cmd.out_pod(UVERBS_ATTR_REG_DM_MR_RESP_LKEY, &mut lkey);
        cmd.out_pod(UVERBS_ATTR_REG_DM_MR_RESP_RKEY, &mut rkey);
        cmd.in_obj(UVERBS_ATTR_REG_DM_MR_PD_HANDLE, pd_handle);
        cmd.in_obj(UVERBS_ATTR_REG_DM_MR_DM_HANDLE, dm_handle);
        cmd.in_u64(UVERBS_ATTR_REG_DM_MR_OFFSET, offset);
        cmd.in_u64(UVERBS_ATTR_REG_DM_MR_LENGTH, length as u64);
        cmd.in_u32(UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, access);
        run_linked(ctx, &mut cmd, link, h)?
    };
    Ok(MrKeys { handle, lkey, rkey })
}

/// `ibv_cmd_create_counters`: `UVERBS_METHOD_COUNTERS_CREATE`; any `comp_mask` bit is
/// EOPNOTSUPP. Returns the counters handle.
pub fn create_counters(ctx: Ctx<'_>, comp_mask: u32, link: &mut dyn Driver) -> Result<u32> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::COUNTERS_CREATE);
    let h = cmd.out_obj(UVERBS_ATTR_CREATE_COUNTERS_HANDLE);
    if comp_mask != 0 {
        return Err(Errno::EOPNOTSUPP);
    }
    run_linked(ctx, &mut cmd, link, h)
}

/// `ibv_cmd_destroy_counters`: `UVERBS_METHOD_COUNTERS_DESTROY` (a destroy).
pub fn destroy_counters(ctx: Ctx<'_>, handle: u32, allow_disassociate_destroy: bool) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::COUNTERS_DESTROY);
    cmd.in_obj(UVERBS_ATTR_DESTROY_COUNTERS_HANDLE, handle);
    destroy_result(execute_ioctl(ctx, &mut cmd), allow_disassociate_destroy)
}

/// `ibv_cmd_read_counters`: `UVERBS_METHOD_COUNTERS_READ` into the caller's `u64` array, as
/// bytes (`ncounters * 8`).
pub fn read_counters(
    ctx: Ctx<'_>,
    handle: u32,
    values: &mut [u8],
    flags: u32,
    link: &mut dyn Driver,
) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::COUNTERS_READ);
    cmd.in_obj(UVERBS_ATTR_READ_COUNTERS_HANDLE, handle);
    cmd.out(UVERBS_ATTR_READ_COUNTERS_BUFF, values);
    cmd.in_u32(UVERBS_ATTR_READ_COUNTERS_FLAGS, flags);
    run_linked(ctx, &mut cmd, link, 0).map(|_| ())
}

/// What `ibv_dmah_init_attr` asks of a new DMA handle: each field is sent only when its
/// `IBV_DMAH_INIT_ATTR_MASK_*` bit is set (here: `Some`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DmahInit {
    pub cpu_id: Option<u32>,
    /// An `enum ib_uverbs_tph_mem_type` value, sent as the enum attribute's element.
    pub tph_mem_type: Option<u8>,
    /// The processing hint.
    pub ph: Option<u8>,
}

/// `ibv_cmd_alloc_dmah`: `UVERBS_METHOD_DMAH_ALLOC`; returns the DMA handle's handle (the
/// caller sets `dmah->handle` and `dmah->dmah.context`).
pub fn alloc_dmah(ctx: Ctx<'_>, init: DmahInit) -> Result<u32> {
    let ph = init.ph.map(|p| [p]);
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::DMAH_ALLOC);
    let h = cmd.out_obj(UVERBS_ATTR_ALLOC_DMAH_HANDLE);
    if let Some(cpu) = init.cpu_id {
        cmd.in_u32(UVERBS_ATTR_ALLOC_DMAH_CPU_ID, cpu);
    }
    if let Some(t) = init.tph_mem_type {
        cmd.in_enum(UVERBS_ATTR_ALLOC_DMAH_TPH_MEM_TYPE, t, &[]);
    }
    if let Some(p) = &ph {
        cmd.in_bytes(UVERBS_ATTR_ALLOC_DMAH_PH, p);
    }
    execute_ioctl(ctx, &mut cmd)?;
    Ok(cmd.attr(h).map_or(0, |a| a.data as u32))
}

/// `ibv_cmd_free_dmah`: `UVERBS_METHOD_DMAH_FREE` (a destroy).
pub fn free_dmah(ctx: Ctx<'_>, handle: u32, allow_disassociate_destroy: bool) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::DMAH_FREE);
    cmd.in_obj(UVERBS_ATTR_FREE_DMA_HANDLE, handle);
    destroy_result(execute_ioctl(ctx, &mut cmd), allow_disassociate_destroy)
}

/// `ibv_cmd_export_dmabuf_fd`: `UVERBS_METHOD_DMABUF_ALLOC` at page offset `pg_off` of the
/// device's mmap space; returns the new dma-buf fd.
pub fn export_dmabuf_fd(ctx: Ctx<'_>, pg_off: u64) -> Result<i32> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::DMABUF_ALLOC);
    let h = cmd.out_fd(UVERBS_ATTR_ALLOC_DMABUF_HANDLE);
    cmd.in_u64(UVERBS_ATTR_ALLOC_DMABUF_PGOFF, pg_off);
    execute_ioctl(ctx, &mut cmd)?;
    Ok(cmd.attr(h).map_or(-1, |a| a.data as i32))
}
