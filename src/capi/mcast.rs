//! Multicast attach and detach (rdma-core: verbs.c).
//!
//! Both hand the call to the context's op (the provider's, which sends the kernel command, or
//! the default, EOPNOTSUPP) and return its 0 or positive errno, errno as it left it.
//! Divergence: a NULL `qp`, its NULL `context`, or a NULL `gid` gives EINVAL where rdma-core (or
//! the provider) would crash.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::c_int;

use crate::abi::verbs::{ibv_gid, ibv_qp};
use crate::cret::ret_status;
use crate::verbs::objects::Mcast;

/// `int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// Joins UD QP `qp` to the multicast group `gid`/`lid` (the provider's `attach_mcast`).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_attach_mcast(qp: *mut ibv_qp, gid: *const ibv_gid, lid: u16) -> Raw<c_int> {
    // SAFETY: the caller's QP and GID, or NULL (refused).
    ret_status(unsafe { crate::verbs::objects::mcast(Mcast::Attach, qp, gid, lid) })
}

/// `int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// Removes `qp` from the multicast group `gid`/`lid` (the provider's `detach_mcast`).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_detach_mcast(qp: *mut ibv_qp, gid: *const ibv_gid, lid: u16) -> Raw<c_int> {
    // SAFETY: as above.
    ret_status(unsafe { crate::verbs::objects::mcast(Mcast::Detach, qp, gid, lid) })
}
