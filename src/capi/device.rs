//! Device list, identity, open and close (rdma-core: device.c), as declarations over
//! `verbs::device`.
//!
//! Divergence throughout: a NULL device or context gives EINVAL (errno set; NULL, 0 or -1 as the
//! function returns) where rdma-core would crash.
use core::ffi::{c_char, c_int};

use crate::abi::ctype::Be64;
use crate::abi::driver::verbs_context_pabi34 as verbs_context;
use crate::abi::kern_abi::{ibv_command_buffer, ibv_get_context, ibv_query_port};
use crate::abi::uapi::{ib_uverbs_ex_query_device_resp, ib_uverbs_get_context_resp};
use crate::abi::verbs::{
    ibv_context, ibv_device, ibv_device_attr_ex, ibv_port_attr, ibv_query_device_ex_input,
};
use crate::capi::export::{Buf, export};
use crate::verbs::device;
use crate::verbs::handle::{Ctx, Dev, Ptr};

/// `struct ibv_device **ibv_get_device_list(int *num_devices)`
///
/// The C form of [`device::get_list`]: NULL with errno on failure.
#[export("IBVERBS_1.1")]
fn ibv_get_device_list(num_devices: Option<Ptr<c_int>>) -> Null<*mut *mut ibv_device> {
    device::get_list(num_devices)
}

/// `void ibv_free_device_list(struct ibv_device **list)`
///
/// The C form of [`device::free_list`].
#[export("IBVERBS_1.1")]
fn ibv_free_device_list(list: *mut *mut ibv_device) -> Void {
    device::free_list(list)
}

/// `const char *ibv_get_device_name(struct ibv_device *device)`
///
/// The C form of [`device::name`].
#[export("IBVERBS_1.1")]
fn ibv_get_device_name(device: Dev) -> Null<*const c_char> {
    Ok(device::name(device))
}

/// `__be64 ibv_get_device_guid(struct ibv_device *device)`
///
/// The C form of [`device::guid`], returned in network order.
///
/// A NULL `device` gives 0 too, with errno EINVAL (no error channel).
#[export("IBVERBS_1.1")]
fn ibv_get_device_guid(device: *mut ibv_device) -> Raw<Be64> {
    // Raw: the error value is 0, which no convention names.
    // SAFETY: the C contract: NULL or a held device.
    let d = unsafe { Dev::from_raw(device) };
    Be64(super::ret::ret_or(d.map(|d| device::guid(d).to_be()), 0))
}

/// `int ibv_get_device_index(struct ibv_device *device)`
///
/// The C form of [`device::index`].
#[export("IBVERBS_1.9")]
fn ibv_get_device_index(device: Dev) -> MinusOne<c_int> {
    Ok(device::index(device))
}

/// `struct ibv_context *ibv_open_device(struct ibv_device *device)`
///
/// The C form of [`device::open`]: NULL with errno on failure.
#[export("IBVERBS_1.1")]
fn ibv_open_device(device: Dev) -> Null<*mut ibv_context> {
    device::open(device)
}

/// `int ibv_close_device(struct ibv_context *context)`
///
/// The C form of [`device::close`]: always 0.
#[export("IBVERBS_1.1")]
fn ibv_close_device(context: Ctx) -> MinusOne<c_int> {
    device::close(context);
    Ok(0)
}

/// `struct ibv_context *ibv_import_device(int cmd_fd)`
///
/// The C form of [`device::import`]: NULL with errno on failure.
#[export("IBVERBS_1.10")]
fn ibv_import_device(cmd_fd: c_int) -> Null<*mut ibv_context> {
    device::import(cmd_fd)
}

/// `int ibv_cmd_get_context(struct verbs_context *context, struct ibv_get_context *cmd, size_t cmd_size, struct ib_uverbs_get_context_resp *resp, size_t resp_size)`
///
/// The C form of [`device::cmd_get_context`] with no file descriptors: 0, or the positive errno.
///
/// Divergence: NULL or short buffers give EINVAL.
///
/// Provider ABI 34 signature (v44-v56); provider ABI 57 (v57) inserted `struct ibv_fd_arr *fd_arr`
/// before `resp`.
#[export(PRIVATE 34..57)]
fn ibv_cmd_get_context(
    context: Ptr<verbs_context>,
    (cmd, cmd_size): Buf<ibv_get_context>,
    (resp, resp_size): Buf<ib_uverbs_get_context_resp>,
) -> Errno {
    device::cmd_get_context(context, cmd.bytes(), resp.bytes(), None)
}

/// `int ibv_cmd_query_context(struct ibv_context *ctx, struct ibv_command_buffer *driver)`
///
/// The C form of [`device::cmd_query_context`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_context(ctx: Ctx, driver: *mut ibv_command_buffer) -> Errno {
    device::cmd_query_context(ctx, driver)
}

/// `int ibv_cmd_query_device_any(struct ibv_context *context, const struct ibv_query_device_ex_input *input, struct ibv_device_attr_ex *attr, size_t attr_size, struct ib_uverbs_ex_query_device_resp *resp, size_t *resp_size)`
///
/// The C form of [`device::cmd_query_device_any`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_device_any(
    context: Ctx,
    input: *const ibv_query_device_ex_input,
    attr: Ptr<ibv_device_attr_ex>,
    attr_size: usize,
    resp: *mut ib_uverbs_ex_query_device_resp,
    resp_size: Option<Ptr<usize>>,
) -> Errno {
    device::cmd_query_device_any(context, input, attr, attr_size, resp, resp_size)
}

/// `int ibv_cmd_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr, struct ibv_query_port *cmd, size_t cmd_size)`
///
/// The C form of [`device::cmd_query_port`]: 0, or the positive errno.
///
/// Divergence: NULL or short buffers give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_port(
    context: Ctx,
    port_num: u8,
    port_attr: Ptr<ibv_port_attr>,
    (cmd, cmd_size): Buf<ibv_query_port>,
) -> Errno {
    device::cmd_query_port(context, port_num, port_attr, cmd.bytes())
}

/// `int ibv_cmd_query_port_speed(struct ibv_context *context, uint32_t port_num, uint64_t *speed)`
///
/// The C form of [`crate::verbs::query::cmd_port_speed`], with the speed stored in `*speed`:
/// 0, or the positive errno.
///
/// In `IBVERBS_PRIVATE_59` as rdma-core v62/v63 put it there, without a new provider ABI.
///
/// Divergence: NULL `context` or `speed` gives EINVAL.
#[export(PRIVATE 59..)]
fn ibv_cmd_query_port_speed(context: Ctx, port_num: u32, speed: Ptr<u64>) -> Errno {
    crate::verbs::query::cmd_port_speed(context, port_num).map(|v| speed.write(v))
}
