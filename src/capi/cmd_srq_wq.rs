//! Provider command layer: SRQ, WQ and RSS indirection table commands (rdma-core: cmd_srq.c,
//! cmd_wq.c, cmd_rwq_ind.c, cmd.c).
//!
//! As in `cmd_qp`: each export checks its pointers and finds the command channel; the `*_with`
//! function of the same name does the work on a given channel. Command bytes come from
//! [`crate::cmd::srq`] and [`crate::cmd::wq`].
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc, clippy::too_many_arguments)]

use crate::capi::export::export;
use crate::verbs::ctxpriv::Context;
use core::ffi::c_int;

use crate::abi::ctype::CEnum;
use crate::abi::driver::{verbs_srq, verbs_xrcd};
use crate::abi::kern_abi::{
    ibv_create_srq, ibv_create_wq, ibv_create_xsrq, ibv_modify_srq, ibv_modify_wq, ibv_query_srq,
};
use crate::abi::uapi::{
    IB_USER_VERBS_MAX_LOG_IND_TBL_SIZE, ib_uverbs_create_srq_resp,
    ib_uverbs_ex_create_rwq_ind_table_resp, ib_uverbs_ex_create_wq_resp,
};
use crate::abi::verbs::ibv_ind_table_init_attr_mask::IBV_CREATE_IND_TABLE_RESERVED;
use crate::abi::verbs::ibv_srq_init_attr_mask::*;
use crate::abi::verbs::ibv_srq_type::{IBV_SRQT_BASIC, IBV_SRQT_XRC};
use crate::abi::verbs::ibv_wq_attr_mask::{
    IBV_WQ_ATTR_FLAGS, IBV_WQ_ATTR_RESERVED, IBV_WQ_ATTR_STATE,
};
use crate::abi::verbs::ibv_wq_flags::IBV_WQ_FLAGS_RESERVED;
use crate::abi::verbs::ibv_wq_init_attr_mask::IBV_WQ_INIT_ATTR_RESERVED;
use crate::abi::verbs::{
    ibv_context, ibv_pd, ibv_recv_wr, ibv_rwq_ind_table, ibv_rwq_ind_table_init_attr, ibv_srq,
    ibv_srq_attr, ibv_srq_init_attr, ibv_srq_init_attr_ex, ibv_wq, ibv_wq_attr, ibv_wq_init_attr,
};
use crate::cmd::Ctx;
use crate::cmd::srq::{SrqCreated, SrqInit};
use crate::cmd::wq::WqInit;
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::post::post_recv_with;
use crate::verbs::qpcommon::{allow_disassociate, destroy_and_wait, init_lock, quiet};

use super::cmd_device::provider_buf as buf;

/// rdma-core's `ibv_icmd_create_srq` around a command-layer entry point: the SRQ's PD, context
/// and event lock first, then the command; on success the handle and granted sizes, and for a
/// `verbs_srq` its type, XRC number and domain, and CQ (`set_vsrq`).
///
/// # Safety
/// `srq` is the provider's SRQ (inside `vsrq` when that is not NULL), `pd` its live PD, `a` a
/// live attribute struct read only as rdma-core reads it.
unsafe fn icmd_create_srq(
    pd: *mut ibv_pd,
    vsrq: *mut verbs_srq,
    srq: *mut ibv_srq,
    a: *mut ibv_srq_init_attr_ex,
    imported: bool,
    run: impl FnOnce(&SrqInit) -> Result<SrqCreated>,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        (*srq).pd = pd;
        (*srq).context = (*pd).context;
        init_lock(&raw mut (*srq).mutex, &raw mut (*srq).cond);
        let m = (*a).comp_mask;
        let has = |bit: crate::abi::verbs::ibv_srq_init_attr_mask| m & bit as u32 != 0;
        let init = SrqInit {
            comp_mask: m,
            srq_type: (*a).srq_type.raw(),
            pd_handle: (*pd).handle,
            xrcd_handle: (has(IBV_SRQ_INIT_ATTR_XRCD) && !(*a).xrcd.is_null())
                .then(|| (*(*a).xrcd.cast::<verbs_xrcd>()).handle),
            cq_handle: (has(IBV_SRQ_INIT_ATTR_CQ) && !(*a).cq.is_null()).then(|| (*(*a).cq).handle),
            max_wr: (*a).attr.max_wr,
            max_sge: (*a).attr.max_sge,
            srq_limit: (*a).attr.srq_limit,
            max_num_tags: if has(IBV_SRQ_INIT_ATTR_TM) {
                (*a).tm_cap.max_num_tags
            } else {
                0
            },
            user_handle: srq as u64,
            async_fd: (*(*pd).context).async_fd,
            imported,
        };
        run(&init)
            .map(|s| {
                (*srq).handle = s.handle;
                (*a).attr.max_wr = s.max_wr;
                (*a).attr.max_sge = s.max_sge;
                if !vsrq.is_null() {
                    let t = if has(IBV_SRQ_INIT_ATTR_TYPE) {
                        (*a).srq_type.raw()
                    } else {
                        IBV_SRQT_BASIC as u32
                    };
                    (*vsrq).srq_type = CEnum::new(t);
                    if t == IBV_SRQT_XRC as u32 {
                        (*vsrq).srq_num = s.srq_num;
                        (*vsrq).xrcd = (*a).xrcd.cast::<verbs_xrcd>();
                    }
                    if has(IBV_SRQ_INIT_ATTR_CQ) {
                        (*vsrq).cq = (*a).cq;
                    }
                }
            })
            .ret_errno()
    }
}

/// `int ibv_cmd_create_srq(struct ibv_pd *pd, struct ibv_srq *srq, struct ibv_srq_init_attr *attr, struct ibv_create_srq *cmd, size_t cmd_size, struct ib_uverbs_create_srq_resp *resp, size_t resp_size)`
///
/// Creates a basic SRQ on `pd` (SRQ_CREATE ioctl with the provider's driver data, else the
/// write command of the kernel's ABI): sets `srq`'s PD, context, event lock and handle, and
/// stores the granted `max_wr`/`max_sge` into `attr->attr`. 0, or the positive errno.
/// Divergence: NULL arguments or buffers shorter than their core structs give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_srq(
    pd: *mut ibv_pd,
    srq: *mut ibv_srq,
    attr: *mut ibv_srq_init_attr,
    cmd: *mut ibv_create_srq,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_srq_resp,
    resp_size: usize,
) -> Raw<c_int> {
    if pd.is_null() || srq.is_null() || attr.is_null() || cmd.is_null() || resp.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        let Ok(cx) = Context::from_raw((*pd).context) else {
            return Errno::EINVAL.ret_errno();
        };
        let (c, imported) = (cx.cmd(), cx.imported());
        create_srq_with(
            c,
            imported,
            pd,
            srq,
            attr,
            buf(cmd, cmd_size),
            buf(resp, resp_size),
        )
    }
}

/// [`ibv_cmd_create_srq`] on a given command channel.
///
/// # Safety
/// As for the export.
pub unsafe fn create_srq_with(
    c: Ctx<'_>,
    imported: bool,
    pd: *mut ibv_pd,
    srq: *mut ibv_srq,
    attr: *mut ibv_srq_init_attr,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        // SAFETY: all-zero is a valid attribute struct.
        let mut ex: ibv_srq_init_attr_ex = core::mem::zeroed();
        ex.srq_context = (*attr).srq_context;
        ex.attr = (*attr).attr;
        let ret = icmd_create_srq(pd, core::ptr::null_mut(), srq, &mut ex, imported, |i| {
            crate::cmd::srq::create_srq(c, i, req, resp)
        });
        if ret == 0 {
            (*attr).attr.max_wr = ex.attr.max_wr;
            (*attr).attr.max_sge = ex.attr.max_sge;
        }
        ret
    }
}

/// `int ibv_cmd_create_srq_ex(struct ibv_context *context, struct verbs_srq *srq, struct ibv_srq_init_attr_ex *attr_ex, struct ibv_create_xsrq *cmd, size_t cmd_size, struct ib_uverbs_create_srq_resp *resp, size_t resp_size)`
///
/// Creates a basic, XRC or tag-matching SRQ from `attr_ex` on `attr_ex->pd` (unknown comp_mask
/// bits EOPNOTSUPP, no PD EINVAL; XRC needs XRCD and CQ, TM needs CQ, TM and tags): as
/// [`ibv_cmd_create_srq`], plus the `verbs_srq` type, XRC number and domain, and CQ. 0, or the
/// positive errno. Divergence: NULL arguments (or a NULL object the type needs) give EINVAL;
/// the `verbs_srq` fields are set on the write fallback for a basic SRQ too (rdma-core sets them
/// only on its other paths).
#[export(PRIVATE 34..)]
fn ibv_cmd_create_srq_ex(
    context: *mut ibv_context,
    srq: *mut verbs_srq,
    attr_ex: *mut ibv_srq_init_attr_ex,
    cmd: *mut ibv_create_xsrq,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_srq_resp,
    resp_size: usize,
) -> Raw<c_int> {
    if context.is_null() || srq.is_null() || attr_ex.is_null() || cmd.is_null() || resp.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        let m = (*attr_ex).comp_mask;
        if m >= IBV_SRQ_INIT_ATTR_RESERVED as u32 {
            return Errno::EOPNOTSUPP.ret_errno();
        }
        let pd = (*attr_ex).pd;
        if m & IBV_SRQ_INIT_ATTR_PD as u32 == 0 || pd.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let Ok(cx) = Context::from_raw((*pd).context) else {
            return Errno::EINVAL.ret_errno();
        };
        let (c, imported) = (cx.cmd(), cx.imported());
        create_srq_ex_with(
            c,
            imported,
            srq,
            attr_ex,
            buf(cmd, cmd_size),
            buf(resp, resp_size),
        )
    }
}

/// [`ibv_cmd_create_srq_ex`] on a given command channel (that of `attr_ex->pd->context`).
///
/// # Safety
/// As for the export.
pub unsafe fn create_srq_ex_with(
    c: Ctx<'_>,
    imported: bool,
    vsrq: *mut verbs_srq,
    attr_ex: *mut ibv_srq_init_attr_ex,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        let m = (*attr_ex).comp_mask;
        if m >= IBV_SRQ_INIT_ATTR_RESERVED as u32 {
            return Errno::EOPNOTSUPP.ret_errno();
        }
        let pd = (*attr_ex).pd;
        if m & IBV_SRQ_INIT_ATTR_PD as u32 == 0 || pd.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        icmd_create_srq(pd, vsrq, vsrq.cast(), attr_ex, imported, |i| {
            crate::cmd::srq::create_srq_ex(c, i, req, resp)
        })
    }
}

/// `int ibv_cmd_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask, struct ibv_modify_srq *cmd, size_t cmd_size)`
///
/// Write command MODIFY_SRQ (`max_wr` and `srq_limit` with the mask, in the provider's request;
/// the older layout on a kernel of uverbs ABI 3). 0, or the positive errno. Divergence: NULL
/// arguments give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_srq(
    srq: *mut ibv_srq,
    srq_attr: *mut ibv_srq_attr,
    srq_attr_mask: c_int,
    cmd: *mut ibv_modify_srq,
    cmd_size: usize,
) -> Raw<c_int> {
    if srq.is_null() || srq_attr.is_null() || cmd.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        let Ok(cx) = Context::from_raw((*srq).context) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        let a = &*srq_attr;
        crate::cmd::srq::modify_srq(
            c,
            (*srq).handle,
            srq_attr_mask,
            a.max_wr,
            a.srq_limit,
            buf(cmd, cmd_size),
        )
        .ret_errno()
    }
}

/// `int ibv_cmd_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, struct ibv_query_srq *cmd, size_t cmd_size)`
///
/// Write command QUERY_SRQ: fills `srq_attr` (`max_wr`, `max_sge`, `srq_limit`). 0, or the
/// positive errno. Divergence: NULL arguments give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_srq(
    srq: *mut ibv_srq,
    srq_attr: *mut ibv_srq_attr,
    cmd: *mut ibv_query_srq,
    cmd_size: usize,
) -> Raw<c_int> {
    if srq.is_null() || srq_attr.is_null() || cmd.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        let Ok(cx) = Context::from_raw((*srq).context) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        query_srq_with(c, srq, srq_attr, buf(cmd, cmd_size))
    }
}

/// [`ibv_cmd_query_srq`] on a given command channel.
///
/// # Safety
/// As for the export.
pub unsafe fn query_srq_with(
    c: Ctx<'_>,
    srq: *mut ibv_srq,
    attr: *mut ibv_srq_attr,
    req: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        crate::cmd::srq::query_srq(c, (*srq).handle, req)
            .map(|(max_wr, max_sge, srq_limit)| {
                (*attr).max_wr = max_wr;
                (*attr).max_sge = max_sge;
                (*attr).srq_limit = srq_limit;
            })
            .ret_errno()
    }
}

/// `int ibv_cmd_destroy_srq(struct ibv_srq *srq)`
///
/// SRQ_DESTROY (ioctl, else the write command), then waits, under `srq->mutex`/`srq->cond`,
/// until `srq->events_completed` reaches the kernel's `events_reported` (every async event of
/// the SRQ acknowledged). 0, or the positive errno; a forgiven EIO (disassociated device,
/// RDMAV_ALLOW_DISASSOC_DESTROY) is success without the wait. Divergence: NULL gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_srq(srq: *mut ibv_srq) -> Raw<c_int> {
    if srq.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's SRQ.
    unsafe {
        let Ok(cx) = Context::from_raw((*srq).context) else {
            return Errno::EINVAL.ret_errno();
        };
        destroy_srq_with(cx.cmd(), srq)
    }
}

/// [`ibv_cmd_destroy_srq`] on a given command channel (the test seam).
///
/// # Safety
/// As for the export; the SRQ's event lock was initialised.
pub unsafe fn destroy_srq_with(c: Ctx<'_>, srq: *mut ibv_srq) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        let destroyed = crate::cmd::srq::destroy_srq(c, (*srq).handle, allow_disassociate());
        let (m, cv) = (&raw mut (*srq).mutex, &raw mut (*srq).cond);
        let acked = &raw const (*srq).events_completed;
        // The ack verbs write `events_completed` under the lock.
        destroy_and_wait(destroyed, m, cv, |&n| acked.read_volatile() == n).ret_errno()
    }
}

/// `int ibv_cmd_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)`
///
/// Posts the receive work request list to the SRQ through the kernel (write command
/// POST_SRQ_RECV). 0, or the positive errno with `*bad_wr` the WR the kernel named (the first
/// one when it named none). Divergence: NULL `srq` gives EINVAL; a WR with a negative SGE count
/// or a NULL SGE list fails EINVAL before anything is sent, naming that WR; a NULL `bad_wr` is
/// not written.
#[export(PRIVATE 34..)]
fn ibv_cmd_post_srq_recv(
    srq: *mut ibv_srq,
    wr: *mut ibv_recv_wr,
    bad_wr: *mut *mut ibv_recv_wr,
) -> Raw<c_int> {
    if srq.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's SRQ and the caller's list.
    unsafe {
        let Ok(cx) = Context::from_raw((*srq).context) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        post_recv_with(c, (*srq).handle, wr, bad_wr, true)
    }
}

/// `int ibv_cmd_create_wq(struct ibv_context *context, struct ibv_wq_init_attr *wq_init_attr, struct ibv_wq *wq, struct ibv_create_wq *cmd, size_t cmd_size, struct ib_uverbs_ex_create_wq_resp *resp, size_t resp_size)`
///
/// Creates a work queue (WQ_CREATE ioctl with the provider's driver data, else the extended
/// write command): sets `wq`'s context, CQ, PD, type, handle and number, and stores the granted
/// `max_wr`/`max_sge` into `wq_init_attr`. 0, or the positive errno: comp_mask bits from
/// IBV_WQ_INIT_ATTR_RESERVED up are EINVAL, unknown create flags EOPNOTSUPP. Divergence: NULL
/// arguments (PD and CQ included) or short buffers give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_wq(
    context: *mut ibv_context,
    wq_init_attr: *mut ibv_wq_init_attr,
    wq: *mut ibv_wq,
    cmd: *mut ibv_create_wq,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_wq_resp,
    resp_size: usize,
) -> Raw<c_int> {
    if wq_init_attr.is_null() || wq.is_null() || cmd.is_null() || resp.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        // rdma-core refuses the mask before it looks at the context.
        if (*wq_init_attr).comp_mask >= IBV_WQ_INIT_ATTR_RESERVED as u32 {
            return Errno::EINVAL.ret_errno();
        }
        let Ok(cx) = Context::from_raw(context) else {
            return Errno::EINVAL.ret_errno();
        };
        let (c, imported) = (cx.cmd(), cx.imported());
        create_wq_with(
            c,
            imported,
            context,
            wq_init_attr,
            wq,
            buf(cmd, cmd_size),
            buf(resp, resp_size),
        )
    }
}

/// [`ibv_cmd_create_wq`] on a given command channel.
///
/// # Safety
/// As for the export.
pub unsafe fn create_wq_with(
    c: Ctx<'_>,
    imported: bool,
    context: *mut ibv_context,
    a: *mut ibv_wq_init_attr,
    wq: *mut ibv_wq,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        if (*a).comp_mask >= IBV_WQ_INIT_ATTR_RESERVED as u32 {
            return Errno::EINVAL.ret_errno();
        }
        (*wq).context = context;
        (*wq).cq = (*a).cq;
        (*wq).pd = (*a).pd;
        (*wq).wq_type = (*a).wq_type;
        if (*a).pd.is_null() || (*a).cq.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let init = WqInit {
            comp_mask: (*a).comp_mask,
            wq_type: (*a).wq_type.raw(),
            max_wr: (*a).max_wr,
            max_sge: (*a).max_sge,
            pd_handle: (*(*a).pd).handle,
            cq_handle: (*(*a).cq).handle,
            create_flags: (*a).create_flags,
            user_handle: wq as u64,
            async_fd: (*context).async_fd,
            imported,
        };
        crate::cmd::wq::create_wq(c, &init, req, resp)
            .map(|w| {
                (*wq).handle = w.handle;
                (*wq).wq_num = w.wq_num;
                (*a).max_wr = w.max_wr;
                (*a).max_sge = w.max_sge;
            })
            .ret_errno()
    }
}

/// `int ibv_cmd_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr, struct ibv_modify_wq *cmd, size_t cmd_size)`
///
/// Extended write command MODIFY_WQ (the provider's request, its core zeroed first); on
/// success with IBV_WQ_ATTR_STATE sets `wq->state`. 0, or the positive errno: attr_mask bits
/// from IBV_WQ_ATTR_RESERVED up EINVAL, unknown flags EOPNOTSUPP (both with errno left alone,
/// as rdma-core). Divergence: NULL arguments give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_wq(
    wq: *mut ibv_wq,
    attr: *mut ibv_wq_attr,
    cmd: *mut ibv_modify_wq,
    cmd_size: usize,
) -> Raw<c_int> {
    if wq.is_null() || attr.is_null() || cmd.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        // rdma-core checks the attributes before it looks at the WQ's context.
        if let Err(e) = check_modify_wq(&*attr) {
            return e;
        }
        let Ok(cx) = Context::from_raw((*wq).context) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        modify_wq_with(c, wq, attr, buf(cmd, cmd_size))
    }
}

/// MODIFY_WQ's attribute checks: mask bits from IBV_WQ_ATTR_RESERVED up are EINVAL, unknown
/// flags EOPNOTSUPP (errno left alone, as rdma-core).
fn check_modify_wq(a: &ibv_wq_attr) -> core::result::Result<(), c_int> {
    if a.attr_mask >= IBV_WQ_ATTR_RESERVED as u32 {
        return Err(quiet(Errno::EINVAL));
    }
    if a.attr_mask & IBV_WQ_ATTR_FLAGS as u32 != 0
        && a.flags_mask & !(IBV_WQ_FLAGS_RESERVED as u32 - 1) != 0
    {
        return Err(quiet(Errno::EOPNOTSUPP));
    }
    Ok(())
}

/// [`ibv_cmd_modify_wq`] on a given command channel.
///
/// # Safety
/// As for the export.
pub unsafe fn modify_wq_with(
    c: Ctx<'_>,
    wq: *mut ibv_wq,
    attr: *mut ibv_wq_attr,
    req: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        let a = *attr;
        if let Err(e) = check_modify_wq(&a) {
            return e;
        }
        let r = crate::cmd::wq::modify_wq(
            c,
            (*wq).handle,
            a.attr_mask,
            a.wq_state.raw(),
            a.curr_wq_state.raw(),
            a.flags,
            a.flags_mask,
            req,
        );
        r.map(|()| {
            if a.attr_mask & IBV_WQ_ATTR_STATE as u32 != 0 {
                (*wq).state = a.wq_state;
            }
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_destroy_wq(struct ibv_wq *wq)`
///
/// WQ_DESTROY (ioctl, else the extended write command), then waits, under
/// `wq->mutex`/`wq->cond`, until `wq->events_completed` reaches the kernel's `events_reported`.
/// 0, or the positive errno; a forgiven EIO (disassociated device) is success without the
/// wait. Divergence: NULL gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_wq(wq: *mut ibv_wq) -> Raw<c_int> {
    if wq.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's WQ.
    unsafe {
        let Ok(cx) = Context::from_raw((*wq).context) else {
            return Errno::EINVAL.ret_errno();
        };
        destroy_wq_with(cx.cmd(), wq)
    }
}

/// [`ibv_cmd_destroy_wq`] on a given command channel (the test seam).
///
/// # Safety
/// As for the export; the WQ's event lock was initialised.
pub unsafe fn destroy_wq_with(c: Ctx<'_>, wq: *mut ibv_wq) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        let destroyed = crate::cmd::wq::destroy_wq(c, (*wq).handle, allow_disassociate());
        let (m, cv) = (&raw mut (*wq).mutex, &raw mut (*wq).cond);
        let acked = &raw const (*wq).events_completed;
        // The ack verbs write `events_completed` under the lock.
        destroy_and_wait(destroyed, m, cv, |&n| acked.read_volatile() == n).ret_errno()
    }
}

/// `int ibv_cmd_create_rwq_ind_table(struct ibv_context *context, struct ibv_rwq_ind_table_init_attr *init_attr, struct ibv_rwq_ind_table *rwq_ind_table, struct ib_uverbs_ex_create_rwq_ind_table_resp *resp, size_t resp_size)`
///
/// Creates an RSS indirection table over the `1 << log_ind_tbl_size` WQs of
/// `init_attr->ind_tbl` (extended write command CREATE_RWQ_IND_TBL): sets the table's handle,
/// number and context. 0, or the positive errno: comp_mask bits from
/// IBV_CREATE_IND_TABLE_RESERVED up EINVAL (errno left alone, as rdma-core), a response
/// shorter than the core one EINVAL. Divergence: NULL arguments or WQs give EINVAL; so does a
/// log size above the kernel's maximum (13) without reading the table (rdma-core reads it, then
/// the kernel refuses the size).
#[export(PRIVATE 34..)]
fn ibv_cmd_create_rwq_ind_table(
    context: *mut ibv_context,
    init_attr: *mut ibv_rwq_ind_table_init_attr,
    rwq_ind_table: *mut ibv_rwq_ind_table,
    resp: *mut ib_uverbs_ex_create_rwq_ind_table_resp,
    resp_size: usize,
) -> Raw<c_int> {
    if init_attr.is_null() || rwq_ind_table.is_null() || resp.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        let Ok(cx) = Context::from_raw(context) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        create_rwq_ind_table_with(c, context, init_attr, rwq_ind_table, buf(resp, resp_size))
    }
}

/// [`ibv_cmd_create_rwq_ind_table`] on a given command channel.
///
/// # Safety
/// As for the export.
pub unsafe fn create_rwq_ind_table_with(
    c: Ctx<'_>,
    context: *mut ibv_context,
    a: *mut ibv_rwq_ind_table_init_attr,
    table: *mut ibv_rwq_ind_table,
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        let (mask, log) = ((*a).comp_mask, (*a).log_ind_tbl_size);
        if mask >= IBV_CREATE_IND_TABLE_RESERVED as u32 {
            return quiet(Errno::EINVAL);
        }
        // The kernel refuses sizes above its maximum before it reads a handle; answering that
        // here spares reading (up to 2^31) table entries that do not exist.
        if log > IB_USER_VERBS_MAX_LOG_IND_TBL_SIZE || (*a).ind_tbl.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let mut handles = Vec::new();
        if handles.try_reserve_exact(1usize << log).is_err() {
            return Errno::ENOMEM.ret_errno();
        }
        for i in 0..1usize << log {
            let wq = *(*a).ind_tbl.add(i);
            if wq.is_null() {
                return Errno::EINVAL.ret_errno();
            }
            handles.push((*wq).handle);
        }
        crate::cmd::wq::create_rwq_ind_table(c, mask, log, &handles, resp)
            .map(|(handle, num)| {
                (*table).ind_tbl_handle = handle as c_int;
                (*table).ind_tbl_num = num as c_int;
                (*table).context = context;
            })
            .ret_errno()
    }
}

/// `int ibv_cmd_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table)`
///
/// RWQ_IND_TBL_DESTROY (ioctl, else the extended write command). 0, or the positive errno; a
/// forgiven EIO (disassociated device) is success. Divergence: NULL gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_rwq_ind_table(rwq_ind_table: *mut ibv_rwq_ind_table) -> Raw<c_int> {
    if rwq_ind_table.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's table.
    unsafe {
        let Ok(cx) = Context::from_raw((*rwq_ind_table).context) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        let h = (*rwq_ind_table).ind_tbl_handle as u32;
        crate::cmd::wq::destroy_rwq_ind_table(c, h, allow_disassociate()).ret_errno()
    }
}
