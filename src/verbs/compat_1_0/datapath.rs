//! The data-path slots of a 1.0 context's dispatch table (rdma-core: compat-1_0.c).
//!
//! A 1.0 binary's inline `ibv_poll_cq`, `ibv_req_notify_cq`, `ibv_post_send`, `ibv_post_recv`
//! and `ibv_post_srq_recv` call these with 1.0 wrappers and 1.0 work requests. Each unwraps the
//! object and calls the provider's own op on the real one; the posts first rebuild the chain as
//! real work requests (on the stack up to [`INLINE`] of them) and, on failure, point `*bad_wr` at
//! the caller's request that the provider refused.
//!
//! Divergences (rdma-core crashes instead): a NULL or unwrapped object fails with EINVAL (-1 with
//! errno EINVAL from poll_cq); a UD send whose AH is NULL is not posted: the requests before it are,
//! then EINVAL with `*bad_wr` at it; a NULL `bad_wr` is not written. The real requests' fields that
//! 1.0 lacks (XRC SRQ number, bind/TSO) are zero, where rdma-core leaves them uninitialized.
use core::ffi::{c_int, c_uint};
use core::ptr::null_mut;

use super::types::{ibv_cq_1_0, ibv_qp_1_0, ibv_recv_wr_1_0, ibv_send_wr_1_0, ibv_srq_1_0};
use crate::abi::ctype::Be32;
use crate::abi::verbs::{ibv_qp_type, ibv_recv_wr, ibv_send_wr, ibv_wc};
use crate::cret::quiet;
use crate::errno::Errno;

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
        // SAFETY: as above.
        v.extend((0..n).map(|_| unsafe { core::mem::zeroed::<T>() }));
        Some(f(&mut v))
    }
}

/// The index of `bad` in `real`, if it points at one of its elements.
fn index_in<T>(real: &[T], bad: *const T) -> Option<usize> {
    real.iter().position(|r| core::ptr::eq(r, bad))
}

/// The `i`th request of a 1.0 chain (`i` is below the chain's length).
///
/// # Safety
/// `head` starts a chain of at least `i + 1` requests; `next` reads a request's link.
unsafe fn nth<W>(head: *mut W, i: usize, next: impl Fn(*mut W) -> *mut W) -> *mut W {
    let mut w = head;
    for _ in 0..i {
        w = next(w);
    }
    w
}

/// `int (*poll_cq)(struct ibv_cq_1_0 *cq, int num_entries, struct ibv_wc *wc)`
pub(super) unsafe extern "C" fn poll_cq(
    cq: *mut ibv_cq_1_0,
    num_entries: c_int,
    wc: *mut ibv_wc,
) -> c_int {
    // SAFETY: a 1.0 CQ of this library (or NULL, rejected); its real CQ is live.
    unsafe {
        let real = if cq.is_null() {
            null_mut()
        } else {
            (*cq).real_cq
        };
        match real.as_ref().and_then(|r| (*r.context).ops.poll_cq) {
            Some(op) => op(real, num_entries, wc),
            None => {
                crate::sys::set_errno(libc::EINVAL);
                -1
            }
        }
    }
}

/// `int (*req_notify_cq)(struct ibv_cq_1_0 *cq, int solicited_only)`
pub(super) unsafe extern "C" fn req_notify_cq(cq: *mut ibv_cq_1_0, solicited_only: c_int) -> c_int {
    // SAFETY: as poll_cq.
    unsafe {
        let real = if cq.is_null() {
            null_mut()
        } else {
            (*cq).real_cq
        };
        match real.as_ref().and_then(|r| (*r.context).ops.req_notify_cq) {
            Some(op) => op(real, solicited_only),
            None => quiet(Errno::EINVAL),
        }
    }
}

/// `int (*post_send)(struct ibv_qp_1_0 *qp, struct ibv_send_wr_1_0 *wr, struct ibv_send_wr_1_0 **bad_wr)`
pub(super) unsafe extern "C" fn post_send(
    qp: *mut ibv_qp_1_0,
    wr: *mut ibv_send_wr_1_0,
    bad_wr: *mut *mut ibv_send_wr_1_0,
) -> c_int {
    let set_bad = |w: *mut ibv_send_wr_1_0| {
        if !bad_wr.is_null() {
            // SAFETY: the caller's out-parameter.
            unsafe { *bad_wr = w };
        }
    };
    // SAFETY: a 1.0 QP of this library (or NULL, rejected); the chain is the caller's.
    unsafe {
        let real_qp = if qp.is_null() {
            null_mut()
        } else {
            (*qp).real_qp
        };
        let Some(op) = real_qp.as_ref().and_then(|r| (*r.context).ops.post_send) else {
            set_bad(wr);
            return quiet(Errno::EINVAL);
        };
        let is_ud = (*qp).qp_type == ibv_qp_type::IBV_QPT_UD as u32;
        // The requests that can be posted: up to the first UD request without an AH.
        let (mut n, mut stop, mut w) = (0usize, null_mut(), wr);
        while !w.is_null() {
            if is_ud && (*w).wr.ud.ah.is_null() {
                stop = w;
                break;
            }
            n += 1;
            w = (*w).next;
        }
        if n == 0 && !stop.is_null() {
            set_bad(stop);
            return quiet(Errno::EINVAL);
        }
        with_zeroed::<ibv_send_wr, _>(n, |real| {
            let base = real.as_mut_ptr();
            let mut w = wr;
            for i in 0..n {
                let (r, o) = (&mut *base.add(i), &*w);
                r.wr_id = o.wr_id;
                r.next = if i + 1 < n {
                    base.add(i + 1)
                } else {
                    null_mut()
                };
                r.sg_list = o.sg_list;
                r.num_sge = o.num_sge;
                r.opcode = o.opcode.into();
                r.send_flags = o.send_flags as c_uint;
                r.anon_1.imm_data = Be32(o.imm_data);
                // The atomic view spans the whole 1.0 union (rdma and ud overlap it).
                r.wr.atomic.remote_addr = o.wr.atomic.remote_addr;
                r.wr.atomic.compare_add = o.wr.atomic.compare_add;
                r.wr.atomic.swap = o.wr.atomic.swap;
                r.wr.atomic.rkey = o.wr.atomic.rkey;
                if is_ud {
                    r.wr.ud.ah = (*o.wr.ud.ah).real_ah;
                }
                w = o.next;
            }
            let head = if n == 0 { null_mut() } else { base };
            let mut real_bad: *mut ibv_send_wr = null_mut();
            let ret = op(real_qp, head, &mut real_bad);
            if ret != 0 {
                if let Some(i) = index_in(real, real_bad) {
                    set_bad(nth(wr, i, |w| (*w).next));
                }
                ret
            } else if !stop.is_null() {
                set_bad(stop);
                quiet(Errno::EINVAL)
            } else {
                0
            }
        })
        .unwrap_or_else(|| {
            set_bad(wr);
            quiet(Errno::ENOMEM)
        })
    }
}

/// Post a 1.0 receive chain through a provider op (QP or SRQ flavour); without an op (a NULL
/// object) EINVAL, `*bad_wr` the first request.
///
/// # Safety
/// `obj` is a live real QP/SRQ whose op is `op`; the chain and `bad_wr` are the caller's.
unsafe fn post_recv_chain<O>(
    obj: *mut O,
    op: Option<unsafe extern "C" fn(*mut O, *mut ibv_recv_wr, *mut *mut ibv_recv_wr) -> c_int>,
    wr: *mut ibv_recv_wr_1_0,
    bad_wr: *mut *mut ibv_recv_wr_1_0,
) -> c_int {
    let Some(op) = op else {
        if !bad_wr.is_null() {
            // SAFETY: the caller's out-parameter.
            unsafe { *bad_wr = wr };
        }
        return quiet(Errno::EINVAL);
    };
    // SAFETY: the caller's chain, read once to count and once to copy.
    unsafe {
        let (mut n, mut w) = (0usize, wr);
        while !w.is_null() {
            n += 1;
            w = (*w).next;
        }
        with_zeroed::<ibv_recv_wr, _>(n, |real| {
            let base = real.as_mut_ptr();
            let mut w = wr;
            for i in 0..n {
                let (r, o) = (&mut *base.add(i), &*w);
                r.wr_id = o.wr_id;
                r.next = if i + 1 < n {
                    base.add(i + 1)
                } else {
                    null_mut()
                };
                r.sg_list = o.sg_list;
                r.num_sge = o.num_sge;
                w = o.next;
            }
            let head = if n == 0 { null_mut() } else { base };
            let mut real_bad: *mut ibv_recv_wr = null_mut();
            let ret = op(obj, head, &mut real_bad);
            if ret != 0 && !bad_wr.is_null() {
                if let Some(i) = index_in(real, real_bad) {
                    *bad_wr = nth(wr, i, |w| (*w).next);
                }
            }
            ret
        })
        .unwrap_or_else(|| {
            if !bad_wr.is_null() {
                *bad_wr = wr;
            }
            quiet(Errno::ENOMEM)
        })
    }
}

/// `int (*post_recv)(struct ibv_qp_1_0 *qp, struct ibv_recv_wr_1_0 *wr, struct ibv_recv_wr_1_0 **bad_wr)`
pub(super) unsafe extern "C" fn post_recv(
    qp: *mut ibv_qp_1_0,
    wr: *mut ibv_recv_wr_1_0,
    bad_wr: *mut *mut ibv_recv_wr_1_0,
) -> c_int {
    // SAFETY: a 1.0 QP of this library (or NULL, rejected).
    unsafe {
        let real = if qp.is_null() {
            null_mut()
        } else {
            (*qp).real_qp
        };
        let op = real.as_ref().and_then(|r| (*r.context).ops.post_recv);
        post_recv_chain(real, op, wr, bad_wr)
    }
}

/// `int (*post_srq_recv)(struct ibv_srq_1_0 *srq, struct ibv_recv_wr_1_0 *wr, struct ibv_recv_wr_1_0 **bad_wr)`
pub(super) unsafe extern "C" fn post_srq_recv(
    srq: *mut ibv_srq_1_0,
    wr: *mut ibv_recv_wr_1_0,
    bad_wr: *mut *mut ibv_recv_wr_1_0,
) -> c_int {
    // SAFETY: a 1.0 SRQ of this library (or NULL, rejected).
    unsafe {
        let real = if srq.is_null() {
            null_mut()
        } else {
            (*srq).real_srq
        };
        let op = real.as_ref().and_then(|r| (*r.context).ops.post_srq_recv);
        post_recv_chain(real, op, wr, bad_wr)
    }
}
