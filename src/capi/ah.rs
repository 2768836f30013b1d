//! Address handles and L2 resolution (rdma-core: verbs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use super::ret::ret_neg_errno;
use crate::abi::verbs::{ibv_ah, ibv_ah_attr, ibv_context, ibv_grh, ibv_pd, ibv_wc};
use crate::errno::{CRet, unimplemented};

/// `struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_create_ah_1_1")]
pub unsafe extern "C" fn ibv_create_ah(pd: *mut ibv_pd, attr: *mut ibv_ah_attr) -> *mut ibv_ah {
    Err(unimplemented("ibv_create_ah")).ret_null()
}
super::symver!(ibv_create_ah, v1_1, "@@IBVERBS_1.1", ibv_create_ah);

/// `int ibv_destroy_ah(struct ibv_ah *ah)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_destroy_ah_1_1")]
pub unsafe extern "C" fn ibv_destroy_ah(ah: *mut ibv_ah) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_ah")).ret_errno()
}
super::symver!(ibv_destroy_ah, v1_1, "@@IBVERBS_1.1", ibv_destroy_ah);

/// `int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num, struct ibv_wc *wc, struct ibv_grh *grh, struct ibv_ah_attr *ah_attr)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_init_ah_from_wc(
    context: *mut ibv_context,
    port_num: u8,
    wc: *mut ibv_wc,
    grh: *mut ibv_grh,
    ah_attr: *mut ibv_ah_attr,
) -> c_int {
    Err(unimplemented("ibv_init_ah_from_wc")).ret_minus_one()
}

/// `struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc, struct ibv_grh *grh, uint8_t port_num)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_create_ah_from_wc(
    pd: *mut ibv_pd,
    wc: *mut ibv_wc,
    grh: *mut ibv_grh,
    port_num: u8,
) -> *mut ibv_ah {
    Err(unimplemented("ibv_create_ah_from_wc")).ret_null()
}

/// `int ibv_resolve_eth_l2_from_gid(struct ibv_context *context, struct ibv_ah_attr *attr, uint8_t eth_mac[ETHERNET_LL_SIZE], uint16_t *vid)`
///
/// Stub: returns -EOPNOTSUPP, errno set too (rdma-core: 0, or a negative errno).
///
/// rdma-core returns a negative errno here (-EINVAL, -EHOSTUNREACH), or -1 from a failed GID query.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_resolve_eth_l2_from_gid(
    context: *mut ibv_context,
    attr: *mut ibv_ah_attr,
    eth_mac: *mut u8,
    vid: *mut u16,
) -> c_int {
    ret_neg_errno(Err(unimplemented("ibv_resolve_eth_l2_from_gid")))
}
