//! Protection domains (rdma-core: verbs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::verbs::{ibv_context, ibv_pd};
use crate::errno::{CRet, unimplemented};

/// `struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_alloc_pd_1_1")]
pub unsafe extern "C" fn ibv_alloc_pd(context: *mut ibv_context) -> *mut ibv_pd {
    Err(unimplemented("ibv_alloc_pd")).ret_null()
}
super::symver!(ibv_alloc_pd, v1_1, "@@IBVERBS_1.1", ibv_alloc_pd);

/// `int ibv_dealloc_pd(struct ibv_pd *pd)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_dealloc_pd_1_1")]
pub unsafe extern "C" fn ibv_dealloc_pd(pd: *mut ibv_pd) -> c_int {
    Err::<(), _>(unimplemented("ibv_dealloc_pd")).ret_errno()
}
super::symver!(ibv_dealloc_pd, v1_1, "@@IBVERBS_1.1", ibv_dealloc_pd);

/// `struct ibv_pd *ibv_import_pd(struct ibv_context *context, uint32_t pd_handle)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_import_pd(context: *mut ibv_context, pd_handle: u32) -> *mut ibv_pd {
    Err(unimplemented("ibv_import_pd")).ret_null()
}

/// `void ibv_unimport_pd(struct ibv_pd *pd)`
///
/// Stub: does nothing (no return value to carry the failure).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_unimport_pd(pd: *mut ibv_pd) {
    let _ = unimplemented("ibv_unimport_pd");
}
