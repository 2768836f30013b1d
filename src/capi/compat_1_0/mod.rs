//! The IBVERBS_1.0 halves of the names exported twice, and `ibv_register_driver@IBVERBS_1.1`
//! (rdma-core: compat-1_0.c): device, context and event verbs here, the object verbs in
//! `objects`.
//!
//! A binary linked against libibverbs 1.0 gets wrappers ([`crate::abi::compat_1_0`]) instead of
//! the real objects. Each 1.0 function is one declaration bound to `name@IBVERBS_1.0`: its
//! parameters arrive as `Wrap` handles (`Dev10`, `Ctx10`, `Pd10`, ...: the wrapper and its real
//! object's handle) and its body calls `verbs::compat_1_0`, which makes, unwraps and frees the
//! wrappers around the core function the IBVERBS_1.1 export of the same name calls, and returns
//! through that export's convention (so it has that export's checks and errno). No export calls
//! another. The real CQ, QP and SRQ point back at their wrapper through
//! `cq_context`/`qp_context`/`srq_context`, which is how events are translated back. A 1.0
//! context's dispatch table carries the data-path trampolines of `verbs::compat_1_0::datapath`.
//!
//! Divergence throughout: a NULL wrapper, or one whose real object the 1.1 export would refuse
//! (NULL, or without a context), gives EINVAL in the export's convention (rdma-core crashes).
//! The wrappers' other divergences (zeroed, mirrored fields) are in `verbs::compat_1_0`.
use core::ffi::{c_char, c_int};

use crate::abi::compat_1_0::{ibv_context_1_0, ibv_device_1_0};
use crate::abi::verbs::{ibv_async_event, ibv_device, ibv_device_attr, ibv_gid, ibv_port_attr};
use crate::capi::export::export;
use crate::verbs::compat_1_0 as compat;
use crate::verbs::handle::{Ctx10, Dev10, Ptr};
use crate::verbs::{device, gid, query};

mod objects;
#[cfg(test)]
mod tests;

/// `struct ibv_device_1_0 **ibv_get_device_list(int *num)`
///
/// The C form of [`compat::get_device_list`]: NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_get_device_list)]
fn ibv_get_device_list_1_0(num: Option<Ptr<c_int>>) -> Null<*mut *mut ibv_device_1_0> {
    compat::get_device_list(num)
}

/// `void ibv_free_device_list(struct ibv_device_1_0 **list)`
///
/// The C form of [`compat::free_device_list`].
#[export("IBVERBS_1.0" as ibv_free_device_list)]
fn ibv_free_device_list_1_0(list: *mut *mut ibv_device_1_0) -> Void {
    compat::free_device_list(list)
}

/// `const char *ibv_get_device_name(struct ibv_device_1_0 *device)`
///
/// The C form of [`device::name`], on the real device: NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_get_device_name)]
fn ibv_get_device_name_1_0(device: Dev10) -> Null<*const c_char> {
    Ok(device::name(device.real()))
}

/// `__be64 ibv_get_device_guid(struct ibv_device_1_0 *device)`
///
/// The C form of [`device::guid`], on the real device, in network order; 0 with errno EINVAL for a
/// NULL device.
#[export("IBVERBS_1.0" as ibv_get_device_guid)]
fn ibv_get_device_guid_1_0(device: *mut ibv_device_1_0) -> Raw<u64> {
    // Raw: the error value is 0, which no convention names.
    // SAFETY: the C contract: NULL or a listed 1.0 device.
    let d = unsafe { Dev10::from_raw(device) };
    crate::capi::ret::ret_or(d.map(|d| device::guid(d.real()).to_be()), 0)
}

/// `struct ibv_context_1_0 *ibv_open_device(struct ibv_device_1_0 *device)`
///
/// The C form of [`compat::open_device`]: NULL with errno on failure.
#[export("IBVERBS_1.0" as ibv_open_device)]
fn ibv_open_device_1_0(device: Dev10) -> Null<*mut ibv_context_1_0> {
    compat::open_device(device)
}

/// `int ibv_close_device(struct ibv_context_1_0 *context)`
///
/// The C form of [`compat::close_device`]: 0, as rdma-core always returns.
#[export("IBVERBS_1.0" as ibv_close_device)]
fn ibv_close_device_1_0(context: Ctx10) -> MinusOne<c_int> {
    compat::close_device(context);
    Ok(0)
}

/// `int ibv_get_async_event(struct ibv_context_1_0 *context, struct ibv_async_event *event)`
///
/// The C form of [`compat::get_async_event`]: 0, or -1 with errno.
#[export("IBVERBS_1.0" as ibv_get_async_event)]
fn ibv_get_async_event_1_0(context: Ctx10, event: Ptr<ibv_async_event>) -> MinusOne<c_int> {
    compat::get_async_event(context, event)
}

/// `void ibv_ack_async_event(struct ibv_async_event *event)`
///
/// The C form of [`compat::ack_async_event`].
///
/// Divergence: a NULL event is ignored (rdma-core crashes).
#[export("IBVERBS_1.0" as ibv_ack_async_event)]
fn ibv_ack_async_event_1_0(event: Ptr<ibv_async_event>) -> Void {
    compat::ack_async_event(event)
}

/// `int ibv_query_device(struct ibv_context_1_0 *context, struct ibv_device_attr *device_attr)`
///
/// The C form of [`query::device`], on the real context: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_query_device)]
fn ibv_query_device_1_0(context: Ctx10, device_attr: Ptr<ibv_device_attr>) -> Status {
    query::device(context.real(), device_attr)
}

/// `int ibv_query_port(struct ibv_context_1_0 *context, uint8_t port_num, struct ibv_port_attr *port_attr)`
///
/// The C form of [`compat::query_port`]: 0, or the positive errno.
#[export("IBVERBS_1.0" as ibv_query_port)]
fn ibv_query_port_1_0(context: Ctx10, port_num: u8, port_attr: Ptr<ibv_port_attr>) -> Status {
    Ok(compat::query_port(context, port_num, port_attr))
}

/// `int ibv_query_gid(struct ibv_context_1_0 *context, uint8_t port_num, int index, union ibv_gid *gid)`
///
/// The C form of [`gid::gid`], on the real context: 0, or -1 with errno.
#[export("IBVERBS_1.0" as ibv_query_gid)]
fn ibv_query_gid_1_0(
    context: Ctx10,
    port_num: u8,
    index: c_int,
    gid: Ptr<ibv_gid>,
) -> MinusOne<c_int> {
    gid::gid(context.real(), port_num, index, gid).map(|()| 0)
}

/// `int ibv_query_pkey(struct ibv_context_1_0 *context, uint8_t port_num, int index, __be16 *pkey)`
///
/// The C form of [`gid::pkey`], on the real context: 0, or -1 with errno.
#[export("IBVERBS_1.0" as ibv_query_pkey)]
fn ibv_query_pkey_1_0(
    context: Ctx10,
    port_num: u8,
    index: c_int,
    pkey: Ptr<u16>,
) -> MinusOne<c_int> {
    gid::pkey(context.real(), port_num, index, pkey)
}

/// `void ibv_register_driver(const char *name, ibv_driver_init_func_1_1 init_func)`
///
/// `ibv_driver_init_func_1_1` is `struct ibv_device *(*)(const char *uverbs_sys_path, int abi_version)`.
///
/// Not a stub: rdma-core keeps this IBVERBS_1.1-only name (no default version) as an empty function
/// so that old providers calling it still link; the driver interface has been private since
/// rdma-core 13 and the call has no effect.
#[export("IBVERBS_1.1" as ibv_register_driver)]
fn ibv_register_driver_1_1(
    _name: *const c_char,
    _init_func: Option<
        unsafe extern "C" fn(uverbs_sys_path: *const c_char, abi_version: c_int) -> *mut ibv_device,
    >,
) -> Raw<()> {
    // Raw: nothing is converted or returned (a function pointer has no `FromC`).
}
