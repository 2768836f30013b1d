//! Memory regions and library-allocated buffers (rdma-core: verbs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_int, c_uint, c_void};

use crate::abi::verbs::{ibv_buf, ibv_mr, ibv_mr_init_attr, ibv_pd};
use crate::errno::{CRet, unimplemented};

/// `struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_reg_mr_1_1")]
pub unsafe extern "C" fn ibv_reg_mr(
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> *mut ibv_mr {
    Err(unimplemented("ibv_reg_mr")).ret_null()
}
super::symver!(ibv_reg_mr, v1_1, "@@IBVERBS_1.1", ibv_reg_mr);

/// `struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, int access)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_reg_mr_iova(
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    iova: u64,
    access: c_int,
) -> *mut ibv_mr {
    Err(unimplemented("ibv_reg_mr_iova")).ret_null()
}

/// `struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_reg_mr_iova2(
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    iova: u64,
    access: c_uint,
) -> *mut ibv_mr {
    Err(unimplemented("ibv_reg_mr_iova2")).ret_null()
}

/// `struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_reg_dmabuf_mr(
    pd: *mut ibv_pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
) -> *mut ibv_mr {
    Err(unimplemented("ibv_reg_dmabuf_mr")).ret_null()
}

/// `struct ibv_mr *ibv_reg_mr_ex(struct ibv_pd *pd, struct ibv_mr_init_attr *mr_init_attr)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_reg_mr_ex(
    pd: *mut ibv_pd,
    mr_init_attr: *mut ibv_mr_init_attr,
) -> *mut ibv_mr {
    Err(unimplemented("ibv_reg_mr_ex")).ret_null()
}

/// `int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr, size_t length, int access)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// Returns `enum ibv_rereg_mr_err_code`; -1 is `IBV_REREG_MR_ERR_INPUT` ("the old MR is still
/// valid"), which is true of a call that did nothing (rdma-core's fallback op answers the same,
/// with errno EOPNOTSUPP).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_rereg_mr(
    mr: *mut ibv_mr,
    flags: c_int,
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> c_int {
    Err(unimplemented("ibv_rereg_mr")).ret_minus_one()
}

/// `int ibv_dereg_mr(struct ibv_mr *mr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_dereg_mr_1_1")]
pub unsafe extern "C" fn ibv_dereg_mr(mr: *mut ibv_mr) -> c_int {
    Err::<(), _>(unimplemented("ibv_dereg_mr")).ret_errno()
}
super::symver!(ibv_dereg_mr, v1_1, "@@IBVERBS_1.1", ibv_dereg_mr);

/// `struct ibv_mr *ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_import_mr(pd: *mut ibv_pd, mr_handle: u32) -> *mut ibv_mr {
    Err(unimplemented("ibv_import_mr")).ret_null()
}

/// `void ibv_unimport_mr(struct ibv_mr *mr)`
///
/// Stub: does nothing (no return value to carry the failure).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_unimport_mr(mr: *mut ibv_mr) {
    let _ = unimplemented("ibv_unimport_mr");
}

/// `void *ibv_alloc_buf(struct ibv_pd *pd, size_t size, struct ibv_buf **buf)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_alloc_buf(
    pd: *mut ibv_pd,
    size: usize,
    buf: *mut *mut ibv_buf,
) -> *mut c_void {
    Err(unimplemented("ibv_alloc_buf")).ret_null()
}

/// `void ibv_free_buf(struct ibv_buf *buf)`
///
/// Stub: does nothing (no return value to carry the failure).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_free_buf(buf: *mut ibv_buf) {
    let _ = unimplemented("ibv_free_buf");
}

/// `struct ibv_mr *ibv_reg_buf_mr(struct ibv_pd *pd, struct ibv_buf *buf, void *addr, size_t length, int access)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_reg_buf_mr(
    pd: *mut ibv_pd,
    buf: *mut ibv_buf,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> *mut ibv_mr {
    Err(unimplemented("ibv_reg_buf_mr")).ret_null()
}

/// `int ibv_export_buf_dmabuf_fd(struct ibv_buf *buf)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_export_buf_dmabuf_fd(buf: *mut ibv_buf) -> c_int {
    Err(unimplemented("ibv_export_buf_dmabuf_fd")).ret_minus_one()
}
