//! Provider command layer: context, device, PD and XRCD commands (rdma-core: cmd_device.c,
//! cmd_pd.c, cmd_xrcd.c, cmd.c).
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use crate::verbs::ctxpriv::Context;
use core::ffi::c_int;

use crate::abi::driver::verbs_context_pabi34 as verbs_context;
use crate::abi::kern_abi::{ibv_command_buffer, ibv_get_context, ibv_query_port};
use crate::abi::uapi::{ib_uverbs_ex_query_device_resp, ib_uverbs_get_context_resp};
use crate::abi::verbs::{
    ibv_context, ibv_device_attr_ex, ibv_port_attr, ibv_query_device_ex_input,
};
use crate::cret::CRet;
use crate::errno::{Errno, Result};

/// `int ibv_cmd_get_context(struct verbs_context *context, struct ibv_get_context *cmd, size_t cmd_size, struct ib_uverbs_get_context_resp *resp, size_t resp_size)`
///
/// GET_CONTEXT with the provider's driver data (ioctl, else write): sets the context's
/// `num_comp_vectors`, and its `async_fd` (write path) or the device's `core_support` (ioctl
/// path). 0, or the positive errno. Divergence: NULL or short buffers give EINVAL.
///
/// Provider ABI 34 signature (v44-v56). Provider ABI 57 (v57) inserted `struct ibv_fd_arr *fd_arr`
/// before `resp`.
#[export(PRIVATE 34..57)]
fn ibv_cmd_get_context(
    context: *mut verbs_context,
    cmd: *mut ibv_get_context,
    cmd_size: usize,
    resp: *mut ib_uverbs_get_context_resp,
    resp_size: usize,
) -> Raw<c_int> {
    // SAFETY: the C contract, forwarded.
    unsafe { get_context(context, cmd, cmd_size, resp, resp_size, None) }.ret_errno()
}

/// The body of `ibv_cmd_get_context` for every provider ABI (`fds`: the bytes of the file
/// descriptors a provider of ABI 57 on gives).
///
/// # Safety
/// As for the export.
pub(crate) unsafe fn get_context(
    context: *mut verbs_context,
    cmd: *mut ibv_get_context,
    cmd_size: usize,
    resp: *mut ib_uverbs_get_context_resp,
    resp_size: usize,
    fds: Option<&[u8]>,
) -> Result<()> {
    if context.is_null() || cmd.is_null() || resp.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: a context in _verbs_init_and_alloc_context's hands; the provider's request and
    // response buffers of the given sizes.
    unsafe {
        let ctx = &raw mut (*context).context;
        let (req, rsp) = (provider_buf(cmd, cmd_size), provider_buf(resp, resp_size));
        let Ok(cx) = Context::from_raw(ctx) else {
            return Err(Errno::EINVAL);
        };
        crate::cmd::device::get_context(cx.cmd(), req, rsp, fds).map(|g| {
            (*ctx).num_comp_vectors = g.num_comp_vectors as c_int;
            if let Some(afd) = g.async_fd {
                (*ctx).async_fd = afd;
            }
            if let Some(cs) = g.core_support {
                let v = crate::verbs::devlist::vdev_of((*ctx).device).0;
                if !v.is_null() {
                    (*v).core_support = cs;
                }
            }
        })
    }
}

/// `int ibv_cmd_query_context(struct ibv_context *ctx, struct ibv_command_buffer *driver)`
///
/// UVERBS_METHOD_QUERY_CONTEXT (ioctl only) with the provider's `driver` chain linked: sets
/// `num_comp_vectors` and the device's `core_support`. 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_context(ctx: *mut ibv_context, driver: *mut ibv_command_buffer) -> Raw<c_int> {
    if ctx.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: an open context and the provider's (possibly NULL) driver chain.
    unsafe {
        let mut links = match crate::verbs::cmdbuf::chain_from_c(driver) {
            Ok(l) => l,
            Err(e) => return e.ret_errno(),
        };
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let r = crate::cmd::device::query_context(cx.cmd(), &mut links);
        crate::verbs::cmdbuf::chain_to_c(driver, &links);
        r.map(|q| {
            (*ctx).num_comp_vectors = q.num_comp_vectors as c_int;
            let v = crate::verbs::devlist::vdev_of((*ctx).device).0;
            if !v.is_null() {
                (*v).core_support = q.core_support;
            }
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_query_device_any(struct ibv_context *context, const struct ibv_query_device_ex_input *input, struct ibv_device_attr_ex *attr, size_t attr_size, struct ib_uverbs_ex_query_device_resp *resp, size_t *resp_size)`
///
/// The device attributes, legacy or extended as `attr_size` asks (extended write command, legacy
/// fallback). 0, or the positive errno (EINVAL for an input comp_mask, or a short `attr`).
#[export(PRIVATE 34..)]
fn ibv_cmd_query_device_any(
    context: *mut ibv_context,
    input: *const ibv_query_device_ex_input,
    attr: *mut ibv_device_attr_ex,
    attr_size: usize,
    resp: *mut ib_uverbs_ex_query_device_resp,
    resp_size: *mut usize,
) -> Raw<c_int> {
    if context.is_null() || attr.is_null() || (!resp.is_null() && resp_size.is_null()) {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: an open context; the caller's attribute buffer (attr_size bytes) and optional
    // response buffer (*resp_size bytes).
    unsafe {
        let mask = if input.is_null() {
            0
        } else {
            (*input).comp_mask
        };
        // rdma-core refuses these before it looks at the context (errno left alone).
        if mask != 0 || attr_size < size_of::<crate::abi::verbs::ibv_device_attr>() {
            return Errno::EINVAL.0;
        }
        let a = provider_buf(attr, attr_size);
        let r = if resp.is_null() {
            None
        } else {
            Some(provider_buf(resp, *resp_size))
        };
        let ports = || {
            let v = crate::verbs::devlist::vdev_of((*context).device).0;
            if v.is_null() || (*v).sysfs.is_null() {
                0
            } else {
                (*(*v).sysfs).num_ports
            }
        };
        let Ok(cx) = Context::from_raw(context) else {
            return Errno::EINVAL.ret_errno();
        };
        let out = crate::cmd::device::query_device_any(cx.cmd(), mask, a, r, ports);
        out.map(|n| {
            if !resp_size.is_null() {
                *resp_size = n;
            }
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr, struct ibv_query_port *cmd, size_t cmd_size)`
///
/// The port attributes (QUERY_PORT ioctl with the extended fields, else the write command). 0, or
/// the positive errno. Divergence: NULL or short buffers give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_port(
    context: *mut ibv_context,
    port_num: u8,
    port_attr: *mut ibv_port_attr,
    cmd: *mut ibv_query_port,
    cmd_size: usize,
) -> Raw<c_int> {
    if context.is_null() || port_attr.is_null() || cmd.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: an open context, the caller's full ibv_port_attr and the provider's request.
    unsafe {
        let req = provider_buf(cmd, cmd_size);
        let Ok(cx) = Context::from_raw(context) else {
            return Errno::EINVAL.ret_errno();
        };
        crate::cmd::device::query_port(cx.cmd(), port_num, &mut *port_attr, req).ret_errno()
    }
}

/// `int ibv_cmd_query_port_speed(struct ibv_context *context, uint32_t port_num, uint64_t *speed)`
///
/// UVERBS_METHOD_QUERY_PORT_SPEED (ioctl only, provider ABI 64 on): stores the port's speed in
/// `*speed`. 0, or the positive errno (EOPNOTSUPP from a kernel without the method).
/// Divergence: NULL `context` or `speed` gives EINVAL.
#[export(PRIVATE 64..)]
fn ibv_cmd_query_port_speed(
    context: crate::verbs::handle::Ctx,
    port_num: u32,
    speed: crate::verbs::handle::Ptr<u64>,
) -> Errno {
    crate::verbs::query::cmd_port_speed(context, port_num).map(|v| speed.write(v))
}

pub(crate) use crate::verbs::disassoc::allow_disassociate;

pub(crate) use crate::verbs::ctxpriv::with_cmd;

pub(crate) use crate::verbs::buf::provider_buf;
