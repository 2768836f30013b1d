//! Kernel-to-verbs struct copies of infiniband/marshall.h (rdma-core: marshall.c), each a
//! declaration over `verbs::marshall`.
//!
//! Divergence throughout: a NULL argument makes the call do nothing (rdma-core would crash).
use core::ffi::c_void;

use crate::abi::uapi::{ib_uverbs_ah_attr, ib_uverbs_qp_attr};
use crate::abi::verbs::{ibv_ah_attr, ibv_qp_attr};
use crate::capi::export::export;
use crate::verbs::handle::Ptr;
use crate::verbs::marshall;

/// `void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst, struct ib_uverbs_ah_attr *src)`
///
/// The C form of [`marshall::copy_ah_attr_from_kern`].
#[export("IBVERBS_1.1")]
fn ibv_copy_ah_attr_from_kern(dst: Ptr<ibv_ah_attr>, src: Ptr<ib_uverbs_ah_attr>) -> Void {
    marshall::copy_ah_attr_from_kern(dst, src)
}

/// `void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst, struct ib_uverbs_qp_attr *src)`
///
/// The C form of [`marshall::copy_qp_attr_from_kern`].
#[export("IBVERBS_1.0")]
fn ibv_copy_qp_attr_from_kern(dst: Ptr<ibv_qp_attr>, src: Ptr<ib_uverbs_qp_attr>) -> Void {
    marshall::copy_qp_attr_from_kern(dst, src)
}

/// `void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst, struct ib_user_path_rec *src)`
///
/// The C form of [`marshall::copy_path_rec_from_kern`].
///
/// `struct ibv_sa_path_rec` (sa.h) and `struct ib_user_path_rec` (ib_user_sa.h) are not part of
/// the generated headers: `void *` here.
#[export("IBVERBS_1.0")]
fn ibv_copy_path_rec_from_kern(dst: Ptr<c_void>, src: Ptr<c_void>) -> Void {
    marshall::copy_path_rec_from_kern(dst, src)
}

/// `void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst, struct ibv_sa_path_rec *src)`
///
/// The C form of [`marshall::copy_path_rec_to_kern`].
///
/// `struct ibv_sa_path_rec` (sa.h) and `struct ib_user_path_rec` (ib_user_sa.h) are not part of
/// the generated headers: `void *` here.
#[export("IBVERBS_1.0")]
fn ibv_copy_path_rec_to_kern(dst: Ptr<c_void>, src: Ptr<c_void>) -> Void {
    marshall::copy_path_rec_to_kern(dst, src)
}
