//! Multicast attach and detach (rdma-core: verbs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::verbs::{ibv_gid, ibv_qp};
use crate::errno::{CRet, unimplemented};

/// `int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_attach_mcast_1_1")]
pub unsafe extern "C" fn ibv_attach_mcast(qp: *mut ibv_qp, gid: *const ibv_gid, lid: u16) -> c_int {
    Err::<(), _>(unimplemented("ibv_attach_mcast")).ret_errno()
}
super::symver!(ibv_attach_mcast, v1_1, "@@IBVERBS_1.1", ibv_attach_mcast);

/// `int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_detach_mcast_1_1")]
pub unsafe extern "C" fn ibv_detach_mcast(qp: *mut ibv_qp, gid: *const ibv_gid, lid: u16) -> c_int {
    Err::<(), _>(unimplemented("ibv_detach_mcast")).ret_errno()
}
super::symver!(ibv_detach_mcast, v1_1, "@@IBVERBS_1.1", ibv_detach_mcast);
