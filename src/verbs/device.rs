//! The device list, a device's identity, opening and closing (rdma-core: device.c
//! `ibv_get_device_list`, `ibv_free_device_list`, `ibv_get_device_name`/`_guid`/`_index`,
//! `ibv_open_device`, `ibv_close_device`, `ibv_import_device`).
//!
//! The registry itself (discovery, matching, references) is [`devlist`]; contexts are
//! [`context`](crate::verbs::context). Called by [`capi::device`](crate::capi::device) and the 1.0
//! twins.
use core::ffi::{c_char, c_int};

use crate::abi::driver::verbs_context_pabi34;
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::uapi::ib_uverbs_ex_query_device_resp;
use crate::abi::verbs::ibv_fd_arr;
use crate::abi::verbs::{
    ibv_context, ibv_device, ibv_device_attr, ibv_device_attr_ex, ibv_port_attr,
    ibv_query_device_ex_input,
};
use crate::errno::{Errno, Result};
use crate::verbs::buf::provider_buf;
use crate::verbs::devlist;
use crate::verbs::handle::{Ctx, Dev, Ptr};

/// The lists [`get_list`] handed out and [`free_list`] has not freed.
pub(crate) static LISTS: crate::verbs::handed::Handed =
    crate::verbs::handed::Handed::new("device list");

/// `ibv_get_device_list`: a NULL-terminated array from libc's allocator, every device in it held
/// once (released by `ibv_free_device_list`: [`free_list`]); `*num_devices` (if given) its length,
/// 0 on failure (ENOSYS without uverbs, ENOMEM).
pub(crate) fn get_list(num_devices: Option<Ptr<c_int>>) -> Result<*mut *mut ibv_device> {
    if let Some(n) = num_devices {
        n.write(0);
    }
    let devs = devlist::get_device_list()?;
    // SAFETY: calloc of n+1 pointers; the zeroed last one terminates the list.
    let arr = unsafe { libc::calloc(devs.len() + 1, size_of::<*mut ibv_device>()) }
        .cast::<*mut ibv_device>();
    if arr.is_null() {
        for d in devs {
            devlist::device_put(devlist::vdev_of(d));
        }
        return Err(Errno::ENOMEM);
    }
    for (i, d) in devs.iter().enumerate() {
        let slot = arr.wrapping_add(i);
        // SAFETY: i < n, inside the allocation.
        unsafe { slot.write(*d) };
    }
    if let Some(n) = num_devices {
        n.write(devs.len() as c_int);
    }
    Ok(LISTS.give(arr))
}

/// `ibv_free_device_list`: each device released once and the array freed. Divergence: NULL, or an
/// array that is not a live list of `ibv_get_device_list` ([`get_list`]), is ignored (rdma-core
/// crashes, or libc aborts the process).
pub(crate) fn free_list(list: *mut *mut ibv_device) {
    if list.is_null() || !LISTS.take(list) {
        return;
    }
    let mut i = 0;
    loop {
        let slot = list.wrapping_add(i);
        // SAFETY: a live list of get_list: NULL-terminated (i stops at the NULL), ours until
        // freed below.
        let d = unsafe { slot.read() };
        if d.is_null() {
            break;
        }
        devlist::device_put(devlist::vdev_of(d));
        i += 1;
    }
    // SAFETY: allocated with calloc by get_list, handed back once (LISTS.take).
    unsafe { libc::free(list.cast()) };
}

/// `ibv_get_device_name`: `device->name`.
#[inline]
pub(crate) fn name(device: Dev) -> *const c_char {
    // SAFETY: a held device (Dev's contract); only the member's address is taken.
    unsafe { (&raw const (*device.raw()).name).cast() }
}

/// `ibv_get_device_guid`: the node GUID in host order: the value discovery read, else `node_guid`
/// read from sysfs now (and kept); 0 when it cannot be read.
#[inline]
pub(crate) fn guid(device: Dev) -> u64 {
    devlist::device_guid(device.vdev()).unwrap_or(0)
}

/// `ibv_get_device_index`: the kernel's device index, or -1 when discovery had none (sysfs walk),
/// without errno, as rdma-core.
pub(crate) fn index(device: Dev) -> c_int {
    let v = device.vdev();
    // SAFETY: a listed device: its sysfs record (or NULL) lives as long as the device.
    let s = unsafe { (*v.0).sysfs };
    if s.is_null() {
        return -1;
    }
    // SAFETY: a listed device's sysfs record, not NULL (tested above), live as long as the device.
    unsafe { (*s).ibdev_idx }
}

/// `ibv_open_device`: `verbs_open_device(device, NULL)`
/// ([`context::open_device`](crate::verbs::context::open_device)); its errno when it fails.
pub(crate) fn open(device: Dev) -> Result<*mut ibv_context> {
    // A held device (Dev's contract).
    crate::verbs::context::open_device(device.raw(), core::ptr::null_mut())
}

/// `ibv_close_device`: the provider's free_context
/// ([`context::close_context`](crate::verbs::context::close_context)); rdma-core always returns 0.
pub(crate) fn close(context: Ctx) {
    // SAFETY: an open context of this library (Ctx's contract), closed once by its caller.
    unsafe { crate::verbs::context::close_context(context.raw()) }
}

/// `ibv_import_device`: a context for a uverbs fd shared by another process: the listed device
/// whose character device is the fd's, rebuilt by its provider's `import_context`. EINVAL (not a
/// char device), ENODEV (no such device), EOPNOTSUPP (the provider cannot import), or the
/// provider's errno.
pub(crate) fn import(cmd_fd: c_int) -> Result<*mut ibv_context> {
    let rdev = crate::sys::cdev::char_rdev(cmd_fd).ok_or(Errno::EINVAL)?;
    let devs = devlist::get_device_list().map_err(|_| Errno::ENODEV)?;
    let r = import_from(&devs, rdev, cmd_fd);
    for d in devs {
        devlist::device_put(devlist::vdev_of(d));
    }
    r
}

/// [`import`] among `devs`, listed and held.
fn import_from(devs: &[*mut ibv_device], rdev: u64, cmd_fd: c_int) -> Result<*mut ibv_context> {
    let found = devs.iter().map(|d| devlist::vdev_of(*d).0).find(|v| {
        // SAFETY: a held, listed device; its sysfs record (or NULL) lives with it.
        let s = unsafe { (**v).sysfs };
        // SAFETY: `s`, not NULL (tested first), is a held listed device's sysfs record, live with it.
        !s.is_null() && unsafe { (*s).sysfs_cdev } == rdev
    });
    let v = found.ok_or(Errno::ENODEV)?;
    // SAFETY: a held, listed device: its provider's ops were set when the provider took it.
    let ops = unsafe { (*v).ops };
    // SAFETY: a provider's static table, or NULL.
    let imp = unsafe { ops.as_ref() }
        .and_then(|o| o.import_context)
        .ok_or(Errno::EOPNOTSUPP)?;
    // The public device is the first member of the verbs_device.
    let dev = v.cast::<ibv_device>();
    // SAFETY: the provider's op on its own device and the caller's fd.
    let vctx = unsafe { imp(dev, cmd_fd) };
    if vctx.is_null() {
        return Err(Errno(crate::sys::errno()));
    }
    let vctx = crate::verbs::ctxpriv::view34(vctx.cast(), devlist::ops_abi(ops));
    // SAFETY: the context the provider just returned.
    unsafe { crate::verbs::context::finish_open(vctx, true) }
}

/// `ibv_cmd_get_context`: GET_CONTEXT, for every provider ABI on the context's common part, with
/// the provider's driver data (and, ABI 57 on, the file descriptors `fds` as bytes); sets the
/// context's `num_comp_vectors`, and its `async_fd` (write path) or the device's `core_support`
/// (ioctl path). The command: [`cmd::device::get_context`](crate::cmd::device::get_context).
pub(crate) fn cmd_get_context(
    vctx: Ptr<verbs_context_pabi34>,
    req: &mut [u8],
    resp: &mut [u8],
    fds: Option<&[u8]>,
) -> Result<()> {
    // SAFETY: a context in _verbs_init_and_alloc_context's hands (Ptr's contract): its common
    // part's `context` member, in place.
    let ctx = unsafe { &raw mut (*vctx.as_ptr()).context }.cast::<ibv_context>();
    // SAFETY: `ctx` is the common part's context member of a live context, not NULL by construction.
    let c = unsafe { Ctx::from_raw(ctx) }?;
    let g = crate::cmd::device::get_context(c.channel().cmd(), req, resp, fds)?;
    // SAFETY: the context being opened: nobody else uses it yet.
    unsafe { (*ctx).num_comp_vectors = g.num_comp_vectors as c_int };
    if let Some(afd) = g.async_fd {
        // SAFETY: the context being opened: nobody else uses it yet; `async_fd` is a plain field.
        unsafe { (*ctx).async_fd = afd };
    }
    if let Some(cs) = g.core_support {
        set_core_support(c, cs);
    }
    Ok(())
}

/// Orders the writers of a device's `core_support` (contexts opened from several threads): a
/// leaf lock, taken for the write only.
static CORE_SUPPORT: crate::sys::sync::Mutex<()> = crate::sys::sync::Mutex::new(());

/// The kernel's `core_support` bits recorded on the device of `ctx`. rdma-core writes them
/// without a lock on every open; here two threads opening the same device write under
/// [`CORE_SUPPORT`], and only a changed value (helgrind saw the unlocked writes race in make
/// providers' threaded device-list check). Readers (`ibv_reg_mr`'s optional access bits) read it
/// as rdma-core does.
fn set_core_support(ctx: Ctx, cs: u64) {
    // SAFETY: an open context (Ctx's contract): its device is a listed one.
    let v = devlist::vdev_of(unsafe { (*ctx.raw()).device }).0;
    if !v.is_null() {
        let _g = CORE_SUPPORT.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the listed device's record, its `core_support` written only under the lock.
        if unsafe { (*v).core_support } != cs {
            // SAFETY: the listed device's record, `core_support` written only under the lock held here.
            unsafe { (*v).core_support = cs };
        }
    }
}

/// `ibv_cmd_query_context`: QUERY_CONTEXT (ioctl only:
/// [`cmd::device::query_context`](crate::cmd::device::query_context)) with the provider's `driver`
/// chain (read from and written back to C); sets `num_comp_vectors` and the device's
/// `core_support`.
pub(crate) fn cmd_query_context(ctx: Ctx, driver: *mut ibv_command_buffer) -> Result<()> {
    // SAFETY: NULL or the provider's chain (the C contract).
    let mut chain = unsafe { crate::verbs::cmdbuf::Chain::from_raw(driver) };
    let q = crate::cmd::device::query_context(ctx.channel().cmd(), &mut chain)?;
    // SAFETY: an open context (Ctx's contract).
    unsafe { (*ctx.raw()).num_comp_vectors = q.num_comp_vectors as c_int };
    set_core_support(ctx, q.core_support);
    Ok(())
}

/// `ibv_cmd_query_device_any`: the device attributes, legacy or extended as `attr_size` asks
/// (extended write command, legacy fallback:
/// [`cmd::device::query_device_any`](crate::cmd::device::query_device_any)); the response's length
/// into `*resp_size` when the provider gave a response buffer. An input `comp_mask` or an `attr`
/// shorter than the legacy attributes is EINVAL with errno untouched (rdma-core refuses them before
/// the context); a response without its size is EINVAL.
pub(crate) fn cmd_query_device_any(
    ctx: Ctx,
    input: *const ibv_query_device_ex_input,
    attr: Ptr<ibv_device_attr_ex>,
    attr_size: usize,
    resp: *mut ib_uverbs_ex_query_device_resp,
    resp_size: Option<Ptr<usize>>,
) -> Result<()> {
    // SAFETY: NULL or the caller's input (the C contract).
    let mask = unsafe { input.as_ref() }.map_or(0, |i| i.comp_mask);
    if mask != 0 || attr_size < size_of::<ibv_device_attr>() {
        return Err(Errno::EINVAL.quiet());
    }
    // The provider's response and where its length goes, or none (an internal one).
    let r = if resp.is_null() {
        None
    } else {
        let Some(size) = resp_size else {
            return Err(Errno::EINVAL);
        };
        // SAFETY: the provider's response of `*resp_size` bytes (the C contract).
        Some((size, unsafe { provider_buf(resp, size.read()) }))
    };
    let attr_size = attr_size.min(isize::MAX as usize);
    // SAFETY: the caller's attribute of `attr_size` bytes (the C contract), not NULL (`Ptr`),
    // within isize::MAX (as provider_buf bounds it).
    let a = unsafe { core::slice::from_raw_parts_mut(attr.as_ptr().cast::<u8>(), attr_size) };
    let (size, r) = r.unzip();
    let n =
        crate::cmd::device::query_device_any(ctx.channel().cmd(), mask, a, r, || sysfs_ports(ctx))?;
    if let Some(size) = size {
        size.write(n);
    }
    Ok(())
}

/// The port count sysfs gave the device of `ctx` (0 when it has no sysfs record).
fn sysfs_ports(ctx: Ctx) -> u32 {
    // SAFETY: an open context (Ctx's contract): its device is a listed one.
    let v = devlist::vdev_of(unsafe { (*ctx.raw()).device }).0;
    // SAFETY: the listed device's record (or NULL), live as long as the device.
    let Some(v) = (unsafe { v.as_ref() }) else {
        return 0;
    };
    // SAFETY: its sysfs record: NULL or one devlist made, live as long as the device. (Not its
    // num_ports slot, which holds abi_ver for a provider of rdma-core v34's layout.)
    unsafe { devlist::sysfs_num_ports(v.sysfs) }
}

/// `ibv_cmd_query_port`: the port attributes (QUERY_PORT ioctl with the extended fields, else the
/// write command: [`cmd::device::query_port`](crate::cmd::device::query_port)) into the caller's
/// full `ibv_port_attr`.
pub(crate) fn cmd_query_port(
    ctx: Ctx,
    port_num: u8,
    attr: Ptr<ibv_port_attr>,
    req: &mut [u8],
) -> Result<()> {
    // SAFETY: the caller's full attribute (Ptr's contract), not otherwise borrowed in the call.
    let a = unsafe { &mut *attr.as_ptr() };
    crate::cmd::device::query_port(ctx.channel().cmd(), port_num, a, req)
}

/// The bytes of the file descriptors a provider of ABI 57 on hands to GET_CONTEXT (`fd_arr`:
/// NULL for none). Divergence: a NULL `arr` with a `count` is EINVAL.
pub(crate) fn fd_array(fd_arr: Option<Ptr<ibv_fd_arr>>) -> Result<Option<&'static mut [u8]>> {
    let Some(a) = fd_arr.map(Ptr::read) else {
        return Ok(None);
    };
    if a.arr.is_null() && a.count != 0 {
        return Err(Errno::EINVAL);
    }
    let len = (a.count as usize).saturating_mul(size_of::<c_int>());
    // SAFETY: the provider's `count` ints at `arr` (none when NULL).
    Ok(Some(unsafe { provider_buf(a.arr, len) }))
}
