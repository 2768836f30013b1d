//! Work queues and RSS indirection tables, the provider's commands (rdma-core: cmd_wq.c
//! `ibv_cmd_create_wq`, `ibv_cmd_modify_wq`, `ibv_cmd_destroy_wq`; cmd_rwq_ind.c / cmd.c
//! `ibv_cmd_create_rwq_ind_table`, `ibv_cmd_destroy_rwq_ind_table`). The public verbs of both
//! are inline in verbs.h and call the provider's ops directly.
//!
//! Each command goes to [`cmd::wq`](crate::cmd::wq) on the context's command channel and stores
//! what the kernel answered in the provider's object. Called by [`capi::wq`](crate::capi::wq). The
//! `*_with` functions at the end run the commands on a given channel: the seam of the tests
//! (`tests/capi_srq_wq_flow.rs`).
use core::ffi::c_int;

use crate::abi::uapi::IB_USER_VERBS_MAX_LOG_IND_TBL_SIZE;
use crate::abi::verbs::ibv_ind_table_init_attr_mask::IBV_CREATE_IND_TABLE_RESERVED;
use crate::abi::verbs::ibv_wq_attr_mask::{
    IBV_WQ_ATTR_FLAGS, IBV_WQ_ATTR_RESERVED, IBV_WQ_ATTR_STATE,
};
use crate::abi::verbs::ibv_wq_flags::IBV_WQ_FLAGS_RESERVED;
use crate::abi::verbs::ibv_wq_init_attr_mask::IBV_WQ_INIT_ATTR_RESERVED;
use crate::abi::verbs::{
    ibv_context, ibv_rwq_ind_table, ibv_rwq_ind_table_init_attr, ibv_wq, ibv_wq_attr,
    ibv_wq_init_attr,
};
use crate::cmd::wq::WqInit;
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::events::destroy_and_wait;
use crate::verbs::handle::{Ctx, Ptr, RwqIndTable, Wq, get, place, set};

/// `ibv_cmd_create_wq`: a work queue (WQ_CREATE with the provider's driver data, else the extended
/// write command: [`cmd::wq::create_wq`](crate::cmd::wq::create_wq)): comp_mask bits from
/// IBV_WQ_INIT_ATTR_RESERVED up are EINVAL before anything is touched; sets the WQ's context, CQ,
/// PD and type (EINVAL then without a PD or CQ, a divergence: rdma-core crashes), and on success
/// its handle and number, and the granted `max_wr`/`max_sge` in `wq_init_attr`. Unknown create
/// flags are EOPNOTSUPP.
pub(crate) fn cmd_create(
    ctx: Ctx,
    attr: Ptr<ibv_wq_init_attr>,
    wq: Ptr<ibv_wq>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    // rdma-core refuses the mask before it looks at the context.
    if attr.read().comp_mask >= IBV_WQ_INIT_ATTR_RESERVED as u32 {
        return Err(Errno::EINVAL);
    }
    let ch = ctx.channel();
    create_on(ch.cmd(), ch.imported(), ctx, attr, wq, req, resp)
}

/// [`cmd_create`] on the command channel `c`.
fn create_on(
    c: crate::cmd::Ctx<'_>,
    imported: bool,
    ctx: Ctx,
    attr: Ptr<ibv_wq_init_attr>,
    wq: Ptr<ibv_wq>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let a = attr.read();
    if a.comp_mask >= IBV_WQ_INIT_ATTR_RESERVED as u32 {
        return Err(Errno::EINVAL);
    }
    set!(wq.context = ctx.raw());
    set!(wq.cq = a.cq);
    set!(wq.pd = a.pd);
    set!(wq.wq_type = a.wq_type);
    if a.pd.is_null() || a.cq.is_null() {
        return Err(Errno::EINVAL);
    }
    let init = WqInit {
        comp_mask: a.comp_mask,
        wq_type: a.wq_type.raw(),
        max_wr: a.max_wr,
        max_sge: a.max_sge,
        // SAFETY: the PD the caller's attributes name, live (the C contract).
        pd_handle: unsafe { (*a.pd).handle },
        // SAFETY: the CQ the caller's attributes name, live (the C contract), not NULL (tested
        // above).
        cq_handle: unsafe { (*a.cq).handle },
        create_flags: a.create_flags,
        user_handle: wq.as_ptr() as u64,
        // SAFETY: an open context (the handle's contract).
        async_fd: unsafe { (*ctx.raw()).async_fd },
        imported,
    };
    let created = crate::cmd::wq::create_wq(c, &init, req, resp)?;
    set!(wq.handle = created.handle);
    set!(wq.wq_num = created.wq_num);
    set!(attr.max_wr = created.max_wr);
    set!(attr.max_sge = created.max_sge);
    Ok(())
}

/// MODIFY_WQ's attribute checks: mask bits from IBV_WQ_ATTR_RESERVED up are EINVAL, unknown
/// flags EOPNOTSUPP (errno left alone, as rdma-core).
fn check_modify(a: &ibv_wq_attr) -> Result<()> {
    if a.attr_mask >= IBV_WQ_ATTR_RESERVED as u32 {
        return Err(Errno::EINVAL.quiet());
    }
    if a.attr_mask & IBV_WQ_ATTR_FLAGS as u32 != 0
        && a.flags_mask & !(IBV_WQ_FLAGS_RESERVED as u32 - 1) != 0
    {
        return Err(Errno::EOPNOTSUPP.quiet());
    }
    Ok(())
}

/// `ibv_cmd_modify_wq`: extended MODIFY_WQ ([`cmd::wq::modify_wq`](crate::cmd::wq::modify_wq): the
/// provider's request, its core zeroed first); on success with IBV_WQ_ATTR_STATE the WQ's `state`
/// follows. The attributes are checked before the WQ is looked at:
/// attr_mask bits from IBV_WQ_ATTR_RESERVED up are EINVAL, unknown flags EOPNOTSUPP (both with
/// errno left alone, as rdma-core).
pub(crate) fn cmd_modify(wq: Wq, attr: Ptr<ibv_wq_attr>, req: &mut [u8]) -> Result<()> {
    // rdma-core checks the attributes before it looks at the WQ's context.
    check_modify(&attr.read())?;
    modify_on(wq.ctx().channel().cmd(), wq.into(), attr, req)
}

/// [`cmd_modify`] on the command channel `c`.
fn modify_on(
    c: crate::cmd::Ctx<'_>,
    wq: Ptr<ibv_wq>,
    attr: Ptr<ibv_wq_attr>,
    req: &mut [u8],
) -> Result<()> {
    let a = attr.read();
    check_modify(&a)?;
    let h = get!(wq.handle);
    let (state, curr) = (a.wq_state.raw(), a.curr_wq_state.raw());
    crate::cmd::wq::modify_wq(c, h, a.attr_mask, state, curr, a.flags, a.flags_mask, req)?;
    if a.attr_mask & IBV_WQ_ATTR_STATE as u32 != 0 {
        set!(wq.state = a.wq_state);
    }
    Ok(())
}

/// `ibv_cmd_destroy_wq`: WQ_DESTROY (ioctl, else the extended write command:
/// [`cmd::wq::destroy_wq`](crate::cmd::wq::destroy_wq)), then wait, under the WQ's event lock
/// (`wq->mutex`/`wq->cond`), until its acknowledged events (`wq->events_completed`) reach the
/// kernel's `events_reported` (no wait after an error, or after an EIO on a disassociated device
/// forgiven when allowed: [`allow_disassociate`](crate::verbs::disassoc::allow_disassociate)).
pub(crate) fn cmd_destroy(wq: Wq) -> Result<()> {
    destroy_on(wq.ctx().channel().cmd(), wq.into())
}

/// [`cmd_destroy`] on the command channel `c`.
fn destroy_on(c: crate::cmd::Ctx<'_>, wq: Ptr<ibv_wq>) -> Result<()> {
    let h = get!(wq.handle);
    let allow = crate::verbs::disassoc::allow_disassociate();
    let destroyed = crate::cmd::wq::destroy_wq(c, h, allow);
    let (m, cv, acked) = (
        place!(wq.mutex),
        place!(wq.cond),
        place!(wq.events_completed),
    );
    // SAFETY: the count, read under the lock (destroy_and_wait holds it).
    let reached = |&n: &u32| unsafe { acked.read_volatile() } == n;
    // SAFETY: the WQ's initialised event lock; the ack verbs write `events_completed` under it.
    unsafe { destroy_and_wait(destroyed, m, cv, reached) }
}

/// `ibv_cmd_create_rwq_ind_table`: an RSS indirection table over the `1 << log_ind_tbl_size` WQs of
/// `attr->ind_tbl` (extended CREATE_RWQ_IND_TBL:
/// [`cmd::wq::create_rwq_ind_table`](crate::cmd::wq::create_rwq_ind_table)); sets the table's
/// handle, number and context. comp_mask bits from IBV_CREATE_IND_TABLE_RESERVED up are EINVAL with
/// errno left alone (as rdma-core); a response shorter than the core one is EINVAL. Divergence: a
/// NULL table or WQ is EINVAL; so is a log size above the kernel's maximum
/// (`IB_USER_VERBS_MAX_LOG_IND_TBL_SIZE`, 13), without reading the table (rdma-core reads it,
/// then the kernel refuses the size).
pub(crate) fn cmd_create_rwq_ind_table(
    ctx: Ctx,
    attr: Ptr<ibv_rwq_ind_table_init_attr>,
    table: Ptr<ibv_rwq_ind_table>,
    resp: &mut [u8],
) -> Result<()> {
    create_rwq_ind_table_on(ctx.channel().cmd(), ctx, attr, table, resp)
}

/// [`cmd_create_rwq_ind_table`] on the command channel `c`.
fn create_rwq_ind_table_on(
    c: crate::cmd::Ctx<'_>,
    ctx: Ctx,
    attr: Ptr<ibv_rwq_ind_table_init_attr>,
    table: Ptr<ibv_rwq_ind_table>,
    resp: &mut [u8],
) -> Result<()> {
    let a = attr.read();
    let (mask, log) = (a.comp_mask, a.log_ind_tbl_size);
    if mask >= IBV_CREATE_IND_TABLE_RESERVED as u32 {
        return Err(Errno::EINVAL.quiet());
    }
    // The kernel refuses sizes above its maximum before it reads a handle; answering that here
    // spares reading (up to 2^31) table entries that do not exist.
    if log > IB_USER_VERBS_MAX_LOG_IND_TBL_SIZE || a.ind_tbl.is_null() {
        return Err(Errno::EINVAL);
    }
    let mut handles = Vec::new();
    handles
        .try_reserve_exact(1usize << log)
        .map_err(|_| Errno::ENOMEM)?;
    for i in 0..1usize << log {
        // SAFETY: the caller's table of `1 << log` WQs (the C contract).
        let wq = unsafe { a.ind_tbl.wrapping_add(i).read() };
        if wq.is_null() {
            return Err(Errno::EINVAL);
        }
        // SAFETY: a live WQ of the table.
        handles.push(unsafe { (*wq).handle });
    }
    let (handle, num) = crate::cmd::wq::create_rwq_ind_table(c, mask, log, &handles, resp)?;
    set!(table.ind_tbl_handle = handle as c_int);
    set!(table.ind_tbl_num = num as c_int);
    set!(table.context = ctx.raw());
    Ok(())
}

/// `ibv_cmd_destroy_rwq_ind_table`: RWQ_IND_TBL_DESTROY (ioctl, else the extended write command:
/// [`cmd::wq::destroy_rwq_ind_table`](crate::cmd::wq::destroy_rwq_ind_table)); an EIO on a
/// disassociated device is success when allowed
/// ([`allow_disassociate`](crate::verbs::disassoc::allow_disassociate)).
pub(crate) fn cmd_destroy_rwq_ind_table(table: RwqIndTable) -> Result<()> {
    // SAFETY: a live table (the handle's contract).
    let h = unsafe { (*table.raw()).ind_tbl_handle } as u32;
    let allow = crate::verbs::disassoc::allow_disassociate();
    crate::cmd::wq::destroy_rwq_ind_table(table.ctx().channel().cmd(), h, allow)
}

// The seam of the tests: the commands on a given command channel, with the C pointers and the
// C return (0 or the positive errno, errno set unless rdma-core leaves it).

/// `ibv_cmd_create_wq` on the command channel `c`.
///
/// # Safety
/// As for the export: live objects and attributes.
pub unsafe fn create_wq_with(
    c: crate::cmd::Ctx<'_>,
    imported: bool,
    context: *mut ibv_context,
    a: *mut ibv_wq_init_attr,
    wq: *mut ibv_wq,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    let mut run = || {
        // SAFETY: the caller's contract.
        let ctx = unsafe { Ctx::from_raw(context) }?;
        // SAFETY: the export's contract: `a` is NULL or valid for the call.
        let a = unsafe { Ptr::from_raw(a) }?;
        // SAFETY: the export's contract: `wq` is NULL or valid for the call.
        let wq = unsafe { Ptr::from_raw(wq) }?;
        create_on(c, imported, ctx, a, wq, req, resp)
    };
    run().ret_errno()
}

/// `ibv_cmd_modify_wq` on the command channel `c`.
///
/// # Safety
/// As for the export.
pub unsafe fn modify_wq_with(
    c: crate::cmd::Ctx<'_>,
    wq: *mut ibv_wq,
    attr: *mut ibv_wq_attr,
    req: &mut [u8],
) -> c_int {
    let mut run = || {
        // SAFETY: the caller's contract.
        let wq = unsafe { Ptr::from_raw(wq) }?;
        // SAFETY: the export's contract: `attr` is NULL or valid for the call.
        let attr = unsafe { Ptr::from_raw(attr) }?;
        modify_on(c, wq, attr, req)
    };
    run().ret_errno()
}

/// `ibv_cmd_destroy_wq` on the command channel `c`.
///
/// # Safety
/// As for the export; the WQ's event lock was initialised (or is never waited on).
pub unsafe fn destroy_wq_with(c: crate::cmd::Ctx<'_>, wq: *mut ibv_wq) -> c_int {
    // SAFETY: the caller's contract.
    let wq = unsafe { Ptr::from_raw(wq) };
    wq.and_then(|w| destroy_on(c, w)).ret_errno()
}

/// `ibv_cmd_create_rwq_ind_table` on the command channel `c`.
///
/// # Safety
/// As for the export.
pub unsafe fn create_rwq_ind_table_with(
    c: crate::cmd::Ctx<'_>,
    context: *mut ibv_context,
    a: *mut ibv_rwq_ind_table_init_attr,
    table: *mut ibv_rwq_ind_table,
    resp: &mut [u8],
) -> c_int {
    let mut run = || {
        // SAFETY: the caller's contract.
        let ctx = unsafe { Ctx::from_raw(context) }?;
        // SAFETY: the export's contract: `a` is NULL or valid for the call.
        let a = unsafe { Ptr::from_raw(a) }?;
        // SAFETY: the export's contract: `table` is NULL or valid for the call.
        let table = unsafe { Ptr::from_raw(table) }?;
        create_rwq_ind_table_on(c, ctx, a, table, resp)
    };
    run().ret_errno()
}
