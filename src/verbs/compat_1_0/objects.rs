//! The IBVERBS_1.0 objects (rdma-core: compat-1_0.c's `ibv_alloc_pd_1_0` … `ibv_detach_mcast_1_0`):
//! each constructor wraps what the IBVERBS_1.1 export's core function makes, each destructor
//! frees the wrapper once that export's core function destroyed the real object, and everything
//! else unwraps and forwards (translating the CQs and SRQ of a QP's attributes both ways).
//!
//! Called by [`capi::compat_1_0`](crate::capi::compat_1_0). Unsafe here: the wrappers this library
//! allocates and the real objects they hold.
use core::ffi::{c_int, c_uint, c_void};
use core::ptr::null_mut;

use super::{alloc_zeroed, destroyed, free, real};
use crate::abi::compat_1_0::{
    ibv_ah_1_0, ibv_cq_1_0, ibv_mr_1_0, ibv_pd_1_0, ibv_qp_1_0, ibv_qp_init_attr_1_0, ibv_srq_1_0,
};
use crate::abi::verbs::{
    ibv_ah_attr, ibv_comp_channel, ibv_cq, ibv_gid, ibv_qp_attr, ibv_qp_init_attr, ibv_srq_attr,
    ibv_srq_init_attr,
};
use crate::errno::{Errno, Result};
use crate::verbs::handle::{Ah10, Cq10, Ctx10, Mr10, Pd10, Ptr, Qp10, Srq10};
use crate::verbs::{ah, cq, events, mcast, mr, pd, qp, srq};

/// Allocate a zeroed wrapper, create the real object with `make`, and let `fill` complete the
/// wrapper from it. ENOMEM for the wrapper; `make`'s error, or the errno of a NULL it gives (the
/// provider's), with the wrapper freed and the errno kept.
fn wrap<W, R>(
    make: impl FnOnce() -> Result<*mut R>,
    fill: impl FnOnce(&mut W, &mut R),
) -> Result<*mut W> {
    let w = alloc_zeroed::<W>()?;
    let made = make();
    // SAFETY: NULL, or the object the provider just made, not handed out yet.
    match made.map(|r| unsafe { r.as_mut() }) {
        Ok(Some(r)) => {
            // SAFETY: our fresh zeroed wrapper, not handed out yet.
            fill(unsafe { &mut *w }, r);
            Ok(w)
        }
        Ok(None) => {
            // SAFETY: ours, not handed out.
            unsafe { free(w) };
            Err(Errno(crate::sys::errno()))
        }
        Err(e) => {
            // SAFETY: ours, not handed out.
            unsafe { free(w) };
            Err(e)
        }
    }
}

/// `ibv_alloc_pd@IBVERBS_1.0`: [`pd::alloc`] on the real context, wrapped.
pub(crate) fn alloc_pd(context: Ctx10) -> Result<*mut ibv_pd_1_0> {
    wrap(
        || pd::alloc(context.real()),
        |w: &mut ibv_pd_1_0, r| {
            w.context = context.raw();
            w.handle = r.handle;
            w.real_pd = r;
        },
    )
}

/// `ibv_dealloc_pd@IBVERBS_1.0`: [`pd::dealloc`]'s status; the wrapper freed on success.
pub(crate) fn dealloc_pd(pd: Pd10) -> c_int {
    destroyed(pd, pd::dealloc(pd.real()))
}

/// `ibv_reg_mr@IBVERBS_1.0`: [`mr::reg`] on the real PD, wrapped with its context, PD, handle and
/// keys.
pub(crate) fn reg_mr(
    pd: Pd10,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> Result<*mut ibv_mr_1_0> {
    let iova = addr as usize as u64;
    wrap(
        || mr::reg(pd.real(), addr, length, iova, access as c_uint),
        |w: &mut ibv_mr_1_0, r| {
            w.context = pd.get().context;
            w.pd = pd.raw();
            w.handle = r.handle;
            w.lkey = r.lkey;
            w.rkey = r.rkey;
            w.real_mr = r;
        },
    )
}

/// `ibv_dereg_mr@IBVERBS_1.0`: [`mr::dereg`]'s status; the wrapper freed on success.
pub(crate) fn dereg_mr(mr: Mr10) -> c_int {
    destroyed(mr, mr::dereg(mr.real()))
}

/// `ibv_create_cq@IBVERBS_1.0`: [`cq::create`] on the real context, wrapped; the wrapper keeps
/// `cq_context` and the `cqe` asked for (as rdma-core), the real CQ's `cq_context` becomes the
/// wrapper.
pub(crate) fn create_cq(
    context: Ctx10,
    cqe: c_int,
    cq_context: *mut c_void,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
) -> Result<*mut ibv_cq_1_0> {
    wrap(
        || cq::create(context.real(), cqe, cq_context, channel, comp_vector),
        |w: &mut ibv_cq_1_0, r: &mut ibv_cq| {
            w.context = context.raw();
            w.cq_context = cq_context;
            w.handle = r.handle;
            w.cqe = cqe;
            w.real_cq = r;
            r.cq_context = (w as *mut ibv_cq_1_0).cast();
        },
    )
}

/// `ibv_resize_cq@IBVERBS_1.0`: [`cq::resize`] on the real CQ. The wrapper's `cqe` is left alone
/// (as rdma-core).
pub(crate) fn resize_cq(cq: Cq10, cqe: c_int) -> Result<c_int> {
    cq::resize(cq.real(), cqe)
}

/// `ibv_destroy_cq@IBVERBS_1.0`: [`cq::destroy`]'s status; the wrapper freed on success.
pub(crate) fn destroy_cq(cq: Cq10) -> Result<c_int> {
    cq::destroy(cq.real()).map(|s| destroyed(cq, s))
}

/// `ibv_get_cq_event@IBVERBS_1.0`: [`events::get_cq_event`]; the CQ handed back is the real CQ's
/// wrapper (its `cq_context`) and `*cq_context` the wrapper's.
pub(crate) fn get_cq_event(
    channel: Ptr<ibv_comp_channel>,
    cq: Ptr<*mut ibv_cq_1_0>,
    cq_context: Ptr<*mut c_void>,
) -> Result<c_int> {
    let (mut real_cq, mut ptr): (*mut ibv_cq, *mut c_void) = (null_mut(), null_mut());
    events::get_cq_event(channel, (&mut real_cq).into(), (&mut ptr).into())?;
    let w = ptr.cast::<ibv_cq_1_0>();
    cq.write(w);
    // SAFETY: the real CQ's cq_context: its wrapper, live (set when the wrapper was made).
    cq_context.write(unsafe { w.as_ref() }.map_or(null_mut(), |w| w.cq_context));
    Ok(0)
}

/// `ibv_ack_cq_events@IBVERBS_1.0`: [`events::ack_cq_events`] on the real CQ (none for a wrapper
/// without one, as the 1.1 export ignores NULL).
pub(crate) fn ack_cq_events(cq: Ptr<ibv_cq_1_0>, nevents: c_uint) {
    // SAFETY: a 1.0 CQ of this library (the C contract).
    let r = unsafe { (*cq.as_ptr()).real_cq };
    // SAFETY: its real CQ: NULL or live.
    if let Ok(r) = unsafe { Ptr::from_raw(r) } {
        events::ack_cq_events(r, nevents);
    }
}

/// `ibv_create_srq@IBVERBS_1.0`: [`srq::create`] on the real PD, wrapped; the real SRQ's
/// `srq_context` becomes the wrapper.
pub(crate) fn create_srq(pd: Pd10, attr: Ptr<ibv_srq_init_attr>) -> Result<*mut ibv_srq_1_0> {
    wrap(
        || srq::create(pd.real(), attr),
        |w: &mut ibv_srq_1_0, r| {
            w.context = pd.get().context;
            w.srq_context = attr.read().srq_context;
            w.pd = pd.raw();
            w.handle = r.handle;
            w.real_srq = r;
            r.srq_context = (w as *mut ibv_srq_1_0).cast();
        },
    )
}

/// `ibv_modify_srq@IBVERBS_1.0`: [`srq::modify`] on the real SRQ.
pub(crate) fn modify_srq(srq: Srq10, attr: Ptr<ibv_srq_attr>, mask: c_int) -> Result<c_int> {
    srq::modify(srq.real(), attr, mask)
}

/// `ibv_query_srq@IBVERBS_1.0`: [`srq::query`] on the real SRQ.
pub(crate) fn query_srq(srq: Srq10, attr: Ptr<ibv_srq_attr>) -> Result<c_int> {
    srq::query(srq.real(), attr)
}

/// `ibv_destroy_srq@IBVERBS_1.0`: [`srq::destroy`]'s status; the wrapper freed on success.
pub(crate) fn destroy_srq(srq: Srq10) -> Result<c_int> {
    srq::destroy(srq.real()).map(|s| destroyed(srq, s))
}

/// The wrapper's `state` as the real QP's.
fn mirror_state(qp: Qp10) {
    // SAFETY: the live real QP (the handle's contract).
    let s = unsafe { (*qp.real().raw()).state }.raw();
    // SAFETY: our live wrapper (the handle's contract).
    unsafe { (*qp.raw()).state = s };
}

/// `ibv_create_qp@IBVERBS_1.0`: [`qp::create`] on the real PD with the CQs and SRQ unwrapped; the
/// granted capabilities are written back to `attr.cap` and the real QP's `qp_context` becomes the
/// wrapper. Divergence: a NULL CQ or SRQ is passed on as NULL (the 1.1 function decides;
/// rdma-core crashes on a NULL CQ).
pub(crate) fn create_qp(pd: Pd10, attr: Ptr<ibv_qp_init_attr_1_0>) -> Result<*mut ibv_qp_1_0> {
    let a = attr.read();
    let mut ra = ibv_qp_init_attr {
        qp_context: a.qp_context,
        // SAFETY: the caller's 1.0 objects (the C contract), or NULL.
        send_cq: unsafe { real(a.send_cq) },
        // SAFETY: the caller's 1.0 receive CQ (the C contract), or NULL.
        recv_cq: unsafe { real(a.recv_cq) },
        // SAFETY: the caller's 1.0 SRQ (the C contract), or NULL.
        srq: unsafe { real(a.srq) },
        cap: a.cap,
        qp_type: a.qp_type.into(),
        sq_sig_all: a.sq_sig_all,
    };
    let ra_ptr = Ptr::from(&mut ra);
    wrap(
        || Ok(qp::create(pd.real(), ra_ptr)),
        |w: &mut ibv_qp_1_0, r| {
            w.context = pd.get().context;
            w.qp_context = a.qp_context;
            w.pd = pd.raw();
            w.send_cq = a.send_cq;
            w.recv_cq = a.recv_cq;
            w.srq = a.srq;
            w.handle = r.handle;
            w.qp_num = r.qp_num;
            w.state = r.state.raw();
            w.qp_type = a.qp_type;
            w.real_qp = r;
            // SAFETY: the caller's attributes (`Ptr`).
            unsafe { (*attr.as_ptr()).cap = ra_ptr.read().cap };
            r.qp_context = (w as *mut ibv_qp_1_0).cast();
        },
    )
}

/// `ibv_query_qp@IBVERBS_1.0`: [`qp::query`] on the real QP; `init_attr` gets the 1.0 wrappers of
/// its CQs and SRQ (NULL for none: Divergence, rdma-core crashes on a QP without an SRQ) and the
/// wrapper's `state` follows the real QP's. 0, or the 1.1 function's status.
pub(crate) fn query_qp(
    qp: Qp10,
    attr: Ptr<ibv_qp_attr>,
    mask: c_int,
    init_attr: Ptr<ibv_qp_init_attr_1_0>,
) -> c_int {
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut ra: ibv_qp_init_attr = unsafe { core::mem::zeroed() };
    let ret = qp::query(qp.real(), attr, mask, (&mut ra).into());
    if ret != 0 {
        return ret;
    }
    // The real objects the answer names are live and their context pointers are their wrappers.
    // SAFETY: the send CQ the provider answered: NULL or a live real CQ of this library.
    let send_cq = unsafe { ra.send_cq.as_ref() }.map_or(null_mut(), |c| c.cq_context.cast());
    // SAFETY: the receive CQ the provider answered: NULL or a live real CQ of this library.
    let recv_cq = unsafe { ra.recv_cq.as_ref() }.map_or(null_mut(), |c| c.cq_context.cast());
    // SAFETY: the SRQ the provider answered: NULL or a live real SRQ of this library.
    let srq = unsafe { ra.srq.as_ref() }.map_or(null_mut(), |s| s.srq_context.cast());
    init_attr.write(ibv_qp_init_attr_1_0 {
        qp_context: qp.get().qp_context,
        send_cq,
        recv_cq,
        srq,
        cap: ra.cap,
        qp_type: ra.qp_type.raw(),
        sq_sig_all: ra.sq_sig_all,
    });
    mirror_state(qp);
    0
}

/// `ibv_modify_qp@IBVERBS_1.0`: [`qp::modify`] on the real QP; on success the wrapper's `state`
/// follows the real QP's (Divergence: rdma-core never sets it).
pub(crate) fn modify_qp(qp: Qp10, attr: Ptr<ibv_qp_attr>, mask: c_int) -> c_int {
    let ret = qp::modify(qp.real(), attr, mask);
    if ret == 0 {
        mirror_state(qp);
    }
    ret
}

/// `ibv_destroy_qp@IBVERBS_1.0`: [`qp::destroy`]'s status; the wrapper freed on success.
pub(crate) fn destroy_qp(qp: Qp10) -> c_int {
    destroyed(qp, qp::destroy(qp.real()))
}

/// `ibv_create_ah@IBVERBS_1.0`: [`ah::create`] on the real PD, wrapped.
pub(crate) fn create_ah(pd: Pd10, attr: *mut ibv_ah_attr) -> Result<*mut ibv_ah_1_0> {
    wrap(
        || ah::create(pd.real(), attr),
        |w: &mut ibv_ah_1_0, r| {
            w.context = pd.get().context;
            w.pd = pd.raw();
            w.handle = r.handle;
            w.real_ah = r;
        },
    )
}

/// `ibv_destroy_ah@IBVERBS_1.0`: [`ah::destroy`]'s status; the wrapper freed on success.
pub(crate) fn destroy_ah(ah: Ah10) -> c_int {
    destroyed(ah, ah::destroy(ah.real()))
}

/// `ibv_attach_mcast@IBVERBS_1.0`: [`mcast::attach`] on the real QP.
pub(crate) fn attach_mcast(qp: Qp10, gid: Ptr<ibv_gid>, lid: u16) -> c_int {
    mcast::attach(qp.real(), gid, lid)
}

/// `ibv_detach_mcast@IBVERBS_1.0`: [`mcast::detach`] on the real QP.
pub(crate) fn detach_mcast(qp: Qp10, gid: Ptr<ibv_gid>, lid: u16) -> c_int {
    mcast::detach(qp.real(), gid, lid)
}
