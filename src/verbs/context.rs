//! The life of a context (rdma-core: device.c `verbs_open_device`, `verbs_init_context`,
//! `verbs_uninit_context`, `ibv_close_device`; verbs.c `__lib_ibv_create_cq_ex`).
//!
//! Opening a device's uverbs node, the core half of every context (the private part, the device's
//! reference, the library's entry points in the public slots), and closing it through the
//! provider. Called by the exports of [`capi::driver`](crate::capi::driver),
//! [`capi::device`](crate::capi::device); calls the registry
//! ([`devlist`](crate::verbs::devlist)), the private part ([`ctxpriv`](crate::verbs::ctxpriv)),
//! the op tables ([`ops`](crate::verbs::ops)) and [`cmd`](crate::cmd).
//!
//! Invariant for the unsafe here: every `verbs_context` pointer handed in is inside memory the
//! provider allocated for a context of this library (PABI-34 view, see
//! [`ctxpriv::view34`](crate::verbs::ctxpriv::view34)), and no `&mut` to it is held while a
//! provider op runs.
use core::ffi::{c_int, c_void};

use crate::abi::driver::pabi;
use crate::abi::driver::verbs_context_pabi34 as verbs_context;
use crate::abi::verbs::{ibv_context, ibv_device};

/// rdma-core's `verbs_init_context`: the core half of every context, of layout `abi`
/// ([`pabi::LAYOUTS`]: a provider ABI, or another layout of one). Owns `cmd_fd` (closed on
/// failure).
///
/// # Safety
/// `vctx` is the common part (PABI-34 view, [`ctxpriv::view34`](crate::verbs::ctxpriv::view34)) of
/// a zeroed `verbs_context` of provider ABI `abi` in memory the provider owns; `device` is listed.
pub(crate) unsafe fn init_context(
    vctx: *mut verbs_context,
    abi: u32,
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
    // SAFETY: the caller's contract: a writable verbs_context nobody else sees yet.
    let v = unsafe { &mut *vctx };
    let ctx = &mut v.context;
    ctx.device = device;
    ctx.cmd_fd = cmd_fd;
    ctx.async_fd = -1;
    // SAFETY: the context's own mutex, not in use (the context is not handed out yet).
    unsafe { libc::pthread_mutex_init(&raw mut ctx.mutex, core::ptr::null()) };
    // __VERBS_ABI_IS_EXTENDED: the inline functions of verbs.h look for the verbs_context.
    ctx.abi_compat = usize::MAX as *mut c_void;
    // The size of the provider ABI's layout: newer inlines then see the ops in front that this
    // ABI lacks as absent.
    v.sz = pabi::context_size(abi);
    v.r#priv = Box::into_raw(priv_).cast();
    // SAFETY: the caller's contract; priv was set just now.
    unsafe { crate::verbs::ops::init_defaults(vctx, abi) };
    Ok(())
}

/// `_verbs_init_and_alloc_context` for a provider of ABI `abi`: `alloc_size` zeroed bytes from
/// libc (the provider frees them), the `verbs_context` at byte `offset` inside initialised, in
/// the layout of the device's driver (ABIs 34 and 59 have several:
/// [`verbs::ctxlayout`](crate::verbs::ctxlayout), which records them). Owns `cmd_fd` (closed on
/// failure). EINVAL for a NULL device or a context that does not fit (Divergence: rdma-core would
/// write out of bounds); ENOMEM.
///
/// The C caller's contract: `device` is NULL or listed.
pub(crate) fn alloc_context(
    abi: u32,
    device: *mut ibv_device,
    cmd_fd: c_int,
    alloc_size: usize,
    offset: usize,
    driver_id: u32,
) -> crate::errno::Result<*mut c_void> {
    // The layout of the device's driver: its ABI's, or another of that ABI's (ctxlayout).
    let layout = if pabi::has_other_layouts(abi) {
        device_layout(abi, device)
    } else {
        abi
    };
    let fits = offset
        .checked_add(pabi::context_size(layout))
        .is_some_and(|end| end <= alloc_size);
    if device.is_null() || !fits {
        crate::sys::cdev::close(cmd_fd);
        return Err(crate::errno::Errno::EINVAL);
    }
    // SAFETY: calloc of the provider's wrapper; a zeroed verbs_context is a valid start.
    let drv = unsafe { libc::calloc(1, alloc_size) };
    if drv.is_null() {
        crate::sys::cdev::close(cmd_fd);
        return Err(crate::errno::Errno::ENOMEM);
    }
    let start: *mut c_void = drv.cast::<u8>().wrapping_add(offset).cast();
    let vctx = crate::verbs::ctxpriv::view34(start, layout);
    // SAFETY: the context lies inside the fresh allocation (checked above).
    let r = unsafe { init_context(vctx, layout, device, cmd_fd, driver_id) };
    let r = r.and_then(|()| {
        if !pabi::has_other_layouts(abi) {
            return Ok(());
        }
        crate::verbs::ctxlayout::record(start, layout).inspect_err(|_| {
            // SAFETY: initialised just now, not handed out.
            unsafe { uninit_context(vctx) }
        })
    });
    match r {
        Ok(()) => Ok(drv),
        Err(e) => {
            // SAFETY: ours, not handed out.
            unsafe { libc::free(drv) };
            Err(e)
        }
    }
}

/// The layout of the contexts of `device`'s driver, a provider of ABI `abi`: the one it registered
/// with when that is a layout of `abi` ([`devlist::ops_abi`](crate::verbs::devlist::ops_abi)), else
/// `abi`'s own.
fn device_layout(abi: u32, device: *mut ibv_device) -> u32 {
    if device.is_null() {
        return abi;
    }
    // SAFETY: the C caller's contract: a listed device, whose ops were set when a provider took
    // it (or left NULL).
    let ops = unsafe { (*crate::verbs::devlist::vdev_of(device).0).ops };
    let layout = crate::verbs::devlist::ops_abi(ops);
    if pabi::node_of(layout) == abi {
        layout
    } else {
        abi
    }
}

/// The body of `verbs_open_device` / `ibv_open_device`: opens the device's uverbs node, lets the
/// provider build its context, installs the library's own entry points and gets the async event fd
/// if the provider did not ([`finish_open`]). The errno when it fails: the open's (e.g. EACCES),
/// the provider's, or EINVAL for a NULL device (Divergence). The C caller's contract: `device` is NULL or a
/// listed device.
pub(crate) fn open_device(
    device: *mut ibv_device,
    private_data: *mut c_void,
) -> crate::errno::Result<*mut ibv_context> {
    if device.is_null() {
        return Err(crate::errno::Errno::EINVAL);
    }
    let vdev = crate::verbs::devlist::vdev_of(device).0;
    // SAFETY: a listed device: sysfs was set (or left NULL) when a provider took it.
    let sysfs = unsafe { (*vdev).sysfs };
    let mut cmd_fd = -1;
    // SAFETY: a listed device's sysfs record lives as long as the device.
    if let Some(sysfs) = unsafe { sysfs.as_ref() } {
        cmd_fd = open_node(&sysfs.sysfs_name, sysfs.sysfs_cdev)?;
    }
    // SAFETY: a listed device (held by the caller): ops were set when a provider took it.
    let ops = unsafe { (*vdev).ops };
    // SAFETY: a provider's static table (or NULL).
    let Some(alloc) = unsafe { ops.as_ref() }.and_then(|o| o.alloc_context) else {
        crate::sys::cdev::close(cmd_fd);
        return Err(crate::errno::Errno::EOPNOTSUPP);
    };
    // cmd_fd belongs to alloc_context now (it closes it on failure).
    // SAFETY: the provider's op on its own device and the node just opened.
    let vctx = unsafe { alloc(device, cmd_fd, private_data) };
    if vctx.is_null() {
        return Err(crate::errno::Errno(crate::sys::errno()));
    }
    // A newer provider returned its (larger) verbs_context: work on its common part.
    let vctx = crate::verbs::ctxpriv::view34(vctx.cast(), crate::verbs::devlist::ops_abi(ops));
    if sysfs.is_null() {
        // SAFETY: the context the provider just returned.
        unsafe { set_lib_ops(vctx) };
        return Ok(vctx.cast::<u8>().wrapping_add(CONTEXT_AT).cast());
    }
    // SAFETY: the context the provider just returned, initialised by its init_context.
    unsafe { finish_open(vctx, false) }
}

/// Where `context` sits in a PABI-34 `verbs_context`.
const CONTEXT_AT: usize = core::mem::offset_of!(verbs_context, context);

/// Opens the uverbs node `name` (a NUL-terminated sysfs name, bytes as sysfs spells them, UTF-8
/// or not) of character device `cdev`.
fn open_node(name: &[core::ffi::c_char], cdev: u64) -> crate::errno::Result<c_int> {
    // SAFETY: c_char and u8 have the same size and alignment; the slice is the whole array.
    let bytes = unsafe { core::slice::from_raw_parts(name.as_ptr().cast::<u8>(), name.len()) };
    let bytes = bytes.split(|&b| b == 0).next().unwrap_or(bytes);
    crate::sys::cdev::open_cdev(bytes, cdev)
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
    unsafe { set_lib_ops(vctx) };
    let ctx: *mut ibv_context = vctx.cast::<u8>().wrapping_add(CONTEXT_AT).cast();
    // SAFETY: the caller's contract: initialised by init_context, not shared yet.
    unsafe { crate::verbs::ctxpriv::set_imported(ctx, imported) };
    // SAFETY: the caller's contract: a context being opened, not shared yet; `async_fd` a plain field.
    if unsafe { (*ctx).async_fd } == -1 {
        // SAFETY: the caller's contract: a live context of this library (its ops just set).
        let cx = unsafe { crate::verbs::ctxpriv::Context::from_raw(ctx) }?;
        match crate::cmd::device::alloc_async_fd(cx.cmd()) {
            // SAFETY: the caller's contract: not shared yet, and no provider op runs meanwhile.
            Ok(afd) => unsafe { (*ctx).async_fd = afd },
            Err(e) => {
                // SAFETY: the caller's contract: the context is not handed out, so nobody else closes it.
                unsafe { close_context(ctx) };
                return Err(e);
            }
        }
    }
    Ok(ctx)
}

/// `ibv_close_device`'s body: the provider's free_context (which calls verbs_uninit_context).
///
/// # Safety
/// `ctx` is a live context of this library.
pub(crate) unsafe fn close_context(ctx: *mut ibv_context) {
    // SAFETY: the caller's contract.
    if let Some(f) = unsafe { crate::verbs::ctxpriv::ops_of(ctx) }.free_context {
        // SAFETY: the provider's op on its own live context.
        unsafe { f(ctx) };
    }
}

/// rdma-core's `set_lib_ops`: the library's own entry points in the context's public slots.
///
/// # Safety
/// `vctx` is a context initialised by [`init_context`].
unsafe fn set_lib_ops(vctx: *mut verbs_context) {
    // SAFETY: the caller's contract: a writable context no provider op is running on.
    let v = unsafe { &mut *vctx };
    v.create_cq_ex = Some(super::cq::lib_create_cq_ex);
    v.query_port = Some(super::query::lib_query_port);
    // Old binaries call these slots directly; they behave as the exported symbols.
    v.context.ops._compat_query_port = Some(super::query::query_port_compat);
    v.context.ops._compat_query_device = Some(super::query::query_device);
    // Binaries built against libibverbs 1.1.8 find the flow ops in the placeholders: the same
    // code address, called through the placeholder's type.
    v.ABI_placeholder1 = v.ibv_create_flow.map(|f| {
        // SAFETY: a function address as a function pointer of another signature; only callers
        // that know the flow op's signature call it.
        unsafe { core::mem::transmute::<usize, unsafe extern "C" fn()>(f as usize) }
    });
    v.ABI_placeholder2 = v.ibv_destroy_flow.map(|f| {
        // SAFETY: the destroy op's address typed as another signature; only callers that know
        // the flow op's real signature call it.
        unsafe { core::mem::transmute::<usize, unsafe extern "C" fn()>(f as usize) }
    });
}

/// `verbs_uninit_context` of a provider of ABI `abi` (`context`: the start of its
/// `verbs_context`; NULL is ignored): the core half of the provider's free_context, as
/// [`uninit_context`] (drops the private part, closes the command and async fds, releases the
/// device); the provider frees its wrapper afterwards. The C caller's contract: `context` is a
/// context `_verbs_init_and_alloc_context` made, used by no one else.
pub(crate) fn uninit(context: *mut c_void, abi: u32) {
    if context.is_null() {
        return;
    }
    let layout = crate::verbs::ctxlayout::of(abi, context);
    // SAFETY: the C caller's contract: a context of this library of provider ABI `abi` (of
    // `layout`, as _verbs_init_and_alloc_context recorded it), its provider's free_context
    // calling.
    unsafe { uninit_context(crate::verbs::ctxpriv::view34(context, layout)) }
    if pabi::has_other_layouts(abi) {
        crate::verbs::ctxlayout::forget(context);
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
    // SAFETY: the caller's contract: a context initialised by init_context, used by nobody else.
    let v = unsafe { &mut *context };
    let p = core::mem::replace(&mut v.r#priv, core::ptr::null_mut());
    if !p.is_null() {
        // SAFETY: priv is the Box init_context leaked, dropped once (the slot is NULL now).
        drop(unsafe { Box::from_raw(p.cast::<crate::verbs::ctxpriv::ContextPriv>()) });
    }
    crate::sys::cdev::close(v.context.cmd_fd);
    crate::sys::cdev::close(v.context.async_fd);
    crate::verbs::devlist::device_put(crate::verbs::devlist::vdev_of(v.context.device));
}
