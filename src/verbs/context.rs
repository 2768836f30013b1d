//! The life of a context (rdma-core: device.c `verbs_open_device`, `verbs_init_context`,
//! `verbs_uninit_context`, `ibv_close_device`; verbs.c `__lib_ibv_create_cq_ex`).
//!
//! Opening a device's uverbs node, the core half of every context (the private part, the device's
//! reference, the library's entry points in the public slots), and closing it through the
//! provider. Called by the exports of `capi::driver`, `capi::device` and `capi::pabi65`; calls the
//! registry (`devlist`), the private part (`ctxpriv`), the op tables (`ops`) and `cmd`.
//!
//! Invariant for the unsafe here: every `verbs_context` pointer handed in is inside memory the
//! provider allocated for a context of this library (PABI-34 view, see `ctxpriv::view34`), and no
//! `&mut` to it is held while a provider op runs.
// Blocks here still hold several unsafe operations under one reason; to be split (the rest of
// `verbs` denies it).
#![allow(clippy::multiple_unsafe_ops_per_block)]
use core::ffi::{c_int, c_void};

use crate::abi::driver::verbs_context_pabi34 as verbs_context;
use crate::abi::verbs::{ibv_comp_channel, ibv_context, ibv_cq, ibv_device};
use crate::cret::CRet;

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
    let priv_ = Box::new(crate::verbs::ctxpriv::ContextPriv::new(
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
        crate::verbs::ops::init_defaults(vctx);
    }
    Ok(())
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
            cmd_fd = crate::sys::cdev::open_cdev(&name, (*sysfs).sysfs_cdev)?;
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
        let vctx = crate::verbs::ctxpriv::view34(vctx.cast(), crate::verbs::devlist::ops_abi(ops));
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
        crate::verbs::ctxpriv::set_imported(ctx, imported);
        if (*ctx).async_fd == -1 {
            let cx = crate::verbs::ctxpriv::Context::from_raw(ctx)?;
            match crate::cmd::device::alloc_async_fd(cx.cmd()) {
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
        if let Some(f) = crate::verbs::ctxpriv::ops_of(ctx).free_context {
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
        (*vctx).query_port = Some(super::query::lib_query_port);
        // Old binaries call these slots directly; they behave as the exported symbols.
        (*vctx).context.ops._compat_query_port = Some(super::query::query_port_compat);
        (*vctx).context.ops._compat_query_device = Some(super::query::query_device);
        // Binaries built against libibverbs 1.1.8 find the flow ops in the placeholders.
        (*vctx).ABI_placeholder1 = (*vctx)
            .ibv_create_flow
            .map(|f| core::mem::transmute::<usize, unsafe extern "C" fn()>(f as usize));
        (*vctx).ABI_placeholder2 = (*vctx)
            .ibv_destroy_flow
            .map(|f| core::mem::transmute::<usize, unsafe extern "C" fn()>(f as usize));
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
        let Some(create) = crate::verbs::ctxpriv::ops_of(context).create_cq_ex else {
            return Err(crate::errno::Errno::EOPNOTSUPP).ret_null();
        };
        let cq = create(context, attr);
        if !cq.is_null() {
            init_cq(cq.cast(), context, (*attr).channel, (*attr).cq_context);
        }
        cq
    }
}

/// rdma-core's `verbs_init_cq`: the core fields of a CQ a provider made: owner, channel (its use
/// count raised under the context mutex), user context, event counters, and the mutex/condvar
/// the acks use. A NULL `cq` is ignored.
///
/// # Safety
/// `cq` is NULL or a provider's freshly created CQ of `context` (NULL or open); `channel` is NULL
/// or a completion channel of the same context.
pub(crate) unsafe fn init_cq(
    cq: *mut ibv_cq,
    context: *mut ibv_context,
    channel: *mut ibv_comp_channel,
    cq_context: *mut c_void,
) {
    if cq.is_null() {
        return;
    }
    // SAFETY: the caller's contract.
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

/// rdma-core's `verbs_uninit_context`, the core half of a provider's free_context: drops the
/// private part, closes the command and async fds, releases the device. The provider frees its
/// wrapper afterwards. A NULL `context` is ignored.
///
/// # Safety
/// `context` is NULL or a context initialised by [`init_context`], not used by anyone else.
pub(crate) unsafe fn uninit_context(context: *mut verbs_context) {
    if context.is_null() {
        return;
    }
    // SAFETY: a context initialised by init_context; priv is the Box it leaked.
    unsafe {
        let p = (*context).r#priv;
        if !p.is_null() {
            drop(Box::from_raw(
                p.cast::<crate::verbs::ctxpriv::ContextPriv>(),
            ));
            (*context).r#priv = core::ptr::null_mut();
        }
        let ctx = &raw mut (*context).context;
        crate::sys::cdev::close((*ctx).cmd_fd);
        crate::sys::cdev::close((*ctx).async_fd);
        crate::verbs::devlist::device_put(crate::verbs::devlist::vdev_of((*ctx).device));
    }
}
