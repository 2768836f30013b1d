//! The provider interface of IBVERBS_PRIVATE_34 besides the command layer (rdma-core: init.c,
//! device.c, dummy_ops.c, cmd_ioctl.c, cmd.c).
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::errno::Errno;
use crate::verbs::ctxpriv::Context;
use core::ffi::{c_int, c_uint, c_void};

use crate::abi::ctype::CEnum;
use crate::abi::driver::verbs_device_ops;
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::uapi::ib_uverbs_attr;
use crate::abi::verbs::{ibv_comp_channel, ibv_context, ibv_cq, ibv_device};
use crate::capi::export::{export, export_byte};
use crate::cret::CRet;

/// `void verbs_register_driver_{ABI}(const struct verbs_device_ops *ops)`
///
/// Called by a provider's ELF constructor, from inside our dlopen (or at program start for a
/// provider linked into the program): records the provider, and the provider ABI it was built
/// for (the entry point it calls: `verbs_register_driver_34`, `_57`, ...), for device matching.
/// NULL is ignored.
#[export(PRIVATE 34.. as "verbs_register_driver_{ABI}")]
fn verbs_register_driver<const ABI: u32>(ops: *const verbs_device_ops) -> Raw<()> {
    // SAFETY: a provider passes its static ops table.
    unsafe { crate::verbs::devlist::register_driver(ops, ABI) };
}

/// `void verbs_set_ops(struct verbs_context *vctx, const struct verbs_context_ops *ops)`
///
/// Installs the provider's ops (its provider ABI's table): each non-NULL op goes into the
/// context's private table and, per rdma-core's rules, into its public slot. NULL arguments are
/// ignored.
#[export(PRIVATE 34..)]
fn verbs_set_ops<const ABI: u32>(vctx: *mut c_void, ops: *const c_void) -> Raw<()> {
    if vctx.is_null() || ops.is_null() {
        return;
    }
    let view = crate::verbs::ctxpriv::view34(vctx, ABI);
    // SAFETY: a context of this ABI initialised by _verbs_init_and_alloc_context (its priv is
    // ours); the provider's op table of its ABI.
    unsafe { crate::verbs::ops::set_ops::<ABI, true>(view, ABI, ops.cast()) };
}

/// `void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd, size_t alloc_size, struct verbs_context *context_offset, uint32_t driver_id)`
///
/// Allocates the provider's context wrapper (`alloc_size` zeroed bytes from libc, so the provider
/// may free it) and initialises the `verbs_context` of the provider's ABI at byte offset
/// `context_offset` inside it. Owns `cmd_fd` from here: closed on failure. NULL with errno on
/// failure (ENOMEM; EINVAL for a NULL device or an offset that does not fit — Divergence:
/// rdma-core would write out of bounds).
#[export(PRIVATE 34..)]
fn _verbs_init_and_alloc_context<const ABI: u32>(
    device: *mut ibv_device,
    cmd_fd: c_int,
    alloc_size: usize,
    context_offset: *mut c_void,
    driver_id: u32,
) -> Null<*mut c_void> {
    // SAFETY: the C contract: a listed device or NULL; cmd_fd is ours to close on failure.
    unsafe {
        crate::verbs::context::alloc_context(
            ABI,
            device,
            cmd_fd,
            alloc_size,
            context_offset as usize,
            driver_id,
        )
    }
}

/// `void verbs_init_cq(struct ibv_cq *cq, struct ibv_context *context, struct ibv_comp_channel *channel, void *cq_context)`
///
/// The core fields of a CQ a provider made: owner, channel (its use count raised under the
/// context mutex), user context, event counters, and the mutex/condvar the acks use.
#[export(PRIVATE 34..)]
fn verbs_init_cq(
    cq: *mut ibv_cq,
    context: *mut ibv_context,
    channel: *mut ibv_comp_channel,
    cq_context: *mut c_void,
) -> Raw<()> {
    // SAFETY: the C contract: NULL or a provider's freshly created CQ of this context.
    unsafe { crate::verbs::context::init_cq(cq, context, channel, cq_context) }
}

/// `void verbs_uninit_context(struct verbs_context *context)`
///
/// The core half of a provider's free_context: drops the private part, closes the command and
/// async fds, releases the device. The provider frees its wrapper afterwards.
#[export(PRIVATE 34..)]
fn verbs_uninit_context<const ABI: u32>(context: *mut c_void) -> Raw<()> {
    if context.is_null() {
        return;
    }
    let view = crate::verbs::ctxpriv::view34(context, ABI);
    // SAFETY: the C contract: a context of this library, its provider's free_context calling.
    unsafe { crate::verbs::context::uninit_context(view) }
}

/// `struct ibv_context *verbs_open_device(struct ibv_device *device, void *private_data)`
///
/// Opens the device's uverbs node, lets the provider build its context, installs the library's
/// own entry points, and gets the async event fd if the provider did not. NULL with errno on
/// failure (the open's errno, e.g. EACCES; the provider's; EINVAL for NULL — Divergence).
#[export(PRIVATE 34..)]
fn verbs_open_device(device: *mut ibv_device, private_data: *mut c_void) -> Raw<*mut ibv_context> {
    // SAFETY: a device from ibv_get_device_list.
    unsafe { crate::verbs::context::open_device(device, private_data) }.ret_null()
}

/// The body of [`ibv_query_gid_type`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_query_gid_type`].
#[inline(always)]
pub(crate) unsafe fn query_gid_type_edge(
    context: *mut ibv_context,
    port_num: u8,
    index: c_uint,
    r#type: *mut CEnum<crate::abi::driver::ibv_gid_type_sysfs>,
) -> c_int {
    if context.is_null() || r#type.is_null() {
        return Err(crate::errno::Errno::EINVAL).ret_minus_one();
    }
    // SAFETY: zeroed plain data.
    let mut entry: crate::abi::verbs::ibv_gid_entry = unsafe { core::mem::zeroed() };
    let attr_type = crate::abi::driver::verbs_query_gid_attr_mask::VERBS_QUERY_GID_ATTR_TYPE as u32;
    // SAFETY: an open context; entry is ours.
    let r = unsafe {
        crate::verbs::gid::query_gid_entry(
            context,
            port_num.into(),
            index,
            &mut entry,
            size_of::<crate::abi::verbs::ibv_gid_entry>(),
            0,
            attr_type,
        )
    };
    let v = match r {
        Err(e) if e.0 == libc::ENODATA => 0,
        Err(e) => return Err(e).ret_minus_one(),
        // IBV_GID_TYPE_IB and _ROCE_V1 are sysfs's "IB/RoCE v1" (0); _ROCE_V2 is 1.
        Ok(()) => u32::from(entry.gid_type >= 2),
    };
    // SAFETY: the caller's buffer.
    unsafe { *r#type = CEnum::new(v) };
    0
}

/// `int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index, enum ibv_gid_type_sysfs *type)`
///
/// The sysfs-style GID type (IB/RoCE v1 or RoCE v2); an empty slot reads as v1. -1 with errno on
/// failure. Divergence: NULL arguments give -1 with errno EINVAL.
#[export(PRIVATE 34..)]
fn ibv_query_gid_type(
    context: *mut ibv_context,
    port_num: u8,
    index: c_uint,
    r#type: *mut CEnum<crate::abi::driver::ibv_gid_type_sysfs>,
) -> Raw<c_int> {
    // SAFETY: the export's C contract is the body's.
    unsafe { query_gid_type_edge(context, port_num, index, r#type) }
}

/// `int execute_ioctl(struct ibv_context *context, struct ibv_command_buffer *cmd)`
///
/// Sends a provider-built ioctl command chain (links linearised into the head, driver id in the
/// header) and copies the kernel's answers back into each buffer. 0, or the positive errno
/// (EINVAL for a buffer error or a chain longer than the head's room; the ioctl's errno).
#[export(PRIVATE 34..)]
fn execute_ioctl(context: *mut ibv_context, cmd: *mut ibv_command_buffer) -> Raw<c_int> {
    if context.is_null() || cmd.is_null() {
        return crate::errno::Errno::EINVAL.ret_errno();
    }
    // SAFETY: an open context and the provider's command chain.
    unsafe {
        let Ok(cx) = Context::from_raw(context) else {
            return Errno::EINVAL.ret_errno();
        };
        crate::verbs::cmdbuf::execute_c(cx.cmd(), cmd).ret_errno()
    }
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
    // SAFETY: the C contract, forwarded.
    unsafe { final_num_attrs(num_attrs, link) }
}

/// The body of `__ioctl_final_num_attrs`, also what ABI 65's adapters ask of a provider's
/// `driver` chain.
///
/// # Safety
/// As for the export.
pub(crate) unsafe fn final_num_attrs(num_attrs: c_uint, link: *mut ibv_command_buffer) -> c_uint {
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
