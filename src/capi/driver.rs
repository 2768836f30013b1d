//! The provider interface of the private nodes besides the command layer (rdma-core: init.c,
//! device.c, dummy_ops.c, cmd_ioctl.c, cmd.c), each a declaration over `verbs::{devlist, ops,
//! context, gid, cmdbuf}`.
use core::ffi::{c_int, c_uint, c_void};

use crate::abi::ctype::CEnum;
use crate::abi::driver::{ibv_gid_type_sysfs, verbs_device_ops};
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::verbs::{ibv_comp_channel, ibv_context, ibv_cq, ibv_device};
use crate::capi::export::{export, export_byte};
use crate::verbs::cmdbuf::Chain;
use crate::verbs::context;
use crate::verbs::handle::{Ctx, Dev, Ptr};

/// `void verbs_register_driver_{ABI}(const struct verbs_device_ops *ops)`
///
/// The C form of [`crate::verbs::devlist::register::register_driver`], with the provider ABI of
/// the entry point called (`verbs_register_driver_34`, `_57`, ...).
#[export(PRIVATE 34.. as "verbs_register_driver_{ABI}")]
fn verbs_register_driver<const ABI: u32>(ops: *const verbs_device_ops) -> Void {
    crate::verbs::devlist::register_driver(ops, ABI)
}

/// `void verbs_set_ops(struct verbs_context *vctx, const struct verbs_context_ops *ops)`
///
/// The C form of [`crate::verbs::ops::verbs_set_ops`].
#[export(PRIVATE 34..)]
fn verbs_set_ops<const ABI: u32>(vctx: *mut c_void, ops: *const c_void) -> Void {
    crate::verbs::ops::verbs_set_ops::<ABI>(vctx, ops)
}

/// `void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd, size_t alloc_size, struct verbs_context *context_offset, uint32_t driver_id)`
///
/// The C form of [`context::alloc_context`] (`context_offset` is the byte offset): NULL with
/// errno on failure.
#[export(PRIVATE 34..)]
fn _verbs_init_and_alloc_context<const ABI: u32>(
    device: *mut ibv_device,
    cmd_fd: c_int,
    alloc_size: usize,
    context_offset: *mut c_void,
    driver_id: u32,
) -> Null<*mut c_void> {
    let offset = context_offset as usize;
    context::alloc_context(ABI, device, cmd_fd, alloc_size, offset, driver_id)
}

/// `void verbs_init_cq(struct ibv_cq *cq, struct ibv_context *context, struct ibv_comp_channel *channel, void *cq_context)`
///
/// The C form of [`crate::verbs::cq::init_cq`].
#[export(PRIVATE 34..)]
fn verbs_init_cq(
    cq: *mut ibv_cq,
    context: *mut ibv_context,
    channel: *mut ibv_comp_channel,
    cq_context: *mut c_void,
) -> Void {
    // SAFETY: the C caller's contract: `cq` is NULL or the provider's fresh CQ of `context`, and
    // `channel` NULL or a channel of the same context.
    unsafe { crate::verbs::cq::init_cq(cq, context, channel, cq_context) }
}

/// `void verbs_uninit_context(struct verbs_context *context)`
///
/// The C form of [`context::uninit`].
#[export(PRIVATE 34..)]
fn verbs_uninit_context<const ABI: u32>(context: *mut c_void) -> Void {
    context::uninit(context, ABI)
}

/// `struct ibv_context *verbs_open_device(struct ibv_device *device, void *private_data)`
///
/// The C form of [`context::open_device`]: NULL with errno on failure.
#[export(PRIVATE 34..)]
fn verbs_open_device(device: Dev, private_data: *mut c_void) -> Null<*mut ibv_context> {
    context::open_device(device.raw(), private_data)
}

/// `int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index, enum ibv_gid_type_sysfs *type)`
///
/// The C form of [`crate::verbs::gid::gid_type`]: 0 with the type in `*type`, or -1 with
/// errno.
///
/// Divergence: NULL arguments give -1 with errno EINVAL.
#[export(PRIVATE 34..)]
fn ibv_query_gid_type(
    context: Ctx,
    port_num: u8,
    index: c_uint,
    r#type: Ptr<CEnum<ibv_gid_type_sysfs>>,
) -> MinusOne<c_int> {
    r#type.write(CEnum::new(crate::verbs::gid::gid_type(
        context, port_num, index,
    )?));
    Ok(0)
}

/// `int execute_ioctl(struct ibv_context *context, struct ibv_command_buffer *cmd)`
///
/// The C form of [`crate::verbs::cmdbuf::execute`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn execute_ioctl(context: Ctx, cmd: Ptr<ibv_command_buffer>) -> Errno {
    crate::verbs::cmdbuf::execute(context, cmd)
}

export_byte! {
    /// `extern bool verbs_allow_disassociate_destroy;`
    ///
    /// Not a stub, and not a function: a data symbol (one byte in `.bss`, every version naming
    /// the same byte) that providers read to take EIO from a destroy command for success once the
    /// device is disassociated (cmd_write.h, `verbs_is_destroy_err`). rdma-core sets it at library
    /// init when `RDMAV_ALLOW_DISASSOC_DESTROY` is in the environment; `verbs::disassoc` writes
    /// and reads it by its link name.
    #[export(PRIVATE 34..)]
    verbs_allow_disassociate_destroy
}

/// `unsigned int __ioctl_final_num_attrs(unsigned int num_attrs, struct ibv_command_buffer *link)`
///
/// Not a stub: the provider macro `DECLARE_COMMAND_BUFFER_LINK` sizes its on-stack attribute array
/// with it, so there is no neutral answer, only the right one: `num_attrs` plus the attributes
/// filled so far in every buffer of the `link` chain (no error channel).
#[export(PRIVATE 34..)]
fn __ioctl_final_num_attrs(num_attrs: c_uint, link: *mut ibv_command_buffer) -> Raw<c_uint> {
    // SAFETY: the C contract: NULL or a chain of live command buffers.
    unsafe { Chain::from_raw(link) }.final_num_attrs(num_attrs)
}
