//! Posting work requests through the kernel (rdma-core: cmd.c `ibv_cmd_post_send`,
//! `ibv_cmd_post_recv`, `ibv_cmd_post_srq_recv`), for providers without a user-space data path.
//!
//! The C work request lists are walked into the command layer's values ([`crate::cmd::post`])
//! and the kernel's `bad_wr` mapped back to the caller's list. The `*_with` functions post on a
//! given command channel (the tests' seam) and return as the exports do.
//!
//! Called by [`capi::qp`](crate::capi::qp) (and, for the SRQ's receive list, by the SRQ's export).
use core::ffi::c_int;
use core::ptr::null_mut;

use crate::abi::verbs::{ibv_qp, ibv_recv_wr, ibv_send_wr, ibv_sge};
use crate::cmd::Ctx as Channel;
use crate::cmd::post::{RecvWr, SendTarget, SendWr, TargetKind, send_target_kind};
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::handle::{Ptr, Qp};

/// `ibv_cmd_post_send`: the send list `wr` (NULL: empty) through the kernel (write command
/// POST_SEND: [`cmd::post::post_send`](crate::cmd::post::post_send), for providers without a
/// user-space send queue); on failure `*bad_wr` (when given: a NULL `bad_wr` is not written) names
/// the WR the kernel named (the first one when it named none), or the one that could not be taken
/// (a divergence: a negative SGE count, a NULL SGE list or (UD) a NULL AH is EINVAL before anything
/// is sent).
pub(crate) fn cmd_post_send(
    qp: Qp,
    wr: Option<Ptr<ibv_send_wr>>,
    bad_wr: Option<Ptr<*mut ibv_send_wr>>,
) -> Result<()> {
    let c = qp.ctx().channel();
    let (wr, bad_wr) = (
        wr.map_or(null_mut(), Ptr::as_ptr),
        bad_wr.map_or(null_mut(), Ptr::as_ptr),
    );
    // SAFETY: the C contract the handles were made from: a live QP, a NULL-terminated list of
    // live WRs, a writable `bad_wr`.
    unsafe { post_send_on(c.cmd(), qp.raw(), wr, bad_wr) }
}

/// `ibv_cmd_post_recv`: the receive list `wr` (NULL: empty) through the kernel (write command
/// POST_RECV: [`cmd::post::post_recv`](crate::cmd::post::post_recv)); `*bad_wr` as for
/// [`ibv_cmd_post_send`](cmd_post_send) (a divergence: a negative SGE count or a NULL SGE list is
/// EINVAL before anything is sent).
pub(crate) fn cmd_post_recv(
    qp: Qp,
    wr: Option<Ptr<ibv_recv_wr>>,
    bad_wr: Option<Ptr<*mut ibv_recv_wr>>,
) -> Result<()> {
    let c = qp.ctx().channel();
    // SAFETY: a live QP (the handle's contract).
    let handle = unsafe { (*qp.raw()).handle };
    let (wr, bad_wr) = (
        wr.map_or(null_mut(), Ptr::as_ptr),
        bad_wr.map_or(null_mut(), Ptr::as_ptr),
    );
    // SAFETY: as for `cmd_post_send`.
    unsafe { post_recv_on(c.cmd(), handle, wr, bad_wr, false) }
}

/// The SGEs of one work request. Divergence: a negative count, or a NULL list with a positive
/// count, is EINVAL (rdma-core would size its request from it and crash).
///
/// # Safety
/// `sg_list` holds `num_sge` entries when the count is positive.
unsafe fn sges<'a>(sg_list: *const ibv_sge, num_sge: c_int) -> Result<&'a [ibv_sge]> {
    match usize::try_from(num_sge) {
        Ok(0) => Ok(&[]),
        Ok(n) if !sg_list.is_null() => {
            // SAFETY: the caller's contract.
            Ok(unsafe { core::slice::from_raw_parts(sg_list, n) })
        }
        _ => Err(Errno::EINVAL),
    }
}

/// The length of a NULL-terminated work request list, counted before anything is allocated for
/// it, as rdma-core counts before it sizes its request (a list that loops back never ends, there
/// as here, but takes no memory while it does).
///
/// # Safety
/// `wr` heads a NULL-terminated list of live work requests (or is NULL); `next` reads a WR's link.
unsafe fn wr_count<T>(mut wr: *mut T, next: impl Fn(*mut T) -> *mut T) -> usize {
    let mut n = 0usize;
    while !wr.is_null() {
        n += 1;
        wr = next(wr);
    }
    n
}

/// Two empty vectors with room for `n` elements each: ENOMEM when that much cannot be had.
fn with_room<A, B>(n: usize) -> Result<(Vec<A>, Vec<B>)> {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    a.try_reserve_exact(n).map_err(|_| Errno::ENOMEM)?;
    b.try_reserve_exact(n).map_err(|_| Errno::ENOMEM)?;
    Ok((a, b))
}

/// A receive work request list as the command layer takes it, and each WR's address (for
/// `bad_wr`).
type RecvList<'a> = (Vec<RecvWr<'a>>, Vec<*mut ibv_recv_wr>);

/// A receive work request list, in order: the WRs for the command layer and their addresses
/// (for `bad_wr`). Err carries the index of the WR that could not be taken and why.
///
/// # Safety
/// `wr` heads a NULL-terminated list of live work requests (or is NULL).
unsafe fn recv_list<'a>(
    mut wr: *mut ibv_recv_wr,
) -> core::result::Result<RecvList<'a>, (usize, Errno)> {
    // SAFETY: each `w` wr_count passes is a live WR of the caller's list.
    let next = |w: *mut ibv_recv_wr| unsafe { (*w).next };
    // SAFETY: the caller's contract: a NULL-terminated list of live WRs.
    let n = unsafe { wr_count(wr, next) };
    let (mut wrs, mut ptrs) = with_room(n).map_err(|e| (0, e))?;
    while !wr.is_null() {
        // SAFETY: the caller's contract.
        let w = unsafe { &*wr };
        // SAFETY: the caller's contract: the WR's `sg_list` holds `num_sge` readable SGEs.
        let sg_list = unsafe { sges(w.sg_list, w.num_sge) }.map_err(|e| (ptrs.len(), e))?;
        wrs.push(RecvWr {
            wr_id: w.wr_id,
            sg_list,
        });
        ptrs.push(wr);
        wr = w.next;
    }
    Ok((wrs, ptrs))
}

/// Store the command layer's `bad_wr` choice into the caller's `*bad_wr` (when not NULL): the
/// WR at that index, or the last one when the kernel names one past the list (NULL for an
/// empty list).
///
/// # Safety
/// `bad_wr` is NULL or writable.
unsafe fn set_bad_wr<T>(bad_wr: *mut *mut T, ptrs: &[*mut T], idx: Option<usize>) {
    let Some(i) = idx else { return };
    if bad_wr.is_null() {
        return;
    }
    let p = ptrs.get(i).or(ptrs.last()).copied().unwrap_or(null_mut());
    // SAFETY: the caller's contract.
    unsafe { *bad_wr = p };
}

/// One C send WR as the command layer's value.
///
/// # Safety
/// `w` is a live WR; its SGE array and (UD) AH too.
unsafe fn send_wr<'a>(qp_type: u32, w: *const ibv_send_wr) -> Result<SendWr<'a>> {
    // SAFETY: the caller's contract: a live WR, read for the call.
    let w = unsafe { &*w };
    let opcode = w.opcode.raw();
    let target = match send_target_kind(qp_type, opcode) {
        TargetKind::None => SendTarget::None,
        TargetKind::Rdma => {
            // SAFETY: an RDMA opcode: the union holds `rdma` (rdma-core reads it so).
            let r = unsafe { w.wr.rdma };
            SendTarget::Rdma {
                remote_addr: r.remote_addr,
                rkey: r.rkey,
            }
        }
        TargetKind::Atomic => {
            // SAFETY: an atomic opcode: the union holds `atomic`.
            let a = unsafe { w.wr.atomic };
            SendTarget::Atomic {
                remote_addr: a.remote_addr,
                compare_add: a.compare_add,
                swap: a.swap,
                rkey: a.rkey,
            }
        }
        TargetKind::Ud => {
            // SAFETY: a UD QP: the union holds `ud`.
            let u = unsafe { w.wr.ud };
            if u.ah.is_null() {
                return Err(Errno::EINVAL);
            }
            // SAFETY: the caller's live AH.
            let ah_handle = unsafe { (*u.ah).handle };
            SendTarget::Ud {
                ah_handle,
                remote_qpn: u.remote_qpn,
                remote_qkey: u.remote_qkey,
            }
        }
    };
    // SAFETY: `imm_data` and `invalidate_rkey` share one 32-bit word, read as stored.
    let imm_data = unsafe { w.anon_1.imm_data.0 };
    Ok(SendWr {
        wr_id: w.wr_id,
        opcode,
        send_flags: w.send_flags,
        imm_data,
        target,
        // SAFETY: the caller's contract: the WR's SGE array.
        sg_list: unsafe { sges(w.sg_list, w.num_sge) }?,
    })
}

/// [`cmd_post_send`] on a given command channel.
///
/// # Safety
/// A live QP; `wr` heads a NULL-terminated list of live WRs (or is NULL); `bad_wr` NULL or
/// writable.
unsafe fn post_send_on(
    c: Channel<'_>,
    qp: *mut ibv_qp,
    mut wr: *mut ibv_send_wr,
    bad_wr: *mut *mut ibv_send_wr,
) -> Result<()> {
    // SAFETY: a live QP (the caller's contract).
    let q = unsafe { &*qp };
    let (qp_type, handle) = (q.qp_type.raw(), q.handle);
    // SAFETY: each `w` wr_count passes is a live WR of the caller's list.
    let next = |w: *mut ibv_send_wr| unsafe { (*w).next };
    // SAFETY: the caller's contract: a NULL-terminated list of live WRs.
    let n = unsafe { wr_count(wr, next) };
    let (mut wrs, mut ptrs) = match with_room(n) {
        Ok(v) => v,
        Err(e) => {
            // SAFETY: the caller's `bad_wr`.
            unsafe { set_bad_wr(bad_wr, &[wr], Some(0)) };
            return Err(e);
        }
    };
    while !wr.is_null() {
        ptrs.push(wr);
        // SAFETY: a live WR of the caller's list.
        match unsafe { send_wr(qp_type, wr) } {
            Ok(w) => wrs.push(w),
            Err(e) => {
                // SAFETY: the caller's `bad_wr`.
                unsafe { set_bad_wr(bad_wr, &ptrs, Some(ptrs.len() - 1)) };
                return Err(e);
            }
        }
        wr = next(wr);
    }
    let p = crate::cmd::post::post_send(c, handle, &wrs);
    // SAFETY: the caller's `bad_wr`.
    unsafe { set_bad_wr(bad_wr, &ptrs, p.bad_wr) };
    p.ret
}

/// `cmd_post_send` on a given command channel, as the export returns.
///
/// # Safety
/// As for the export.
pub unsafe fn post_send_with(
    c: Channel<'_>,
    qp: *mut ibv_qp,
    wr: *mut ibv_send_wr,
    bad_wr: *mut *mut ibv_send_wr,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { post_send_on(c, qp, wr, bad_wr) }.ret_errno()
}

/// A receive list for the object with kernel handle `handle` (a QP, or with `srq` an SRQ)
/// through the kernel; `*bad_wr` as for [`cmd_post_send`].
///
/// # Safety
/// `wr` heads a NULL-terminated list of live WRs (or is NULL); `bad_wr` NULL or writable.
pub(crate) unsafe fn post_recv_on(
    c: Channel<'_>,
    handle: u32,
    wr: *mut ibv_recv_wr,
    bad_wr: *mut *mut ibv_recv_wr,
    srq: bool,
) -> Result<()> {
    // SAFETY: the caller's contract.
    let (wrs, ptrs) = match unsafe { recv_list(wr) } {
        Ok(l) => l,
        Err((i, e)) => {
            // `*bad_wr` names the WR that could not be taken (the first one for ENOMEM).
            if !bad_wr.is_null() {
                let mut p = wr;
                for _ in 0..i {
                    // SAFETY: a live WR of the caller's list (recv_list walked past it).
                    p = unsafe { (*p).next };
                }
                // SAFETY: the caller's `bad_wr`.
                unsafe { *bad_wr = p };
            }
            return Err(e);
        }
    };
    let p = if srq {
        crate::cmd::post::post_srq_recv(c, handle, &wrs)
    } else {
        crate::cmd::post::post_recv(c, handle, &wrs)
    };
    // SAFETY: the caller's `bad_wr`.
    unsafe { set_bad_wr(bad_wr, &ptrs, p.bad_wr) };
    p.ret
}

/// `post_recv_on` as the exports return (`ibv_cmd_post_recv`, or with `srq`
/// `ibv_cmd_post_srq_recv`).
///
/// # Safety
/// As for the export.
pub unsafe fn post_recv_with(
    c: Channel<'_>,
    handle: u32,
    wr: *mut ibv_recv_wr,
    bad_wr: *mut *mut ibv_recv_wr,
    srq: bool,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { post_recv_on(c, handle, wr, bad_wr, srq) }.ret_errno()
}
