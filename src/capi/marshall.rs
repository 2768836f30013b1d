//! Kernel-to-verbs struct copies of infiniband/marshall.h (rdma-core: marshall.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_void;

use crate::abi::uapi::{ib_uverbs_ah_attr, ib_uverbs_qp_attr};
use crate::abi::verbs::{ibv_ah_attr, ibv_qp_attr};
use crate::errno::unimplemented;

/// `void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst, struct ib_uverbs_ah_attr *src)`
///
/// Stub: does nothing (no return value to carry the failure).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_copy_ah_attr_from_kern(
    dst: *mut ibv_ah_attr,
    src: *mut ib_uverbs_ah_attr,
) {
    let _ = unimplemented("ibv_copy_ah_attr_from_kern");
}

/// `void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst, struct ib_uverbs_qp_attr *src)`
///
/// Stub: does nothing (no return value to carry the failure).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_copy_qp_attr_from_kern(
    dst: *mut ibv_qp_attr,
    src: *mut ib_uverbs_qp_attr,
) {
    let _ = unimplemented("ibv_copy_qp_attr_from_kern");
}

/// `void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst, struct ib_user_path_rec *src)`
///
/// Stub: does nothing (no return value to carry the failure).
///
/// `struct ibv_sa_path_rec` (sa.h) and `struct ib_user_path_rec` (sa-kern-abi.h) are not mirrored
/// in `abi`: `void *` here.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_copy_path_rec_from_kern(dst: *mut c_void, src: *mut c_void) {
    let _ = unimplemented("ibv_copy_path_rec_from_kern");
}

/// `void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst, struct ibv_sa_path_rec *src)`
///
/// Stub: does nothing (no return value to carry the failure).
///
/// `struct ibv_sa_path_rec` (sa.h) and `struct ib_user_path_rec` (sa-kern-abi.h) are not mirrored
/// in `abi`: `void *` here.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_copy_path_rec_to_kern(dst: *mut c_void, src: *mut c_void) {
    let _ = unimplemented("ibv_copy_path_rec_to_kern");
}
