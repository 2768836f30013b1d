//! The IBVERBS_1.0 object verbs: PD, MR, CQ (and its events), SRQ, QP, AH, multicast
//! (rdma-core: compat-1_0.c).
//!
//! Constructors allocate the 1.0 wrapper, create the real object as the IBVERBS_1.1 export does
//! (its core function in `verbs::objects`, or for PD, MR, CQ and QP still the export), fill the
//! wrapper (and point the real CQ/QP/SRQ's context pointer back at it); a failure frees the
//! wrapper and keeps the errno. Destructors free the wrapper only once the real
//! object is destroyed. Everything else unwraps and forwards. See the module above for the
//! divergences (NULL handling, fields rdma-core leaves unset).
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::{c_int, c_uint, c_void};
use core::ptr::null_mut;

use super::types::{
    ibv_ah_1_0, ibv_context_1_0, ibv_cq_1_0, ibv_mr_1_0, ibv_pd_1_0, ibv_qp_1_0,
    ibv_qp_init_attr_1_0, ibv_srq_1_0,
};
use super::{alloc_zeroed, free, real};
use crate::abi::verbs::{
    ibv_ah_attr, ibv_comp_channel, ibv_cq, ibv_gid, ibv_qp_attr, ibv_qp_init_attr, ibv_srq_attr,
    ibv_srq_init_attr,
};
use crate::cret::{CRet, ret_status};
use crate::errno::{Errno, Result};
use crate::verbs::handle::{Cq, Ctx, Pd, Ptr, Qp, Srq};
use crate::verbs::{cq, events, mr, srq};

/// Allocate a wrapper, create the real object with `make`, and let `fill` complete the wrapper.
/// The wrapper is freed (and `make`'s errno kept) when `make` returns NULL.
///
/// # Safety
/// `fill` receives a zeroed wrapper and the live real object.
unsafe fn wrap<W, R>(make: impl FnOnce() -> *mut R, fill: impl FnOnce(&mut W, *mut R)) -> *mut W {
    let build = || -> Result<*mut W> {
        let w = alloc_zeroed::<W>()?;
        let r = make();
        if r.is_null() {
            // SAFETY: ours, not handed out.
            unsafe { free(w) };
            return Err(Errno(crate::sys::errno()));
        }
        // SAFETY: w is a fresh zeroed wrapper.
        fill(unsafe { &mut *w }, r);
        Ok(w)
    };
    build().ret_null()
}

/// Destroy the real object with `destroy`; on success (0) free the wrapper. Returns `destroy`'s
/// result.
///
/// # Safety
/// `w` is NULL or a wrapper of this library that is not used again once this returns 0.
unsafe fn unwrap_destroy<W: super::Wrapper>(
    w: *mut W,
    destroy: impl FnOnce(*mut W::Real) -> c_int,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        let ret = destroy(real(w));
        if ret == 0 {
            free(w);
        }
        ret
    }
}

/// `struct ibv_pd_1_0 *ibv_alloc_pd(struct ibv_context_1_0 *context)`
///
/// `ibv_alloc_pd` on the real context, wrapped. NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_alloc_pd)]
fn ibv_alloc_pd_1_0(context: *mut ibv_context_1_0) -> Raw<*mut ibv_pd_1_0> {
    // SAFETY: a 1.0 context or NULL (rejected by the 1.1 export).
    unsafe {
        wrap(
            || {
                crate::verbs::handle::Ctx::from_raw(real(context))
                    .and_then(crate::verbs::pd::alloc)
                    .ret_null()
            },
            |w: &mut ibv_pd_1_0, r| {
                w.context = context;
                w.handle = (*r).handle;
                w.real_pd = r;
            },
        )
    }
}

/// `int ibv_dealloc_pd(struct ibv_pd_1_0 *pd)`
///
/// `ibv_dealloc_pd` on the real PD, then frees the wrapper: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_dealloc_pd)]
fn ibv_dealloc_pd_1_0(pd: *mut ibv_pd_1_0) -> Raw<c_int> {
    // SAFETY: a 1.0 PD or NULL.
    unsafe {
        unwrap_destroy(pd, |r| {
            ret_status(crate::verbs::handle::Pd::from_raw(r).map(crate::verbs::pd::dealloc))
        })
    }
}

/// `struct ibv_mr_1_0 *ibv_reg_mr(struct ibv_pd_1_0 *pd, void *addr, size_t length, int access)`
///
/// `ibv_reg_mr` on the real PD, wrapped with its keys. NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_reg_mr)]
fn ibv_reg_mr_1_0(
    pd: *mut ibv_pd_1_0,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> Raw<*mut ibv_mr_1_0> {
    // SAFETY: a 1.0 PD or NULL (rejected by the 1.1 export); on success pd is not NULL.
    unsafe {
        wrap(
            || {
                crate::verbs::handle::Pd::from_raw(real(pd))
                    .and_then(|p| mr::reg(p, addr, length, addr as usize as u64, access as c_uint))
                    .ret_null()
            },
            |w: &mut ibv_mr_1_0, r| {
                w.context = (*pd).context;
                w.pd = pd;
                w.handle = (*r).handle;
                w.lkey = (*r).lkey;
                w.rkey = (*r).rkey;
                w.real_mr = r;
            },
        )
    }
}

/// `int ibv_dereg_mr(struct ibv_mr_1_0 *mr)`
///
/// `ibv_dereg_mr` on the real MR, then frees the wrapper: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_dereg_mr)]
fn ibv_dereg_mr_1_0(mr: *mut ibv_mr_1_0) -> Raw<c_int> {
    // SAFETY: a 1.0 MR or NULL.
    unsafe {
        unwrap_destroy(mr, |r| {
            ret_status(crate::verbs::handle::Mr::from_raw(r).map(mr::dereg))
        })
    }
}

/// `struct ibv_cq_1_0 *ibv_create_cq(struct ibv_context_1_0 *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)`
///
/// `ibv_create_cq` on the real context, wrapped; the wrapper keeps `cq_context` and the `cqe`
/// asked for (as rdma-core), the real CQ's `cq_context` becomes the wrapper. NULL with errno.
#[export("IBVERBS_1.0" as ibv_create_cq)]
fn ibv_create_cq_1_0(
    context: *mut ibv_context_1_0,
    cqe: c_int,
    cq_context: *mut c_void,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
) -> Raw<*mut ibv_cq_1_0> {
    // SAFETY: a 1.0 context or NULL (rejected by the 1.1 export).
    unsafe {
        wrap(
            || {
                Ctx::from_raw(real(context))
                    .and_then(|c| cq::create(c, cqe, cq_context, channel, comp_vector))
                    .ret_null()
            },
            |w: &mut ibv_cq_1_0, r: *mut ibv_cq| {
                w.context = context;
                w.cq_context = cq_context;
                w.handle = (*r).handle;
                w.cqe = cqe;
                w.real_cq = r;
                (*r).cq_context = (w as *mut ibv_cq_1_0).cast();
            },
        )
    }
}

/// `int ibv_resize_cq(struct ibv_cq_1_0 *cq, int cqe)`
///
/// `ibv_resize_cq` on the real CQ: 0, or the positive errno. The wrapper's `cqe` is left alone
/// (as rdma-core).
#[export("IBVERBS_1.0" as ibv_resize_cq)]
fn ibv_resize_cq_1_0(cq: *mut ibv_cq_1_0, cqe: c_int) -> Raw<c_int> {
    // SAFETY: a 1.0 CQ or NULL.
    ret_status(unsafe { Cq::from_raw(real(cq)) }.and_then(|c| cq::resize(c, cqe)))
}

/// `int ibv_destroy_cq(struct ibv_cq_1_0 *cq)`
///
/// `ibv_destroy_cq` on the real CQ, then frees the wrapper: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_destroy_cq)]
fn ibv_destroy_cq_1_0(cq: *mut ibv_cq_1_0) -> Raw<c_int> {
    // SAFETY: a 1.0 CQ or NULL.
    unsafe { unwrap_destroy(cq, |r| ret_status(Cq::from_raw(r).and_then(cq::destroy))) }
}

/// `int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq_1_0 **cq, void **cq_context)`
///
/// `ibv_get_cq_event`; the CQ handed back is the real CQ's wrapper and `*cq_context` the
/// wrapper's. 0, or -1 with errno. Divergence: NULL `cq` or `cq_context` gives -1 with errno
/// EINVAL before anything is read (rdma-core crashes after consuming the event).
#[export("IBVERBS_1.0" as ibv_get_cq_event)]
fn ibv_get_cq_event_1_0(
    channel: *mut ibv_comp_channel,
    cq: *mut *mut ibv_cq_1_0,
    cq_context: *mut *mut c_void,
) -> Raw<c_int> {
    if cq.is_null() || cq_context.is_null() {
        return Err(Errno::EINVAL).ret_minus_one();
    }
    let (mut real_cq, mut ptr): (*mut ibv_cq, *mut c_void) = (null_mut(), null_mut());
    // SAFETY: our out-parameters; on success ptr is the real CQ's cq_context, its wrapper.
    unsafe {
        let ret = Ptr::from_raw(channel)
            .and_then(|ch| events::get_cq_event(ch, (&mut real_cq).into(), (&mut ptr).into()))
            .ret_minus_one();
        if ret != 0 {
            return ret;
        }
        let w = ptr.cast::<ibv_cq_1_0>();
        *cq = w;
        *cq_context = w.as_ref().map_or(null_mut(), |w| w.cq_context);
    }
    0
}

/// `void ibv_ack_cq_events(struct ibv_cq_1_0 *cq, unsigned int nevents)`
///
/// `ibv_ack_cq_events` on the real CQ.
#[export("IBVERBS_1.0" as ibv_ack_cq_events)]
fn ibv_ack_cq_events_1_0(cq: *mut ibv_cq_1_0, nevents: c_uint) -> Raw<()> {
    // SAFETY: a 1.0 CQ or NULL (ignored, as by the 1.1 export).
    if let Ok(c) = unsafe { Ptr::from_raw(real(cq)) } {
        events::ack_cq_events(c, nevents)
    }
}

/// `struct ibv_srq_1_0 *ibv_create_srq(struct ibv_pd_1_0 *pd, struct ibv_srq_init_attr *srq_init_attr)`
///
/// `ibv_create_srq` on the real PD, wrapped; the real SRQ's `srq_context` becomes the wrapper.
/// NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_create_srq)]
fn ibv_create_srq_1_0(
    pd: *mut ibv_pd_1_0,
    srq_init_attr: *mut ibv_srq_init_attr,
) -> Raw<*mut ibv_srq_1_0> {
    // SAFETY: a 1.0 PD or NULL, and the caller's attributes (checked by the 1.1 export); on
    // success neither is NULL.
    unsafe {
        wrap(
            || {
                Pd::from_raw(real(pd))
                    .and_then(|p| srq::create(p, Ptr::from_raw(srq_init_attr)?))
                    .ret_null()
            },
            |w: &mut ibv_srq_1_0, r| {
                w.context = (*pd).context;
                w.srq_context = (*srq_init_attr).srq_context;
                w.pd = pd;
                w.handle = (*r).handle;
                w.real_srq = r;
                (*r).srq_context = (w as *mut ibv_srq_1_0).cast();
            },
        )
    }
}

/// `int ibv_modify_srq(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask)`
///
/// `ibv_modify_srq` on the real SRQ: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_modify_srq)]
fn ibv_modify_srq_1_0(
    srq: *mut ibv_srq_1_0,
    srq_attr: *mut ibv_srq_attr,
    srq_attr_mask: c_int,
) -> Raw<c_int> {
    // SAFETY: a 1.0 SRQ or NULL, and the caller's attributes or NULL.
    let (s, a) = unsafe { (Srq::from_raw(real(srq)), Ptr::from_raw(srq_attr)) };
    ret_status(s.and_then(|s| srq::modify(s, a?, srq_attr_mask)))
}

/// `int ibv_query_srq(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr)`
///
/// `ibv_query_srq` on the real SRQ: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_query_srq)]
fn ibv_query_srq_1_0(srq: *mut ibv_srq_1_0, srq_attr: *mut ibv_srq_attr) -> Raw<c_int> {
    // SAFETY: a 1.0 SRQ or NULL, and the caller's buffer or NULL.
    let (s, a) = unsafe { (Srq::from_raw(real(srq)), Ptr::from_raw(srq_attr)) };
    ret_status(s.and_then(|s| srq::query(s, a?)))
}

/// `int ibv_destroy_srq(struct ibv_srq_1_0 *srq)`
///
/// `ibv_destroy_srq` on the real SRQ, then frees the wrapper: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_destroy_srq)]
fn ibv_destroy_srq_1_0(srq: *mut ibv_srq_1_0) -> Raw<c_int> {
    // SAFETY: a 1.0 SRQ or NULL.
    unsafe { unwrap_destroy(srq, |r| ret_status(Srq::from_raw(r).and_then(srq::destroy))) }
}

/// `struct ibv_qp_1_0 *ibv_create_qp(struct ibv_pd_1_0 *pd, struct ibv_qp_init_attr_1_0 *qp_init_attr)`
///
/// `ibv_create_qp` on the real PD with the CQs and SRQ unwrapped; the granted capabilities are
/// written back to `qp_init_attr->cap` and the real QP's `qp_context` becomes the wrapper. NULL
/// with errno on failure. Divergence: NULL `qp_init_attr` gives NULL with errno EINVAL; a NULL
/// CQ is passed on as NULL (the 1.1 export decides; rdma-core crashes).
#[export("IBVERBS_1.0" as ibv_create_qp)]
fn ibv_create_qp_1_0(
    pd: *mut ibv_pd_1_0,
    qp_init_attr: *mut ibv_qp_init_attr_1_0,
) -> Raw<*mut ibv_qp_1_0> {
    if qp_init_attr.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: the caller's attributes and 1.0 objects (or NULL, handled by the 1.1 export); on
    // success pd is not NULL.
    unsafe {
        let a = *qp_init_attr;
        let mut ra = ibv_qp_init_attr {
            qp_context: a.qp_context,
            send_cq: real(a.send_cq),
            recv_cq: real(a.recv_cq),
            srq: real(a.srq),
            cap: a.cap,
            qp_type: a.qp_type.into(),
            sq_sig_all: a.sq_sig_all,
        };
        let ra_ptr = &raw mut ra;
        wrap(
            || {
                crate::verbs::handle::Pd::from_raw(real(pd))
                    .and_then(|pd| Ok(crate::verbs::qp::create(pd, Ptr::from_raw(ra_ptr)?)))
                    .ret_null()
            },
            |w: &mut ibv_qp_1_0, r| {
                w.context = (*pd).context;
                w.qp_context = a.qp_context;
                w.pd = pd;
                w.send_cq = a.send_cq;
                w.recv_cq = a.recv_cq;
                w.srq = a.srq;
                w.handle = (*r).handle;
                w.qp_num = (*r).qp_num;
                w.state = (*r).state.raw();
                w.qp_type = a.qp_type;
                w.real_qp = r;
                (*qp_init_attr).cap = (*ra_ptr).cap;
                (*r).qp_context = (w as *mut ibv_qp_1_0).cast();
            },
        )
    }
}

/// `int ibv_query_qp(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr_1_0 *init_attr)`
///
/// `ibv_query_qp` on the real QP; `init_attr` gets the 1.0 wrappers of its CQs and SRQ.
/// 0, or the positive errno. Divergence: a QP without an SRQ reports `srq` NULL (rdma-core
/// crashes on it); NULL `init_attr` gives EINVAL; the wrapper's `state` follows the real QP's.
#[export("IBVERBS_1.0" as ibv_query_qp)]
fn ibv_query_qp_1_0(
    qp: *mut ibv_qp_1_0,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    init_attr: *mut ibv_qp_init_attr_1_0,
) -> Raw<c_int> {
    if init_attr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: a 1.0 QP or NULL (rejected by the 1.1 export); the real objects named in the
    // answer are live, their context pointers are their wrappers.
    unsafe {
        let mut ra: ibv_qp_init_attr = core::mem::zeroed();
        let ret = ret_status(Qp::from_raw(real(qp)).and_then(|q| {
            let (a, ia) = (Ptr::from_raw(attr)?, Ptr::from_raw(&raw mut ra)?);
            Ok(crate::verbs::qp::query(q, a, attr_mask, ia))
        }));
        if ret != 0 {
            return ret;
        }
        let ia = &mut *init_attr;
        ia.qp_context = (*qp).qp_context;
        ia.send_cq = ra
            .send_cq
            .as_ref()
            .map_or(null_mut(), |c| c.cq_context.cast());
        ia.recv_cq = ra
            .recv_cq
            .as_ref()
            .map_or(null_mut(), |c| c.cq_context.cast());
        ia.srq = ra.srq.as_ref().map_or(null_mut(), |s| s.srq_context.cast());
        ia.qp_type = ra.qp_type.raw();
        ia.cap = ra.cap;
        ia.sq_sig_all = ra.sq_sig_all;
        (*qp).state = (*(*qp).real_qp).state.raw();
        0
    }
}

/// `int ibv_modify_qp(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr, int attr_mask)`
///
/// `ibv_modify_qp` on the real QP: 0, or the positive errno. Divergence: the wrapper's `state`
/// follows the real QP's (rdma-core never sets it).
#[export("IBVERBS_1.0" as ibv_modify_qp)]
fn ibv_modify_qp_1_0(qp: *mut ibv_qp_1_0, attr: *mut ibv_qp_attr, attr_mask: c_int) -> Raw<c_int> {
    // SAFETY: a 1.0 QP or NULL (rejected by the 1.1 export).
    unsafe {
        let ret = ret_status(
            Qp::from_raw(real(qp))
                .and_then(|q| Ok(crate::verbs::qp::modify(q, Ptr::from_raw(attr)?, attr_mask))),
        );
        if ret == 0 {
            (*qp).state = (*(*qp).real_qp).state.raw();
        }
        ret
    }
}

/// `int ibv_destroy_qp(struct ibv_qp_1_0 *qp)`
///
/// `ibv_destroy_qp` on the real QP, then frees the wrapper: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_destroy_qp)]
fn ibv_destroy_qp_1_0(qp: *mut ibv_qp_1_0) -> Raw<c_int> {
    // SAFETY: a 1.0 QP or NULL.
    unsafe {
        unwrap_destroy(qp, |r| {
            ret_status(Qp::from_raw(r).map(crate::verbs::qp::destroy))
        })
    }
}

/// `struct ibv_ah_1_0 *ibv_create_ah(struct ibv_pd_1_0 *pd, struct ibv_ah_attr *attr)`
///
/// `ibv_create_ah` on the real PD, wrapped. NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_create_ah)]
fn ibv_create_ah_1_0(pd: *mut ibv_pd_1_0, attr: *mut ibv_ah_attr) -> Raw<*mut ibv_ah_1_0> {
    // SAFETY: a 1.0 PD or NULL (rejected by the 1.1 export); on success pd is not NULL.
    unsafe {
        wrap(
            || {
                crate::verbs::handle::Pd::from_raw(real(pd))
                    .and_then(|p| crate::verbs::ah::create(p, attr))
                    .ret_null()
            },
            |w: &mut ibv_ah_1_0, r| {
                w.context = (*pd).context;
                w.pd = pd;
                w.handle = (*r).handle;
                w.real_ah = r;
            },
        )
    }
}

/// `int ibv_destroy_ah(struct ibv_ah_1_0 *ah)`
///
/// `ibv_destroy_ah` on the real AH, then frees the wrapper: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_destroy_ah)]
fn ibv_destroy_ah_1_0(ah: *mut ibv_ah_1_0) -> Raw<c_int> {
    // SAFETY: a 1.0 AH or NULL.
    unsafe {
        unwrap_destroy(ah, |r| {
            ret_status(crate::verbs::handle::Ah::from_raw(r).map(crate::verbs::ah::destroy))
        })
    }
}

/// `int ibv_attach_mcast(struct ibv_qp_1_0 *qp, union ibv_gid *gid, uint16_t lid)`
///
/// `ibv_attach_mcast` on the real QP: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_attach_mcast)]
fn ibv_attach_mcast_1_0(qp: *mut ibv_qp_1_0, gid: *mut ibv_gid, lid: u16) -> Raw<c_int> {
    // SAFETY: a 1.0 QP or NULL; the caller's GID or NULL.
    let (q, g) = unsafe {
        (
            crate::verbs::handle::Qp::from_raw(real(qp)),
            crate::verbs::handle::Ptr::from_raw(gid),
        )
    };
    ret_status(q.and_then(|q| Ok(crate::verbs::mcast::attach(q, g?, lid))))
}

/// `int ibv_detach_mcast(struct ibv_qp_1_0 *qp, union ibv_gid *gid, uint16_t lid)`
///
/// `ibv_detach_mcast` on the real QP: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_detach_mcast)]
fn ibv_detach_mcast_1_0(qp: *mut ibv_qp_1_0, gid: *mut ibv_gid, lid: u16) -> Raw<c_int> {
    // SAFETY: a 1.0 QP or NULL; the caller's GID or NULL.
    let (q, g) = unsafe {
        (
            crate::verbs::handle::Qp::from_raw(real(qp)),
            crate::verbs::handle::Ptr::from_raw(gid),
        )
    };
    ret_status(q.and_then(|q| Ok(crate::verbs::mcast::detach(q, g?, lid))))
}
