//! The IBVERBS_1.0 objects (rdma-core: compat-1_0.c's `ibv_alloc_pd_1_0` … `ibv_destroy_ah_1_0`):
//! each constructor wraps what the IBVERBS_1.1 export's core function makes, each destructor
//! frees the wrapper once that export's core function destroyed the real object.
//!
//! Called by `capi::compat_1_0`. Unsafe here: the wrappers this library allocates.
use core::ffi::{c_int, c_uint, c_void};

use super::{alloc_zeroed, free};
use crate::abi::compat_1_0::{ibv_ah_1_0, ibv_mr_1_0, ibv_pd_1_0};
use crate::abi::verbs::ibv_ah_attr;
use crate::errno::Result;
use crate::verbs::handle::{Ah10, Ctx10, Mr10, Pd10, Wrap, Wrapper};
use crate::verbs::{ah, mr, pd};

/// Allocate a zeroed wrapper, create the real object with `make`, and let `fill` complete the
/// wrapper from it. ENOMEM for the wrapper; `make`'s error (the wrapper freed, the errno kept).
fn wrap<W, R>(
    make: impl FnOnce() -> Result<*mut R>,
    fill: impl FnOnce(&mut W, *mut R),
) -> Result<*mut W> {
    let w = alloc_zeroed::<W>()?;
    match make() {
        Ok(r) => {
            // SAFETY: our fresh zeroed wrapper, not handed out yet.
            fill(unsafe { &mut *w }, r);
            Ok(w)
        }
        Err(e) => {
            // SAFETY: ours, not handed out.
            unsafe { free(w) };
            Err(e)
        }
    }
}

/// The real object destroyed with `status` (its destructor's 0 or positive errno): the wrapper
/// is freed on 0 and kept otherwise. Returns `status`.
fn destroyed<W: Wrapper>(w: Wrap<W>, status: c_int) -> c_int {
    if status == 0 {
        // SAFETY: our wrapper (the handle's contract), whose real object is gone; the caller
        // does not use it again (the C contract of a destructor that succeeded).
        unsafe { free(w.raw()) };
    }
    status
}

/// `ibv_alloc_pd@IBVERBS_1.0`: `ibv_alloc_pd` on the real context, wrapped.
pub(crate) fn alloc_pd(context: Ctx10) -> Result<*mut ibv_pd_1_0> {
    wrap(
        || pd::alloc(context.real()),
        |w: &mut ibv_pd_1_0, r| {
            w.context = context.raw();
            // SAFETY: the PD the provider just made.
            w.handle = unsafe { (*r).handle };
            w.real_pd = r;
        },
    )
}

/// `ibv_dealloc_pd@IBVERBS_1.0`: `ibv_dealloc_pd`'s status; the wrapper freed on success.
pub(crate) fn dealloc_pd(pd: Pd10) -> c_int {
    destroyed(pd, pd::dealloc(pd.real()))
}

/// `ibv_reg_mr@IBVERBS_1.0`: `ibv_reg_mr` on the real PD, wrapped with its context, PD, handle
/// and keys.
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
            // SAFETY: the MR the provider just made.
            let m = unsafe { &*r };
            // SAFETY: the caller's live 1.0 PD (the handle's contract).
            w.context = unsafe { (*pd.raw()).context };
            w.pd = pd.raw();
            w.handle = m.handle;
            w.lkey = m.lkey;
            w.rkey = m.rkey;
            w.real_mr = r;
        },
    )
}

/// `ibv_dereg_mr@IBVERBS_1.0`: `ibv_dereg_mr`'s status; the wrapper freed on success.
pub(crate) fn dereg_mr(mr: Mr10) -> c_int {
    destroyed(mr, mr::dereg(mr.real()))
}

/// `ibv_create_ah@IBVERBS_1.0`: `ibv_create_ah` on the real PD, wrapped.
pub(crate) fn create_ah(pd: Pd10, attr: *mut ibv_ah_attr) -> Result<*mut ibv_ah_1_0> {
    wrap(
        || ah::create(pd.real(), attr),
        |w: &mut ibv_ah_1_0, r| {
            // SAFETY: the caller's live 1.0 PD (the handle's contract).
            w.context = unsafe { (*pd.raw()).context };
            w.pd = pd.raw();
            // SAFETY: the AH the provider just made.
            w.handle = unsafe { (*r).handle };
            w.real_ah = r;
        },
    )
}

/// `ibv_destroy_ah@IBVERBS_1.0`: `ibv_destroy_ah`'s status; the wrapper freed on success.
pub(crate) fn destroy_ah(ah: Ah10) -> c_int {
    destroyed(ah, ah::destroy(ah.real()))
}
