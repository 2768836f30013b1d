//! Queue pairs (rdma-core: verbs.c `ibv_create_qp` … `ibv_query_ece`; cmd_qp.c and cmd.c for
//! the provider's commands `ibv_cmd_create_qp`, `_create_qp_ex`, `_create_qp_ex2`, `_open_qp`,
//! `_query_qp`, `_modify_qp`, `_modify_qp_ex`, `_destroy_qp`). Posting through the kernel is
//! [`verbs::post`](crate::verbs::post).
//!
//! The public verbs hand the call to the context's op (the provider's, or the default, which
//! fails EOPNOTSUPP); a provider's answer passes through untouched, and what the library adds is
//! its bookkeeping (`qp->state` after a modify or query that covers the state). The provider's
//! commands read the C objects, go to [`cmd::qp`](crate::cmd::qp) on the context's command channel
//! and store what the kernel answered in the provider's QP as rdma-core does. The `*_with`
//! functions run a command on a given channel (the tests' seam: a fake kernel) and return as the
//! export does.
//!
//! Called by [`capi::qp`](crate::capi::qp), the 1.0 twins of
//! [`capi::compat_1_0`](crate::capi::compat_1_0) and `capi::pabi::forms`. Making QPs (create, open)
//! is `create`.
use core::ffi::c_int;
use core::mem::offset_of;
use core::ptr::null_mut;

use crate::abi::driver::verbs_qp;
use crate::abi::driver::verbs_qp_mask::{VERBS_QP_EX, VERBS_QP_XRCD};
use crate::abi::verbs::ibv_qp_attr_mask::{IBV_QP_RATE_LIMIT, IBV_QP_STATE};
use crate::abi::verbs::ibv_query_qp_data_in_order_caps::*;
use crate::abi::verbs::ibv_query_qp_data_in_order_flags::*;
use crate::abi::verbs::{ibv_ece, ibv_qp, ibv_qp_attr, ibv_qp_ex, ibv_qp_init_attr};
use crate::cmd::Ctx as Channel;
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::disassoc::allow_disassociate;
use crate::verbs::events::destroy_and_wait;
use crate::verbs::handle::{Pd, Ptr, Qp};

mod create;
pub(crate) use create::{cmd_create, cmd_create_ex, cmd_open};
pub use create::{create_qp_ex2_with, create_qp_with, open_qp_with};

/// A context without the op (one this library never initialised: `ctxpriv::DETACHED` has no ops):
/// EOPNOTSUPP, errno set. Its own cold path: the provider's answer is the verb's, passed on from a
/// tail call where there is nothing to add (bench rows `create_qp`, `destroy_qp`).
#[cold]
fn no_op() -> c_int {
    Errno::EOPNOTSUPP.ret_errno()
}

/// `ibv_create_qp`: the provider's `create_qp`, its answer as it is: a QP in state RESET with the
/// granted capabilities written back into `attr->cap`, or NULL with the provider's errno.
#[inline]
pub(crate) fn create(pd: Pd, attr: Ptr<ibv_qp_init_attr>) -> *mut ibv_qp {
    match pd.ops().create_qp {
        // SAFETY: the provider's op on its own PD and the caller's attributes.
        Some(op) => unsafe { op(pd.raw(), attr.as_ptr()) },
        None => {
            no_op();
            null_mut()
        }
    }
}

/// `qp->state` takes `attr->qp_state` (after a modify or query that covered the state).
#[inline]
fn keep_state(qp: Qp, attr: Ptr<ibv_qp_attr>) {
    // SAFETY: the caller's attributes (`Ptr`), read where rdma-core reads them.
    let state = unsafe { (*attr.as_ptr()).qp_state };
    // SAFETY: a live QP (the handle's contract).
    unsafe { (*qp.raw()).state = state };
}

/// `ibv_query_qp`: the provider's `query_qp` status; on success with IBV_QP_STATE asked,
/// `qp->state` follows the answer.
#[inline]
pub(crate) fn query(
    qp: Qp,
    attr: Ptr<ibv_qp_attr>,
    mask: c_int,
    init: Ptr<ibv_qp_init_attr>,
) -> c_int {
    let Some(op) = qp.ops().query_qp else {
        return no_op();
    };
    // SAFETY: the provider's op on its own QP and the caller's buffers.
    let ret = unsafe { op(qp.raw(), attr.as_ptr(), mask, init.as_ptr()) };
    if ret == 0 && mask & IBV_QP_STATE as c_int != 0 {
        keep_state(qp, attr);
    }
    ret
}

/// `ibv_modify_qp`: the provider's `modify_qp` status; on success with IBV_QP_STATE in the mask,
/// `qp->state` becomes `attr->qp_state`.
#[inline]
pub(crate) fn modify(qp: Qp, attr: Ptr<ibv_qp_attr>, mask: c_int) -> c_int {
    let Some(op) = qp.ops().modify_qp else {
        return no_op();
    };
    // SAFETY: the provider's op on its own QP and the caller's attributes.
    let ret = unsafe { op(qp.raw(), attr.as_ptr(), mask) };
    if ret == 0 && mask & IBV_QP_STATE as c_int != 0 {
        keep_state(qp, attr);
    }
    ret
}

/// `ibv_destroy_qp`: the provider's status (its `destroy_qp` waits for the QP's events to be
/// acknowledged).
#[inline]
pub(crate) fn destroy(qp: Qp) -> c_int {
    match qp.ops().destroy_qp {
        // SAFETY: the provider's op on its own QP.
        Some(op) => unsafe { op(qp.raw()) },
        None => no_op(),
    }
}

/// `ibv_qp_to_qp_ex`: the QP itself (its extended view) when its provider created it with the
/// extended interface (its `verbs_qp` carries VERBS_QP_EX), else NULL, errno untouched (the QP's
/// `context` is not looked at). Within provider ABI 34 `verbs_qp` has two layouts; both are
/// understood ([`vqp_is_ex`]).
pub(crate) fn to_qp_ex(qp: Ptr<ibv_qp>) -> *mut ibv_qp_ex {
    let base = qp.as_ptr().cast::<u8>();
    let at_352 = base
        .wrapping_add(offset_of!(verbs_qp, comp_mask))
        .cast::<u32>();
    let at_360 = base.wrapping_add(offset_of!(verbs_qp, xrcd)).cast::<u32>();
    // SAFETY: as rdma-core, every provider QP is the head of a verbs_qp (either layout is at
    // least as long as the v44 one read here); both words are naturally aligned.
    let at_352 = unsafe { at_352.read() };
    // SAFETY: the same provider QP's second word, inside even the shortest `verbs_qp`, aligned.
    let at_360 = unsafe { at_360.read() };
    if vqp_is_ex(at_352, at_360) {
        qp.as_ptr().cast()
    } else {
        null_mut()
    }
}

/// Whether a provider's `verbs_qp` carries VERBS_QP_EX, from its 32-bit words at byte 352 and
/// 360 (right after the v44 `ibv_qp_ex`).
///
/// Providers built from rdma-core v44 headers (Debian 12) keep `comp_mask` at 352 and the low
/// half of `xrcd` at 360 (non-NULL only with VERBS_QP_XRCD). Those built from v45-v56 headers
/// (Debian 13; still provider ABI 34) appended `wr_flush` to `ibv_qp_ex`: 352 is the low half
/// of that function pointer (NULL, or an address with bits beyond the two mask bits), and
/// `comp_mask` is at 360. So: a word at 352 that is a valid mask answers; a zero one defers to
/// 360 (zero in a v44 struct without XRCD); anything else is a pointer, and 360 answers.
fn vqp_is_ex(at_352: u32, at_360: u32) -> bool {
    let (xrcd, ex) = (VERBS_QP_XRCD as u32, VERBS_QP_EX as u32);
    match at_352 {
        0 => at_360 & ex != 0,
        m if m & !(xrcd | ex) == 0 => m & ex != 0,
        _ => at_360 & ex != 0,
    }
}

/// `ibv_query_qp_data_in_order`: whether data of operation `op` lands in memory in order
/// (rdma-core v65 semantics): flags other than RETURN_CAPS and DEVICE_ONLY give 0; otherwise the
/// provider's answer (0 without the op), where a whole-message guarantee implies the 128-byte
/// one, as capability bits with RETURN_CAPS, else 1 (whole message in order) or 0.
pub(crate) fn data_in_order(qp: Qp, op: u32, flags: u32) -> c_int {
    let known = IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS as u32
        | IBV_QUERY_QP_DATA_IN_ORDER_DEVICE_ONLY as u32;
    if flags & !known != 0 {
        return 0;
    }
    let Some(f) = qp.ops().query_qp_data_in_order else {
        return 0;
    };
    // SAFETY: the provider's op on its own QP.
    let mut result = unsafe { f(qp.raw(), op, flags) };
    let whole = IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG as c_int;
    if result & whole != 0 {
        result |= IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES as c_int;
    }
    if flags & IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS as u32 != 0 {
        result
    } else {
        c_int::from(result & whole != 0)
    }
}

/// `ibv_set_ece`: a zero `vendor_id` is EOPNOTSUPP (errno set) without asking the provider;
/// else the provider's `set_ece` status.
pub(crate) fn set_ece(qp: Qp, ece: Ptr<ibv_ece>) -> c_int {
    if ece.read().vendor_id == 0 {
        return Errno::EOPNOTSUPP.ret_errno();
    }
    match qp.ops().set_ece {
        // SAFETY: the provider's op on its own QP and the caller's record.
        Some(op) => unsafe { op(qp.raw(), ece.as_ptr()) },
        None => no_op(),
    }
}

/// `ibv_query_ece`: the provider's `query_ece` status (EOPNOTSUPP, errno untouched, from a provider
/// without ECE).
pub(crate) fn query_ece(qp: Qp, ece: Ptr<ibv_ece>) -> c_int {
    match qp.ops().query_ece {
        // SAFETY: the provider's op on its own QP and the caller's record.
        Some(op) => unsafe { op(qp.raw(), ece.as_ptr()) },
        None => no_op(),
    }
}

/// The legacy QP commands take masks below IBV_QP_RATE_LIMIT only: EOPNOTSUPP (errno left
/// alone, as rdma-core) for the rest, which must go through the extended command.
#[inline]
fn mask_below_rate_limit(attr_mask: c_int) -> Result<()> {
    if attr_mask as u32 & !(IBV_QP_RATE_LIMIT as u32 - 1) != 0 {
        return Err(Errno::EOPNOTSUPP.quiet());
    }
    Ok(())
}

/// `ibv_cmd_query_qp`: write command QUERY_QP; `qp_attr` filled, and in `qp_init_attr` the
/// capabilities and `sq_sig_all` from the kernel, the user context, CQs, SRQ and type from the QP.
/// A mask from IBV_QP_RATE_LIMIT up is EOPNOTSUPP, refused first (before the QP's context is looked
/// at, as rdma-core: [`mask_below_rate_limit`]) with errno left alone.
pub(crate) fn cmd_query(
    qp: Qp,
    attr: Ptr<ibv_qp_attr>,
    attr_mask: c_int,
    init: Ptr<ibv_qp_init_attr>,
    req: &mut [u8],
) -> Result<()> {
    mask_below_rate_limit(attr_mask)?;
    let c = qp.ctx().channel();
    // SAFETY: the handles' contracts.
    unsafe {
        query_qp_on(
            c.cmd(),
            qp.raw(),
            attr.as_ptr(),
            attr_mask,
            init.as_ptr(),
            req,
        )
    }
}

/// [`cmd_query`] on a given command channel.
///
/// # Safety
/// A live QP, the caller's attribute structs.
unsafe fn query_qp_on(
    c: Channel<'_>,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    init: *mut ibv_qp_init_attr,
    req: &mut [u8],
) -> Result<()> {
    mask_below_rate_limit(attr_mask)?;
    // SAFETY: a live QP (the caller's contract), read for the call.
    let q = unsafe { &*qp };
    // SAFETY: the caller's attributes, not otherwise referenced during the call.
    let r = crate::cmd::qp_attr::query_qp(c, q.handle, attr_mask, req, unsafe { &mut *attr })?;
    let i = ibv_qp_init_attr {
        qp_context: q.qp_context,
        send_cq: q.send_cq,
        recv_cq: q.recv_cq,
        srq: q.srq,
        cap: r.cap.into(),
        qp_type: q.qp_type,
        sq_sig_all: r.sq_sig_all,
    };
    // SAFETY: the caller's init attributes.
    unsafe { init.write(i) };
    Ok(())
}

/// `cmd_query` on a given command channel, as the export returns.
///
/// # Safety
/// As for the export.
pub unsafe fn query_qp_with(
    c: Channel<'_>,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    init: *mut ibv_qp_init_attr,
    req: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { query_qp_on(c, qp, attr, attr_mask, init, req) }.ret_errno()
}

/// `ibv_cmd_modify_qp`: write command MODIFY_QP with the masked attributes in the provider's
/// request; a mask from IBV_QP_RATE_LIMIT up is EOPNOTSUPP, refused first (before the QP's context
/// is looked at, as rdma-core: [`mask_below_rate_limit`]) with errno left alone. `qp->state` is
/// `ibv_modify_qp`'s to update.
#[inline]
pub(crate) fn cmd_modify(
    qp: Qp,
    attr: Ptr<ibv_qp_attr>,
    attr_mask: c_int,
    req: &mut [u8],
) -> Result<()> {
    mask_below_rate_limit(attr_mask)?;
    let c = qp.ctx().channel();
    // SAFETY: the handles' contracts.
    unsafe { modify_qp_on(c.cmd(), qp.raw(), attr.as_ptr(), attr_mask, req) }
}

/// [`cmd_modify`] on a given command channel.
///
/// # Safety
/// A live QP, the caller's attributes.
#[inline]
unsafe fn modify_qp_on(
    c: Channel<'_>,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    req: &mut [u8],
) -> Result<()> {
    mask_below_rate_limit(attr_mask)?;
    // SAFETY: a live QP (the caller's contract).
    let h = unsafe { (*qp).handle };
    // SAFETY: the caller's attributes, read for the call.
    crate::cmd::qp_attr::modify_qp(c, h, unsafe { &*attr }, attr_mask, req)
}

/// `cmd_modify` on a given command channel, as the export returns.
///
/// # Safety
/// As for the export.
pub unsafe fn modify_qp_with(
    c: Channel<'_>,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    req: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { modify_qp_on(c, qp, attr, attr_mask, req) }.ret_errno()
}

/// `ibv_cmd_modify_qp_ex`: the extended write command MODIFY_QP (any mask); IBV_QP_RATE_LIMIT
/// needs a request with room for `rate_limit` (else EINVAL with errno left alone, as rdma-core).
pub(crate) fn cmd_modify_ex(
    qp: Qp,
    attr: Ptr<ibv_qp_attr>,
    attr_mask: c_int,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let c = qp.ctx().channel();
    // SAFETY: the handles' contracts.
    unsafe { modify_qp_ex_on(c.cmd(), qp.raw(), attr.as_ptr(), attr_mask, req, resp) }
}

/// [`cmd_modify_ex`] on a given command channel.
///
/// # Safety
/// A live QP, the caller's attributes.
unsafe fn modify_qp_ex_on(
    c: Channel<'_>,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let rate_end = crate::cmd::write::EX_HDR_SIZE
        + offset_of!(crate::abi::uapi::ib_uverbs_ex_modify_qp, rate_limit)
        + 4;
    if attr_mask as u32 & IBV_QP_RATE_LIMIT as u32 != 0 && req.len() < rate_end {
        return Err(Errno::EINVAL.quiet());
    }
    // SAFETY: a live QP (the caller's contract).
    let h = unsafe { (*qp).handle };
    // SAFETY: the caller's attributes, read for the call.
    crate::cmd::qp_attr::modify_qp_ex(c, h, unsafe { &*attr }, attr_mask, req, resp)
}

/// `cmd_modify_ex` on a given command channel, as the export returns.
///
/// # Safety
/// As for the export.
pub unsafe fn modify_qp_ex_with(
    c: Channel<'_>,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { modify_qp_ex_on(c, qp, attr, attr_mask, req, resp) }.ret_errno()
}

/// `ibv_cmd_destroy_qp`: QP_DESTROY (ioctl, else the write command:
/// [`cmd::qp::destroy_qp`](crate::cmd::qp::destroy_qp)), then the wait (under the QP's event lock,
/// `qp->mutex`/`qp->cond`) until every async event the kernel reported for it was acknowledged
/// (`events_completed` reaching the kernel's `events_reported`); an EIO on a disassociated device
/// counts as success and does not wait when allowed, `RDMAV_ALLOW_DISASSOC_DESTROY`
/// ([`allow_disassociate`]).
pub(crate) fn cmd_destroy(qp: Qp) -> Result<()> {
    let c = qp.ctx().channel();
    // SAFETY: a live QP whose event lock was initialised when it was created (`Qp`).
    unsafe { destroy_qp_on(c.cmd(), qp.raw()) }
}

/// [`cmd_destroy`] on a given command channel.
///
/// # Safety
/// A live QP whose event lock was initialised.
unsafe fn destroy_qp_on(c: Channel<'_>, qp: *mut ibv_qp) -> Result<()> {
    // SAFETY: a live QP (the caller's contract).
    let h = unsafe { (*qp).handle };
    let destroyed = crate::cmd::qp::destroy_qp(c, h, allow_disassociate());
    // SAFETY: places of the live QP, not read here.
    let m = unsafe { &raw mut (*qp).mutex };
    // SAFETY: a place of the live QP (its condition variable), not read here.
    let cv = unsafe { &raw mut (*qp).cond };
    // SAFETY: a place of the live QP (its ack count), not read here.
    let acked = unsafe { &raw const (*qp).events_completed };
    // The ack verbs write `events_completed` under the lock.
    let reached = |&n: &u32| {
        // SAFETY: the QP's counter, read under its lock.
        unsafe { acked.read_volatile() == n }
    };
    // SAFETY: the caller's contract: the QP's initialised event lock.
    unsafe { destroy_and_wait(destroyed, m, cv, reached) }
}

/// `cmd_destroy` on a given command channel, as the export returns (the test seam).
///
/// # Safety
/// As for the export; the QP's event lock was initialised.
pub unsafe fn destroy_qp_with(c: Channel<'_>, qp: *mut ibv_qp) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { destroy_qp_on(c, qp) }.ret_errno()
}
