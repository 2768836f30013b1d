//! Shared receive queues (rdma-core: verbs.c `ibv_create_srq`, `ibv_modify_srq`,
//! `ibv_query_srq`, `ibv_destroy_srq`; cmd_srq.c `ibv_icmd_create_srq` and its entry points
//! `ibv_cmd_create_srq`, `ibv_cmd_create_srq_ex`, `ibv_cmd_destroy_srq`; cmd.c
//! `ibv_cmd_modify_srq`, `ibv_cmd_query_srq`, `ibv_cmd_post_srq_recv`).
//!
//! The public verbs go to the context's op table and pass the provider's status (and errno) on
//! untouched; `create` fills in the new SRQ's core fields. The provider's commands go to
//! [`cmd::srq`](crate::cmd::srq) on the context's command channel and store what the kernel
//! answered in the provider's SRQ. Called by [`capi::srq`](crate::capi::srq) (and the 1.0 twins).
//! The `*_with` functions at the end run the commands on a given channel: the seam of the tests
//! (`tests/capi_srq_wq_flow.rs`).
use core::ffi::c_int;
use core::ptr::null_mut;

use crate::abi::ctype::CEnum;
use crate::abi::driver::{verbs_srq, verbs_xrcd};
use crate::abi::verbs::ibv_srq_init_attr_mask::*;
use crate::abi::verbs::ibv_srq_type::{IBV_SRQT_BASIC, IBV_SRQT_XRC};
use crate::abi::verbs::{
    ibv_pd, ibv_recv_wr, ibv_srq, ibv_srq_attr, ibv_srq_init_attr, ibv_srq_init_attr_ex,
};
use crate::cmd::srq::{SrqCreated, SrqInit};
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::events::{destroy_and_wait, init_lock};
use crate::verbs::handle::{Pd, Ptr, Srq, get, place, set};

/// `ibv_create_srq`: the provider's `create_srq`, then the new SRQ's context, user context, PD,
/// event count and event lock; the granted sizes are in `srq_init_attr->attr`. The provider's NULL
/// (and errno) passes through.
pub(crate) fn create(pd: Pd, attr: Ptr<ibv_srq_init_attr>) -> Result<*mut ibv_srq> {
    let op = pd.ops().create_srq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own PD and the caller's attributes.
    let srq = unsafe { op(pd.raw(), attr.as_ptr()) };
    // SAFETY: NULL or the provider's new SRQ, not handed out yet.
    if let Some(s) = unsafe { srq.as_mut() } {
        s.context = pd.context();
        s.srq_context = attr.read().srq_context;
        s.pd = pd.raw();
        s.events_completed = 0;
        // SAFETY: the new SRQ's own lock, not in use by anyone yet.
        unsafe { init_lock(&raw mut s.mutex, &raw mut s.cond) };
    }
    Ok(srq)
}

/// `ibv_modify_srq`: the provider's `modify_srq` status (IBV_SRQ_MAX_WR resizes, IBV_SRQ_LIMIT arms
/// the limit event).
pub(crate) fn modify(srq: Srq, attr: Ptr<ibv_srq_attr>, mask: c_int) -> Result<c_int> {
    let op = srq.ops().modify_srq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own SRQ and the caller's attributes.
    Ok(unsafe { op(srq.raw(), attr.as_ptr(), mask) })
}

/// `ibv_query_srq`: the provider's `query_srq` status.
pub(crate) fn query(srq: Srq, attr: Ptr<ibv_srq_attr>) -> Result<c_int> {
    let op = srq.ops().query_srq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own SRQ and the caller's buffer.
    Ok(unsafe { op(srq.raw(), attr.as_ptr()) })
}

/// `ibv_destroy_srq`: the provider's `destroy_srq` status (it waits for the SRQ's async events to
/// be acknowledged).
pub(crate) fn destroy(srq: Srq) -> Result<c_int> {
    let op = srq.ops().destroy_srq.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own SRQ.
    Ok(unsafe { op(srq.raw()) })
}

/// rdma-core's `ibv_icmd_create_srq` around a command-layer entry point: the SRQ's PD, context
/// and event lock first, then the command; on success the handle and granted sizes (into
/// `a.attr`), and for a `verbs_srq` its type, XRC number and domain, and CQ (`set_vsrq`).
fn icmd_create(
    pd: Pd,
    srq: Ptr<ibv_srq>,
    vsrq: Option<Ptr<verbs_srq>>,
    a: Ptr<ibv_srq_init_attr_ex>,
    imported: bool,
    run: impl FnOnce(&SrqInit) -> Result<SrqCreated>,
) -> Result<()> {
    set!(srq.pd = pd.raw());
    set!(srq.context = pd.context());
    let (m, cv) = (place!(srq.mutex), place!(srq.cond));
    // SAFETY: the new SRQ's lock, not in use yet.
    unsafe { init_lock(m, cv) };
    let at = a.read();
    let m = at.comp_mask;
    let has = |bit: crate::abi::verbs::ibv_srq_init_attr_mask| m & bit as u32 != 0;
    // SAFETY: an XRCD the attributes name is a live `verbs_xrcd` (the C contract).
    let xrcd_handle = (has(IBV_SRQ_INIT_ATTR_XRCD) && !at.xrcd.is_null())
        .then(|| unsafe { (*at.xrcd.cast::<verbs_xrcd>()).handle });
    // SAFETY: a CQ the attributes name is live (the C contract).
    let cq_handle =
        (has(IBV_SRQ_INIT_ATTR_CQ) && !at.cq.is_null()).then(|| unsafe { (*at.cq).handle });
    let init = SrqInit {
        comp_mask: m,
        srq_type: at.srq_type.raw(),
        // SAFETY: a live PD (the handle's contract).
        pd_handle: unsafe { (*pd.raw()).handle },
        xrcd_handle,
        cq_handle,
        max_wr: at.attr.max_wr,
        max_sge: at.attr.max_sge,
        srq_limit: at.attr.srq_limit,
        max_num_tags: if has(IBV_SRQ_INIT_ATTR_TM) {
            at.tm_cap.max_num_tags
        } else {
            0
        },
        user_handle: srq.as_ptr() as u64,
        // SAFETY: the PD's open context (the handle's contract).
        async_fd: unsafe { (*pd.context()).async_fd },
        imported,
    };
    let created = run(&init)?;
    set!(srq.handle = created.handle);
    set!(a.attr.max_wr = created.max_wr);
    set!(a.attr.max_sge = created.max_sge);
    if let Some(v) = vsrq {
        let t = if has(IBV_SRQ_INIT_ATTR_TYPE) {
            at.srq_type.raw()
        } else {
            IBV_SRQT_BASIC as u32
        };
        set!(v.srq_type = CEnum::new(t));
        if t == IBV_SRQT_XRC as u32 {
            set!(v.srq_num = created.srq_num);
            set!(v.xrcd = at.xrcd.cast::<verbs_xrcd>());
        }
        if has(IBV_SRQ_INIT_ATTR_CQ) {
            set!(v.cq = at.cq);
        }
    }
    Ok(())
}

/// `ibv_cmd_create_srq`: a basic SRQ on `pd` (SRQ_CREATE ioctl with the provider's driver data,
/// else the write command of the kernel's ABI:
/// [`cmd::srq::create_srq`](crate::cmd::srq::create_srq)); sets the SRQ's PD, context, event lock
/// and handle, and the granted `max_wr`/`max_sge` in `attr->attr`.
pub(crate) fn cmd_create(
    pd: Pd,
    srq: Ptr<ibv_srq>,
    attr: Ptr<ibv_srq_init_attr>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let ch = pd.ctx().channel();
    create_on(ch.cmd(), ch.imported(), pd, srq, attr, req, resp)
}

/// [`cmd_create`] on the command channel `c`.
fn create_on(
    c: crate::cmd::Ctx<'_>,
    imported: bool,
    pd: Pd,
    srq: Ptr<ibv_srq>,
    attr: Ptr<ibv_srq_init_attr>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let a = attr.read();
    // SAFETY: all-zero is a valid attribute struct.
    let mut ex: ibv_srq_init_attr_ex = unsafe { core::mem::zeroed() };
    ex.srq_context = a.srq_context;
    ex.attr = a.attr;
    icmd_create(pd, srq, None, (&mut ex).into(), imported, |i| {
        crate::cmd::srq::create_srq(c, i, req, resp)
    })?;
    set!(attr.attr.max_wr = ex.attr.max_wr);
    set!(attr.attr.max_sge = ex.attr.max_sge);
    Ok(())
}

/// The PD of `ibv_cmd_create_srq_ex`'s attributes: unknown comp_mask bits are EOPNOTSUPP, no PD
/// EINVAL (both with errno, as the caller returns them).
fn pd_of(a: &ibv_srq_init_attr_ex) -> Result<Pd> {
    if a.comp_mask >= IBV_SRQ_INIT_ATTR_RESERVED as u32 {
        return Err(Errno::EOPNOTSUPP);
    }
    if a.comp_mask & IBV_SRQ_INIT_ATTR_PD as u32 == 0 {
        return Err(Errno::EINVAL);
    }
    // SAFETY: NULL or the PD the caller's attributes name, live for the call (the C contract).
    unsafe { Pd::from_raw(a.pd) }
}

/// `ibv_cmd_create_srq_ex`: a basic, XRC or tag-matching SRQ from `attr_ex` on `attr_ex->pd` and
/// its context's command channel, as rdma-core (unknown comp_mask bits are EOPNOTSUPP, no PD
/// EINVAL; XRC needs XRCD and CQ, TM needs CQ, TM and tags; the command:
/// [`cmd::srq::create_srq_ex`](crate::cmd::srq::create_srq_ex)): as
/// [`ibv_cmd_create_srq`](cmd_create), plus the `verbs_srq` type, XRC number and domain, and CQ.
/// Divergence: a NULL object the type needs is EINVAL; the `verbs_srq` fields are set on the write
/// fallback for a basic SRQ too (rdma-core sets them only on its other paths).
pub(crate) fn cmd_create_ex(
    srq: Ptr<verbs_srq>,
    attr_ex: Ptr<ibv_srq_init_attr_ex>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let pd = pd_of(&attr_ex.read())?;
    let ch = pd.ctx().channel();
    create_ex_on(ch.cmd(), ch.imported(), pd, srq, attr_ex, req, resp)
}

/// [`cmd_create_ex`] on the command channel `c`, for the checked `pd`.
fn create_ex_on(
    c: crate::cmd::Ctx<'_>,
    imported: bool,
    pd: Pd,
    vsrq: Ptr<verbs_srq>,
    attr_ex: Ptr<ibv_srq_init_attr_ex>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    // SAFETY: the provider's `verbs_srq` (`Ptr`): the SRQ is its first member.
    let srq = Ptr::from(unsafe { &mut (*vsrq.as_ptr()).srq });
    icmd_create(pd, srq, Some(vsrq), attr_ex, imported, |i| {
        crate::cmd::srq::create_srq_ex(c, i, req, resp)
    })
}

/// `ibv_cmd_modify_srq`: write command MODIFY_SRQ
/// ([`cmd::srq::modify_srq`](crate::cmd::srq::modify_srq): `max_wr` and `srq_limit` with the mask,
/// in the provider's request; the older layout on a kernel of uverbs ABI 3).
pub(crate) fn cmd_modify(
    srq: Srq,
    attr: Ptr<ibv_srq_attr>,
    mask: c_int,
    req: &mut [u8],
) -> Result<()> {
    let a = attr.read();
    // SAFETY: a live SRQ (the handle's contract).
    let h = unsafe { (*srq.raw()).handle };
    let c = srq.ctx().channel();
    crate::cmd::srq::modify_srq(c.cmd(), h, mask, a.max_wr, a.srq_limit, req)
}

/// `ibv_cmd_query_srq`: write command QUERY_SRQ
/// ([`cmd::srq::query_srq`](crate::cmd::srq::query_srq)) into `srq_attr` (`max_wr`, `max_sge`,
/// `srq_limit`).
pub(crate) fn cmd_query(srq: Srq, attr: Ptr<ibv_srq_attr>, req: &mut [u8]) -> Result<()> {
    query_on(srq.ctx().channel().cmd(), srq.into(), attr, req)
}

/// [`cmd_query`] on the command channel `c`.
fn query_on(
    c: crate::cmd::Ctx<'_>,
    srq: Ptr<ibv_srq>,
    attr: Ptr<ibv_srq_attr>,
    req: &mut [u8],
) -> Result<()> {
    // SAFETY: the provider's SRQ (`Ptr`).
    let h = unsafe { (*srq.as_ptr()).handle };
    let (max_wr, max_sge, srq_limit) = crate::cmd::srq::query_srq(c, h, req)?;
    attr.write(ibv_srq_attr {
        max_wr,
        max_sge,
        srq_limit,
    });
    Ok(())
}

/// `ibv_cmd_destroy_srq`: SRQ_DESTROY (ioctl, else the write command:
/// [`cmd::srq::destroy_srq`](crate::cmd::srq::destroy_srq)), then wait, under the SRQ's event lock
/// (`srq->mutex`/`srq->cond`), until its acknowledged events (`srq->events_completed`) reach the
/// kernel's `events_reported`, every async event of the SRQ acknowledged (no wait after an error,
/// or after an EIO on a disassociated device forgiven when allowed, `RDMAV_ALLOW_DISASSOC_DESTROY`:
/// [`allow_disassociate`](crate::verbs::disassoc::allow_disassociate)).
pub(crate) fn cmd_destroy(srq: Srq) -> Result<()> {
    destroy_on(srq.ctx().channel().cmd(), srq.into())
}

/// [`cmd_destroy`] on the command channel `c`.
fn destroy_on(c: crate::cmd::Ctx<'_>, srq: Ptr<ibv_srq>) -> Result<()> {
    let h = get!(srq.handle);
    let allow = crate::verbs::disassoc::allow_disassociate();
    let destroyed = crate::cmd::srq::destroy_srq(c, h, allow);
    let (m, cv, acked) = (
        place!(srq.mutex),
        place!(srq.cond),
        place!(srq.events_completed),
    );
    // SAFETY: the count, read under the lock (destroy_and_wait holds it).
    let reached = |&n: &u32| unsafe { acked.read_volatile() } == n;
    // SAFETY: the SRQ's initialised event lock; the ack verbs write `events_completed` under it.
    unsafe { destroy_and_wait(destroyed, m, cv, reached) }
}

/// `ibv_cmd_post_srq_recv`: the receive work request list posted through the kernel (write command
/// POST_SRQ_RECV: [`cmd::post::post_srq_recv`](crate::cmd::post::post_srq_recv)); on failure
/// `*bad_wr` (when given: a NULL `bad_wr` is not written) is the WR the kernel named (the first one
/// when it named none), or the one that could not be taken (a divergence: a negative SGE count or a
/// NULL SGE list is EINVAL before anything is sent).
pub(crate) fn cmd_post_recv(
    srq: Srq,
    wr: Option<Ptr<ibv_recv_wr>>,
    bad_wr: Option<Ptr<*mut ibv_recv_wr>>,
) -> Result<()> {
    // SAFETY: a live SRQ (the handle's contract).
    let h = unsafe { (*srq.raw()).handle };
    let (wr, bad_wr) = (
        wr.map_or(null_mut(), Ptr::as_ptr),
        bad_wr.map_or(null_mut(), Ptr::as_ptr),
    );
    // SAFETY: the caller's NULL-terminated list of live WRs and its `bad_wr` (the C contract).
    unsafe { crate::verbs::post::post_recv_on(srq.ctx().channel().cmd(), h, wr, bad_wr, true) }
}

// The seam of the tests: the commands on a given command channel, with the C pointers and the
// C return (0 or the positive errno, errno set unless rdma-core leaves it).

/// `ibv_cmd_create_srq` on the command channel `c`.
///
/// # Safety
/// As for the export: live objects and attributes.
pub unsafe fn create_srq_with(
    c: crate::cmd::Ctx<'_>,
    imported: bool,
    pd: *mut ibv_pd,
    srq: *mut ibv_srq,
    attr: *mut ibv_srq_init_attr,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    let mut run = || {
        // SAFETY: the caller's contract.
        let pd = unsafe { Pd::from_raw(pd) }?;
        // SAFETY: the export's contract: `srq` is NULL or valid for the call.
        let srq = unsafe { Ptr::from_raw(srq) }?;
        // SAFETY: the export's contract: `attr` is NULL or valid for the call.
        let attr = unsafe { Ptr::from_raw(attr) }?;
        create_on(c, imported, pd, srq, attr, req, resp)
    };
    run().ret_errno()
}

/// `ibv_cmd_create_srq_ex` on the command channel `c` (that of `attr_ex->pd->context`).
///
/// # Safety
/// As for the export.
pub unsafe fn create_srq_ex_with(
    c: crate::cmd::Ctx<'_>,
    imported: bool,
    vsrq: *mut verbs_srq,
    attr_ex: *mut ibv_srq_init_attr_ex,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    let mut run = || {
        // SAFETY: the caller's contract.
        let vsrq = unsafe { Ptr::from_raw(vsrq) }?;
        // SAFETY: the export's contract: `attr_ex` is NULL or valid for the call.
        let attr_ex = unsafe { Ptr::from_raw(attr_ex) }?;
        let pd = pd_of(&attr_ex.read())?;
        create_ex_on(c, imported, pd, vsrq, attr_ex, req, resp)
    };
    run().ret_errno()
}

/// `ibv_cmd_query_srq` on the command channel `c`.
///
/// # Safety
/// As for the export.
pub unsafe fn query_srq_with(
    c: crate::cmd::Ctx<'_>,
    srq: *mut ibv_srq,
    attr: *mut ibv_srq_attr,
    req: &mut [u8],
) -> c_int {
    let mut run = || {
        // SAFETY: the caller's contract.
        let srq = unsafe { Ptr::from_raw(srq) }?;
        // SAFETY: the export's contract: `attr` is NULL or valid for the call.
        let attr = unsafe { Ptr::from_raw(attr) }?;
        query_on(c, srq, attr, req)
    };
    run().ret_errno()
}

/// `ibv_cmd_destroy_srq` on the command channel `c`.
///
/// # Safety
/// As for the export; the SRQ's event lock was initialised (or is never waited on).
pub unsafe fn destroy_srq_with(c: crate::cmd::Ctx<'_>, srq: *mut ibv_srq) -> c_int {
    // SAFETY: the caller's contract.
    let srq = unsafe { Ptr::from_raw(srq) };
    srq.and_then(|s| destroy_on(c, s)).ret_errno()
}
