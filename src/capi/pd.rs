//! Protection domains and XRC domains (rdma-core: verbs.c; cmd_pd.c, cmd_xrcd.c): the public
//! verbs and the provider's commands, each a declaration over `verbs::pd`.
//!
//! Divergence throughout: a NULL object, or a NULL `context` inside one, gives EINVAL (or is
//! ignored where there is no return value) where rdma-core would crash.
use core::ffi::c_int;

use crate::abi::driver::verbs_xrcd;
use crate::abi::kern_abi::{ibv_alloc_pd, ibv_open_xrcd};
use crate::abi::uapi::{ib_uverbs_alloc_pd_resp, ib_uverbs_open_xrcd_resp};
use crate::abi::verbs::{ibv_pd, ibv_xrcd_init_attr};
use crate::capi::export::{Buf, export};
use crate::errno::Errno;
use crate::verbs::handle::{Ctx, Pd, Ptr, Xrcd};
use crate::verbs::pd;

/// `struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)`
///
/// The C form of [`pd::alloc`]: NULL with errno on failure.
#[export("IBVERBS_1.1")]
fn ibv_alloc_pd(context: Ctx) -> Null<*mut ibv_pd> {
    pd::alloc(context)
}

/// `int ibv_dealloc_pd(struct ibv_pd *pd)`
///
/// The C form of [`pd::dealloc`]: 0, or the positive errno.
#[export("IBVERBS_1.1")]
fn ibv_dealloc_pd(pd: Pd) -> Status {
    Ok(pd::dealloc(pd))
}

/// `struct ibv_pd *ibv_import_pd(struct ibv_context *context, uint32_t pd_handle)`
///
/// The C form of [`pd::import`]: NULL with errno on failure.
#[export("IBVERBS_1.10")]
fn ibv_import_pd(context: Ctx, pd_handle: u32) -> Null<*mut ibv_pd> {
    pd::import(context, pd_handle)
}

/// `void ibv_unimport_pd(struct ibv_pd *pd)`
///
/// The C form of [`pd::unimport`].
#[export("IBVERBS_1.10")]
fn ibv_unimport_pd(pd: Pd) -> Void {
    pd::unimport(pd)
}

/// `int ibv_cmd_alloc_pd(struct ibv_context *context, struct ibv_pd *pd, struct ibv_alloc_pd *cmd, size_t cmd_size, struct ib_uverbs_alloc_pd_resp *resp, size_t resp_size)`
///
/// The C form of [`pd::cmd_alloc`]: 0, or the positive errno.
///
/// Divergence: NULL arguments, or buffers shorter than the core request/response, give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_alloc_pd(
    context: Ctx,
    pd: Ptr<ibv_pd>,
    (cmd, cmd_size): Buf<ibv_alloc_pd>,
    (resp, resp_size): Buf<ib_uverbs_alloc_pd_resp>,
) -> Errno {
    pd::cmd_alloc(context, pd, cmd.bytes(), resp.bytes())
}

/// `int ibv_cmd_dealloc_pd(struct ibv_pd *pd)`
///
/// The C form of [`pd::cmd_dealloc`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_dealloc_pd(pd: Pd) -> Errno {
    pd::cmd_dealloc(pd)
}

/// `int ibv_cmd_open_xrcd(struct ibv_context *context, struct verbs_xrcd *xrcd, int vxrcd_size, struct ibv_xrcd_init_attr *attr, struct ibv_open_xrcd *cmd, size_t cmd_size, struct ib_uverbs_open_xrcd_resp *resp, size_t resp_size)`
///
/// The C form of [`pd::cmd_open_xrcd`]: 0, or the positive errno.
///
/// Divergence: NULL arguments, or buffers shorter than the core request/response, give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_open_xrcd(
    context: Ctx,
    xrcd: Ptr<verbs_xrcd>,
    vxrcd_size: c_int,
    attr: Ptr<ibv_xrcd_init_attr>,
    (cmd, cmd_size): Buf<ibv_open_xrcd>,
    (resp, resp_size): Buf<ib_uverbs_open_xrcd_resp>,
) -> Errno {
    let a = attr.read();
    // rdma-core returns these two without setting errno.
    crate::cmd::pd::check_xrcd_mask(a.comp_mask).map_err(Errno::quiet)?;
    pd::cmd_open_xrcd(context, xrcd, vxrcd_size, a, cmd.bytes(), resp.bytes())
}

/// `int ibv_cmd_close_xrcd(struct verbs_xrcd *xrcd)`
///
/// The C form of [`pd::cmd_close_xrcd`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_close_xrcd(xrcd: Xrcd) -> Errno {
    pd::cmd_close_xrcd(xrcd)
}
