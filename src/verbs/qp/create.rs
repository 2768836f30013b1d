//! Making QPs through the kernel (rdma-core: cmd_qp.c `ibv_icmd_create_qp`, `set_qp` and the
//! entry points `ibv_cmd_create_qp`, `_create_qp_ex`, `_create_qp_ex2`; cmd.c `ibv_cmd_open_qp`):
//! the provider's attributes read as rdma-core reads them, the command sent by
//! [`cmd::qp`](crate::cmd::qp), and the provider's new QP filled in from the answer.
//!
//! Part of [`verbs::qp`](crate::verbs::qp), called by [`capi::qp`](crate::capi::qp) (and
//! `capi::pabi::forms`).
use core::ffi::c_int;
use core::mem::offset_of;
use core::ptr::null_mut;

use crate::abi::ctype::CEnum;
use crate::abi::driver::verbs_qp_mask::VERBS_QP_XRCD;
use crate::abi::driver::{verbs_qp, verbs_xrcd};
use crate::abi::uapi::ib_uverbs_create_qp_resp;
use crate::abi::verbs::ibv_qp_create_flags::IBV_QP_CREATE_SOURCE_QPN;
use crate::abi::verbs::ibv_qp_init_attr_mask::*;
use crate::abi::verbs::ibv_qp_open_attr_mask::*;
use crate::abi::verbs::ibv_qp_state::{IBV_QPS_RESET, IBV_QPS_UNKNOWN};
use crate::abi::verbs::{
    ibv_context, ibv_cq, ibv_pd, ibv_qp, ibv_qp_init_attr, ibv_qp_init_attr_ex, ibv_qp_open_attr,
};
use crate::cmd::Ctx as Channel;
use crate::cmd::qp::{QpCreated, QpInit};
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::events::init_lock;
use crate::verbs::handle::{Ctx, Pd, Ptr};

/// Where a provider's `verbs_qp` keeps `comp_mask` and `xrcd`. Within provider ABI 34 the
/// struct grew: rdma-core v45 appended `wr_flush` to the `ibv_qp_ex` it starts with, so
/// providers built from v44 headers (Debian 12) keep `comp_mask` at 352, those built from v45-v56
/// headers (Debian 13) at 360, where a v44 provider keeps `xrcd`. A provider says which only
/// where it passes its struct's size (`ibv_cmd_open_qp`); elsewhere the v44 layout of
/// [`verbs_qp`] is assumed.
#[derive(Clone, Copy)]
struct VqpLayout {
    comp_mask: usize,
    xrcd: usize,
}

/// The v44 layout (this crate's [`verbs_qp`]).
const VQP_V44: VqpLayout = VqpLayout {
    comp_mask: offset_of!(verbs_qp, comp_mask),
    xrcd: offset_of!(verbs_qp, xrcd),
};
/// The v45-v56 layout: everything after `ibv_qp_ex` moved by its new last member.
const VQP_V56: VqpLayout = VqpLayout {
    comp_mask: VQP_V44.comp_mask + 8,
    xrcd: VQP_V44.xrcd + 8,
};
/// `sizeof(struct verbs_qp)` in the v45-v56 layout.
const VQP_V56_SIZE: usize = size_of::<verbs_qp>() + 8;

impl VqpLayout {
    /// The layout of a provider struct of `size` bytes.
    fn of_size(size: usize) -> Self {
        if size >= VQP_V56_SIZE {
            VQP_V56
        } else {
            VQP_V44
        }
    }

    /// `vqp->comp_mask = mask` and, when given, `vqp->xrcd = xrcd`, each only if inside `size`.
    ///
    /// # Safety
    /// `vqp` points to `size` writable bytes.
    unsafe fn store(
        self,
        vqp: *mut verbs_qp,
        size: usize,
        mask: u32,
        xrcd: Option<*mut verbs_xrcd>,
    ) {
        let base = vqp.cast::<u8>();
        if self.comp_mask + 4 <= size {
            let p = base.wrapping_add(self.comp_mask).cast::<u32>();
            // SAFETY: the caller's contract, inside `size` (naturally aligned in either layout,
            // as `vqp` is).
            unsafe { p.write(mask) };
        }
        if let Some(x) = xrcd.filter(|_| self.xrcd + 8 <= size) {
            let p = base.wrapping_add(self.xrcd).cast::<*mut verbs_xrcd>();
            // SAFETY: the caller's contract, inside `size` (checked just above), pointer-aligned as `vqp` is.
            unsafe { p.write(x) };
        }
    }
}

// An `ibv_qp_init_attr_ex` begins with an `ibv_qp_init_attr` (the members, and the padding up to
// `comp_mask`): `qp_init` and `set_qp` read that prefix as one.
const _: () = {
    use core::mem::offset_of as at;
    type A = ibv_qp_init_attr;
    type X = ibv_qp_init_attr_ex;
    assert!(at!(A, qp_context) == at!(X, qp_context) && at!(A, send_cq) == at!(X, send_cq));
    assert!(at!(A, recv_cq) == at!(X, recv_cq) && at!(A, srq) == at!(X, srq));
    assert!(at!(A, cap) == at!(X, cap) && at!(A, qp_type) == at!(X, qp_type));
    assert!(at!(A, sq_sig_all) == at!(X, sq_sig_all));
    assert!(size_of::<A>() <= at!(X, pd));
};

/// A kernel handle of an optional object (None for NULL).
///
/// # Safety
/// `p` is NULL or a live object; `handle` reads its handle.
unsafe fn handle_of<T>(p: *mut T, handle: impl FnOnce(&T) -> u32) -> Option<u32> {
    // SAFETY: the caller's contract.
    unsafe { p.as_ref() }.map(handle)
}

/// The command layer's view of `a`: objects as handles, each member read only where rdma-core
/// reads it (an application's `ibv_qp_init_attr_ex` may predate the later members). The
/// context's part (`async_fd`, `imported`) is left for [`icmd_create_qp`] to fill.
///
/// # Safety
/// `a` and the objects it names are live.
unsafe fn qp_init(qp: *mut ibv_qp, a: *const ibv_qp_init_attr_ex) -> QpInit {
    // SAFETY: the caller's contract; an `ibv_qp_init_attr_ex` begins with an
    // `ibv_qp_init_attr` (rdma-core's `ibv_create_qp_ex` passes one as the other).
    let base = unsafe { a.cast::<ibv_qp_init_attr>().read() };
    // SAFETY: the caller's contract: the member every `ibv_qp_init_attr_ex` has.
    let m = unsafe { (*a).comp_mask };
    let has = |bit: crate::abi::verbs::ibv_qp_init_attr_mask| m & bit as u32 != 0;
    let cq = |p: *mut ibv_cq| {
        // SAFETY: the caller's contract: NULL or a live CQ.
        unsafe { handle_of(p, |c| c.handle) }
    };
    // The members every struct has first, then each optional one stored where it is read: the
    // struct goes to the command by reference, and built at the end from locals its handles
    // and flags were kept across the branches and copied in one by one (bench row create_qp).
    let mut init = QpInit {
        qp_type: base.qp_type.raw(),
        comp_mask: m,
        cap: base.cap.into(),
        sq_sig_all: base.sq_sig_all,
        user_handle: qp as u64,
        async_fd: -1,
        ..QpInit::default()
    };
    init.send_cq_handle = cq(base.send_cq);
    init.recv_cq_handle = cq(base.recv_cq);
    // SAFETY: NULL or a live SRQ.
    init.srq_handle = unsafe { handle_of(base.srq, |s| s.handle) };
    if has(IBV_QP_INIT_ATTR_CREATE_FLAGS) {
        // SAFETY: the caller's contract: CREATE_FLAGS says the member is there.
        init.create_flags = unsafe { (*a).create_flags };
        if init.create_flags & IBV_QP_CREATE_SOURCE_QPN as u32 != 0 {
            // SAFETY: the caller's contract: SOURCE_QPN is a create flag, so the member is there too.
            init.source_qpn = unsafe { (*a).source_qpn };
        }
    }
    if has(IBV_QP_INIT_ATTR_PD) {
        // SAFETY: the caller's contract: PD says the member is there.
        let pd = unsafe { (*a).pd };
        // SAFETY: the caller's contract: NULL or a live PD.
        init.pd_handle = unsafe { handle_of(pd, |p| p.handle) };
    }
    if has(IBV_QP_INIT_ATTR_XRCD) {
        // SAFETY: the caller's contract: XRCD says the member is there.
        let xrcd = unsafe { (*a).xrcd.cast::<verbs_xrcd>() };
        // SAFETY: NULL or a live XRCD of this library's provider (a `verbs_xrcd`).
        init.xrcd_handle = unsafe { handle_of(xrcd, |x| x.handle) };
    }
    if has(IBV_QP_INIT_ATTR_IND_TABLE) {
        // SAFETY: the caller's contract: IND_TABLE says the member is there.
        let ind_tbl = unsafe { (*a).rwq_ind_tbl };
        // SAFETY: NULL or a live indirection table.
        init.ind_tbl_handle = unsafe { handle_of(ind_tbl, |t| t.ind_tbl_handle as u32) };
    }
    init
}

/// rdma-core's `set_qp` after a successful create: the handle, number and core fields of the
/// QP, the granted capabilities into `a->cap`, and for a `verbs_qp` with an XRCD its
/// `comp_mask` and `xrcd`.
///
/// Divergence: rdma-core also clears `comp_mask` of every other `verbs_qp`. Providers allocate
/// their QPs zeroed, and in a v45-v56 provider's struct (see [`VqpLayout`]) that word is the low
/// half of the `wr_flush` pointer it may already have set, so it is left alone here.
///
/// # Safety
/// `qp` is the provider's QP (inside `vqp` when that is not NULL), not in use by another
/// thread; `a` a live attribute struct, read only as rdma-core reads it.
unsafe fn set_qp(
    vqp: *mut verbs_qp,
    qp: *mut ibv_qp,
    a: *mut ibv_qp_init_attr_ex,
    created: QpCreated,
) {
    // SAFETY: as in `qp_init`: the leading `ibv_qp_init_attr`.
    let base = unsafe { a.cast::<ibv_qp_init_attr>().read() };
    // SAFETY: the caller's contract: the member every `ibv_qp_init_attr_ex` has.
    let m = unsafe { (*a).comp_mask };
    // SAFETY: rdma-core reads it whatever the mask (the callers' own structs, or a provider's
    // `ibv_qp_init_attr_ex` passed on).
    let pd = unsafe { (*a).pd };
    // SAFETY: the caller's contract: the attributes are the caller's to update.
    unsafe { (*a).cap = created.cap.into() };
    // SAFETY: the caller's contract: the provider's QP, nobody else's yet; no provider call
    // while the reference lives.
    let q = unsafe { &mut *qp };
    q.handle = created.handle;
    q.qp_num = created.qp_num;
    q.qp_context = base.qp_context;
    q.pd = pd;
    q.send_cq = base.send_cq;
    q.recv_cq = base.recv_cq;
    q.srq = base.srq;
    q.qp_type = base.qp_type;
    q.state = CEnum::new(IBV_QPS_RESET as u32);
    q.events_completed = 0;
    // SAFETY: the new QP's own lock, not in use by anyone yet.
    unsafe { init_lock(&raw mut q.mutex, &raw mut q.cond) };
    if !vqp.is_null() && m & IBV_QP_INIT_ATTR_XRCD as u32 != 0 {
        // SAFETY: XRCD says the member is there.
        let xrcd = unsafe { (*a).xrcd.cast::<verbs_xrcd>() };
        // SAFETY: the provider's `verbs_qp` (the caller's contract), of at least the v44 size.
        unsafe { VQP_V44.store(vqp, size_of::<verbs_qp>(), VERBS_QP_XRCD as u32, Some(xrcd)) };
    }
}

// Inlined into each entry point: see `cmd_create` (bench row `create_qp`).
/// rdma-core's `ibv_icmd_create_qp` around one of the command layer's entry points: the
/// context first, then the command, then on success [`set_qp`].
///
/// # Safety
/// As for [`qp_init`] and [`set_qp`]; `ctx` is the QP's live context.
#[inline(always)]
unsafe fn icmd_create_qp(
    ctx: *mut ibv_context,
    imported: bool,
    vqp: *mut verbs_qp,
    qp: *mut ibv_qp,
    a: *mut ibv_qp_init_attr_ex,
    run: impl FnOnce(&QpInit) -> Result<QpCreated>,
) -> Result<()> {
    // SAFETY: the provider's QP (the caller's contract).
    unsafe { (*qp).context = ctx };
    // SAFETY: the caller's contract.
    let mut init = unsafe { qp_init(qp, a) };
    // SAFETY: the caller's contract; `init` is what `qp_init` read.
    unsafe { icmd_create_qp_init(ctx, imported, vqp, qp, a, &mut init, run) }
}

// Inlined into each entry point: see `cmd_create` (bench row `create_qp`).
/// [`icmd_create_qp`] with `a` already read into `init` (`qp->context` set): the context's part
/// of the attributes, the command, then on success [`set_qp`].
///
/// # Safety
/// As for [`icmd_create_qp`]; `init` is `qp_init(qp, a)`.
#[inline(always)]
unsafe fn icmd_create_qp_init(
    ctx: *mut ibv_context,
    imported: bool,
    vqp: *mut verbs_qp,
    qp: *mut ibv_qp,
    a: *mut ibv_qp_init_attr_ex,
    init: &mut QpInit,
    run: impl FnOnce(&QpInit) -> Result<QpCreated>,
) -> Result<()> {
    // SAFETY: the QP's live context.
    init.async_fd = unsafe { (*ctx).async_fd };
    init.imported = imported;
    let created = run(init)?;
    // SAFETY: the caller's contract.
    unsafe { set_qp(vqp, qp, a, created) };
    Ok(())
}

// Inlined into the export (bench row `create_qp`: one frame, as before the declarations).
/// `ibv_cmd_create_qp`: CREATE_QP for an `ibv_qp_init_attr` on `pd` (QP_CREATE ioctl with the
/// provider's driver data, else the legacy write command of the kernel's ABI:
/// [`cmd::qp::create_qp`](crate::cmd::qp::create_qp)); sets the QP's context, handle, number,
/// objects, type, state RESET and event lock ([`set_qp`]), the granted capabilities stored into
/// `attr->cap`. A NULL CQ where the type needs one, or a request or response shorter than its
/// core struct, is EINVAL (a divergence: rdma-core crashes or overruns;
/// [`check_objects`](crate::cmd::qp::check_objects)).
#[inline(always)]
pub(crate) fn cmd_create(
    pd: Pd,
    qp: Ptr<ibv_qp>,
    attr: Ptr<ibv_qp_init_attr>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let c = pd.ctx().channel();
    // SAFETY: the handles' contracts: a live PD of this context, the provider's QP, the
    // caller's attributes.
    unsafe {
        create_qp_on(
            c.cmd(),
            c.imported(),
            pd.raw(),
            qp.as_ptr(),
            attr.as_ptr(),
            req,
            resp,
        )
    }
}

// Inlined into the export: see `cmd_create` (a plain hint is not taken: the seam calls it too).
/// [`cmd_create`] on a given command channel.
///
/// # Safety
/// `pd` is a live PD whose context is the QP's; `qp` the provider's QP; `attr` the caller's.
#[inline(always)]
unsafe fn create_qp_on(
    c: Channel<'_>,
    imported: bool,
    pd: *mut ibv_pd,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_init_attr,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    // SAFETY: the caller's attributes.
    let a = unsafe { attr.read() };
    // SAFETY: all-zero is a valid attribute struct (integers and NULL pointers).
    let mut ex: ibv_qp_init_attr_ex = unsafe { core::mem::zeroed() };
    ex.qp_context = a.qp_context;
    ex.send_cq = a.send_cq;
    ex.recv_cq = a.recv_cq;
    ex.srq = a.srq;
    ex.cap = a.cap;
    ex.qp_type = a.qp_type;
    ex.sq_sig_all = a.sq_sig_all;
    ex.comp_mask = IBV_QP_INIT_ATTR_PD as u32;
    ex.pd = pd;
    // SAFETY: a live PD (the caller's contract).
    let ctx = unsafe { (*pd).context };
    // SAFETY: the caller's contract; `ex` is ours.
    unsafe {
        icmd_create_qp(ctx, imported, null_mut(), qp, &mut ex, |i| {
            crate::cmd::qp::create_qp(c, i, req, resp)
        })
    }?;
    // SAFETY: the caller's attributes.
    unsafe { (*attr).cap = ex.cap };
    Ok(())
}

/// `cmd_create` on a given command channel, as the export returns (0, or the positive errno).
///
/// # Safety
/// As for the export; `pd->context` is the QP's context.
pub unsafe fn create_qp_with(
    c: Channel<'_>,
    imported: bool,
    pd: *mut ibv_pd,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_init_attr,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { create_qp_on(c, imported, pd, qp, attr, req, resp) }.ret_errno()
}

/// A create-QP command entry point of the command layer
/// ([`cmd::qp::create_qp_ex`](crate::cmd::qp::create_qp_ex), `_ex2`).
pub(crate) type CreateQp = fn(Channel<'_>, &QpInit, &mut [u8], &mut [u8]) -> Result<QpCreated>;

// Inlined into each export, so that `send` is a direct call there (bench row create_qp: through
// the pointer, the command's arguments went by the stack and its own frame stayed).
/// `ibv_cmd_create_qp_ex`, `ibv_cmd_create_qp_ex2`: as `ibv_cmd_create_qp`, from an
/// `ibv_qp_init_attr_ex` (`attr_ex`) checked as rdma-core does against the entry's comp_mask
/// (`allowed`; XRC receive QPs on their XRCD), then the entry's command (`send`), the `verbs_qp`
/// XRCD fields and the granted capabilities (into `attr_ex->cap`) stored. The forms of every
/// provider ABI come here. A NULL CQ where the type needs one, or a request or response shorter
/// than its core struct, is EINVAL (a divergence: rdma-core crashes or overruns).
#[inline(always)]
pub(crate) fn cmd_create_ex(
    ctx: Ctx,
    qp: Ptr<verbs_qp>,
    attr: Ptr<ibv_qp_init_attr_ex>,
    req: &mut [u8],
    resp: &mut [u8],
    allowed: u32,
    send: CreateQp,
) -> Result<()> {
    let (vqp, a) = (qp.as_ptr(), attr.as_ptr());
    // What rdma-core checks before the context: the entry's comp_mask (EINVAL, `qp` untouched),
    // then, once `qp->context` is set, the objects the QP type needs.
    // SAFETY: the caller's attributes (`Ptr`): the member every `ibv_qp_init_attr_ex` has.
    if unsafe { (*a).comp_mask } & !allowed != 0 {
        return Err(Errno::EINVAL);
    }
    let qp = vqp.cast::<ibv_qp>();
    // SAFETY: the provider's QP (`Ptr`).
    unsafe { (*qp).context = ctx.raw() };
    // Read once: what the checks read is what the command sends.
    // SAFETY: the provider's QP and the caller's attributes (`Ptr`).
    let mut init = unsafe { qp_init(qp, a) };
    crate::cmd::qp::check_objects(&init)?;
    let c = ctx.channel();
    // SAFETY: the provider's QP and the caller's attributes (`Ptr`); an open context (`Ctx`);
    // `init` is what the checks read.
    unsafe {
        icmd_create_qp_init(ctx.raw(), c.imported(), vqp, qp, a, &mut init, |i| {
            send(c.cmd(), i, req, resp)
        })
    }
}

/// What `ibv_cmd_create_qp_ex2` does after its checks, on a given command channel, as the export
/// returns.
///
/// # Safety
/// As for the export.
pub unsafe fn create_qp_ex2_with(
    c: Channel<'_>,
    imported: bool,
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    attr_ex: *mut ibv_qp_init_attr_ex,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        icmd_create_qp(context, imported, qp, qp.cast(), attr_ex, |i| {
            crate::cmd::qp::create_qp_ex2(c, i, req, resp)
        })
    }
    .ret_errno()
}

/// `ibv_cmd_open_qp`: opens a shareable XRC QP by number on its XRCD (write command OPEN_QP:
/// [`cmd::qp::open_qp`](crate::cmd::qp::open_qp)) and fills in `qp`: handle, context, number, type
/// and user context from `attr`, no PD/CQs/SRQ, state UNKNOWN, event lock, and the `verbs_qp` XRCD
/// when `vqp_sz` covers it (`vqp_sz` also tells the v44 from the v45-v56 `verbs_qp` layout:
/// [`VqpLayout`]). Unknown comp_mask bits are EOPNOTSUPP and a missing XRCD, NUM or TYPE EINVAL
/// (errno left alone, as rdma-core). Divergence: a NULL XRCD or a short response is EINVAL;
/// `comp_mask` is written only when `vqp_sz` covers it.
pub(crate) fn cmd_open(
    ctx: Ctx,
    qp: Ptr<verbs_qp>,
    vqp_sz: c_int,
    attr: Ptr<ibv_qp_open_attr>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let c = ctx.channel();
    open_qp_on(c.cmd(), ctx.raw(), qp, vqp_sz, attr.read(), req, resp)
}

/// [`cmd_open`] on a given command channel. The mask checks are returned quietly (errno
/// untouched, as rdma-core).
fn open_qp_on(
    c: Channel<'_>,
    context: *mut ibv_context,
    vqp: Ptr<verbs_qp>,
    vqp_sz: c_int,
    a: ibv_qp_open_attr,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let m = a.comp_mask;
    if m >= IBV_QP_OPEN_ATTR_RESERVED as u32 {
        return Err(Errno::EOPNOTSUPP.quiet());
    }
    let need =
        IBV_QP_OPEN_ATTR_XRCD as u32 | IBV_QP_OPEN_ATTR_NUM as u32 | IBV_QP_OPEN_ATTR_TYPE as u32;
    if m & need != need {
        return Err(Errno::EINVAL.quiet());
    }
    let xrcd = a.xrcd.cast::<verbs_xrcd>();
    if xrcd.is_null() || resp.len() < size_of::<ib_uverbs_create_qp_resp>() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: the caller's XRCD (the attributes name a live one).
    let xrcd_handle = unsafe { (*xrcd).handle };
    let vqp = vqp.as_ptr();
    let (qp_num, qp_type) = (a.qp_num, a.qp_type);
    let user_handle = vqp as u64;
    let handle = crate::cmd::qp::open_qp(
        c,
        m,
        xrcd_handle,
        qp_num,
        qp_type.raw(),
        user_handle,
        req,
        resp,
    )?;
    // SAFETY: the provider's QP (`Ptr`), nobody else's yet; no provider call while the
    // reference lives.
    let q = unsafe { &mut *vqp.cast::<ibv_qp>() };
    q.handle = handle;
    q.context = context;
    q.qp_context = a.qp_context;
    q.pd = null_mut();
    q.send_cq = null_mut();
    q.recv_cq = null_mut();
    q.srq = null_mut();
    q.qp_num = qp_num;
    q.qp_type = qp_type;
    q.state = CEnum::new(IBV_QPS_UNKNOWN as u32);
    q.events_completed = 0;
    // SAFETY: the new QP's own lock, not in use by anyone yet.
    unsafe { init_lock(&raw mut q.mutex, &raw mut q.cond) };
    let sz = usize::try_from(vqp_sz).unwrap_or(0);
    let layout = VqpLayout::of_size(sz);
    let xrcd = (layout.xrcd < sz).then_some(xrcd);
    let mask = if xrcd.is_some() {
        VERBS_QP_XRCD as u32
    } else {
        0
    };
    // SAFETY: the provider's `verbs_qp` of `vqp_sz` bytes (the caller's contract).
    unsafe { layout.store(vqp, sz, mask, xrcd) };
    Ok(())
}

/// `cmd_open` on a given command channel, as the export returns.
///
/// # Safety
/// As for the export.
pub unsafe fn open_qp_with(
    c: Channel<'_>,
    context: *mut ibv_context,
    vqp: *mut verbs_qp,
    vqp_sz: c_int,
    attr: *mut ibv_qp_open_attr,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract: the provider's QP struct.
    let vqp = unsafe { Ptr::from_raw(vqp) };
    // SAFETY: the caller's contract: the caller's attributes.
    let attr = unsafe { Ptr::from_raw(attr) };
    let r = (|| open_qp_on(c, context, vqp?, vqp_sz, attr?.read(), req, resp))();
    r.ret_errno()
}
