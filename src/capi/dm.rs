//! Device memory and DMA handles (rdma-core: verbs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::verbs::{ibv_context, ibv_dm, ibv_dmah, ibv_dmah_init_attr};
use crate::errno::{CRet, unimplemented};

/// `struct ibv_dm *ibv_import_dm(struct ibv_context *context, uint32_t dm_handle)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_import_dm(context: *mut ibv_context, dm_handle: u32) -> *mut ibv_dm {
    Err(unimplemented("ibv_import_dm")).ret_null()
}

/// `void ibv_unimport_dm(struct ibv_dm *dm)`
///
/// Stub: does nothing (no return value to carry the failure).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_unimport_dm(dm: *mut ibv_dm) {
    let _ = unimplemented("ibv_unimport_dm");
}

/// `int ibv_dm_export_dmabuf_fd(struct ibv_dm *dm)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_dm_export_dmabuf_fd(dm: *mut ibv_dm) -> c_int {
    Err(unimplemented("ibv_dm_export_dmabuf_fd")).ret_minus_one()
}

/// `struct ibv_dmah *ibv_alloc_dmah(struct ibv_context *context, struct ibv_dmah_init_attr *attr)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_alloc_dmah(
    context: *mut ibv_context,
    attr: *mut ibv_dmah_init_attr,
) -> *mut ibv_dmah {
    Err(unimplemented("ibv_alloc_dmah")).ret_null()
}

/// `int ibv_dealloc_dmah(struct ibv_dmah *dmah)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_dealloc_dmah(dmah: *mut ibv_dmah) -> c_int {
    Err::<(), _>(unimplemented("ibv_dealloc_dmah")).ret_errno()
}
