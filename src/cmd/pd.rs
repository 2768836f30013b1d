//! PD and XRCD commands (rdma-core: `libibverbs/cmd.c`: `ibv_cmd_alloc_pd`, `ibv_cmd_open_xrcd`;
//! `cmd_pd.c`, `cmd_xrcd.c`: the destroys). The MR and MW commands are in [`mr`](super::mr), AH in
//! [`ah`](super::ah), multicast in [`mcast`](super::mcast).
//!
//! `req`/`resp` are the provider's whole request/response structs (`cmd`, `cmd_size`;
//! `resp`, `resp_size`); the core fields are written into `req` as rdma-core does. Results are
//! returned for the caller to store into the provider's objects.
#![forbid(unsafe_code)]

use super::Ctx;
use super::fallback::{Fallback, OpBit, destroy_result, execute_ioctl_fallback, op};
use super::ioctl::{IoctlArg, IoctlCmd};
use super::methods::{self, Method};
use super::wire::put_field;
use super::write::{CMD_HDR_SIZE, execute_cmd_write, execute_cmd_write_req};
use crate::abi::kern_abi::*;
use crate::abi::uapi::*;
use crate::abi::verbs::ibv_xrcd_init_attr_mask;
use crate::errno::{Errno, Result};
use crate::sys::pod;

const H: usize = CMD_HDR_SIZE;

/// `ibv_cmd_alloc_pd`: `IB_USER_VERBS_CMD_ALLOC_PD` (the write command, or its ioctl wrapper);
/// returns `pd->handle`.
pub fn alloc_pd(ctx: Ctx<'_>, req: &mut [u8], resp: &mut [u8]) -> Result<u32> {
    execute_cmd_write::<ibv_alloc_pd>(ctx, req, resp)?;
    Ok(pod::read::<ib_uverbs_alloc_pd_resp>(resp).pd_handle)
}

/// A destroy by handle: the ioctl `method` with the handle in `attr_id`, falling back to write
/// command `C` whose core request starts with the handle.
///
/// Folded into each destroy with its constants, whatever codegen unit that is in (the
/// `ibv_dereg_mr` rows of `make bench-vm`: as a call with its arguments, 10 instructions more).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn destroy_handle<C: KernCmd>(
    ctx: Ctx<'_>,
    bit: OpBit,
    method: Method,
    attr_id: u16,
    handle: u32,
    allow_disassociate_destroy: bool,
) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, method);
    cmd.in_obj(attr_id, handle);
    let r = match execute_ioctl_fallback(ctx, bit, &mut cmd) {
        Ok(Fallback::TryWrite) => {
            // Every destroy-by-handle request is the header and a handle with padding.
            let mut buf = [0u8; 32];
            let req = buf.get_mut(..size_of::<C>()).ok_or(Errno::EINVAL)?;
            super::wire::put(req, H, handle)?;
            execute_cmd_write_req::<C>(ctx, req)
        }
        Ok(Fallback::Success) => Ok(()),
        Ok(Fallback::TryWriteEx) => Err(Errno::EOPNOTSUPP),
        Err(e) => Err(e),
    };
    destroy_result(r, allow_disassociate_destroy)
}

/// `ibv_cmd_dealloc_pd`: `UVERBS_METHOD_PD_DESTROY`, falling back to
/// `IB_USER_VERBS_CMD_DEALLOC_PD`.
pub fn dealloc_pd(ctx: Ctx<'_>, pd_handle: u32, allow_disassociate_destroy: bool) -> Result<()> {
    destroy_handle::<ibv_dealloc_pd>(
        ctx,
        op::DEALLOC_PD,
        methods::PD_DESTROY,
        UVERBS_ATTR_DESTROY_PD_HANDLE,
        pd_handle,
        allow_disassociate_destroy,
    )
}

/// `ibv_cmd_close_xrcd`: `UVERBS_METHOD_XRCD_DESTROY`, falling back to
/// `IB_USER_VERBS_CMD_CLOSE_XRCD`.
pub fn close_xrcd(ctx: Ctx<'_>, xrcd_handle: u32, allow_disassociate_destroy: bool) -> Result<()> {
    destroy_handle::<ibv_close_xrcd>(
        ctx,
        op::CLOSE_XRCD,
        methods::XRCD_DESTROY,
        UVERBS_ATTR_DESTROY_XRCD_HANDLE,
        xrcd_handle,
        allow_disassociate_destroy,
    )
}

/// `ibv_xrcd_init_attr::comp_mask` as `ibv_cmd_open_xrcd` accepts it: unknown bits EOPNOTSUPP,
/// FD and OFLAGS both required (else EINVAL).
pub fn check_xrcd_mask(comp_mask: u32) -> Result<()> {
    use ibv_xrcd_init_attr_mask::*;
    if comp_mask >= IBV_XRCD_INIT_ATTR_RESERVED as u32 {
        return Err(Errno::EOPNOTSUPP);
    }
    let need = IBV_XRCD_INIT_ATTR_FD as u32 | IBV_XRCD_INIT_ATTR_OFLAGS as u32;
    if comp_mask & need != need {
        return Err(Errno::EINVAL);
    }
    Ok(())
}

/// `ibv_cmd_open_xrcd`: checks `attr->comp_mask` ([`check_xrcd_mask`]), then
/// `IB_USER_VERBS_CMD_OPEN_XRCD`; returns the XRCD handle (which the caller stores only if its
/// `verbs_xrcd` is large enough, setting `VERBS_XRCD_HANDLE`).
pub fn open_xrcd(
    ctx: Ctx<'_>,
    comp_mask: u32,
    fd: i32,
    oflags: i32,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<u32> {
    check_xrcd_mask(comp_mask)?;
    put_field!(req, H; ib_uverbs_open_xrcd, fd, fd as u32)?;
    put_field!(req, H; ib_uverbs_open_xrcd, oflags, oflags as u32)?;
    execute_cmd_write::<ibv_open_xrcd>(ctx, req, resp)?;
    Ok(pod::read::<ib_uverbs_open_xrcd_resp>(resp).xrcd_handle)
}
