//! Protection domains and XRC domains (rdma-core: verbs.c `ibv_alloc_pd`, `ibv_dealloc_pd`,
//! `ibv_import_pd`, `ibv_unimport_pd`, `ibv_open_xrcd`, `ibv_close_xrcd`; cmd_pd.c, cmd_xrcd.c
//! for the provider's commands).
//!
//! The public verbs hand the call to the context's op (the provider's, or the default, which
//! fails with EOPNOTSUPP) and fill in what rdma-core's verb fills in; the provider's commands go
//! to [`cmd::pd`](crate::cmd::pd) on the context's command channel and store what the kernel
//! answered in the provider's object. Called by [`capi::pd`](crate::capi::pd) (and the 1.0 twins).
use core::ffi::c_int;

use crate::abi::driver::verbs_xrcd;
use crate::abi::driver::verbs_xrcd_mask::VERBS_XRCD_HANDLE;
use crate::abi::verbs::{ibv_pd, ibv_xrcd_init_attr};
use crate::errno::{Errno, Result};
use crate::verbs::handle::{Ctx, Pd, Ptr, Xrcd, set};

/// `ibv_alloc_pd`: a new PD from the provider's `alloc_pd`, its `context` set; the provider's errno
/// when it fails, EOPNOTSUPP when the context has no `alloc_pd`.
#[inline]
pub(crate) fn alloc(ctx: Ctx) -> Result<*mut ibv_pd> {
    let op = ctx.ops().alloc_pd.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own open context.
    let pd = unsafe { op(ctx.raw()) };
    if pd.is_null() {
        return Err(Errno(crate::sys::errno()));
    }
    // SAFETY: the PD the provider just made.
    unsafe { (*pd).context = ctx.raw() };
    Ok(pd)
}

/// `ibv_dealloc_pd`: the provider's status (EBUSY while objects use the PD), errno as the
/// provider left it; a missing op answers EOPNOTSUPP with errno untouched.
#[inline]
pub(crate) fn dealloc(pd: Pd) -> c_int {
    match pd.ops().dealloc_pd {
        // SAFETY: the provider's op on its own PD.
        Some(op) => unsafe { op(pd.raw()) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_import_pd`: the PD `handle` of another process sharing this context's command fd (see
/// `ibv_import_device`), from the provider's `import_pd`; EOPNOTSUPP when the provider cannot
/// import, else the provider's errno when it fails.
pub(crate) fn import(ctx: Ctx, handle: u32) -> Result<*mut ibv_pd> {
    let op = ctx.ops().import_pd.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own open context.
    let pd = unsafe { op(ctx.raw(), handle) };
    if pd.is_null() {
        return Err(Errno(crate::sys::errno()));
    }
    Ok(pd)
}

/// `ibv_unimport_pd`: the provider forgets an imported PD (its `unimport_pd`, nothing without one)
/// without destroying the kernel object.
pub(crate) fn unimport(pd: Pd) {
    if let Some(op) = pd.ops().unimport_pd {
        // SAFETY: the provider's op on its own PD.
        unsafe { op(pd.raw()) }
    }
}

/// `ibv_cmd_alloc_pd`: ALLOC_PD ([`cmd::pd::alloc_pd`](crate::cmd::pd::alloc_pd)) with the
/// provider's request and response; sets the PD's `handle` and `context`.
pub(crate) fn cmd_alloc(ctx: Ctx, pd: Ptr<ibv_pd>, req: &mut [u8], resp: &mut [u8]) -> Result<()> {
    let h = crate::cmd::pd::alloc_pd(ctx.channel().cmd(), req, resp)?;
    set!(pd.handle = h);
    set!(pd.context = ctx.raw());
    Ok(())
}

/// `ibv_cmd_dealloc_pd`: the PD destroyed by handle
/// ([`cmd::pd::dealloc_pd`](crate::cmd::pd::dealloc_pd)); EBUSY while MRs, AHs, QPs… still use it;
/// EIO counts as done on a disassociated device when allowed
/// ([`allow_disassociate`](crate::verbs::disassoc::allow_disassociate)).
pub(crate) fn cmd_dealloc(pd: Pd) -> Result<()> {
    // SAFETY: a live PD (the handle's contract).
    let h = unsafe { (*pd.raw()).handle };
    let c = pd.ctx().channel();
    crate::cmd::pd::dealloc_pd(c.cmd(), h, crate::verbs::disassoc::allow_disassociate())
}

/// `ibv_cmd_open_xrcd`: OPEN_XRCD ([`cmd::pd::open_xrcd`](crate::cmd::pd::open_xrcd)) with the
/// attributes' fd and flags, the mask checked first
/// ([`check_xrcd_mask`](crate::cmd::pd::check_xrcd_mask); nothing sent and errno untouched when it
/// refuses); sets the XRCD's `xrcd.context`, and `comp_mask` to `VERBS_XRCD_HANDLE` with `handle`
/// when `vxrcd_size` reaches the handle (else `comp_mask` 0).
pub(crate) fn cmd_open_xrcd(
    ctx: Ctx,
    xrcd: Ptr<verbs_xrcd>,
    vxrcd_size: c_int,
    attr: ibv_xrcd_init_attr,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let c = ctx.channel();
    let h = crate::cmd::pd::open_xrcd(c.cmd(), attr.comp_mask, attr.fd, attr.oflags, req, resp)?;
    let x = xrcd.as_ptr();
    // rdma-core's vext_field_avail: the handle's offset is inside the provider's size.
    let reaches =
        usize::try_from(vxrcd_size).is_ok_and(|n| core::mem::offset_of!(verbs_xrcd, handle) < n);
    // SAFETY: the provider's XRCD (the caller's contract, `Ptr`), `vxrcd_size` bytes of it.
    unsafe { (*x).xrcd.context = ctx.raw() };
    let mask = if reaches {
        // SAFETY: the provider's XRCD (`Ptr`); the handle lies inside the provider's size.
        unsafe { (*x).handle = h };
        VERBS_XRCD_HANDLE as u32
    } else {
        0
    };
    // SAFETY: the provider's XRCD (`Ptr`): `comp_mask` directly follows the `xrcd` written
    // above, inside every provider's `vxrcd_size` (rdma-core writes it unconditionally too).
    unsafe { (*x).comp_mask = mask };
    Ok(())
}

/// `ibv_cmd_close_xrcd`: the XRCD destroyed by handle
/// ([`cmd::pd::close_xrcd`](crate::cmd::pd::close_xrcd)); EIO counts as done on a disassociated
/// device when allowed ([`allow_disassociate`](crate::verbs::disassoc::allow_disassociate)).
pub(crate) fn cmd_close_xrcd(xrcd: Xrcd) -> Result<()> {
    let v = xrcd.raw().cast::<verbs_xrcd>();
    // SAFETY: a live XRCD of this library's provider: the `xrcd` member of a `verbs_xrcd`.
    let h = unsafe { (*v).handle };
    let c = xrcd.ctx().channel();
    crate::cmd::pd::close_xrcd(c.cmd(), h, crate::verbs::disassoc::allow_disassociate())
}
