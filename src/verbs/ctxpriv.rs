//! The library's private part of every context (rdma-core: ibverbs.h `struct verbs_ex_private`,
//! reached through `verbs_context.priv`).
//!
//! Providers never look inside it (at provider ABI 34 `priv` is opaque to them); the library keeps
//! there the complete op table (`get_ops`), the kernel driver id that goes into every ioctl header,
//! and the command layer's per-context state.
//!
//! Called by `capi` and the rest of `verbs`; [`Context`] is the one way from a `*mut ibv_context`
//! to its command channel. Unsafe here: reading `verbs_context.priv` of contexts this library
//! initialised (a leaked `Box<ContextPriv>`, or NULL for a context it never saw).
use crate::abi::driver::{verbs_context_ops, verbs_context_pabi34};
use crate::abi::verbs::ibv_context;

/// `verbs_context.priv` of a context this library initialised.
pub(crate) struct ContextPriv {
    /// Every op, in the newest provider ABI's layout: the provider's where it gave one
    /// (`verbs_set_ops`), the defaults otherwise; the ops later provider ABIs added stay None where
    /// the provider gave none (see [`ops::init_defaults`](crate::verbs::ops::init_defaults)).
    pub ops: verbs_context_ops,
    /// The command layer's state: the driver id for ioctl headers, whether write commands may
    /// travel over the ioctl interface, which ioctls the kernel refused.
    pub cmd: crate::cmd::CmdState,
    /// The context came from `ibv_import_device` (its commands never fall back to write()).
    pub imported: bool,
}

impl ContextPriv {
    /// A private part with the given table.
    pub(crate) fn new(ops: verbs_context_ops, cmd: crate::cmd::CmdState, imported: bool) -> Self {
        ContextPriv { ops, cmd, imported }
    }
}

/// The common part (`verbs_context_pabi34` view) of a `verbs_context` a provider of ABI `abi`
/// handed us: the members from `query_port` to `context` (`priv`, `sz`, the public slots the
/// library fills) sit at the same distance before `ibv_context` in every ABI's layout, after the
/// public ops that ABI put in front ([`pabi::front_bytes`](crate::abi::driver::pabi::front_bytes));
/// the library works on this view.
pub(crate) fn view34(vctx: *mut core::ffi::c_void, abi: u32) -> *mut verbs_context_pabi34 {
    vctx.cast::<u8>()
        .wrapping_add(crate::abi::driver::pabi::front_bytes(abi))
        .cast()
}

/// A checked handle on a library context for the length of one call: the one way from a
/// `*mut ibv_context` to its command channel (`cmd_fd` and the command state of the private
/// part) and to its `imported` mark.
pub(crate) struct Context {
    fd: crate::cmd::CmdFd,
    priv_: *const ContextPriv,
}

impl Context {
    /// The handle of `ctx`; EINVAL for NULL (Divergence: rdma-core dereferences it).
    ///
    /// # Safety
    /// A non-NULL `ctx` is a live context whose `priv` is NULL or ours (see [`priv_of`]), and
    /// stays live while the handle is used (the call that made it).
    pub(crate) unsafe fn from_raw(ctx: *mut ibv_context) -> crate::errno::Result<Context> {
        let Some(ctx) = core::ptr::NonNull::new(ctx) else {
            return Err(crate::errno::Errno::EINVAL);
        };
        // SAFETY: the caller's contract.
        Ok(unsafe { Context::of(ctx) })
    }

    /// The handle of a context that is not NULL.
    ///
    /// # Safety
    /// As for [`Context::from_raw`].
    #[inline(always)]
    pub(crate) unsafe fn of(ctx: core::ptr::NonNull<ibv_context>) -> Context {
        let ctx = ctx.as_ptr();
        // SAFETY: the caller's contract: a live context.
        let fd = crate::cmd::CmdFd(unsafe { (*ctx).cmd_fd });
        // SAFETY: the caller's contract: a live context of this library, whose private part precedes it.
        let priv_: *const ContextPriv = unsafe { priv_of(ctx) };
        Context { fd, priv_ }
    }

    /// The command channel, for [`crate::cmd`].
    pub(crate) fn cmd(&self) -> crate::cmd::Ctx<'_> {
        crate::cmd::Ctx::on_fd(self.fd, &self.priv_().cmd)
    }

    /// The private part (shared: only initialisation writes it, through the raw pointer).
    pub(crate) fn priv_(&self) -> &ContextPriv {
        // SAFETY: from_raw's contract: the private part lives as long as the context, which
        // outlives this handle.
        unsafe { &*self.priv_ }
    }

    /// Whether the context came from `ibv_import_device` (ioctl only, no write fallback).
    pub(crate) fn imported(&self) -> bool {
        self.priv_().imported
    }
}

/// The common part (PABI-34 view) of the `verbs_context` that holds `ctx` (it is the context's last
/// member): [`view34`] for every provider ABI, valid from `query_port` on, which is all the library
/// touches but the public ops in front ([`ops::set_ops`](crate::verbs::ops::set_ops) reaches
/// those).
pub(crate) fn vctx_of(ctx: *mut ibv_context) -> *mut verbs_context_pabi34 {
    let off = core::mem::offset_of!(verbs_context_pabi34, context);
    ctx.cast::<u8>().wrapping_sub(off).cast()
}

/// What a context without a private part (`priv` NULL: one this library never initialised, such
/// as zeroed memory a caller passes) gets in its place: no ops, and a command state that sends
/// every command to the context's `cmd_fd` (where it fails). rdma-core dereferences the NULL and
/// crashes; here such a call returns the error the missing op or the failed command gives.
static DETACHED: ContextPriv = ContextPriv {
    // SAFETY: a table of Option<fn>: all-zero is all None.
    ops: unsafe { core::mem::zeroed() },
    cmd: crate::cmd::CmdState::new(0, false),
    imported: false,
};

/// The private part of a context; [`DETACHED`] when it has none.
///
/// # Safety
/// `ctx` is a live context whose `priv` is NULL or a `ContextPriv` of this library.
#[inline(always)]
pub(crate) unsafe fn priv_of<'a>(ctx: *mut ibv_context) -> &'a ContextPriv {
    // SAFETY: the caller's contract.
    let p = unsafe { priv_ptr(ctx) };
    // SAFETY: NULL or the leaked Box verbs_init_context set, which lives as long as the context.
    match unsafe { p.as_ref() } {
        Some(p) => p,
        // A branch, not a select: every verb takes the other way.
        None => detached(),
    }
}

/// [`DETACHED`], out of the verbs' way. Inlinable, so that it folds to its address in every
/// codegen unit: a call (across units) would keep a register of the caller's live across it.
#[cold]
#[inline]
fn detached() -> &'static ContextPriv {
    &DETACHED
}

/// `verbs_context.priv` of the context holding `ctx`: NULL, or our [`ContextPriv`] (for a context
/// this library initialised).
///
/// # Safety
/// `ctx` is the `context` member of a live `verbs_context`.
#[inline(always)]
unsafe fn priv_ptr(ctx: *mut ibv_context) -> *const ContextPriv {
    // SAFETY: the caller's contract: the verbs_context around `ctx` is live.
    unsafe { (*vctx_of(ctx)).r#priv }.cast()
}

/// Initialisation's write of `imported` (after the provider returned the context), through the
/// raw pointer: no `&mut` to the private part is ever made.
///
/// # Safety
/// `ctx` is a live context initialised by this library, not used by another thread yet.
pub(crate) unsafe fn set_imported(ctx: *mut ibv_context, imported: bool) {
    // SAFETY: the caller's contract: priv is NULL or our ContextPriv.
    let p = unsafe { (*vctx_of(ctx)).r#priv }.cast::<ContextPriv>();
    if !p.is_null() {
        // SAFETY: our live private part; only the field's address is taken.
        let field = unsafe { &raw mut (*p).imported };
        // SAFETY: no reference to the private part exists yet (the context is not shared).
        unsafe { field.write(imported) };
    }
}

/// The op table of a context this library initialised, read without [`priv_of`]'s test for a
/// missing private part: for a context reached through an object created on it (the CQ a completion
/// event names was made by `ibv_create_cq` on a context with ops, which a context without a private
/// part does not have). Its table was filled by
/// [`ops::init_defaults`](crate::verbs::ops::init_defaults) (so its `cq_event` is set).
///
/// # Safety
/// `ctx` is a live context initialised by this library (`priv` set, its table filled by
/// [`ops::init_defaults`](crate::verbs::ops::init_defaults)).
#[inline(always)]
pub(crate) unsafe fn live_ops_of<'a>(ctx: *mut ibv_context) -> &'a verbs_context_ops {
    // SAFETY: the caller's contract: a live context.
    let p = unsafe { priv_ptr(ctx) };
    // SAFETY: the caller's contract: priv is the leaked ContextPriv of verbs_init_context,
    // which lives as long as the context.
    unsafe { &(*p).ops }
}

/// The complete op table of a context (rdma-core's `get_ops`).
///
/// # Safety
/// As for [`priv_of`].
pub(crate) unsafe fn ops_of<'a>(ctx: *mut ibv_context) -> &'a verbs_context_ops {
    // SAFETY: the caller's contract.
    unsafe { &priv_of(ctx).ops }
}
