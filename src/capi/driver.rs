//! The provider interface of IBVERBS_PRIVATE_34 besides the command layer (rdma-core: init.c,
//! device.c, dummy_ops.c, cmd_ioctl.c, cmd.c).
//!
//! Every function here but those marked "Not a stub" is a stub, listed in `stubs.txt`: its doc
//! names the C prototype and the return convention the stub follows. The parameters keep their C
//! names and stay unused until the behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_int, c_uint, c_void};

use crate::abi::driver::{verbs_context_pabi34 as verbs_context, verbs_context_ops, verbs_device_ops};
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::uapi::ib_uverbs_attr;
use crate::abi::verbs::{ibv_comp_channel, ibv_context, ibv_cq, ibv_device};
use crate::errno::{CRet, unimplemented};

/// `void verbs_register_driver_34(const struct verbs_device_ops *ops)`
///
/// Called by a provider's ELF constructor, from inside our dlopen (or at program start for a
/// provider linked into the program): records the provider for device matching. NULL is ignored.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_register_driver_34(ops: *const verbs_device_ops) {
    // SAFETY: a provider passes its static ops table.
    unsafe { super::devlist::register_driver(ops, 34) };
}

/// `void verbs_set_ops(struct verbs_context *vctx, const struct verbs_context_ops *ops)`
///
/// Stub: does nothing (no return value to carry the failure).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_set_ops(vctx: *mut verbs_context, ops: *const verbs_context_ops) {
    let _ = unimplemented("verbs_set_ops");
}

/// `void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd, size_t alloc_size, struct verbs_context *context_offset, uint32_t driver_id)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// `context_offset` is an offset disguised as a pointer (`&((T *)NULL)->member`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _verbs_init_and_alloc_context(
    device: *mut ibv_device,
    cmd_fd: c_int,
    alloc_size: usize,
    context_offset: *mut verbs_context,
    driver_id: u32,
) -> *mut c_void {
    Err(unimplemented("_verbs_init_and_alloc_context")).ret_null()
}

/// `void verbs_init_cq(struct ibv_cq *cq, struct ibv_context *context, struct ibv_comp_channel *channel, void *cq_context)`
///
/// Stub: does nothing (no return value to carry the failure).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_init_cq(
    cq: *mut ibv_cq,
    context: *mut ibv_context,
    channel: *mut ibv_comp_channel,
    cq_context: *mut c_void,
) {
    let _ = unimplemented("verbs_init_cq");
}

/// `void verbs_uninit_context(struct verbs_context *context)`
///
/// Stub: does nothing (no return value to carry the failure).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_uninit_context(context: *mut verbs_context) {
    let _ = unimplemented("verbs_uninit_context");
}

/// `struct ibv_context *verbs_open_device(struct ibv_device *device, void *private_data)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_open_device(
    device: *mut ibv_device,
    private_data: *mut c_void,
) -> *mut ibv_context {
    Err(unimplemented("verbs_open_device")).ret_null()
}

/// `int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index, enum ibv_gid_type_sysfs *type)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_query_gid_type(
    context: *mut ibv_context,
    port_num: u8,
    index: c_uint,
    r#type: *mut u32,
) -> c_int {
    Err(unimplemented("ibv_query_gid_type")).ret_minus_one()
}

/// `int execute_ioctl(struct ibv_context *context, struct ibv_command_buffer *cmd)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn execute_ioctl(
    context: *mut ibv_context,
    cmd: *mut ibv_command_buffer,
) -> c_int {
    Err::<(), _>(unimplemented("execute_ioctl")).ret_errno()
}

/// `extern bool verbs_allow_disassociate_destroy;`
///
/// Not a stub, and not a function: a data symbol (one byte in `.bss`) that providers read to take
/// EIO from a destroy command for success once the device is disassociated (cmd_write.h,
/// `verbs_is_destroy_err`). rdma-core sets it at library init when `RDMAV_ALLOW_DISASSOC_DESTROY`
/// is in the environment; until that init exists here it stays false.
#[unsafe(no_mangle)]
pub static mut verbs_allow_disassociate_destroy: bool = false;

/// Library init's write of [`verbs_allow_disassociate_destroy`] (RDMAV_ALLOW_DISASSOC_DESTROY).
pub(crate) fn set_allow_disassociate_destroy(on: bool) {
    // SAFETY: written once during library init, before any context exists to read it; providers
    // only read it.
    unsafe { *(&raw mut verbs_allow_disassociate_destroy) = on };
}

/// `unsigned int __ioctl_final_num_attrs(unsigned int num_attrs, struct ibv_command_buffer *link)`
///
/// Not a stub: the provider macro `DECLARE_COMMAND_BUFFER_LINK` sizes its on-stack attribute array
/// with it, so there is no neutral answer, only the right one: `num_attrs` plus the attributes
/// filled so far in every buffer of the `link` chain (no error channel).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __ioctl_final_num_attrs(
    num_attrs: c_uint,
    link: *mut ibv_command_buffer,
) -> c_uint {
    let mut total = num_attrs;
    let mut link = link;
    while !link.is_null() {
        // SAFETY: the C contract: `link` heads a chain of command buffers set up by
        // DECLARE_COMMAND_BUFFER*, each `next_attr` pointing into its own `hdr.attrs` array.
        unsafe {
            let first = core::ptr::addr_of!((*link).hdr.attrs).cast::<ib_uverbs_attr>();
            let filled = (*link).next_attr.cast_const().offset_from(first);
            total = total.wrapping_add(filled as c_uint);
            link = (*link).next;
        }
    }
    total
}
