//! Provider command layer: CQ commands (rdma-core: cmd_cq.c, cmd.c).
//!
//! Providers call these from their CQ ops with their own request/response buffers; the command
//! bytes are built in `crate::cmd::cq`, and the results land in the provider's `ibv_cq`.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use crate::verbs::ctxpriv::Context;
use core::ffi::c_int;

use crate::abi::driver::verbs_cq;
use crate::abi::kern_abi::{
    ibv_command_buffer, ibv_create_cq, ibv_create_cq_ex, ibv_modify_cq, ibv_resize_cq,
};
use crate::abi::uapi::{
    ib_uverbs_create_cq_resp, ib_uverbs_ex_create_cq_resp, ib_uverbs_resize_cq_resp,
};
use crate::abi::verbs::{
    ibv_comp_channel, ibv_context, ibv_cq, ibv_cq_init_attr_ex, ibv_modify_cq_attr, ibv_wc,
};
use crate::cmd::cq::{CqCreated, CqInit};
use crate::cret::CRet;
use crate::cret::quiet;
use crate::errno::{Errno, Result};
use crate::verbs::ctxpriv::priv_of;

/// The creation parameters of a CQ at `cq` of `context`: its address is the user handle the
/// kernel echoes in events.
///
/// # Safety
/// `context` is an open context of this library; `channel` is NULL or a live channel.
unsafe fn cq_init(
    context: *mut ibv_context,
    cq: *mut ibv_cq,
    cqe: c_int,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
) -> CqInit {
    // SAFETY: the caller's contract.
    unsafe {
        CqInit {
            cqe,
            channel_fd: (!channel.is_null()).then(|| (*channel).fd),
            comp_vector,
            user_handle: cq as usize as u64,
            async_fd: (*context).async_fd,
            imported: priv_of(context).imported,
            buffer: None,
        }
    }
}

use super::cmd_device::provider_buf as buf;

/// Store a created CQ's handle and size.
///
/// # Safety
/// `cq` is the provider's CQ being created.
unsafe fn store_created(cq: *mut ibv_cq, r: Result<CqCreated>) -> c_int {
    r.map(|c| {
        // SAFETY: the caller's contract.
        unsafe {
            (*cq).handle = c.handle;
            (*cq).cqe = c.cqe as c_int;
        }
    })
    .ret_errno()
}

/// `int ibv_cmd_create_cq(struct ibv_context *context, int cqe, struct ibv_comp_channel *channel, int comp_vector, struct ibv_cq *cq, struct ibv_create_cq *cmd, size_t cmd_size, struct ib_uverbs_create_cq_resp *resp, size_t resp_size)`
///
/// CQ_CREATE (ioctl, else the write command) with the provider's driver data (a `cmd` or `resp`
/// no longer than its core part, or NULL, has none: rxe passes `NULL, 0`); sets `cq->context`,
/// then on success `cq->handle` and `cq->cqe`. 0, or the positive errno. Divergence: a NULL
/// context or CQ gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_cq(
    context: *mut ibv_context,
    cqe: c_int,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
    cq: *mut ibv_cq,
    cmd: *mut ibv_create_cq,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_cq_resp,
    resp_size: usize,
) -> Raw<c_int> {
    if context.is_null() || cq.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: an open context, the provider's CQ and its buffers of the given sizes.
    unsafe {
        (*cq).context = context;
        let a = cq_init(context, cq, cqe, channel, comp_vector);
        let (req, rsp) = (buf(cmd, cmd_size), buf(resp, resp_size));
        let Ok(cx) = Context::from_raw(context) else {
            return Errno::EINVAL.ret_errno();
        };
        store_created(cq, crate::cmd::cq::create_cq(cx.cmd(), &a, req, rsp))
    }
}

/// The shared body of `ibv_cmd_create_cq_ex` and `ibv_cmd_create_cq_ex2` of both provider ABIs.
///
/// # Safety
/// As for those exports; `driver` is NULL or a live command-buffer chain.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn create_cq_ex(
    context: *mut ibv_context,
    cq_attr: *const ibv_cq_init_attr_ex,
    cq: *mut verbs_cq,
    cmd: *mut ibv_create_cq_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_cq_resp,
    resp_size: usize,
    cmd_flags: u32,
    driver: *mut ibv_command_buffer,
    buffer: Option<crate::cmd::cq::CqBuffer>,
) -> c_int {
    if context.is_null() || cq_attr.is_null() || cq.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the caller's contract; `cq.cq` is the plain view of the provider's CQ.
    unsafe {
        let ibcq = &raw mut (*cq).anon_1.cq;
        let at = &*cq_attr;
        // rdma-core checks the mask before it touches the CQ, and leaves errno alone (rxe then
        // returns NULL with errno as it was).
        if let Err(e) = crate::cmd::cq::cq_ex_flags(at.comp_mask, at.wc_flags, at.flags) {
            return quiet(e);
        }
        (*ibcq).context = context;
        let a = crate::cmd::cq::CqInit {
            buffer,
            ..cq_init(
                context,
                ibcq,
                at.cqe as c_int,
                at.channel,
                at.comp_vector as c_int,
            )
        };
        let mut chain = crate::verbs::cmdbuf::Chain::from_raw(driver);
        let (req, rsp) = (buf(cmd, cmd_size), buf(resp, resp_size));
        let Ok(cx) = Context::from_raw(context) else {
            return Errno::EINVAL.ret_errno();
        };
        let r = crate::cmd::cq::create_cq_ex(
            cx.cmd(),
            &a,
            at.comp_mask,
            at.wc_flags,
            at.flags,
            cmd_flags,
            req,
            rsp,
            (!driver.is_null()).then_some(&mut chain as &mut dyn crate::cmd::Driver),
        );
        store_created(ibcq, r)
    }
}

/// `int ibv_cmd_create_cq_ex(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr, struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags)`
///
/// CQ_CREATE from extended attributes (completion timestamps and IGNORE_OVERRUN become kernel
/// flags; the extended write command when the kernel must see them). Sets `cq->context`, then on
/// success `cq->handle` and `cq->cqe`. 0, or the positive errno (EOPNOTSUPP for comp_mask bits
/// other than FLAGS and PD, errno untouched as in rdma-core). `cmd`/`resp` as for `ibv_cmd_create_cq` (rxe passes `NULL, 0`).
/// Divergence: a NULL context, attribute or CQ gives EINVAL.
///
/// Provider ABI 34 signature (v44-v56). Provider ABI 59 (v59) inserted `struct
/// verbs_create_cq_prov_attr *prov_attr` after `cq_attr`.
#[export(PRIVATE 34..59)]
fn ibv_cmd_create_cq_ex(
    context: *mut ibv_context,
    cq_attr: *const ibv_cq_init_attr_ex,
    cq: *mut verbs_cq,
    cmd: *mut ibv_create_cq_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_cq_resp,
    resp_size: usize,
    cmd_flags: u32,
) -> Raw<c_int> {
    // SAFETY: the C contract, forwarded.
    unsafe {
        create_cq_ex(
            context,
            cq_attr,
            cq,
            cmd,
            cmd_size,
            resp,
            resp_size,
            cmd_flags,
            core::ptr::null_mut(),
            None,
        )
    }
}

/// `int ibv_cmd_create_cq_ex2(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr, struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags, struct ibv_command_buffer *driver)`
///
/// As `ibv_cmd_create_cq_ex`, with the provider's `driver` attribute chain linked after its
/// driver data (and written back). 0, or the positive errno.
///
/// Provider ABI 34 signature of v53-v56 (the name is not in v44); provider ABI 59 (v59) inserted
/// `struct verbs_create_cq_prov_attr *prov_attr` after `cq_attr`.
#[export(PRIVATE 34..59)]
fn ibv_cmd_create_cq_ex2(
    context: *mut ibv_context,
    cq_attr: *const ibv_cq_init_attr_ex,
    cq: *mut verbs_cq,
    cmd: *mut ibv_create_cq_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_cq_resp,
    resp_size: usize,
    cmd_flags: u32,
    driver: *mut ibv_command_buffer,
) -> Raw<c_int> {
    // SAFETY: the C contract, forwarded.
    unsafe {
        create_cq_ex(
            context, cq_attr, cq, cmd, cmd_size, resp, resp_size, cmd_flags, driver, None,
        )
    }
}

/// `int ibv_cmd_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc)`
///
/// Polls up to `ne` completions through the kernel (POLL_CQ write command) into `wc`. The number
/// of completions, or -1 with errno. Divergence: a NULL CQ, or a NULL `wc` with `ne` > 0, or a
/// negative `ne`, gives -1 with errno EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_poll_cq(cq: *mut ibv_cq, ne: c_int, wc: *mut ibv_wc) -> Raw<c_int> {
    if cq.is_null() || ne < 0 || (wc.is_null() && ne > 0) {
        return Err(Errno::EINVAL).ret_minus_one();
    }
    // The response buffer first, as rdma-core: a count no memory holds is ENOMEM before the CQ
    // is looked at.
    let resp = match crate::cmd::cq::poll_cq_resp(ne) {
        Ok(r) => r,
        Err(e) => return Err(e).ret_minus_one(),
    };
    // SAFETY: a live CQ; `wc` has room for `ne` entries.
    unsafe {
        let ctx = (*cq).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Err(Errno::EINVAL).ret_minus_one();
        };
        match crate::cmd::cq::poll_cq_into(cx.cmd(), (*cq).handle, ne, resp) {
            Ok(v) => {
                for (i, w) in v.iter().enumerate() {
                    wc.add(i).write(*w);
                }
                v.len() as c_int
            }
            Err(e) => Err(e).ret_minus_one(),
        }
    }
}

/// `int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only)`
///
/// Arms the CQ (REQ_NOTIFY_CQ write command): its next completion (or next solicited one) sends
/// a completion event to its channel. 0, or the positive errno. Divergence: NULL gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_req_notify_cq(cq: *mut ibv_cq, solicited_only: c_int) -> Raw<c_int> {
    if cq.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: a live CQ of an open context.
    unsafe {
        let ctx = (*cq).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        crate::cmd::cq::req_notify_cq(cx.cmd(), (*cq).handle, solicited_only != 0).ret_errno()
    }
}

/// `int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe, struct ibv_resize_cq *cmd, size_t cmd_size, struct ib_uverbs_resize_cq_resp *resp, size_t resp_size)`
///
/// RESIZE_CQ write command with the provider's buffers; on success `cq->cqe` is the new size.
/// 0, or the positive errno. Divergence: NULL or short buffers give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_resize_cq(
    cq: *mut ibv_cq,
    cqe: c_int,
    cmd: *mut ibv_resize_cq,
    cmd_size: usize,
    resp: *mut ib_uverbs_resize_cq_resp,
    resp_size: usize,
) -> Raw<c_int> {
    if cq.is_null() || cmd.is_null() || resp.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: a live CQ; the provider's buffers of the given sizes.
    unsafe {
        let ctx = (*cq).context;
        let (req, rsp) = (buf(cmd, cmd_size), buf(resp, resp_size));
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        crate::cmd::cq::resize_cq(cx.cmd(), (*cq).handle, cqe, req, rsp)
            .map(|n| (*cq).cqe = n as c_int)
            .ret_errno()
    }
}

/// `int ibv_cmd_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr, struct ibv_modify_cq *cmd, size_t cmd_size)`
///
/// Changes the CQ's moderation (extended MODIFY_CQ write command). 0, or the positive errno
/// (EINVAL for an `attr_mask` at or above `IBV_CQ_ATTR_RESERVED`). Divergence: NULL or a short
/// buffer gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_cq(
    cq: *mut ibv_cq,
    attr: *mut ibv_modify_cq_attr,
    cmd: *mut ibv_modify_cq,
    cmd_size: usize,
) -> Raw<c_int> {
    if cq.is_null() || attr.is_null() || cmd.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: a live CQ, the caller's attributes and the provider's request buffer.
    unsafe {
        let a = &*attr;
        // rdma-core refuses the mask before it looks at the CQ (errno left alone).
        if a.attr_mask >= crate::abi::verbs::ibv_cq_attr_mask::IBV_CQ_ATTR_RESERVED as u32 {
            return Errno::EINVAL.0;
        }
        let ctx = (*cq).context;
        let req = buf(cmd, cmd_size);
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        crate::cmd::cq::modify_cq(
            cx.cmd(),
            (*cq).handle,
            a.attr_mask,
            a.moderate.cq_count,
            a.moderate.cq_period,
            req,
        )
        .ret_errno()
    }
}

/// `int ibv_cmd_destroy_cq(struct ibv_cq *cq)`
///
/// CQ_DESTROY (ioctl, else the write command), then waits, under `cq->mutex`/`cq->cond`, until
/// `ibv_ack_cq_events` and `ibv_ack_async_event` have acknowledged as many completion and
/// asynchronous events as the kernel says it reported for this CQ. 0, or the positive errno (no
/// wait then). EIO from a disassociated device counts as success, without the wait, when
/// `verbs_allow_disassociate_destroy` is set. Divergence: NULL gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_cq(cq: *mut ibv_cq) -> Raw<c_int> {
    if cq.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: a live CQ of an open context, initialised by verbs_init_cq.
    unsafe {
        let ctx = (*cq).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let allow = crate::verbs::disassoc::allow_disassociate();
        let destroyed = crate::cmd::cq::destroy_cq(cx.cmd(), (*cq).handle, allow);
        let (m, cv) = (&raw mut (*cq).mutex, &raw mut (*cq).cond);
        let comp_acked = &raw const (*cq).comp_events_completed;
        let async_acked = &raw const (*cq).async_events_completed;
        // SAFETY: the CQ's event lock (verbs_init_cq); the ack verbs write both counts under it.
        let reached = |&(comp, asyn): &(u32, u32)| {
            comp_acked.read_volatile() == comp && async_acked.read_volatile() == asyn
        };
        crate::verbs::qpcommon::destroy_and_wait(destroyed, m, cv, reached).ret_errno()
    }
}
