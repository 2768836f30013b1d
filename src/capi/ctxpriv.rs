//! The library's private part of every context (rdma-core: ibverbs.h `struct verbs_ex_private`,
//! reached through `verbs_context.priv`).
//!
//! Providers never look inside it (at provider ABI 34 `priv` is opaque to them); the library keeps
//! there the complete op table (`get_ops`), the kernel driver id that goes into every ioctl header,
//! and the command layer's per-context state.
use crate::abi::driver::{verbs_context_ops, verbs_context_pabi34};
use crate::abi::verbs::ibv_context;

/// `verbs_context.priv` of a context this library initialised.
pub(crate) struct ContextPriv {
    /// Every op: the provider's where it gave one (`verbs_set_ops`), the defaults otherwise.
    pub ops: verbs_context_ops,
    /// The command layer's state: the driver id for ioctl headers, whether write commands may
    /// travel over the ioctl interface, which ioctls the kernel refused.
    pub cmd: crate::cmd::CmdState,
    /// The context came from `ibv_import_device` (its commands never fall back to write()).
    pub imported: bool,
}

/// The command channel and state of a context, for `crate::cmd`.
///
/// # Safety
/// As for [`priv_of`]; the returned value borrows the context's private part.
pub(crate) unsafe fn cmd_of<'a>(ctx: *mut ibv_context, fd: &'a crate::cmd::CmdFd) -> crate::cmd::Ctx<'a> {
    // SAFETY: the caller's contract.
    let p: &'a ContextPriv = unsafe { priv_of(ctx) };
    crate::cmd::Ctx::new(fd, &p.cmd)
}

/// The PABI-34 `verbs_context` that holds `ctx` (it is the context's last member).
pub(crate) fn vctx_of(ctx: *mut ibv_context) -> *mut verbs_context_pabi34 {
    let off = core::mem::offset_of!(verbs_context_pabi34, context);
    ctx.cast::<u8>().wrapping_sub(off).cast()
}

/// The private part of a context.
///
/// # Safety
/// `ctx` is a live context initialised by this library (its `priv` is a `ContextPriv`).
pub(crate) unsafe fn priv_of<'a>(ctx: *mut ibv_context) -> &'a mut ContextPriv {
    // SAFETY: the caller's contract; priv was set by verbs_init_context to a leaked Box.
    unsafe { &mut *(*vctx_of(ctx)).r#priv.cast::<ContextPriv>() }
}

/// The complete op table of a context (rdma-core's `get_ops`).
///
/// # Safety
/// As for [`priv_of`].
pub(crate) unsafe fn ops_of<'a>(ctx: *mut ibv_context) -> &'a verbs_context_ops {
    // SAFETY: the caller's contract.
    unsafe { &priv_of(ctx).ops }
}
