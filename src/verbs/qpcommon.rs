//! What the QP, SRQ, WQ and flow glue shares (rdma-core: the work request walks of cmd.c's post
//! commands; the early-return conventions of cmd.c; the event lock and the waits that end the
//! destroys of cmd_qp.c, cmd_srq.c and cmd_wq.c, re-exported from `verbs::events`).
//!
//! Return conventions: rdma-core's provider commands return the positive errno, and most of
//! them leave `errno` equal to it (the failing system call set it, or the code did). A few early
//! checks return the value without touching `errno` (ibv_cmd_modify_qp's mask check, for
//! example); [`quiet`] marks those.
//!
//! Called by the QP, SRQ, WQ, CQ and flow exports of `capi`.
use core::ffi::c_int;

use crate::abi::verbs::{ibv_recv_wr, ibv_sge};
use crate::cmd::post::RecvWr;
use crate::errno::{Errno, Result};

pub(crate) use crate::cret::quiet;

pub(crate) use crate::verbs::disassoc::allow_disassociate;

/// The event lock and the destroy's wait, in `verbs::events` with the acks they pair with.
pub(crate) use crate::verbs::events::{destroy_and_wait, init_lock};

/// The SGEs of one work request. Divergence: a negative count, or a NULL list with a positive
/// count, is EINVAL (rdma-core would size its request from it and crash).
///
/// # Safety
/// `sg_list` holds `num_sge` entries when the count is positive.
pub(crate) unsafe fn sges<'a>(sg_list: *const ibv_sge, num_sge: c_int) -> Result<&'a [ibv_sge]> {
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
pub(crate) unsafe fn wr_count<T>(mut wr: *mut T, next: impl Fn(*mut T) -> *mut T) -> usize {
    let mut n = 0usize;
    while !wr.is_null() {
        n += 1;
        wr = next(wr);
    }
    n
}

/// Two empty vectors with room for `n` elements each: ENOMEM when that much cannot be had.
pub(crate) fn with_room<A, B>(n: usize) -> Result<(Vec<A>, Vec<B>)> {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    a.try_reserve_exact(n).map_err(|_| Errno::ENOMEM)?;
    b.try_reserve_exact(n).map_err(|_| Errno::ENOMEM)?;
    Ok((a, b))
}

/// A receive work request list as the command layer takes it, and each WR's address (for
/// `bad_wr`).
pub(crate) type RecvList<'a> = (Vec<RecvWr<'a>>, Vec<*mut ibv_recv_wr>);

/// A receive work request list, in order: the WRs for the command layer and their addresses
/// (for `bad_wr`). Err carries the index of the WR that could not be taken and why.
///
/// # Safety
/// `wr` heads a NULL-terminated list of live work requests (or is NULL).
pub(crate) unsafe fn recv_list<'a>(
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
        // SAFETY: as above, for the WR's SGE array.
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
pub(crate) unsafe fn set_bad_wr<T>(bad_wr: *mut *mut T, ptrs: &[*mut T], idx: Option<usize>) {
    let Some(i) = idx else { return };
    if bad_wr.is_null() {
        return;
    }
    let p = ptrs
        .get(i)
        .or(ptrs.last())
        .copied()
        .unwrap_or(core::ptr::null_mut());
    // SAFETY: the caller's contract.
    unsafe { *bad_wr = p };
}
