//! Protection domains (rdma-core: verbs.c).
//!
//! Each verb hands the call to the context's op (the provider's, or the default, which fails with
//! EOPNOTSUPP) and fills in what rdma-core's verb fills in. Divergence throughout: a NULL object,
//! or a NULL `context` inside one, gives EINVAL (or is ignored where there is no return value)
//! where rdma-core would crash.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::c_int;

use crate::abi::verbs::{ibv_context, ibv_pd};
use crate::cret::CRet;
use crate::cret::quiet;
use crate::errno::Errno;
use crate::verbs::ctxpriv::ops_of;

/// The body of [`ibv_alloc_pd`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_alloc_pd`].
#[inline(always)]
pub(crate) unsafe fn alloc_pd_edge(context: *mut ibv_context) -> *mut ibv_pd {
    if context.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: an open context of this library.
    unsafe {
        let Some(op) = ops_of(context).alloc_pd else {
            return Err(Errno::EOPNOTSUPP).ret_null();
        };
        let pd = op(context);
        if !pd.is_null() {
            (*pd).context = context;
        }
        pd
    }
}

/// `struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)`
///
/// A new PD from the provider's `alloc_pd`, its `context` set. NULL with errno on failure.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_alloc_pd(context: *mut ibv_context) -> Raw<*mut ibv_pd> {
    // SAFETY: the export's C contract is the body's.
    unsafe { alloc_pd_edge(context) }
}

/// The body of [`ibv_dealloc_pd`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_dealloc_pd`].
#[inline(always)]
pub(crate) unsafe fn dealloc_pd_edge(pd: *mut ibv_pd) -> c_int {
    // SAFETY: the caller's PD (checked for NULL, as its context).
    unsafe {
        if pd.is_null() || (*pd).context.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        match ops_of((*pd).context).dealloc_pd {
            Some(op) => op(pd),
            None => quiet(Errno::EOPNOTSUPP),
        }
    }
}

/// `int ibv_dealloc_pd(struct ibv_pd *pd)`
///
/// The provider's `dealloc_pd`: 0, or the positive errno it returns (EBUSY while objects still
/// use the PD); errno is what the provider left.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_dealloc_pd(pd: *mut ibv_pd) -> Raw<c_int> {
    // SAFETY: the export's C contract is the body's.
    unsafe { dealloc_pd_edge(pd) }
}

/// `struct ibv_pd *ibv_import_pd(struct ibv_context *context, uint32_t pd_handle)`
///
/// The PD with `pd_handle` of another process sharing this context's command fd (see
/// `ibv_import_device`), from the provider's `import_pd`. NULL with errno on failure (EOPNOTSUPP
/// when the provider cannot import).
#[export("IBVERBS_1.10")]
fn ibv_import_pd(context: *mut ibv_context, pd_handle: u32) -> Raw<*mut ibv_pd> {
    if context.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: an open context of this library.
    unsafe {
        match ops_of(context).import_pd {
            Some(op) => op(context, pd_handle),
            None => Err(Errno::EOPNOTSUPP).ret_null(),
        }
    }
}

/// `void ibv_unimport_pd(struct ibv_pd *pd)`
///
/// Forgets an imported PD (the provider's `unimport_pd`) without destroying the kernel object.
#[export("IBVERBS_1.10")]
fn ibv_unimport_pd(pd: *mut ibv_pd) -> Raw<()> {
    // SAFETY: the caller's PD (checked for NULL, as its context).
    unsafe {
        if pd.is_null() || (*pd).context.is_null() {
            return;
        }
        if let Some(op) = ops_of((*pd).context).unimport_pd {
            op(pd);
        }
    }
}
