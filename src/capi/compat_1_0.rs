//! The IBVERBS_1.0 halves of the names exported twice, and `ibv_register_driver@IBVERBS_1.1`
//! (rdma-core: compat-1_0.c).
//!
//! Every function here but those marked "Not a stub" is a stub, listed in `stubs.txt`: its doc
//! names the C prototype and the return convention the stub follows. The parameters keep their C
//! names and stay unused until the behaviour comes.
//!
//! Each IBVERBS_1.0 function is a plain Rust function bound to `name@IBVERBS_1.0` by `symver!`. The
//! `struct ibv_*_1_0` types are compat-1_0.c's own layouts, not mirrored in `abi`, so they are
//! passed as `c_void` pointers.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_char, c_int, c_uint, c_void};

use super::ret::ret_or;
use crate::abi::verbs::{
    ibv_ah_attr, ibv_async_event, ibv_comp_channel, ibv_device, ibv_device_attr, ibv_gid,
    ibv_port_attr, ibv_qp_attr, ibv_srq_attr, ibv_srq_init_attr,
};
use crate::errno::{CRet, unimplemented};

/// `struct ibv_device_1_0 **ibv_get_device_list(int *num)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
unsafe extern "C" fn ibv_get_device_list_1_0(num: *mut c_int) -> *mut *mut c_void {
    Err(unimplemented("ibv_get_device_list@IBVERBS_1.0")).ret_null()
}
super::symver!(ibv_get_device_list, v1_0, "@IBVERBS_1.0", ibv_get_device_list_1_0);

/// `void ibv_free_device_list(struct ibv_device_1_0 **list)`
///
/// Stub: does nothing (no return value to carry the failure).
unsafe extern "C" fn ibv_free_device_list_1_0(list: *mut *mut c_void) {
    let _ = unimplemented("ibv_free_device_list@IBVERBS_1.0");
}
super::symver!(ibv_free_device_list, v1_0, "@IBVERBS_1.0", ibv_free_device_list_1_0);

/// `const char *ibv_get_device_name(struct ibv_device_1_0 *device)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
unsafe extern "C" fn ibv_get_device_name_1_0(device: *mut c_void) -> *const c_char {
    Err(unimplemented("ibv_get_device_name@IBVERBS_1.0")).ret_null()
}
super::symver!(ibv_get_device_name, v1_0, "@IBVERBS_1.0", ibv_get_device_name_1_0);

/// `__be64 ibv_get_device_guid(struct ibv_device_1_0 *device)`
///
/// Stub: returns 0, with errno EOPNOTSUPP.
unsafe extern "C" fn ibv_get_device_guid_1_0(device: *mut c_void) -> u64 {
    ret_or(Err(unimplemented("ibv_get_device_guid@IBVERBS_1.0")), 0)
}
super::symver!(ibv_get_device_guid, v1_0, "@IBVERBS_1.0", ibv_get_device_guid_1_0);

/// `struct ibv_context_1_0 *ibv_open_device(struct ibv_device_1_0 *device)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
unsafe extern "C" fn ibv_open_device_1_0(device: *mut c_void) -> *mut c_void {
    Err(unimplemented("ibv_open_device@IBVERBS_1.0")).ret_null()
}
super::symver!(ibv_open_device, v1_0, "@IBVERBS_1.0", ibv_open_device_1_0);

/// `int ibv_close_device(struct ibv_context_1_0 *context)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
unsafe extern "C" fn ibv_close_device_1_0(context: *mut c_void) -> c_int {
    Err(unimplemented("ibv_close_device@IBVERBS_1.0")).ret_minus_one()
}
super::symver!(ibv_close_device, v1_0, "@IBVERBS_1.0", ibv_close_device_1_0);

/// `int ibv_get_async_event(struct ibv_context_1_0 *context, struct ibv_async_event *event)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
unsafe extern "C" fn ibv_get_async_event_1_0(
    context: *mut c_void,
    event: *mut ibv_async_event,
) -> c_int {
    Err(unimplemented("ibv_get_async_event@IBVERBS_1.0")).ret_minus_one()
}
super::symver!(ibv_get_async_event, v1_0, "@IBVERBS_1.0", ibv_get_async_event_1_0);

/// `void ibv_ack_async_event(struct ibv_async_event *event)`
///
/// Stub: does nothing (no return value to carry the failure).
unsafe extern "C" fn ibv_ack_async_event_1_0(event: *mut ibv_async_event) {
    let _ = unimplemented("ibv_ack_async_event@IBVERBS_1.0");
}
super::symver!(ibv_ack_async_event, v1_0, "@IBVERBS_1.0", ibv_ack_async_event_1_0);

/// `int ibv_query_device(struct ibv_context_1_0 *context, struct ibv_device_attr *device_attr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_query_device_1_0(
    context: *mut c_void,
    device_attr: *mut ibv_device_attr,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_query_device@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_query_device, v1_0, "@IBVERBS_1.0", ibv_query_device_1_0);

/// `int ibv_query_port(struct ibv_context_1_0 *context, uint8_t port_num, struct ibv_port_attr *port_attr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_query_port_1_0(
    context: *mut c_void,
    port_num: u8,
    port_attr: *mut ibv_port_attr,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_query_port@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_query_port, v1_0, "@IBVERBS_1.0", ibv_query_port_1_0);

/// `int ibv_query_gid(struct ibv_context_1_0 *context, uint8_t port_num, int index, union ibv_gid *gid)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
unsafe extern "C" fn ibv_query_gid_1_0(
    context: *mut c_void,
    port_num: u8,
    index: c_int,
    gid: *mut ibv_gid,
) -> c_int {
    Err(unimplemented("ibv_query_gid@IBVERBS_1.0")).ret_minus_one()
}
super::symver!(ibv_query_gid, v1_0, "@IBVERBS_1.0", ibv_query_gid_1_0);

/// `int ibv_query_pkey(struct ibv_context_1_0 *context, uint8_t port_num, int index, __be16 *pkey)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
unsafe extern "C" fn ibv_query_pkey_1_0(
    context: *mut c_void,
    port_num: u8,
    index: c_int,
    pkey: *mut u16,
) -> c_int {
    Err(unimplemented("ibv_query_pkey@IBVERBS_1.0")).ret_minus_one()
}
super::symver!(ibv_query_pkey, v1_0, "@IBVERBS_1.0", ibv_query_pkey_1_0);

/// `struct ibv_pd_1_0 *ibv_alloc_pd(struct ibv_context_1_0 *context)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
unsafe extern "C" fn ibv_alloc_pd_1_0(context: *mut c_void) -> *mut c_void {
    Err(unimplemented("ibv_alloc_pd@IBVERBS_1.0")).ret_null()
}
super::symver!(ibv_alloc_pd, v1_0, "@IBVERBS_1.0", ibv_alloc_pd_1_0);

/// `int ibv_dealloc_pd(struct ibv_pd_1_0 *pd)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_dealloc_pd_1_0(pd: *mut c_void) -> c_int {
    Err::<(), _>(unimplemented("ibv_dealloc_pd@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_dealloc_pd, v1_0, "@IBVERBS_1.0", ibv_dealloc_pd_1_0);

/// `struct ibv_mr_1_0 *ibv_reg_mr(struct ibv_pd_1_0 *pd, void *addr, size_t length, int access)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
unsafe extern "C" fn ibv_reg_mr_1_0(
    pd: *mut c_void,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> *mut c_void {
    Err(unimplemented("ibv_reg_mr@IBVERBS_1.0")).ret_null()
}
super::symver!(ibv_reg_mr, v1_0, "@IBVERBS_1.0", ibv_reg_mr_1_0);

/// `int ibv_dereg_mr(struct ibv_mr_1_0 *mr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_dereg_mr_1_0(mr: *mut c_void) -> c_int {
    Err::<(), _>(unimplemented("ibv_dereg_mr@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_dereg_mr, v1_0, "@IBVERBS_1.0", ibv_dereg_mr_1_0);

/// `struct ibv_cq_1_0 *ibv_create_cq(struct ibv_context_1_0 *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
unsafe extern "C" fn ibv_create_cq_1_0(
    context: *mut c_void,
    cqe: c_int,
    cq_context: *mut c_void,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
) -> *mut c_void {
    Err(unimplemented("ibv_create_cq@IBVERBS_1.0")).ret_null()
}
super::symver!(ibv_create_cq, v1_0, "@IBVERBS_1.0", ibv_create_cq_1_0);

/// `int ibv_resize_cq(struct ibv_cq_1_0 *cq, int cqe)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_resize_cq_1_0(cq: *mut c_void, cqe: c_int) -> c_int {
    Err::<(), _>(unimplemented("ibv_resize_cq@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_resize_cq, v1_0, "@IBVERBS_1.0", ibv_resize_cq_1_0);

/// `int ibv_destroy_cq(struct ibv_cq_1_0 *cq)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_destroy_cq_1_0(cq: *mut c_void) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_cq@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_destroy_cq, v1_0, "@IBVERBS_1.0", ibv_destroy_cq_1_0);

/// `int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq_1_0 **cq, void **cq_context)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
unsafe extern "C" fn ibv_get_cq_event_1_0(
    channel: *mut ibv_comp_channel,
    cq: *mut *mut c_void,
    cq_context: *mut *mut c_void,
) -> c_int {
    Err(unimplemented("ibv_get_cq_event@IBVERBS_1.0")).ret_minus_one()
}
super::symver!(ibv_get_cq_event, v1_0, "@IBVERBS_1.0", ibv_get_cq_event_1_0);

/// `void ibv_ack_cq_events(struct ibv_cq_1_0 *cq, unsigned int nevents)`
///
/// Stub: does nothing (no return value to carry the failure).
unsafe extern "C" fn ibv_ack_cq_events_1_0(cq: *mut c_void, nevents: c_uint) {
    let _ = unimplemented("ibv_ack_cq_events@IBVERBS_1.0");
}
super::symver!(ibv_ack_cq_events, v1_0, "@IBVERBS_1.0", ibv_ack_cq_events_1_0);

/// `struct ibv_srq_1_0 *ibv_create_srq(struct ibv_pd_1_0 *pd, struct ibv_srq_init_attr *srq_init_attr)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
unsafe extern "C" fn ibv_create_srq_1_0(
    pd: *mut c_void,
    srq_init_attr: *mut ibv_srq_init_attr,
) -> *mut c_void {
    Err(unimplemented("ibv_create_srq@IBVERBS_1.0")).ret_null()
}
super::symver!(ibv_create_srq, v1_0, "@IBVERBS_1.0", ibv_create_srq_1_0);

/// `int ibv_modify_srq(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_modify_srq_1_0(
    srq: *mut c_void,
    srq_attr: *mut ibv_srq_attr,
    srq_attr_mask: c_int,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_modify_srq@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_modify_srq, v1_0, "@IBVERBS_1.0", ibv_modify_srq_1_0);

/// `int ibv_query_srq(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_query_srq_1_0(srq: *mut c_void, srq_attr: *mut ibv_srq_attr) -> c_int {
    Err::<(), _>(unimplemented("ibv_query_srq@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_query_srq, v1_0, "@IBVERBS_1.0", ibv_query_srq_1_0);

/// `int ibv_destroy_srq(struct ibv_srq_1_0 *srq)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_destroy_srq_1_0(srq: *mut c_void) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_srq@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_destroy_srq, v1_0, "@IBVERBS_1.0", ibv_destroy_srq_1_0);

/// `struct ibv_qp_1_0 *ibv_create_qp(struct ibv_pd_1_0 *pd, struct ibv_qp_init_attr_1_0 *qp_init_attr)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
unsafe extern "C" fn ibv_create_qp_1_0(pd: *mut c_void, qp_init_attr: *mut c_void) -> *mut c_void {
    Err(unimplemented("ibv_create_qp@IBVERBS_1.0")).ret_null()
}
super::symver!(ibv_create_qp, v1_0, "@IBVERBS_1.0", ibv_create_qp_1_0);

/// `int ibv_query_qp(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr_1_0 *init_attr)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_query_qp_1_0(
    qp: *mut c_void,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    init_attr: *mut c_void,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_query_qp@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_query_qp, v1_0, "@IBVERBS_1.0", ibv_query_qp_1_0);

/// `int ibv_modify_qp(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr, int attr_mask)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_modify_qp_1_0(
    qp: *mut c_void,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
) -> c_int {
    Err::<(), _>(unimplemented("ibv_modify_qp@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_modify_qp, v1_0, "@IBVERBS_1.0", ibv_modify_qp_1_0);

/// `int ibv_destroy_qp(struct ibv_qp_1_0 *qp)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_destroy_qp_1_0(qp: *mut c_void) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_qp@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_destroy_qp, v1_0, "@IBVERBS_1.0", ibv_destroy_qp_1_0);

/// `struct ibv_ah_1_0 *ibv_create_ah(struct ibv_pd_1_0 *pd, struct ibv_ah_attr *attr)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
unsafe extern "C" fn ibv_create_ah_1_0(pd: *mut c_void, attr: *mut ibv_ah_attr) -> *mut c_void {
    Err(unimplemented("ibv_create_ah@IBVERBS_1.0")).ret_null()
}
super::symver!(ibv_create_ah, v1_0, "@IBVERBS_1.0", ibv_create_ah_1_0);

/// `int ibv_destroy_ah(struct ibv_ah_1_0 *ah)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_destroy_ah_1_0(ah: *mut c_void) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_ah@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_destroy_ah, v1_0, "@IBVERBS_1.0", ibv_destroy_ah_1_0);

/// `int ibv_attach_mcast(struct ibv_qp_1_0 *qp, union ibv_gid *gid, uint16_t lid)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_attach_mcast_1_0(qp: *mut c_void, gid: *mut ibv_gid, lid: u16) -> c_int {
    Err::<(), _>(unimplemented("ibv_attach_mcast@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_attach_mcast, v1_0, "@IBVERBS_1.0", ibv_attach_mcast_1_0);

/// `int ibv_detach_mcast(struct ibv_qp_1_0 *qp, union ibv_gid *gid, uint16_t lid)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
unsafe extern "C" fn ibv_detach_mcast_1_0(qp: *mut c_void, gid: *mut ibv_gid, lid: u16) -> c_int {
    Err::<(), _>(unimplemented("ibv_detach_mcast@IBVERBS_1.0")).ret_errno()
}
super::symver!(ibv_detach_mcast, v1_0, "@IBVERBS_1.0", ibv_detach_mcast_1_0);

/// `void ibv_register_driver(const char *name, ibv_driver_init_func_1_1 init_func)`, where
/// `ibv_driver_init_func_1_1` is `struct ibv_device *(*)(const char *uverbs_sys_path, int abi_version)`.
///
/// Not a stub: rdma-core keeps this IBVERBS_1.1-only name (no default version) as an empty function
/// so that old providers calling it still link; the driver interface has been private since
/// rdma-core 13 and the call has no effect.
unsafe extern "C" fn ibv_register_driver_1_1(
    name: *const c_char,
    init_func: Option<
        unsafe extern "C" fn(uverbs_sys_path: *const c_char, abi_version: c_int) -> *mut ibv_device,
    >,
) {
}
super::symver!(ibv_register_driver, v1_1, "@IBVERBS_1.1", ibv_register_driver_1_1);
