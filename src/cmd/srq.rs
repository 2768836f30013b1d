//! SRQ commands (rdma-core: `libibverbs/cmd_srq.c`: `ibv_icmd_create_srq` and its entry points
//! `ibv_cmd_create_srq`, `ibv_cmd_create_srq_ex`, `ibv_cmd_destroy_srq`; `cmd.c`:
//! `ibv_cmd_modify_srq` (and its kernel-ABI-3 form), `ibv_cmd_query_srq`).
#![forbid(unsafe_code)]

use super::Ctx;
use super::compat::Compat;
use super::fallback::{Fallback, destroy_counted, execute_ioctl_fallback, op};
use super::ioctl::{IoctlArg, IoctlCmd};
use super::methods;
use super::wire::put_field;
use super::write::{CMD_HDR_SIZE, execute_cmd_write, execute_cmd_write_req};
use crate::abi::kern_abi::*;
use crate::abi::uapi::*;
use crate::abi::verbs::ibv_srq_init_attr_mask::*;
use crate::abi::verbs::ibv_srq_type::*;
use crate::errno::{Errno, Result};
use crate::sys::pod;

/// `ibv_srq_init_attr_ex` with its objects resolved to kernel handles (None: NULL).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SrqInit {
    pub comp_mask: u32,
    /// `attr_ex->srq_type` as given (meaningful with `IBV_SRQ_INIT_ATTR_TYPE`).
    pub srq_type: u32,
    pub pd_handle: u32,
    pub xrcd_handle: Option<u32>,
    pub cq_handle: Option<u32>,
    pub max_wr: u32,
    pub max_sge: u32,
    pub srq_limit: u32,
    /// `attr_ex->tm_cap.max_num_tags`.
    pub max_num_tags: u32,
    /// The `ibv_srq` address.
    pub user_handle: u64,
    /// `context->async_fd`.
    pub async_fd: i32,
    /// `priv->imported`.
    pub imported: bool,
}

/// A created SRQ: `srq->handle`, the granted sizes (`attr->attr.max_wr` / `max_sge`) and, for
/// an XRC SRQ, its number (`verbs_srq.srq_num`, for `set_vsrq`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SrqCreated {
    pub handle: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub srq_num: u32,
}

fn need(h: Option<u32>) -> Result<u32> {
    // Divergence: rdma-core dereferences the missing object and crashes.
    h.ok_or(Errno::EINVAL)
}

/// `ibv_icmd_create_srq`: `UVERBS_METHOD_SRQ_CREATE` with the compat link, falling back to
/// `IB_USER_VERBS_CMD_CREATE_SRQ` (basic SRQs; its ABI 5 form on such kernels) or
/// `IB_USER_VERBS_CMD_CREATE_XSRQ` ([`write_create_srq`]).
fn icmd_create_srq(ctx: Ctx<'_>, a: &SrqInit, compat: &mut Compat<'_>) -> Result<SrqCreated> {
    let srq_type = if a.comp_mask & IBV_SRQ_INIT_ATTR_TYPE as u32 != 0 {
        a.srq_type
    } else {
        IBV_SRQT_BASIC as u32
    };
    let (mut max_wr, mut max_sge, mut srq_num) = (0u32, 0u32, 0u32);
    let (via, handle) = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::SRQ_CREATE);
        if srq_type == IBV_SRQT_XRC as u32 {
            if a.comp_mask & IBV_SRQ_INIT_ATTR_XRCD as u32 == 0
                || a.comp_mask & IBV_SRQ_INIT_ATTR_CQ as u32 == 0
            {
                return Err(Errno::EINVAL);
            }
            cmd.in_obj(UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE, need(a.xrcd_handle)?);
            cmd.in_obj(UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE, need(a.cq_handle)?);
            cmd.out_pod(UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM, &mut srq_num);
        } else if srq_type == IBV_SRQT_TM as u32 {
            if a.comp_mask & IBV_SRQ_INIT_ATTR_CQ as u32 == 0
                || a.comp_mask & IBV_SRQ_INIT_ATTR_TM as u32 == 0
                || a.max_num_tags == 0
            {
                return Err(Errno::EINVAL);
            }
            cmd.in_obj(UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE, need(a.cq_handle)?);
            cmd.in_u32(UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS, a.max_num_tags);
        }
        let h = cmd.out_obj(UVERBS_ATTR_CREATE_SRQ_HANDLE);
        cmd.in_u64(UVERBS_ATTR_CREATE_SRQ_TYPE, srq_type.into());
        cmd.in_u64(UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, a.user_handle);
        cmd.in_obj(UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, a.pd_handle);
        cmd.in_u32(UVERBS_ATTR_CREATE_SRQ_MAX_WR, a.max_wr);
        cmd.in_u32(UVERBS_ATTR_CREATE_SRQ_MAX_SGE, a.max_sge);
        cmd.in_u32(UVERBS_ATTR_CREATE_SRQ_LIMIT, a.srq_limit);
        cmd.in_fd(UVERBS_ATTR_CREATE_SRQ_EVENT_FD, a.async_fd);
        cmd.out_pod(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, &mut max_wr);
        cmd.out_pod(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, &mut max_sge);
        if a.imported {
            cmd.fallback_ioctl_only = true;
        }
        compat.link(&mut cmd);
        let via = execute_ioctl_fallback(ctx, op::CREATE_SRQ, &mut cmd);
        (via?, cmd.attr(h).map_or(0, |x| x.data as u32))
    };
    match via {
        Fallback::Success => Ok(SrqCreated {
            handle,
            max_wr,
            max_sge,
            srq_num,
        }),
        Fallback::TryWrite => write_create_srq(ctx, a, compat),
        Fallback::TryWriteEx => Err(Errno::EOPNOTSUPP),
    }
}

/// [`icmd_create_srq`]'s write fallback: `IB_USER_VERBS_CMD_CREATE_SRQ` for a basic SRQ (its
/// ABI 5 form, without the granted sizes, on such kernels), else `IB_USER_VERBS_CMD_CREATE_XSRQ`.
fn write_create_srq(ctx: Ctx<'_>, a: &SrqInit, compat: &mut Compat<'_>) -> Result<SrqCreated> {
    // rdma-core decides on the raw srq_type field here, not the comp_mask-checked one.
    let basic = a.srq_type == IBV_SRQT_BASIC as u32;
    let core = |c: &mut [u8]| {
        put_field!(c, ib_uverbs_create_srq, pd_handle, a.pd_handle)?;
        put_field!(c, ib_uverbs_create_srq, user_handle, a.user_handle)?;
        put_field!(c, ib_uverbs_create_srq, max_wr, a.max_wr)?;
        put_field!(c, ib_uverbs_create_srq, max_sge, a.max_sge)?;
        put_field!(c, ib_uverbs_create_srq, srq_limit, a.srq_limit)
    };
    if basic && ctx.state.abi_ver() > 5 {
        let r = compat.write::<ibv_create_srq>(ctx, core)?;
        Ok(SrqCreated {
            handle: r.srq_handle,
            max_wr: r.max_wr,
            max_sge: r.max_sge,
            srq_num: 0,
        })
    } else if basic {
        let r = compat.write::<ibv_create_srq_v5>(ctx, core)?;
        Ok(SrqCreated {
            handle: r.srq_handle,
            max_wr: a.max_wr,
            max_sge: a.max_sge,
            srq_num: 0,
        })
    } else {
        let r = compat.write::<ibv_create_xsrq>(ctx, |c| {
            type X = ib_uverbs_create_xsrq;
            put_field!(c, X, pd_handle, a.pd_handle)?;
            put_field!(c, X, user_handle, a.user_handle)?;
            put_field!(c, X, max_wr, a.max_wr)?;
            put_field!(c, X, max_sge, a.max_sge)?;
            put_field!(c, X, srq_limit, a.srq_limit)?;
            put_field!(c, X, srq_type, a.srq_type)?;
            put_field!(c, X, cq_handle, need(a.cq_handle)?)?;
            if a.srq_type == IBV_SRQT_TM as u32 {
                put_field!(c, X, max_num_tags, a.max_num_tags)
            } else {
                put_field!(c, X, xrcd_handle, need(a.xrcd_handle)?)
            }
        })?;
        Ok(SrqCreated {
            handle: r.srq_handle,
            max_wr: r.max_wr,
            max_sge: r.max_sge,
            srq_num: r.srqn,
        })
    }
}

/// `ibv_cmd_create_srq`: a basic SRQ from `ibv_srq_init_attr` (`comp_mask`, `srq_type` 0).
/// `req` is the provider's `struct ibv_create_srq` plus driver data, `resp` its
/// `struct ib_uverbs_create_srq_resp` plus driver data. The caller copies max_wr/max_sge back.
pub fn create_srq(
    ctx: Ctx<'_>,
    a: &SrqInit,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<SrqCreated> {
    let mut c = Compat::new(
        req,
        size_of::<ibv_create_srq>(),
        resp,
        size_of::<ib_uverbs_create_srq_resp>(),
    )?;
    let a = SrqInit {
        comp_mask: 0,
        srq_type: IBV_SRQT_BASIC as u32,
        ..*a
    };
    icmd_create_srq(ctx, &a, &mut c)
}

/// `ibv_cmd_create_srq_ex`: unknown comp_mask bits are EOPNOTSUPP, a missing PD EINVAL.
/// `req` is the provider's `struct ibv_create_xsrq` plus driver data.
pub fn create_srq_ex(
    ctx: Ctx<'_>,
    a: &SrqInit,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<SrqCreated> {
    let mut c = Compat::new(
        req,
        size_of::<ibv_create_xsrq>(),
        resp,
        size_of::<ib_uverbs_create_srq_resp>(),
    )?;
    if a.comp_mask >= IBV_SRQ_INIT_ATTR_RESERVED as u32 {
        return Err(Errno::EOPNOTSUPP);
    }
    if a.comp_mask & IBV_SRQ_INIT_ATTR_PD as u32 == 0 {
        return Err(Errno::EINVAL);
    }
    icmd_create_srq(ctx, a, &mut c)
}

/// `ibv_cmd_destroy_srq`: `UVERBS_METHOD_SRQ_DESTROY`, falling back to
/// `IB_USER_VERBS_CMD_DESTROY_SRQ`. Returns the kernel's `events_reported` to wait for; None
/// when an EIO on a disassociated device was forgiven.
pub fn destroy_srq(
    ctx: Ctx<'_>,
    srq_handle: u32,
    allow_disassociate_destroy: bool,
) -> Result<Option<u32>> {
    let mut resp: ib_uverbs_destroy_srq_resp = pod::zeroed();
    let r = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::SRQ_DESTROY);
        cmd.out_pod(UVERBS_ATTR_DESTROY_SRQ_RESP, &mut resp);
        cmd.in_obj(UVERBS_ATTR_DESTROY_SRQ_HANDLE, srq_handle);
        execute_ioctl_fallback(ctx, op::DESTROY_SRQ, &mut cmd)
    };
    let write = || {
        let mut req = [0u8; size_of::<ibv_destroy_srq>()];
        put_field!(&mut req, CMD_HDR_SIZE; ib_uverbs_destroy_srq, srq_handle, srq_handle)?;
        execute_cmd_write::<ibv_destroy_srq>(ctx, &mut req, pod::bytes_mut(&mut resp))
    };
    let answered = destroy_counted(r, write, allow_disassociate_destroy)?;
    Ok(answered.then_some(resp.events_reported))
}

/// `ibv_cmd_modify_srq`: `IB_USER_VERBS_CMD_MODIFY_SRQ` with the provider's request; on a
/// kernel of uverbs ABI 3, the older request layout (core fields rebuilt, max_sge 0) followed
/// by the provider's driver data.
pub fn modify_srq(
    ctx: Ctx<'_>,
    srq_handle: u32,
    attr_mask: i32,
    max_wr: u32,
    srq_limit: u32,
    req: &mut [u8],
) -> Result<()> {
    type M = ib_uverbs_modify_srq;
    if ctx.state.abi_ver() == 3 {
        let drv = req
            .get(size_of::<ibv_modify_srq>()..)
            .ok_or(Errno::EINVAL)?;
        // The provider's driver data follows; its length is the provider's `cmd_size`.
        let mut v3 = Vec::new();
        v3.try_reserve_exact(size_of::<ibv_modify_srq_v3>().saturating_add(drv.len()))
            .map_err(|_| Errno::ENOMEM)?;
        v3.resize(size_of::<ibv_modify_srq_v3>(), 0);
        v3.extend_from_slice(drv);
        type V3 = ib_uverbs_modify_srq_v3;
        put_field!(&mut v3, CMD_HDR_SIZE; V3, srq_handle, srq_handle)?;
        put_field!(&mut v3, CMD_HDR_SIZE; V3, attr_mask, attr_mask as u32)?;
        put_field!(&mut v3, CMD_HDR_SIZE; V3, max_wr, max_wr)?;
        put_field!(&mut v3, CMD_HDR_SIZE; V3, srq_limit, srq_limit)?;
        return execute_cmd_write_req::<ibv_modify_srq_v3>(ctx, &mut v3);
    }
    put_field!(req, CMD_HDR_SIZE; M, srq_handle, srq_handle)?;
    put_field!(req, CMD_HDR_SIZE; M, attr_mask, attr_mask as u32)?;
    put_field!(req, CMD_HDR_SIZE; M, max_wr, max_wr)?;
    put_field!(req, CMD_HDR_SIZE; M, srq_limit, srq_limit)?;
    execute_cmd_write_req::<ibv_modify_srq>(ctx, req)
}

/// `ibv_cmd_query_srq`: `IB_USER_VERBS_CMD_QUERY_SRQ` with the provider's request; returns
/// (max_wr, max_sge, srq_limit).
pub fn query_srq(ctx: Ctx<'_>, srq_handle: u32, req: &mut [u8]) -> Result<(u32, u32, u32)> {
    put_field!(req, CMD_HDR_SIZE; ib_uverbs_query_srq, srq_handle, srq_handle)?;
    put_field!(req, CMD_HDR_SIZE; ib_uverbs_query_srq, reserved, 0u32)?;
    let mut r: ib_uverbs_query_srq_resp = pod::zeroed();
    execute_cmd_write::<ibv_query_srq>(ctx, req, pod::bytes_mut(&mut r))?;
    Ok((r.max_wr, r.max_sge, r.srq_limit))
}
