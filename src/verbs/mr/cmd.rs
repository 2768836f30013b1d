//! The provider's MR and MW commands (rdma-core: cmd.c `ibv_cmd_reg_mr`, `ibv_cmd_rereg_mr`,
//! `ibv_cmd_alloc_mw`; cmd_mr.c, cmd_mw.c): each goes to [`crate::cmd::mr`] on the context's
//! command channel and stores what the kernel answered in the provider's objects ([`store`] for
//! a `verbs_mr`). Called by [`capi::mr`](crate::capi::mr) and [`verbs::dm`](crate::verbs::dm).
use core::ffi::{c_int, c_void};

use super::{DMAH, ODP};
use crate::abi::ctype::CEnum;
use crate::abi::driver::ibv_mr_type::{
    IBV_MR_TYPE_DMABUF_MR, IBV_MR_TYPE_IMPORTED_MR, IBV_MR_TYPE_MR,
};
use crate::abi::driver::{verbs_dmah, verbs_mr};
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::verbs::ibv_rereg_mr_flags::IBV_REREG_MR_CHANGE_PD;
use crate::abi::verbs::{ibv_context, ibv_mr, ibv_mr_init_attr, ibv_mw, ibv_pd};
use crate::cmd::mr::MrKeys;
use crate::errno::{Errno, Result};
use crate::verbs::cmdbuf::Chain;
use crate::verbs::disassoc::allow_disassociate;
use crate::verbs::handle::{Mw, Pd, Ptr, VerbsMr};

/// What a successful registration command stores into a `verbs_mr`.
pub(crate) struct MrStore {
    /// The kernel's handle and keys.
    pub keys: MrKeys,
    pub context: *mut ibv_context,
    /// The PD, where the command form sets it (the public verb sets it for the others).
    pub pd: Option<*mut ibv_pd>,
    /// `addr` and `length`, where the command form sets them.
    pub range: Option<(*mut c_void, usize)>,
    /// `vmr->access`, where the command form sets it.
    pub access: Option<c_int>,
    /// An `ibv_mr_type` value.
    pub mr_type: u32,
}

/// Store `s` into the provider's `verbs_mr`.
pub(crate) fn store(vmr: Ptr<verbs_mr>, s: MrStore) {
    // SAFETY: the provider's writable verbs_mr (`Ptr`), not in use by another thread.
    let v = unsafe { &mut *vmr.as_ptr() };
    let m = &mut v.ibv_mr;
    m.handle = s.keys.handle;
    m.lkey = s.keys.lkey;
    m.rkey = s.keys.rkey;
    m.context = s.context;
    if let Some(pd) = s.pd {
        m.pd = pd;
    }
    if let Some((addr, length)) = s.range {
        m.addr = addr;
        m.length = length;
    }
    if let Some(access) = s.access {
        v.access = access;
    }
    v.mr_type = CEnum::new(s.mr_type);
}

/// `ibv_cmd_reg_mr`: write command REG_MR ([`cmd::mr::reg_mr`](crate::cmd::mr::reg_mr)) with the
/// provider's request and response. An on-demand (ODP) MR of length `SIZE_MAX` is the implicit
/// whole-address-space MR and must have a NULL `addr` (else EINVAL, nothing sent). On success
/// stores the handle, lkey, rkey and context, `vmr->mr_type = IBV_MR_TYPE_MR` and
/// `vmr->access = access` (the public verb sets pd, addr and length).
#[inline(always)] // the `ibv_reg_mr` rows of `make bench-vm` (rxe's reg_mr calls the export)
#[allow(clippy::too_many_arguments)]
pub(crate) fn reg(
    pd: Pd,
    addr: *mut c_void,
    length: usize,
    hca_va: u64,
    access: c_int,
    vmr: Ptr<verbs_mr>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    // rdma-core's one check, before it looks at the PD's context: an implicit ODP MR covers the
    // whole address space, so it cannot have a start address.
    if access & ODP != 0 && length == usize::MAX && !addr.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: a live PD (the handle's contract).
    let pdh = unsafe { (*pd.raw()).handle };
    let c = pd.ctx().channel();
    let start = addr as usize as u64;
    let keys = crate::cmd::mr::reg_mr(c.cmd(), pdh, start, length, hca_va, access, req, resp)?;
    let s = MrStore {
        keys,
        context: pd.context(),
        pd: None,
        range: None,
        access: Some(access),
        mr_type: IBV_MR_TYPE_MR as u32,
    };
    store(vmr, s);
    Ok(())
}

/// The driver chain of ABI 34's `ibv_cmd_reg_dmabuf_mr`: `driver` (its eighth argument) when
/// the provider of `pd`'s device has rdma-core v54-v56's layout, whose form has it; none for
/// v36-v53's seven-argument form, whose eighth place holds no argument.
///
/// The C caller's contract: for a v54-v56 provider, `driver` is NULL or a chain of live command
/// buffers.
pub(crate) fn dmabuf_chain_v54(pd: Pd, driver: *mut ibv_command_buffer) -> Chain {
    // SAFETY: a live PD of an open context (the handle's contract): its device is listed.
    let dev = unsafe { (*pd.context()).device };
    // SAFETY: a listed device's record, whose ops were set when a provider took it.
    let ops = unsafe { (*crate::verbs::devlist::vdev_of(dev).0).ops };
    // SAFETY: the C caller's contract, passed on.
    unsafe { dmabuf_chain_of(crate::verbs::devlist::ops_abi(ops), driver) }
}

/// The driver chain of ABI 34's `ibv_cmd_reg_dmabuf_mr` called by a provider of `layout`.
///
/// # Safety
/// For [`pabi::LAYOUT_V54`](crate::abi::driver::pabi::LAYOUT_V54), `driver` is NULL or a chain of
/// live command buffers.
unsafe fn dmabuf_chain_of(layout: u32, driver: *mut ibv_command_buffer) -> Chain {
    if layout == crate::abi::driver::pabi::LAYOUT_V54 {
        // SAFETY: the caller's contract (a provider of that layout passes its chain).
        unsafe { Chain::from_raw(driver) }
    } else {
        Chain::NONE
    }
}

/// `ibv_cmd_reg_dmabuf_mr`: REG_DMABUF_MR (ioctl only:
/// [`cmd::mr::reg_dmabuf_mr`](crate::cmd::mr::reg_dmabuf_mr)) of `length` bytes at `offset` of
/// dma-buf `fd`, with the provider's `driver` attribute chain linked after the command's own
/// attributes (and written back; none for the ABI-34 form of v36-v53); on success stores the
/// handle, lkey, rkey, context, pd, `addr = offset`, `length` and
/// `vmr->mr_type = IBV_MR_TYPE_DMABUF_MR`. The forms of every provider ABI come here.
#[allow(clippy::too_many_arguments)]
pub(crate) fn reg_dmabuf(
    pd: Pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
    vmr: Ptr<verbs_mr>,
    mut driver: Chain,
) -> Result<()> {
    // SAFETY: a live PD (the handle's contract).
    let pdh = unsafe { (*pd.raw()).handle };
    let c = pd.ctx().channel();
    let keys =
        crate::cmd::mr::reg_dmabuf_mr(c.cmd(), pdh, offset, length, iova, fd, access, &mut driver)?;
    let s = MrStore {
        keys,
        context: pd.context(),
        pd: Some(pd.raw()),
        range: Some((offset as usize as *mut c_void, length)),
        access: None,
        mr_type: IBV_MR_TYPE_DMABUF_MR as u32,
    };
    store(vmr, s);
    Ok(())
}

/// `ibv_cmd_rereg_mr`: write command REREG_MR ([`cmd::mr::rereg_mr`](crate::cmd::mr::rereg_mr))
/// with the provider's request and response (`pd` read only with `IBV_REREG_MR_CHANGE_PD`, which
/// needs one: EINVAL, a divergence: rdma-core crashes); stores the new lkey and rkey, and with
/// CHANGE_PD the new PD's context (the public verb updates pd, addr and length).
#[allow(clippy::too_many_arguments)]
pub(crate) fn rereg(
    vmr: VerbsMr,
    flags: u32,
    addr: *mut c_void,
    length: usize,
    hca_va: u64,
    access: c_int,
    pd: Option<Ptr<ibv_pd>>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let pd = match pd {
        Some(p) if flags & IBV_REREG_MR_CHANGE_PD as u32 != 0 => Some(p.read()),
        None if flags & IBV_REREG_MR_CHANGE_PD as u32 != 0 => return Err(Errno::EINVAL),
        _ => None,
    };
    let m = vmr.raw().cast::<ibv_mr>();
    // SAFETY: the provider's live MR (the handle's contract).
    let mrh = unsafe { (*m).handle };
    let c = vmr.ctx().channel();
    let (start, pdh) = (addr as usize as u64, pd.map_or(0, |p| p.handle));
    let (lkey, rkey) = crate::cmd::mr::rereg_mr(
        c.cmd(),
        mrh,
        flags,
        start,
        length,
        hca_va,
        access,
        pdh,
        req,
        resp,
    )?;
    // SAFETY: the provider's live MR (the handle's contract), nobody else's during the call.
    let m = unsafe { &mut *m };
    m.lkey = lkey;
    m.rkey = rkey;
    if let Some(p) = pd {
        m.context = p.context;
    }
    Ok(())
}

/// `ibv_cmd_dereg_mr`: the MR destroyed by handle (MR_DESTROY ioctl, else the DEREG_MR write
/// command: [`cmd::mr::dereg_mr`](crate::cmd::mr::dereg_mr)); EBUSY while a memory window is bound
/// to it; EIO counts as done on a disassociated device when allowed ([`allow_disassociate`]).
#[inline(always)] // the `ibv_dereg_mr` rows of `make bench-vm` (rxe's dereg_mr calls the export)
pub(crate) fn dereg(vmr: VerbsMr) -> Result<()> {
    let c = vmr.ctx().channel();
    // SAFETY: the provider's live MR (the handle's contract).
    let h = unsafe { (*vmr.raw()).ibv_mr.handle };
    crate::cmd::mr::dereg_mr(c.cmd(), h, allow_disassociate())
}

/// `ibv_cmd_query_mr`: QUERY_MR (ioctl only: [`cmd::mr::query_mr`](crate::cmd::mr::query_mr)) of
/// the MR with `mr_handle` (one imported from another process); stores its lkey, rkey and length,
/// and on success its handle, `pd`, `pd`'s context, `addr = NULL` and
/// `vmr->mr_type = IBV_MR_TYPE_IMPORTED_MR`.
pub(crate) fn query(pd: Pd, vmr: Ptr<verbs_mr>, handle: u32) -> Result<()> {
    let c = pd.ctx().channel();
    let (lkey, rkey, length) = crate::cmd::mr::query_mr(c.cmd(), handle)?;
    let s = MrStore {
        keys: MrKeys { handle, lkey, rkey },
        context: pd.context(),
        pd: Some(pd.raw()),
        range: Some((core::ptr::null_mut(), length as usize)),
        access: None,
        mr_type: IBV_MR_TYPE_IMPORTED_MR as u32,
    };
    store(vmr, s);
    Ok(())
}

/// `ibv_cmd_advise_mr`: ADVISE_MR (ioctl only: [`cmd::mr::advise_mr`](crate::cmd::mr::advise_mr)):
/// `advice` (e.g. prefetch) for the `num_sge` ranges of `sg_list` (here `sges`, the array's
/// bytes).
pub(crate) fn advise(pd: Pd, advice: u32, flags: u32, sges: &[u8]) -> Result<()> {
    // SAFETY: a live PD (the handle's contract).
    let h = unsafe { (*pd.raw()).handle };
    let c = pd.ctx().channel();
    crate::cmd::mr::advise_mr(c.cmd(), h, advice, flags, sges)
}

/// `ibv_cmd_alloc_mw`: write command ALLOC_MW ([`cmd::mr::alloc_mw`](crate::cmd::mr::alloc_mw)) of
/// `type` with the provider's request and response; on success sets the MW's context, pd, rkey,
/// handle and type.
pub(crate) fn alloc_mw(
    pd: Pd,
    mw_type: u32,
    mw: Ptr<ibv_mw>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    // SAFETY: a live PD (the handle's contract).
    let pdh = unsafe { (*pd.raw()).handle };
    let c = pd.ctx().channel();
    let (handle, rkey) = crate::cmd::mr::alloc_mw(c.cmd(), pdh, mw_type, req, resp)?;
    // SAFETY: the provider's MW (`Ptr`), nobody else's during the call.
    let w = unsafe { &mut *mw.as_ptr() };
    w.context = pd.context();
    w.pd = pd.raw();
    w.rkey = rkey;
    w.handle = handle;
    w.r#type = mw_type.into();
    Ok(())
}

/// `ibv_cmd_dealloc_mw`: the MW destroyed by handle (MW_DESTROY ioctl, else the DEALLOC_MW write
/// command: [`cmd::mr::dealloc_mw`](crate::cmd::mr::dealloc_mw)); EIO counts as done on a
/// disassociated device when allowed ([`allow_disassociate`]).
pub(crate) fn dealloc_mw(mw: Mw) -> Result<()> {
    // SAFETY: a live MW (the handle's contract).
    let h = unsafe { (*mw.raw()).handle };
    let c = mw.ctx().channel();
    crate::cmd::mr::dealloc_mw(c.cmd(), h, allow_disassociate())
}

/// `ibv_cmd_reg_mr_ex`: `UVERBS_METHOD_REG_MR` ([`cmd::mr::reg_mr_ex`](crate::cmd::mr::reg_mr_ex))
/// from an address (`IBV_REG_MR_MASK_ADDR`) or a dma-buf (`IBV_REG_MR_MASK_FD` with `_FD_OFFSET`
/// and `_IOVA`), any other `comp_mask` combination EINVAL; a kernel without the method gets the
/// legacy REG_MR write command for an address-based request (EOPNOTSUPP for a dma-buf or DMA handle
/// one). On success stores the handle, context, lkey and rkey, `vmr->mr_type`
/// (`IBV_MR_TYPE_DMABUF_MR` for a dma-buf, else `IBV_MR_TYPE_MR`) and `vmr->access`. Divergence:
/// DMAH with a NULL `dmah` is EINVAL.
pub(crate) fn reg_ex(pd: Pd, vmr: Ptr<verbs_mr>, attr: ibv_mr_init_attr) -> Result<()> {
    let dmah = if attr.comp_mask & DMAH != 0 {
        if attr.dmah.is_null() {
            return Err(Errno::EINVAL);
        }
        // SAFETY: a DMA handle of this library's providers: the `dmah` of a `verbs_dmah`.
        unsafe { (*attr.dmah.cast::<verbs_dmah>()).handle }
    } else {
        0
    };
    let req = crate::cmd::mr::RegMrEx {
        comp_mask: attr.comp_mask,
        length: attr.length,
        access: attr.access,
        iova: attr.iova,
        addr: attr.addr as usize as u64,
        fd: attr.fd,
        fd_offset: attr.fd_offset,
        dmah,
    };
    // SAFETY: a live PD (the handle's contract).
    let pdh = unsafe { (*pd.raw()).handle };
    let c = pd.ctx().channel();
    let (keys, dmabuf) = crate::cmd::mr::reg_mr_ex(c.cmd(), pdh, &req)?;
    let mr_type = if dmabuf {
        IBV_MR_TYPE_DMABUF_MR
    } else {
        IBV_MR_TYPE_MR
    };
    // SAFETY: the provider's verbs_mr (`Ptr`), nobody else's during the call.
    let v = unsafe { &mut *vmr.as_ptr() };
    v.ibv_mr.handle = keys.handle;
    v.ibv_mr.context = pd.context();
    v.ibv_mr.lkey = keys.lkey;
    v.ibv_mr.rkey = keys.rkey;
    v.mr_type = CEnum::new(mr_type as u32);
    v.access = attr.access;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::driver::pabi::{LAYOUT_V34, LAYOUT_V35, LAYOUT_V54};

    /// Only a v54-v56 provider's eighth argument is its chain; under any other layout of ABI 34
    /// the eighth place is not an argument (here a poison value, never followed).
    #[test]
    fn dmabuf_chain_only_from_v54_providers() {
        let poison = core::ptr::dangling_mut::<ibv_command_buffer>();
        for layout in [LAYOUT_V34, LAYOUT_V35, 34] {
            // SAFETY: not V54: the pointer is not taken.
            let c = unsafe { dmabuf_chain_of(layout, poison) };
            assert_eq!(c.final_num_attrs(3), 3, "layout {layout}");
        }
        // A provider's buffer holding two attributes (its `hdr.attrs` array follows the header).
        #[repr(C)]
        struct Buf {
            b: ibv_command_buffer,
            attrs: [crate::abi::uapi::ib_uverbs_attr; 2],
        }
        // SAFETY: plain C data; all-zero is valid.
        let mut s: Buf = unsafe { core::mem::zeroed() };
        s.b.next_attr = (&raw mut s.attrs)
            .cast::<crate::abi::uapi::ib_uverbs_attr>()
            .wrapping_add(2);
        // SAFETY: a live command buffer, ours for the call.
        let c = unsafe { dmabuf_chain_of(LAYOUT_V54, &raw mut s.b) };
        assert_eq!(c.final_num_attrs(3), 5);
    }
}
