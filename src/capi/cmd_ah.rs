//! Provider command layer: multicast and AH commands (rdma-core: cmd_ah.c, cmd.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use crate::abi::uapi::ib_uverbs_create_ah_resp;
use crate::abi::verbs::{ibv_ah, ibv_ah_attr, ibv_gid, ibv_pd, ibv_qp};
use crate::errno::{CRet, unimplemented};

/// `int ibv_cmd_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_attach_mcast(
    qp: *mut ibv_qp,
    gid: *const ibv_gid,
    lid: u16,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_attach_mcast")).ret_errno()
}

/// `int ibv_cmd_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_detach_mcast(
    qp: *mut ibv_qp,
    gid: *const ibv_gid,
    lid: u16,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_detach_mcast")).ret_errno()
}

/// `int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah, struct ibv_ah_attr *attr, struct ib_uverbs_create_ah_resp *resp, size_t resp_size)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_create_ah(
    pd: *mut ibv_pd,
    ah: *mut ibv_ah,
    attr: *mut ibv_ah_attr,
    resp: *mut ib_uverbs_create_ah_resp,
    resp_size: usize,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_create_ah")).ret_errno()
}

/// `int ibv_cmd_destroy_ah(struct ibv_ah *ah)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_destroy_ah(ah: *mut ibv_ah) -> c_int {
    Err::<(), _>(unimplemented("ibv_cmd_destroy_ah")).ret_errno()
}
