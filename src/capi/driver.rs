//! The provider interface of IBVERBS_PRIVATE_34 besides the command layer (rdma-core: init.c,
//! device.c, dummy_ops.c, cmd_ioctl.c, cmd.c).
//!
//! A function whose doc starts "Stub:" is listed in `stubs.txt` and fails with EOPNOTSUPP through
//! the C convention its doc names; the others are implemented.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_int, c_uint, c_void};

use crate::abi::driver::{verbs_context_pabi34 as verbs_context, verbs_context_ops, verbs_device_ops};
use crate::abi::ctype::CEnum;
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::uapi::ib_uverbs_attr;
use crate::abi::verbs::{ibv_comp_channel, ibv_context, ibv_cq, ibv_device};
use crate::errno::CRet;

/// `void verbs_register_driver_34(const struct verbs_device_ops *ops)`
///
/// Called by a provider's ELF constructor, from inside our dlopen (or at program start for a
/// provider linked into the program): records the provider for device matching. NULL is ignored.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_register_driver_34(ops: *const verbs_device_ops) {
    // SAFETY: a provider passes its static ops table.
    unsafe { crate::verbs::devlist::register_driver(ops, 34) };
}

/// `void verbs_set_ops(struct verbs_context *vctx, const struct verbs_context_ops *ops)`
///
/// Installs the provider's ops: each non-NULL op goes into the context's private table and, per
/// rdma-core's rules, into its public slot. NULL arguments are ignored.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_set_ops(vctx: *mut verbs_context, ops: *const verbs_context_ops) {
    if vctx.is_null() || ops.is_null() {
        return;
    }
    // SAFETY: a context initialised by _verbs_init_and_alloc_context (its priv is ours) and the
    // provider's op table.
    unsafe { super::ops::set_ops(vctx, ops) };
}

/// `void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd, size_t alloc_size, struct verbs_context *context_offset, uint32_t driver_id)`
///
/// Allocates the provider's context wrapper (`alloc_size` zeroed bytes from libc, so the provider
/// may free it) and initialises the `verbs_context` at byte offset `context_offset` inside it.
/// Owns `cmd_fd` from here: closed on failure. NULL with errno on failure (ENOMEM; EINVAL for a
/// NULL device or an offset that does not fit — Divergence: rdma-core would write out of bounds).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _verbs_init_and_alloc_context(
    device: *mut ibv_device,
    cmd_fd: c_int,
    alloc_size: usize,
    context_offset: *mut verbs_context,
    driver_id: u32,
) -> *mut c_void {
    let offset = context_offset as usize;
    let fits = offset.checked_add(size_of::<verbs_context>()).is_some_and(|end| end <= alloc_size);
    if device.is_null() || !fits {
        crate::sys::cdev::close(cmd_fd);
        return Err(crate::errno::Errno::EINVAL).ret_null();
    }
    // SAFETY: calloc of the provider's wrapper; a zeroed verbs_context is a valid start.
    let drv = unsafe { libc::calloc(1, alloc_size) };
    if drv.is_null() {
        crate::sys::cdev::close(cmd_fd);
        return Err(crate::errno::Errno::ENOMEM).ret_null();
    }
    let vctx = drv.cast::<u8>().wrapping_add(offset).cast::<verbs_context>();
    // SAFETY: vctx lies inside the fresh allocation (checked above).
    match unsafe { init_context(vctx, device, cmd_fd, driver_id) } {
        Ok(()) => drv,
        Err(e) => {
            // SAFETY: ours, not handed out.
            unsafe { libc::free(drv) };
            Err(e).ret_null()
        }
    }
}

/// rdma-core's `verbs_init_context`: the core half of every context. Owns `cmd_fd` (closed on
/// failure).
///
/// # Safety
/// `vctx` is a zeroed PABI-34 `verbs_context` in memory the provider owns; `device` is listed.
pub(crate) unsafe fn init_context(
    vctx: *mut verbs_context,
    device: *mut ibv_device,
    cmd_fd: c_int,
    driver_id: u32,
) -> crate::errno::Result<()> {
    let priv_ = Box::new(super::ctxpriv::ContextPriv::new(
        // SAFETY: a table of Option<fn>: all-zero is all None.
        unsafe { core::mem::zeroed() },
        // Probes UVERBS_METHOD_INVOKE_WRITE once (rdma-core's has_ioctl_write).
        crate::cmd::CmdState::init(&crate::cmd::CmdFd(cmd_fd), driver_id),
        false,
    ));
    crate::verbs::devlist::device_hold(crate::verbs::devlist::vdev_of(device));
    // SAFETY: the caller's contract.
    unsafe {
        let ctx = &raw mut (*vctx).context;
        (*ctx).device = device;
        (*ctx).cmd_fd = cmd_fd;
        (*ctx).async_fd = -1;
        libc::pthread_mutex_init(&raw mut (*ctx).mutex, core::ptr::null());
        // __VERBS_ABI_IS_EXTENDED: the inline functions of verbs.h look for the verbs_context.
        (*ctx).abi_compat = usize::MAX as *mut c_void;
        // The PABI-34 size: v65 inlines then see the six newer ops as absent.
        (*vctx).sz = size_of::<verbs_context>();
        (*vctx).r#priv = Box::into_raw(priv_).cast();
        super::ops::init_defaults(vctx);
    }
    Ok(())
}

/// `void verbs_init_cq(struct ibv_cq *cq, struct ibv_context *context, struct ibv_comp_channel *channel, void *cq_context)`
///
/// The core fields of a CQ a provider made: owner, channel (its use count raised under the
/// context mutex), user context, event counters, and the mutex/condvar the acks use.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_init_cq(
    cq: *mut ibv_cq,
    context: *mut ibv_context,
    channel: *mut ibv_comp_channel,
    cq_context: *mut c_void,
) {
    if cq.is_null() {
        return;
    }
    // SAFETY: a provider's freshly created CQ of this context.
    unsafe {
        (*cq).context = context;
        (*cq).channel = channel;
        if !channel.is_null() && !context.is_null() {
            libc::pthread_mutex_lock(&raw mut (*context).mutex);
            (*channel).refcnt += 1;
            libc::pthread_mutex_unlock(&raw mut (*context).mutex);
        }
        (*cq).cq_context = cq_context;
        (*cq).comp_events_completed = 0;
        (*cq).async_events_completed = 0;
        libc::pthread_mutex_init(&raw mut (*cq).mutex, core::ptr::null());
        libc::pthread_cond_init(&raw mut (*cq).cond, core::ptr::null());
    }
}

/// `void verbs_uninit_context(struct verbs_context *context)`
///
/// The core half of a provider's free_context: drops the private part, closes the command and
/// async fds, releases the device. The provider frees its wrapper afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_uninit_context(context: *mut verbs_context) {
    if context.is_null() {
        return;
    }
    // SAFETY: a context initialised by init_context; priv is the Box it leaked.
    unsafe {
        let p = (*context).r#priv;
        if !p.is_null() {
            drop(Box::from_raw(p.cast::<super::ctxpriv::ContextPriv>()));
            (*context).r#priv = core::ptr::null_mut();
        }
        let ctx = &raw mut (*context).context;
        crate::sys::cdev::close((*ctx).cmd_fd);
        crate::sys::cdev::close((*ctx).async_fd);
        crate::verbs::devlist::device_put(crate::verbs::devlist::vdev_of((*ctx).device));
    }
}

/// `struct ibv_context *verbs_open_device(struct ibv_device *device, void *private_data)`
///
/// Opens the device's uverbs node, lets the provider build its context, installs the library's
/// own entry points, and gets the async event fd if the provider did not. NULL with errno on
/// failure (the open's errno, e.g. EACCES; the provider's; EINVAL for NULL — Divergence).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_open_device(
    device: *mut ibv_device,
    private_data: *mut c_void,
) -> *mut ibv_context {
    // SAFETY: a device from ibv_get_device_list.
    unsafe { open_device(device, private_data) }.ret_null()
}

/// The body of `verbs_open_device` / `ibv_open_device`.
///
/// # Safety
/// `device` is NULL or a listed device.
pub(crate) unsafe fn open_device(
    device: *mut ibv_device,
    private_data: *mut c_void,
) -> crate::errno::Result<*mut ibv_context> {
    if device.is_null() {
        return Err(crate::errno::Errno::EINVAL);
    }
    let vdev = crate::verbs::devlist::vdev_of(device).0;
    // SAFETY: a listed device: ops and sysfs were set when a provider took it.
    unsafe {
        let sysfs = (*vdev).sysfs;
        let mut cmd_fd = -1;
        if !sysfs.is_null() {
            let name = core::ffi::CStr::from_ptr((*sysfs).sysfs_name.as_ptr()).to_string_lossy();
            cmd_fd = crate::sys::cdev::open_cdev(&name, (*sysfs).sysfs_cdev as u64)?;
        }
        let ops = (*vdev).ops;
        let Some(alloc) = ops.as_ref().and_then(|o| o.alloc_context) else {
            crate::sys::cdev::close(cmd_fd);
            return Err(crate::errno::Errno::EOPNOTSUPP);
        };
        // cmd_fd belongs to alloc_context now (it closes it on failure).
        let vctx = alloc(device, cmd_fd, private_data);
        if vctx.is_null() {
            return Err(crate::errno::Errno(crate::sys::errno()));
        }
        // A provider ABI 65 provider returned its (larger) v65 verbs_context: work on its
        // ABI-34 view from here on.
        let vctx = super::ctxpriv::view34(vctx.cast(), crate::verbs::devlist::ops_abi(ops));
        if sysfs.is_null() {
            set_lib_ops(vctx);
            return Ok(&raw mut (*vctx).context);
        }
        finish_open(vctx, false)
    }
}

/// After a provider built a context (open or import): the library's entry points, the import
/// mark, and an async event fd if the provider left none. On failure the context is closed.
///
/// # Safety
/// `vctx` is a context the provider just returned (initialised by init_context).
pub(crate) unsafe fn finish_open(
    vctx: *mut verbs_context,
    imported: bool,
) -> crate::errno::Result<*mut ibv_context> {
    // SAFETY: the caller's contract.
    unsafe {
        set_lib_ops(vctx);
        let ctx = &raw mut (*vctx).context;
        if let Some(p) = super::ctxpriv::priv_mut(ctx) {
            p.imported = imported;
        }
        if (*ctx).async_fd == -1 {
            let fd = crate::cmd::CmdFd((*ctx).cmd_fd);
            match crate::cmd::device::alloc_async_fd(super::ctxpriv::cmd_of(ctx, &fd)) {
                Ok(afd) => (*ctx).async_fd = afd,
                Err(e) => {
                    close_context(ctx);
                    return Err(e);
                }
            }
        }
        Ok(ctx)
    }
}

/// `ibv_close_device`'s body: the provider's free_context (which calls verbs_uninit_context).
///
/// # Safety
/// `ctx` is a live context of this library.
pub(crate) unsafe fn close_context(ctx: *mut ibv_context) {
    // SAFETY: the caller's contract.
    unsafe {
        if let Some(f) = super::ctxpriv::ops_of(ctx).free_context {
            f(ctx);
        }
    }
}

/// rdma-core's `set_lib_ops`: the library's own entry points in the context's public slots.
///
/// # Safety
/// `vctx` is a context initialised by [`init_context`].
unsafe fn set_lib_ops(vctx: *mut verbs_context) {
    // SAFETY: the caller's contract.
    unsafe {
        (*vctx).create_cq_ex = Some(lib_create_cq_ex);
        (*vctx).query_port = Some(super::context::lib_query_port);
        // Old binaries call these slots directly; they behave as the exported symbols.
        (*vctx).context.ops._compat_query_port = Some(super::context::ibv_query_port);
        (*vctx).context.ops._compat_query_device = Some(super::context::ibv_query_device);
        // Binaries built against libibverbs 1.1.8 find the flow ops in the placeholders.
        (*vctx).ABI_placeholder1 = (*vctx).ibv_create_flow.map(|f| {
            core::mem::transmute::<usize, unsafe extern "C" fn()>(f as usize)
        });
        (*vctx).ABI_placeholder2 = (*vctx).ibv_destroy_flow.map(|f| {
            core::mem::transmute::<usize, unsafe extern "C" fn()>(f as usize)
        });
    }
}

/// `__lib_ibv_create_cq_ex`: checks the completion fields asked for, then the provider's op,
/// then the core fields of the CQ.
unsafe extern "C" fn lib_create_cq_ex(
    context: *mut ibv_context,
    attr: *mut crate::abi::verbs::ibv_cq_init_attr_ex,
) -> *mut crate::abi::verbs::ibv_cq_ex {
    if context.is_null() || attr.is_null() {
        return Err(crate::errno::Errno::EINVAL).ret_null();
    }
    // SAFETY: the inline ibv_create_cq_ex passes its context and the caller's attributes.
    unsafe {
        if (*attr).wc_flags & !(crate::abi::verbs::IBV_CREATE_CQ_SUP_WC_FLAGS as u64) != 0 {
            return Err(crate::errno::Errno::EOPNOTSUPP).ret_null();
        }
        let Some(create) = super::ctxpriv::ops_of(context).create_cq_ex else {
            return Err(crate::errno::Errno::EOPNOTSUPP).ret_null();
        };
        let cq = create(context, attr);
        if !cq.is_null() {
            verbs_init_cq(cq.cast(), context, (*attr).channel, (*attr).cq_context);
        }
        cq
    }
}

/// `int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index, enum ibv_gid_type_sysfs *type)`
///
/// The sysfs-style GID type (IB/RoCE v1 or RoCE v2); an empty slot reads as v1. -1 with errno on
/// failure. Divergence: NULL arguments give -1 with errno EINVAL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_query_gid_type(
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
        super::gid::query_gid_entry(
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

/// `int execute_ioctl(struct ibv_context *context, struct ibv_command_buffer *cmd)`
///
/// Sends a provider-built ioctl command chain (links linearised into the head, driver id in the
/// header) and copies the kernel's answers back into each buffer. 0, or the positive errno
/// (EINVAL for a buffer error or a chain longer than the head's room; the ioctl's errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn execute_ioctl(
    context: *mut ibv_context,
    cmd: *mut ibv_command_buffer,
) -> c_int {
    if context.is_null() || cmd.is_null() {
        return Err::<(), _>(crate::errno::Errno::EINVAL).ret_errno();
    }
    // SAFETY: an open context and the provider's command chain.
    unsafe {
        let fd = crate::cmd::CmdFd((*context).cmd_fd);
        super::cmdbuf::execute_c(super::ctxpriv::cmd_of(context, &fd), cmd).ret_errno()
    }
}

/// `extern bool verbs_allow_disassociate_destroy;`
///
/// Not a stub, and not a function: a data symbol (one byte in `.bss`) that providers read to take
/// EIO from a destroy command for success once the device is disassociated (cmd_write.h,
/// `verbs_is_destroy_err`). rdma-core sets it at library init when `RDMAV_ALLOW_DISASSOC_DESTROY`
/// is in the environment ([`set_allow_disassociate_destroy`]); the library reads it through
/// [`allow_disassociate`].
#[unsafe(no_mangle)]
pub static mut verbs_allow_disassociate_destroy: bool = false;

/// Whether a destroy's EIO on a disassociated device counts as success: library init's value of
/// [`verbs_allow_disassociate_destroy`].
pub(crate) fn allow_disassociate() -> bool {
    // SAFETY: a plain byte, written only during library init.
    unsafe { (&raw const verbs_allow_disassociate_destroy).read() }
}

/// Library init's write of [`verbs_allow_disassociate_destroy`] (RDMAV_ALLOW_DISASSOC_DESTROY).
pub(crate) fn set_allow_disassociate_destroy(on: bool) {
    // SAFETY: written once during library init, before any context exists to read it; providers
    // only read it.
    unsafe { *(&raw mut verbs_allow_disassociate_destroy) = on };
    super::pabi65::set_allow_disassociate_destroy(on);
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
