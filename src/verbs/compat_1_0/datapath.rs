//! The data-path slots of a 1.0 context's dispatch table (rdma-core: compat-1_0.c).
//!
//! A 1.0 binary's inline `ibv_poll_cq`, `ibv_req_notify_cq`, `ibv_post_send`, `ibv_post_recv`
//! and `ibv_post_srq_recv` call these with 1.0 wrappers and 1.0 work requests. Each unwraps the
//! object and calls the provider's own op (the real context's table) on the real one; the posts
//! first rebuild the chain as real work requests (on the stack up to [`INLINE`] of them) and, on
//! failure, point `*bad_wr` at the caller's request that the provider refused.
//!
//! Divergences (rdma-core crashes instead): a NULL wrapper, one without a real object, or one
//! whose real object has no context or op fails with EINVAL (-1 with errno EINVAL from poll_cq);
//! a UD send whose AH is NULL is not posted: the requests before it are, then EINVAL with
//! `*bad_wr` at it; a NULL `bad_wr` is not written. The real requests' fields that 1.0 lacks (XRC
//! SRQ number, bind/TSO) are zero, where rdma-core leaves them uninitialized.
//!
//! Installed by [`super::open_device`]. Unsafe here: the caller's wrappers and work requests.
use core::ffi::{c_int, c_uint};
use core::ptr::null_mut;

use crate::abi::compat_1_0::{
    ibv_cq_1_0, ibv_qp_1_0, ibv_recv_wr_1_0, ibv_send_wr_1_0, ibv_srq_1_0,
};
use crate::abi::ctype::Be32;
use crate::abi::verbs::{ibv_context_ops, ibv_qp_type, ibv_recv_wr, ibv_send_wr, ibv_wc};
use crate::cret::{CRet, quiet};
use crate::errno::{Errno, Result};
use crate::verbs::handle::{Handle, Object, Ptr, Wrap, Wrapper};

/// Work requests rebuilt on the stack; longer chains go to the heap.
const INLINE: usize = 16;

/// Zeroed scratch for the real work requests of one post; None when a list that long (its
/// length is the caller's) cannot be given memory (rdma-core's alloca would crash).
///
/// `T` must be a plain C struct for which all-zero bytes are a valid value.
fn with_zeroed<T: Copy, R>(n: usize, f: impl FnOnce(&mut [T]) -> R) -> Option<R> {
    if n <= INLINE {
        // SAFETY: T is a C work request: integers, raw pointers and nullable fn pointers.
        let mut a: [T; INLINE] = unsafe { core::mem::zeroed() };
        Some(f(a.get_mut(..n)?))
    } else {
        let mut v: Vec<T> = Vec::new();
        v.try_reserve_exact(n).ok()?;
        // SAFETY: `T` is a plain C struct for which all-zero bytes are a valid value (the caller's promise).
        v.extend((0..n).map(|_| unsafe { core::mem::zeroed::<T>() }));
        Some(f(&mut v))
    }
}

/// The index of `bad` in `real`, if it points at one of its elements.
fn index_in<T>(real: &[T], bad: *const T) -> Option<usize> {
    real.iter().position(|r| core::ptr::eq(r, bad))
}

/// A work request of a chain: its link.
trait Link: Copy {
    fn next(&self) -> *mut Self;
}
impl Link for ibv_send_wr_1_0 {
    fn next(&self) -> *mut Self {
        self.next
    }
}
impl Link for ibv_recv_wr_1_0 {
    fn next(&self) -> *mut Self {
        self.next
    }
}

/// The requests of a 1.0 chain from `head`: each one's address and a copy of it.
///
/// # Safety
/// `head` is NULL or the head of a NULL-terminated chain of live requests, unchanged while the
/// iterator is used.
unsafe fn chain<W: Link>(head: *mut W) -> impl Iterator<Item = (*mut W, W)> {
    let mut p = head;
    core::iter::from_fn(move || {
        // SAFETY: the caller's contract: NULL or a live request of the chain.
        let w = *unsafe { p.as_ref() }?;
        let at = p;
        p = w.next();
        Some((at, w))
    })
}

/// The real object of a 1.0 wrapper and the real context's data-path op `op` picks, or None
/// (a NULL wrapper, no real object, a real object without a context, no op).
///
/// # Safety
/// `w` is NULL or a live wrapper of this library whose real object is live for the call.
unsafe fn unwrap<W, T, F>(
    w: *mut W,
    op: impl FnOnce(&ibv_context_ops) -> Option<F>,
) -> Option<(Wrap<W>, F)>
where
    W: Wrapper<Real = Handle<T>>,
    T: Object,
{
    // SAFETY: the caller's contract.
    let w = unsafe { Wrap::from_raw(w) }.ok()?;
    // SAFETY: the real object's context: open while the object is live.
    let ops = unsafe { &(*w.real().context()).ops };
    Some((w, op(ops)?))
}

/// Store `w` at `bad` unless `bad` is NULL.
fn set_bad<W>(bad: Option<Ptr<*mut W>>, w: *mut W) {
    if let Some(b) = bad {
        b.write(w);
    }
}

/// `int (*poll_cq)(struct ibv_cq_1_0 *cq, int num_entries, struct ibv_wc *wc)`
pub(crate) unsafe extern "C" fn poll_cq(
    cq: *mut ibv_cq_1_0,
    num_entries: c_int,
    wc: *mut ibv_wc,
) -> c_int {
    // SAFETY: a 1.0 CQ of this library or NULL (the C contract).
    let Some((cq, op)) = (unsafe { unwrap(cq, |o| o.poll_cq) }) else {
        return Result::<c_int>::Err(Errno::EINVAL).ret_minus_one();
    };
    // SAFETY: the provider's op on its live CQ, with the caller's array.
    unsafe { op(cq.real().raw(), num_entries, wc) }
}

/// `int (*req_notify_cq)(struct ibv_cq_1_0 *cq, int solicited_only)`
pub(crate) unsafe extern "C" fn req_notify_cq(cq: *mut ibv_cq_1_0, solicited_only: c_int) -> c_int {
    // SAFETY: as poll_cq.
    let Some((cq, op)) = (unsafe { unwrap(cq, |o| o.req_notify_cq) }) else {
        return quiet(Errno::EINVAL);
    };
    // SAFETY: the provider's op on its live CQ.
    unsafe { op(cq.real().raw(), solicited_only) }
}

/// The real send request for a 1.0 one (`next` left NULL); a UD request's AH is the real one.
fn send_wr(o: &ibv_send_wr_1_0, is_ud: bool) -> ibv_send_wr {
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut r: ibv_send_wr = unsafe { core::mem::zeroed() };
    r.wr_id = o.wr_id;
    r.sg_list = o.sg_list;
    r.num_sge = o.num_sge;
    r.opcode = o.opcode.into();
    r.send_flags = o.send_flags as c_uint;
    r.anon_1.imm_data = Be32(o.imm_data);
    // The atomic view spans the whole 1.0 union (rdma and ud overlap it).
    // SAFETY: a union of plain integers and pointers: every bit pattern is valid.
    let at = unsafe { o.wr.atomic };
    r.wr.atomic.remote_addr = at.remote_addr;
    r.wr.atomic.compare_add = at.compare_add;
    r.wr.atomic.swap = at.swap;
    r.wr.atomic.rkey = at.rkey;
    if is_ud {
        // SAFETY: a union of plain integers and pointers: every bit pattern is a valid `ud` view.
        let ah = unsafe { o.wr.ud }.ah;
        // SAFETY: a UD request that reached here has a 1.0 AH of this library (the C contract;
        // the chain is cut at a NULL one).
        r.wr.ud.ah = unsafe { (*ah).real_ah };
    }
    r
}

/// Link `real` into a chain, head first; its head (NULL when empty).
fn link<T>(real: &mut [T], next: impl Fn(&mut T) -> &mut *mut T) -> *mut T {
    let base = real.as_mut_ptr();
    let n = real.len();
    for (i, r) in real.iter_mut().enumerate() {
        *next(r) = if i + 1 < n {
            base.wrapping_add(i + 1)
        } else {
            null_mut()
        };
    }
    if n == 0 { null_mut() } else { base }
}

/// `int (*post_send)(struct ibv_qp_1_0 *qp, struct ibv_send_wr_1_0 *wr, struct ibv_send_wr_1_0 **bad_wr)`
pub(crate) unsafe extern "C" fn post_send(
    qp: *mut ibv_qp_1_0,
    wr: *mut ibv_send_wr_1_0,
    bad_wr: *mut *mut ibv_send_wr_1_0,
) -> c_int {
    // SAFETY: the caller's out-parameter, or NULL.
    let bad = unsafe { Ptr::from_raw(bad_wr) }.ok();
    // SAFETY: a 1.0 QP of this library or NULL (the C contract).
    let Some((qp, op)) = (unsafe { unwrap(qp, |o| o.post_send) }) else {
        set_bad(bad, wr);
        return quiet(Errno::EINVAL);
    };
    let is_ud = qp.get().qp_type == ibv_qp_type::IBV_QPT_UD as u32;
    // The requests that can be posted: up to the first UD request without an AH.
    let (mut n, mut stop) = (0usize, null_mut());
    // SAFETY: the caller's chain (the C contract).
    for (at, w) in unsafe { chain(wr) } {
        // SAFETY: a union of plain integers and pointers: every bit pattern is valid.
        if is_ud && unsafe { w.wr.ud }.ah.is_null() {
            stop = at;
            break;
        }
        n += 1;
    }
    if n == 0 && !stop.is_null() {
        set_bad(bad, stop);
        return quiet(Errno::EINVAL);
    }
    with_zeroed::<ibv_send_wr, _>(n, |real| {
        // SAFETY: the caller's chain of 1.0 send requests, live and unchanged for the call.
        for (r, (_, o)) in real.iter_mut().zip(unsafe { chain(wr) }) {
            *r = send_wr(&o, is_ud);
        }
        let head = link(real, |r| &mut r.next);
        let mut real_bad: *mut ibv_send_wr = null_mut();
        // SAFETY: the provider's op on its live QP, with a chain of ours.
        let ret = unsafe { op(qp.real().raw(), head, &mut real_bad) };
        if ret != 0 {
            if let Some(i) = index_in(real, real_bad) {
                // SAFETY: the caller's chain again, unchanged since it was walked above.
                set_bad(
                    bad,
                    unsafe { chain(wr) }.nth(i).map_or(null_mut(), |(at, _)| at),
                );
            }
            ret
        } else if !stop.is_null() {
            set_bad(bad, stop);
            quiet(Errno::EINVAL)
        } else {
            0
        }
    })
    .unwrap_or_else(|| {
        set_bad(bad, wr);
        quiet(Errno::ENOMEM)
    })
}

/// A provider's receive op (QP or SRQ flavour).
type RecvOp<O> = unsafe extern "C" fn(*mut O, *mut ibv_recv_wr, *mut *mut ibv_recv_wr) -> c_int;

/// Post a 1.0 receive chain through a provider op on `obj`; without one (None: a NULL or
/// unusable wrapper) EINVAL, `*bad_wr` the first request.
///
/// # Safety
/// `real` is the live real QP/SRQ whose op is `op`; the chain and `bad_wr` are the caller's.
unsafe fn post_recv_chain<O>(
    real: Option<(*mut O, RecvOp<O>)>,
    wr: *mut ibv_recv_wr_1_0,
    bad_wr: *mut *mut ibv_recv_wr_1_0,
) -> c_int {
    // SAFETY: the caller's out-parameter, or NULL.
    let bad = unsafe { Ptr::from_raw(bad_wr) }.ok();
    let Some((obj, op)) = real else {
        set_bad(bad, wr);
        return quiet(Errno::EINVAL);
    };
    // SAFETY: the caller's chain.
    let n = unsafe { chain(wr) }.count();
    with_zeroed::<ibv_recv_wr, _>(n, |real| {
        // SAFETY: the caller's chain of 1.0 receive requests, live and unchanged for the call.
        for (r, (_, o)) in real.iter_mut().zip(unsafe { chain(wr) }) {
            r.wr_id = o.wr_id;
            r.sg_list = o.sg_list;
            r.num_sge = o.num_sge;
        }
        let head = link(real, |r| &mut r.next);
        let mut real_bad: *mut ibv_recv_wr = null_mut();
        // SAFETY: the provider's op on its live object, with a chain of ours.
        let ret = unsafe { op(obj, head, &mut real_bad) };
        if ret != 0 && bad.is_some() {
            if let Some(i) = index_in(real, real_bad) {
                // SAFETY: the caller's chain again, unchanged since it was walked above.
                set_bad(
                    bad,
                    unsafe { chain(wr) }.nth(i).map_or(null_mut(), |(at, _)| at),
                );
            }
        }
        ret
    })
    .unwrap_or_else(|| {
        set_bad(bad, wr);
        quiet(Errno::ENOMEM)
    })
}

/// `int (*post_recv)(struct ibv_qp_1_0 *qp, struct ibv_recv_wr_1_0 *wr, struct ibv_recv_wr_1_0 **bad_wr)`
pub(crate) unsafe extern "C" fn post_recv(
    qp: *mut ibv_qp_1_0,
    wr: *mut ibv_recv_wr_1_0,
    bad_wr: *mut *mut ibv_recv_wr_1_0,
) -> c_int {
    // SAFETY: a 1.0 QP of this library or NULL (the C contract).
    let real = unsafe { unwrap(qp, |o| o.post_recv) }.map(|(q, op)| (q.real().raw(), op));
    // SAFETY: its live real QP and op; the caller's chain.
    unsafe { post_recv_chain(real, wr, bad_wr) }
}

/// `int (*post_srq_recv)(struct ibv_srq_1_0 *srq, struct ibv_recv_wr_1_0 *wr, struct ibv_recv_wr_1_0 **bad_wr)`
pub(crate) unsafe extern "C" fn post_srq_recv(
    srq: *mut ibv_srq_1_0,
    wr: *mut ibv_recv_wr_1_0,
    bad_wr: *mut *mut ibv_recv_wr_1_0,
) -> c_int {
    // SAFETY: a 1.0 SRQ of this library or NULL (the C contract).
    let real = unsafe { unwrap(srq, |o| o.post_srq_recv) }.map(|(s, op)| (s.real().raw(), op));
    // SAFETY: its live real SRQ and op; the caller's chain.
    unsafe { post_recv_chain(real, wr, bad_wr) }
}
