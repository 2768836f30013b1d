//! Completion queues (rdma-core: verbs.c `ibv_create_cq`, `ibv_resize_cq`, `ibv_destroy_cq`,
//! `verbs_init_cq`, `__lib_ibv_create_cq_ex`; cmd_cq.c `ibv_cmd_create_cq`,
//! `ibv_cmd_create_cq_ex(2)`, `ibv_cmd_destroy_cq`; cmd.c `ibv_cmd_poll_cq`,
//! `ibv_cmd_req_notify_cq`, `ibv_cmd_resize_cq`, `ibv_cmd_modify_cq`).
//!
//! The provider makes, resizes and destroys the CQ; the library fills in the core fields
//! ([`init_cq`]) and keeps the completion channel's use count, under the context's mutex, which
//! `ibv_destroy_comp_channel` checks. The provider's commands go to [`cmd::cq`](crate::cmd::cq) on
//! the context's command channel and store what the kernel answered in the provider's CQ. Called by
//! [`capi::cq`](crate::capi::cq) (and the 1.0 twins, the provider-ABI forms); `lib_create_cq_ex` is
//! the library's slot of every context.
use core::ffi::{c_int, c_void};

use crate::abi::driver::create_cq_cmd_flags::{
    CREATE_CQ_CMD_FLAGS_WITH_MEM_DMABUF, CREATE_CQ_CMD_FLAGS_WITH_MEM_VA,
};
use crate::abi::driver::{verbs_cq, verbs_create_cq_prov_attr};
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::verbs::ibv_cq_attr_mask::IBV_CQ_ATTR_RESERVED;
use crate::abi::verbs::{
    ibv_comp_channel, ibv_context, ibv_cq, ibv_cq_ex, ibv_cq_init_attr_ex, ibv_modify_cq_attr,
    ibv_wc,
};
use crate::cmd::cq::{CqBuffer, CqCreated, CqInit};
use crate::errno::{Errno, Result};
use crate::verbs::cmdbuf::Chain;
use crate::verbs::handle::{Cq, Ctx, Ptr};

// Always inlined into both versions of the export: bench row ibv_create_cq.
/// `ibv_create_cq`: a CQ of at least `cqe` entries from the provider's `create_cq`, its completion
/// events going to `channel` (optional; its use count goes up) on vector `comp_vector`, then the
/// core fields ([`verbs_init_cq`](init_cq)). When it fails, the provider's NULL (and the provider's
/// or kernel's errno: EINVAL for a `cqe` below 1 or above the device's `max_cqe` on rxe) as it is;
/// EOPNOTSUPP without the op.
#[inline(always)]
pub(crate) fn create(
    ctx: Ctx,
    cqe: c_int,
    cq_context: *mut c_void,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
) -> Result<*mut ibv_cq> {
    let op = ctx.ops().create_cq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own open context; `channel` is the caller's.
    let cq = unsafe { op(ctx.raw(), cqe, channel, comp_vector) };
    if cq.is_null() {
        // The provider's errno stays; an ENOMEM is explained (memlock) when logging asks.
        crate::verbs::explain::memlock_hint("ibv_create_cq", None);
        return Ok(cq);
    }
    // SAFETY: the CQ the provider just made on this context; the caller's channel.
    unsafe { init_cq(cq, ctx.raw(), channel, cq_context) };
    Ok(cq)
}

/// `ibv_resize_cq`: the provider's `resize_cq` status (it resizes the CQ to at least `cqe` entries,
/// `cq->cqe` becoming the new size); EOPNOTSUPP without the op.
pub(crate) fn resize(cq: Cq, cqe: c_int) -> Result<c_int> {
    let op = cq.ops().resize_cq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own CQ.
    Ok(unsafe { op(cq.raw(), cqe) })
}

// Always inlined into both versions of the export: bench row ibv_destroy_cq.
/// `ibv_destroy_cq`: the provider's `destroy_cq` status (it waits until every completion and
/// asynchronous event the kernel reported for the CQ was acknowledged; on failure the CQ stays); on
/// success the CQ's completion channel, if any, is used by one CQ less. EOPNOTSUPP without the op.
#[inline(always)]
pub(crate) fn destroy(cq: Cq) -> Result<c_int> {
    let op = cq.ops().destroy_cq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: a live CQ (the handle's contract); the op frees it, so its channel is read first.
    let channel = unsafe { (*cq.raw()).channel };
    // SAFETY: the provider's op on its own CQ.
    let ret = unsafe { op(cq.raw()) };
    if ret == 0 && !channel.is_null() {
        // SAFETY: a live channel (a CQ used it until now) of a live context.
        let chctx = unsafe { (*channel).context };
        // SAFETY: the channel's context, open while a CQ of it used the channel; its mutex's place.
        let mutex = unsafe { &raw mut (*chctx).mutex };
        // SAFETY: the context's mutex, initialised when it was opened.
        unsafe { libc::pthread_mutex_lock(mutex) };
        // SAFETY: the channel's use count, under its context's mutex.
        unsafe { (*channel).refcnt -= 1 };
        // SAFETY: locked just above by this thread.
        unsafe { libc::pthread_mutex_unlock(mutex) };
    }
    Ok(ret)
}

/// rdma-core's `verbs_init_cq`: the core fields of a CQ a provider made: owner, channel (its use
/// count raised under the context mutex), user context, event counters, and the mutex/condvar
/// the acks use. A NULL `cq` is ignored.
///
/// # Safety
/// `cq` is NULL or a provider's freshly created CQ of `context` (NULL or open); `channel` is NULL
/// or a completion channel of the same context.
#[inline]
pub(crate) unsafe fn init_cq(
    cq: *mut ibv_cq,
    context: *mut ibv_context,
    channel: *mut ibv_comp_channel,
    cq_context: *mut c_void,
) {
    if cq.is_null() {
        return;
    }
    // SAFETY: the caller's contract: a fresh CQ nobody else uses yet.
    let c = unsafe { &mut *cq };
    c.context = context;
    c.channel = channel;
    if !channel.is_null() && !context.is_null() {
        // SAFETY: the caller's contract: an open context; its mutex guards channel use counts.
        let mutex = unsafe { &raw mut (*context).mutex };
        // SAFETY: the context's mutex, initialised when it was opened.
        unsafe { libc::pthread_mutex_lock(mutex) };
        // SAFETY: a live channel of this context, its count under the mutex.
        unsafe { (*channel).refcnt += 1 };
        // SAFETY: locked just now.
        unsafe { libc::pthread_mutex_unlock(mutex) };
    }
    c.cq_context = cq_context;
    c.comp_events_completed = 0;
    c.async_events_completed = 0;
    // SAFETY: the CQ's own mutex, not in use yet; default attributes. (Not `events::init_lock`:
    // the cond's address is computed after this call, one register less: bench row ibv_create_cq.)
    unsafe { libc::pthread_mutex_init(&raw mut c.mutex, core::ptr::null()) };
    // SAFETY: the CQ's own condition variable, not in use yet; default attributes.
    unsafe { libc::pthread_cond_init(&raw mut c.cond, core::ptr::null()) };
}

/// `__lib_ibv_create_cq_ex`, the library's `create_cq_ex` slot of every context: checks the
/// completion fields asked for, then the provider's op, then the core fields of the CQ.
pub(crate) unsafe extern "C" fn lib_create_cq_ex(
    context: *mut ibv_context,
    attr: *mut ibv_cq_init_attr_ex,
) -> *mut ibv_cq_ex {
    use crate::cret::CRet;
    if context.is_null() || attr.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: the inline ibv_create_cq_ex passes its context and the caller's attributes.
    let a = unsafe { &*attr };
    let (wc_flags, channel, cq_context) = (a.wc_flags, a.channel, a.cq_context);
    if wc_flags & !(crate::abi::verbs::IBV_CREATE_CQ_SUP_WC_FLAGS as u64) != 0 {
        return Err(Errno::EOPNOTSUPP).ret_null();
    }
    // SAFETY: an open context of this library.
    let Some(create) = unsafe { crate::verbs::ctxpriv::ops_of(context) }.create_cq_ex else {
        return Err(Errno::EOPNOTSUPP).ret_null();
    };
    // SAFETY: the provider's op with the caller's arguments.
    let cq = unsafe { create(context, attr) };
    // SAFETY: NULL or the CQ the provider just made for this context.
    unsafe { init_cq(cq.cast(), context, channel, cq_context) };
    cq
}

/// The creation parameters of a CQ at `cq` of `ctx`: its address is the user handle the kernel
/// echoes in events.
fn cq_init(
    ctx: Ctx,
    cq: *mut ibv_cq,
    cqe: c_int,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
    imported: bool,
) -> CqInit {
    // SAFETY: NULL or the caller's live channel.
    let channel_fd = unsafe { channel.as_ref() }.map(|c| c.fd);
    CqInit {
        cqe,
        channel_fd,
        comp_vector,
        user_handle: cq as usize as u64,
        // SAFETY: an open context (the handle's contract).
        async_fd: unsafe { (*ctx.raw()).async_fd },
        imported,
        buffer: None,
    }
}

/// Store a created CQ's handle and size.
fn store_created(cq: *mut ibv_cq, c: CqCreated) {
    // SAFETY: the provider's CQ being created (the caller's `Ptr`).
    unsafe { (*cq).handle = c.handle };
    // SAFETY: the same CQ under construction: `cqe` is a plain field of it.
    unsafe { (*cq).cqe = c.cqe as c_int };
}

// Always inlined into the export: bench row ibv_create_cq (rxe's create_cq calls it).
/// `ibv_cmd_create_cq`: CQ_CREATE (ioctl, else the write command:
/// [`cmd::cq::create_cq`](crate::cmd::cq::create_cq)) with the provider's request and response as
/// driver data (a `cmd` or `resp` no longer than its core part, or NULL, carries none: rxe passes
/// `NULL, 0`); sets `cq->context`, then on success `cq->handle` and `cq->cqe`.
#[inline(always)]
pub(crate) fn cmd_create(
    ctx: Ctx,
    cqe: c_int,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
    cq: Ptr<ibv_cq>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let c = cq.as_ptr();
    // SAFETY: the provider's CQ (`Ptr`).
    unsafe { (*c).context = ctx.raw() };
    let ch = ctx.channel();
    let a = cq_init(ctx, c, cqe, channel, comp_vector, ch.imported());
    let created = crate::cmd::cq::create_cq(ch.cmd(), &a, req, resp)?;
    store_created(c, created);
    Ok(())
}

/// `ibv_cmd_create_cq_ex`, `ibv_cmd_create_cq_ex2`: CQ_CREATE
/// ([`cmd::cq::create_cq_ex`](crate::cmd::cq::create_cq_ex)) from extended attributes (completion
/// timestamps and IGNORE_OVERRUN become kernel flags; the extended write command when the kernel
/// must see them). comp_mask bits other than FLAGS and PD are EOPNOTSUPP, checked first with errno
/// untouched as in rdma-core ([`cq_ex_flags`](crate::cmd::cq::cq_ex_flags); the export returns it
/// quietly). `cmd`/`resp` as for `ibv_cmd_create_cq`; `_ex2`'s `driver` attribute chain (NULL:
/// none) is linked after the driver data (and written back), and the provider's own CQ ring
/// (`buffer`) goes with it from provider ABI 59 on. Sets `cq->context`, then on success
/// `cq->handle` and `cq->cqe`. The forms of every provider ABI come here.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cmd_create_ex(
    ctx: Ctx,
    attr: Ptr<ibv_cq_init_attr_ex>,
    cq: Ptr<verbs_cq>,
    req: &mut [u8],
    resp: &mut [u8],
    cmd_flags: u32,
    driver: Option<Ptr<ibv_command_buffer>>,
    buffer: Option<CqBuffer>,
) -> Result<()> {
    let at = attr.read();
    // rdma-core checks the mask before it touches the CQ, and leaves errno alone (rxe then
    // returns NULL with errno as it was).
    crate::cmd::cq::cq_ex_flags(at.comp_mask, at.wc_flags, at.flags).map_err(Errno::quiet)?;
    // SAFETY: the plain view of the provider's CQ (`Ptr`).
    let c = unsafe { &raw mut (*cq.as_ptr()).anon_1.cq };
    // SAFETY: `c` is the plain view of the provider's CQ just above, in bounds of it.
    unsafe { (*c).context = ctx.raw() };
    let ch = ctx.channel();
    let a = CqInit {
        buffer,
        ..cq_init(
            ctx,
            c,
            at.cqe as c_int,
            at.channel,
            at.comp_vector as c_int,
            ch.imported(),
        )
    };
    // SAFETY: the provider's live chain (`Ptr`), its alone for the call.
    let mut chain = driver.map(|d| unsafe { Chain::from_raw(d.as_ptr()) });
    let (mask, wc, flags) = (at.comp_mask, at.wc_flags, at.flags);
    let r = crate::cmd::cq::create_cq_ex(
        ch.cmd(),
        &a,
        mask,
        wc,
        flags,
        cmd_flags,
        req,
        resp,
        chain.as_mut().map(|c| c as &mut dyn crate::cmd::Driver),
    );
    store_created(c, r?);
    Ok(())
}

/// The CQ ring a provider-ABI-59 create-CQ command says the provider gives (`cmd_flags`
/// `CREATE_CQ_CMD_FLAGS_WITH_MEM_VA` or `_DMABUF`, from `prov_attr`: EINVAL without it); None
/// when it says none.
pub(crate) fn prov_buffer(
    prov_attr: Option<Ptr<verbs_create_cq_prov_attr>>,
    cmd_flags: u32,
) -> Result<Option<CqBuffer>> {
    let va = cmd_flags & CREATE_CQ_CMD_FLAGS_WITH_MEM_VA as u32 != 0;
    let dmabuf = cmd_flags & CREATE_CQ_CMD_FLAGS_WITH_MEM_DMABUF as u32 != 0;
    if !va && !dmabuf {
        return Ok(None);
    }
    let p = prov_attr.ok_or(Errno::EINVAL)?.read();
    Ok(Some(if va {
        CqBuffer::Va {
            // SAFETY: WITH_MEM_VA: the union holds the pointer.
            addr: unsafe { p.buffer.anon_1.ptr } as usize as u64,
            length: p.buffer.length,
        }
    } else {
        // SAFETY: WITH_MEM_DMABUF: the union holds the dma-buf.
        let d = unsafe { p.buffer.anon_1.dmabuf };
        CqBuffer::Dmabuf {
            fd: d.fd,
            offset: d.offset,
            length: p.buffer.length,
        }
    }))
}

/// `ibv_cmd_poll_cq`: up to `ne` completions through the kernel (write command POLL_CQ:
/// [`cmd::cq::poll_cq_into`](crate::cmd::cq::poll_cq_into)) into `wc` (room for `ne` entries, the C
/// contract); their number. The response buffer comes first, as in rdma-core: a count no memory
/// holds is ENOMEM before the command. Divergence: a negative `ne`, or a NULL `wc` with `ne` > 0,
/// is EINVAL.
pub(crate) fn cmd_poll(cq: Cq, ne: c_int, wc: Option<Ptr<ibv_wc>>) -> Result<c_int> {
    if ne < 0 || (ne > 0 && wc.is_none()) {
        return Err(Errno::EINVAL);
    }
    let wc = wc.map_or(core::ptr::null_mut(), Ptr::as_ptr);
    let resp = crate::cmd::cq::poll_cq_resp(ne)?;
    // SAFETY: a live CQ (the handle's contract).
    let h = unsafe { (*cq.raw()).handle };
    let v = crate::cmd::cq::poll_cq_into(cq.ctx().channel().cmd(), h, ne, resp)?;
    for (i, w) in v.iter().enumerate() {
        // SAFETY: `wc` has room for `ne` entries (the C contract); the kernel gave at most `ne`.
        unsafe { wc.wrapping_add(i).write(*w) };
    }
    Ok(v.len() as c_int)
}

/// `ibv_cmd_req_notify_cq`: arms the CQ (write command REQ_NOTIFY_CQ:
/// [`cmd::cq::req_notify_cq`](crate::cmd::cq::req_notify_cq)): its next completion (or next
/// solicited one) sends a completion event to its channel.
pub(crate) fn cmd_req_notify(cq: Cq, solicited_only: c_int) -> Result<()> {
    // SAFETY: a live CQ (the handle's contract).
    let h = unsafe { (*cq.raw()).handle };
    crate::cmd::cq::req_notify_cq(cq.ctx().channel().cmd(), h, solicited_only != 0)
}

/// `ibv_cmd_resize_cq`: write command RESIZE_CQ ([`cmd::cq::resize_cq`](crate::cmd::cq::resize_cq))
/// with the provider's request and response; on success the CQ's `cqe` is the new size.
pub(crate) fn cmd_resize(cq: Cq, cqe: c_int, req: &mut [u8], resp: &mut [u8]) -> Result<()> {
    let c = cq.raw();
    // SAFETY: a live CQ (the handle's contract).
    let h = unsafe { (*c).handle };
    let n = crate::cmd::cq::resize_cq(cq.ctx().channel().cmd(), h, cqe, req, resp)?;
    // SAFETY: the same live CQ; `cqe` is a plain field, written as rdma-core does after RESIZE_CQ.
    unsafe { (*c).cqe = n as c_int };
    Ok(())
}

/// `ibv_cmd_modify_cq`: the CQ's moderation (extended MODIFY_CQ:
/// [`cmd::cq::modify_cq`](crate::cmd::cq::modify_cq)); an `attr_mask` at or above
/// `IBV_CQ_ATTR_RESERVED` is EINVAL before the CQ is looked at, errno untouched (as rdma-core).
pub(crate) fn cmd_modify(cq: Cq, attr: Ptr<ibv_modify_cq_attr>, req: &mut [u8]) -> Result<()> {
    let a = attr.read();
    if a.attr_mask >= IBV_CQ_ATTR_RESERVED as u32 {
        return Err(Errno::EINVAL.quiet());
    }
    // SAFETY: a live CQ (the handle's contract).
    let h = unsafe { (*cq.raw()).handle };
    let (count, period) = (a.moderate.cq_count, a.moderate.cq_period);
    let c = cq.ctx().channel();
    crate::cmd::cq::modify_cq(c.cmd(), h, a.attr_mask, count, period, req)
}

// Always inlined into the export: bench row ibv_destroy_cq (rxe's destroy_cq calls it).
/// `ibv_cmd_destroy_cq`: CQ_DESTROY (ioctl, else the write command:
/// [`cmd::cq::destroy_cq`](crate::cmd::cq::destroy_cq)), then wait, under the CQ's event lock
/// (`cq->mutex`/`cq->cond`), until `ibv_ack_cq_events` and `ibv_ack_async_event` have acknowledged
/// as many completion and asynchronous events as the kernel says it reported (no wait after an
/// error, or after an EIO on a disassociated device forgiven when allowed,
/// `verbs_allow_disassociate_destroy`:
/// [`allow_disassociate`](crate::verbs::disassoc::allow_disassociate)).
#[inline(always)]
pub(crate) fn cmd_destroy(cq: Cq) -> Result<()> {
    let c = cq.raw();
    // SAFETY: a live CQ initialised by verbs_init_cq (the handle's contract).
    let h = unsafe { (*c).handle };
    let allow = crate::verbs::disassoc::allow_disassociate();
    let destroyed = crate::cmd::cq::destroy_cq(cq.ctx().channel().cmd(), h, allow);
    // SAFETY: a live CQ (the handle's contract): the place of its event mutex.
    let m = unsafe { &raw mut (*c).mutex };
    // SAFETY: a live CQ: the place of its event condition variable.
    let cv = unsafe { &raw mut (*c).cond };
    // SAFETY: a live CQ: the place of its completion-event ack count, written under its mutex.
    let comp_acked = unsafe { &raw const (*c).comp_events_completed };
    // SAFETY: a live CQ: the place of its async-event ack count, written under its mutex.
    let async_acked = unsafe { &raw const (*c).async_events_completed };
    let reached = |&(comp, asyn): &(u32, u32)| {
        // SAFETY: the counts, read under the lock (destroy_and_wait holds it).
        let done = unsafe { comp_acked.read_volatile() } == comp;
        // SAFETY: the async count, read under the lock like the completion count before it.
        done && unsafe { async_acked.read_volatile() } == asyn
    };
    // SAFETY: the CQ's initialised event lock; `reached` reads what the acks write under it.
    unsafe { crate::verbs::events::destroy_and_wait(destroyed, m, cv, reached) }
}
