//! CQ commands (rdma-core: `libibverbs/cmd_cq.c`: `ibv_icmd_create_cq` and its entry points
//! `ibv_cmd_create_cq`, `ibv_cmd_create_cq_ex`, `ibv_cmd_create_cq_ex2`, `ibv_cmd_destroy_cq`;
//! `cmd.c`: `ibv_cmd_poll_cq`, `ibv_cmd_req_notify_cq`, `ibv_cmd_resize_cq`,
//! `ibv_cmd_modify_cq`; verbs.c: `ibv_create_comp_channel`'s command).
#![forbid(unsafe_code)]

use super::Ctx;
use super::compat::Compat;
use super::fallback::{Fallback, destroy_counted, execute_ioctl_fallback, op};
use super::ioctl::{Driver, IoctlArg, IoctlCmd};
use super::methods;
use super::wire::put_field;
use super::write::{
    CMD_HDR_SIZE, EX_HDR_SIZE, execute_cmd_write, execute_cmd_write_ex_req,
    execute_cmd_write_no_uhw, execute_cmd_write_req,
};
use crate::abi::ctype::Be32;
use crate::abi::driver::create_cq_cmd_flags::CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX;
use crate::abi::kern_abi::*;
use crate::abi::uapi::ib_uverbs_ex_create_cq_flags::*;
use crate::abi::uapi::*;
use crate::abi::verbs::ibv_create_cq_wc_flags::*;
use crate::abi::verbs::{
    ibv_cq_attr_mask, ibv_cq_init_attr_mask, ibv_create_cq_attr_flags, ibv_wc, ibv_wc_anon_1,
};
use crate::errno::{Errno, Result};
use crate::sys::pod;

/// The creation parameters common to every create-CQ entry point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CqInit {
    pub cqe: i32,
    /// `channel->fd` when a completion channel is given.
    pub channel_fd: Option<i32>,
    pub comp_vector: i32,
    /// The `ibv_cq` address (`user_handle`, echoed in completion events).
    pub user_handle: u64,
    /// `context->async_fd` (-1: none).
    pub async_fd: i32,
    /// The context was imported (`priv->imported`): no write fallback.
    pub imported: bool,
    /// The CQ ring the provider allocated itself (provider ABI 59 on), if any.
    pub buffer: Option<CqBuffer>,
}

/// A CQ ring the provider allocated (`verbs_create_cq_prov_attr` with
/// `CREATE_CQ_CMD_FLAGS_WITH_MEM_VA` or `_DMABUF`): the kernel uses it instead of its own, and
/// only the ioctl interface can say so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CqBuffer {
    /// At a virtual address of this process.
    Va { addr: u64, length: u64 },
    /// In a dma-buf, at an offset.
    Dmabuf { fd: i32, offset: u64, length: u64 },
}

/// A created CQ: `cq->handle` and `cq->cqe`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CqCreated {
    pub handle: u32,
    pub cqe: u32,
}

/// `ibv_icmd_create_cq`: `UVERBS_METHOD_CQ_CREATE`; the compat link carries the provider's
/// driver data, `driver` (given the kernel's answers on success) follows it. Falls back to
/// `IB_USER_VERBS_CMD_CREATE_CQ`, or `IB_USER_VERBS_EX_CMD_CREATE_CQ` when flags need it.
fn icmd_create_cq(
    ctx: Ctx<'_>,
    a: &CqInit,
    flags: u32,
    cmd_flags: u32,
    compat: &mut Compat<'_>,
    driver: Option<&mut dyn Driver>,
) -> Result<CqCreated> {
    let mut resp_cqe: u32 = 0;
    let (via, handle) = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::CQ_CREATE);
        let h = cmd.out_obj(UVERBS_ATTR_CREATE_CQ_HANDLE);
        cmd.out_pod(UVERBS_ATTR_CREATE_CQ_RESP_CQE, &mut resp_cqe);
        cmd.in_u32(UVERBS_ATTR_CREATE_CQ_CQE, a.cqe as u32);
        cmd.in_u64(UVERBS_ATTR_CREATE_CQ_USER_HANDLE, a.user_handle);
        if let Some(fd) = a.channel_fd {
            cmd.in_fd(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, fd);
        }
        cmd.in_u32(UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, a.comp_vector as u32);
        let async_fd = cmd.in_fd(UVERBS_ATTR_CREATE_CQ_EVENT_FD, a.async_fd);
        if a.imported {
            cmd.fallback_ioctl_only = true;
        } else if let Some(i) = async_fd {
            // Old kernels lack the attribute; write() cannot carry it anyway.
            cmd.optional(i);
        }
        if flags != 0 {
            if flags & !(IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION as u32) != 0
                || cmd_flags & CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX as u32 == 0
            {
                cmd.fallback_require_ex = true;
            }
            cmd.in_u32(UVERBS_ATTR_CREATE_CQ_FLAGS, flags);
        }
        match a.buffer {
            Some(CqBuffer::Va { addr, length }) => {
                cmd.in_u64(UVERBS_ATTR_CREATE_CQ_BUFFER_VA, addr);
                cmd.in_u64(UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH, length);
                cmd.fallback_ioctl_only = true;
            }
            Some(CqBuffer::Dmabuf { fd, offset, length }) => {
                cmd.in_fd(UVERBS_ATTR_CREATE_CQ_BUFFER_FD, fd);
                cmd.in_u64(UVERBS_ATTR_CREATE_CQ_BUFFER_OFFSET, offset);
                cmd.in_u64(UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH, length);
                cmd.fallback_ioctl_only = true;
            }
            None => {}
        }
        compat.link(&mut cmd);
        let via = match driver {
            None => execute_ioctl_fallback(ctx, op::CREATE_CQ, &mut cmd),
            Some(d) => {
                let at = cmd.len();
                d.link(&mut cmd)?;
                let via = execute_ioctl_fallback(ctx, op::CREATE_CQ, &mut cmd);
                if via == Ok(Fallback::Success) {
                    d.store(cmd.attrs().get(at..).unwrap_or_default());
                }
                via
            }
        };
        (via?, cmd.attr(h).map_or(0, |a| a.data as u32))
    };
    match via {
        Fallback::Success => Ok(CqCreated {
            handle,
            cqe: resp_cqe,
        }),
        via => write_create_cq(ctx, a, flags, via == Fallback::TryWriteEx, compat),
    }
}

/// [`icmd_create_cq`]'s write fallbacks: `IB_USER_VERBS_CMD_CREATE_CQ`, or with `ex` (the
/// fallback said TryWriteEx) `IB_USER_VERBS_EX_CMD_CREATE_CQ` with the flags.
fn write_create_cq(
    ctx: Ctx<'_>,
    a: &CqInit,
    flags: u32,
    ex: bool,
    compat: &mut Compat<'_>,
) -> Result<CqCreated> {
    let channel = a.channel_fd.unwrap_or(-1);
    if !ex {
        let r = compat.write::<ibv_create_cq>(ctx, |c| {
            put_field!(c, ib_uverbs_create_cq, user_handle, a.user_handle)?;
            put_field!(c, ib_uverbs_create_cq, cqe, a.cqe as u32)?;
            put_field!(c, ib_uverbs_create_cq, comp_vector, a.comp_vector as u32)?;
            put_field!(c, ib_uverbs_create_cq, comp_channel, channel)
        })?;
        Ok(CqCreated {
            handle: r.cq_handle,
            cqe: r.cqe,
        })
    } else {
        let r = compat.write_ex::<ibv_create_cq_ex>(ctx, |c| {
            put_field!(c, ib_uverbs_ex_create_cq, user_handle, a.user_handle)?;
            put_field!(c, ib_uverbs_ex_create_cq, cqe, a.cqe as u32)?;
            put_field!(c, ib_uverbs_ex_create_cq, comp_vector, a.comp_vector as u32)?;
            put_field!(c, ib_uverbs_ex_create_cq, comp_channel, channel)?;
            put_field!(c, ib_uverbs_ex_create_cq, flags, flags)
        })?;
        Ok(CqCreated {
            handle: r.base.cq_handle,
            cqe: r.base.cqe,
        })
    }
}

/// `ibv_cmd_create_cq`: `req` is the provider's `struct ibv_create_cq` plus driver data,
/// `resp` its `struct ib_uverbs_create_cq_resp` plus driver data.
pub fn create_cq(ctx: Ctx<'_>, a: &CqInit, req: &mut [u8], resp: &mut [u8]) -> Result<CqCreated> {
    let mut c = Compat::new(
        req,
        size_of::<ibv_create_cq>(),
        resp,
        size_of::<ib_uverbs_create_cq_resp>(),
    )?;
    icmd_create_cq(ctx, a, 0, 0, &mut c, None)
}

/// The kernel CQ flags of an `ibv_cq_init_attr_ex` (`ibv_icmd_create_cq_ex`): EOPNOTSUPP for
/// comp_mask bits other than FLAGS and PD; completion timestamps ask for
/// `IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION`, `IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN` (with the
/// FLAGS bit) for `IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN`.
pub fn cq_ex_flags(comp_mask: u32, wc_flags: u64, cq_flags: u32) -> Result<u32> {
    let known = ibv_cq_init_attr_mask::IBV_CQ_INIT_ATTR_MASK_FLAGS as u32
        | ibv_cq_init_attr_mask::IBV_CQ_INIT_ATTR_MASK_PD as u32;
    if comp_mask & !known != 0 {
        return Err(Errno::EOPNOTSUPP);
    }
    let mut flags = 0;
    let ts = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP as u64
        | IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK as u64;
    if wc_flags & ts != 0 {
        flags |= IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION as u32;
    }
    if comp_mask & ibv_cq_init_attr_mask::IBV_CQ_INIT_ATTR_MASK_FLAGS as u32 != 0
        && cq_flags & ibv_create_cq_attr_flags::IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN as u32 != 0
    {
        flags |= IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN as u32;
    }
    Ok(flags)
}

/// `ibv_cmd_create_cq_ex` (no `driver`) and `ibv_cmd_create_cq_ex2`: `req` is the provider's
/// `struct ibv_create_cq_ex` plus driver data, `resp` its `struct ib_uverbs_ex_create_cq_resp`
/// plus driver data; `comp_mask`, `wc_flags` and `cq_flags` come from `ibv_cq_init_attr_ex`
/// (see [`cq_ex_flags`]); `cmd_flags` is `CREATE_CQ_CMD_FLAGS_*`.
#[allow(clippy::too_many_arguments)]
pub fn create_cq_ex(
    ctx: Ctx<'_>,
    a: &CqInit,
    comp_mask: u32,
    wc_flags: u64,
    cq_flags: u32,
    cmd_flags: u32,
    req: &mut [u8],
    resp: &mut [u8],
    driver: Option<&mut dyn Driver>,
) -> Result<CqCreated> {
    let mut c = Compat::new(
        req,
        size_of::<ibv_create_cq_ex>(),
        resp,
        size_of::<ib_uverbs_ex_create_cq_resp>(),
    )?;
    let flags = cq_ex_flags(comp_mask, wc_flags, cq_flags)?;
    icmd_create_cq(ctx, a, flags, cmd_flags, &mut c, driver)
}

/// `ibv_cmd_destroy_cq`: `UVERBS_METHOD_CQ_DESTROY`, falling back to
/// `IB_USER_VERBS_CMD_DESTROY_CQ`. Returns the kernel's (comp_events_reported,
/// async_events_reported), which the caller waits for its acknowledged counts to reach; None
/// when an EIO on a disassociated device was forgiven (no wait).
pub fn destroy_cq(
    ctx: Ctx<'_>,
    cq_handle: u32,
    allow_disassociate_destroy: bool,
) -> Result<Option<(u32, u32)>> {
    let mut resp: ib_uverbs_destroy_cq_resp = pod::zeroed();
    let r = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::CQ_DESTROY);
        cmd.out_pod(UVERBS_ATTR_DESTROY_CQ_RESP, &mut resp);
        cmd.in_obj(UVERBS_ATTR_DESTROY_CQ_HANDLE, cq_handle);
        execute_ioctl_fallback(ctx, op::DESTROY_CQ, &mut cmd)
    };
    let write = || {
        let mut req = [0u8; size_of::<ibv_destroy_cq>()];
        put_field!(&mut req, CMD_HDR_SIZE; ib_uverbs_destroy_cq, cq_handle, cq_handle)?;
        execute_cmd_write::<ibv_destroy_cq>(ctx, &mut req, pod::bytes_mut(&mut resp))
    };
    let answered = destroy_counted(r, write, allow_disassociate_destroy)?;
    Ok(answered.then_some((resp.comp_events_reported, resp.async_events_reported)))
}

/// `ibv_create_comp_channel`: `IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL` (write only); returns
/// the new channel fd.
pub fn create_comp_channel(ctx: Ctx<'_>) -> Result<i32> {
    let mut req = [0u8; size_of::<ibv_create_comp_channel>()];
    let mut resp: ib_uverbs_create_comp_channel_resp = pod::zeroed();
    execute_cmd_write::<ibv_create_comp_channel>(ctx, &mut req, pod::bytes_mut(&mut resp))?;
    Ok(resp.fd as i32)
}

/// `ibv_cmd_req_notify_cq`: `IB_USER_VERBS_CMD_REQ_NOTIFY_CQ`.
pub fn req_notify_cq(ctx: Ctx<'_>, cq_handle: u32, solicited_only: bool) -> Result<()> {
    let mut req = [0u8; size_of::<ibv_req_notify_cq>()];
    put_field!(&mut req, CMD_HDR_SIZE; ib_uverbs_req_notify_cq, cq_handle, cq_handle)?;
    put_field!(&mut req, CMD_HDR_SIZE; ib_uverbs_req_notify_cq, solicited_only, u32::from(solicited_only))?;
    execute_cmd_write_req::<ibv_req_notify_cq>(ctx, &mut req)
}

/// `ibv_cmd_resize_cq`: `IB_USER_VERBS_CMD_RESIZE_CQ` with the provider's request and
/// response; returns the new `cq->cqe`.
pub fn resize_cq(
    ctx: Ctx<'_>,
    cq_handle: u32,
    cqe: i32,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<u32> {
    put_field!(req, CMD_HDR_SIZE; ib_uverbs_resize_cq, cq_handle, cq_handle)?;
    put_field!(req, CMD_HDR_SIZE; ib_uverbs_resize_cq, cqe, cqe as u32)?;
    execute_cmd_write::<ibv_resize_cq>(ctx, req, resp)?;
    Ok(pod::read::<ib_uverbs_resize_cq_resp>(resp).cqe)
}

/// `ibv_cmd_modify_cq`: `IB_USER_VERBS_EX_CMD_MODIFY_CQ` with the provider's request
/// (`struct ibv_modify_cq` plus driver data); an `attr_mask` at or above
/// `IBV_CQ_ATTR_RESERVED` is EINVAL.
pub fn modify_cq(
    ctx: Ctx<'_>,
    cq_handle: u32,
    attr_mask: u32,
    cq_count: u16,
    cq_period: u16,
    req: &mut [u8],
) -> Result<()> {
    if attr_mask >= ibv_cq_attr_mask::IBV_CQ_ATTR_RESERVED as u32 {
        return Err(Errno::EINVAL);
    }
    put_field!(req, EX_HDR_SIZE; ib_uverbs_ex_modify_cq, cq_handle, cq_handle)?;
    put_field!(req, EX_HDR_SIZE; ib_uverbs_ex_modify_cq, attr_mask, attr_mask)?;
    put_field!(req, EX_HDR_SIZE; ib_uverbs_ex_modify_cq, attr.cq_count, cq_count)?;
    put_field!(req, EX_HDR_SIZE; ib_uverbs_ex_modify_cq, attr.cq_period, cq_period)?;
    put_field!(req, EX_HDR_SIZE; ib_uverbs_ex_modify_cq, reserved, 0u32)?;
    execute_cmd_write_ex_req::<ibv_modify_cq>(ctx, req)
}

/// `ibv_cmd_poll_cq`: `IB_USER_VERBS_CMD_POLL_CQ` for up to `ne` completions, converted to
/// `ibv_wc`. rdma-core returns -1 for any failure (not an errno).
pub fn poll_cq(ctx: Ctx<'_>, cq_handle: u32, ne: i32) -> Result<Vec<ibv_wc>> {
    poll_cq_into(ctx, cq_handle, ne, poll_cq_resp(ne)?)
}

const WC: usize = size_of::<ib_uverbs_wc>();
const HEAD: usize = size_of::<ib_uverbs_poll_cq_resp>();

/// The response buffer of a POLL_CQ for `ne` completions, allocated before anything else as
/// rdma-core does: ENOMEM when it cannot be had (`ne` is the caller's: up to 2^31 entries of 48
/// bytes), EINVAL for a negative `ne`.
pub fn poll_cq_resp(ne: i32) -> Result<Vec<u8>> {
    let n = usize::try_from(ne).map_err(|_| Errno::EINVAL)?;
    crate::sys::mem::try_zeroed(
        n.checked_mul(WC)
            .and_then(|b| b.checked_add(HEAD))
            .ok_or(Errno::ENOMEM)?,
    )
}

/// [`poll_cq`] with its response buffer from [`poll_cq_resp`]`(ne)`.
pub fn poll_cq_into(
    ctx: Ctx<'_>,
    cq_handle: u32,
    ne: i32,
    mut resp: Vec<u8>,
) -> Result<Vec<ibv_wc>> {
    let n = usize::try_from(ne).map_err(|_| Errno::EINVAL)?;
    let mut req = [0u8; size_of::<ibv_poll_cq>()];
    put_field!(&mut req, CMD_HDR_SIZE; ib_uverbs_poll_cq, cq_handle, cq_handle)?;
    put_field!(&mut req, CMD_HDR_SIZE; ib_uverbs_poll_cq, ne, ne as u32)?;
    execute_cmd_write_no_uhw::<ibv_poll_cq>(ctx, &mut req, &mut resp)?;
    let count = (pod::read::<ib_uverbs_poll_cq_resp>(&resp).count as usize).min(n);
    let wcs = resp.get(HEAD..).unwrap_or_default();
    let mut out = Vec::new();
    out.try_reserve_exact(count).map_err(|_| Errno::ENOMEM)?;
    out.extend(wcs.chunks_exact(WC).take(count).map(|b| {
        let w: ib_uverbs_wc = pod::read(b);
        let imm: u32 = pod::read(pod::bytes(&w.ex));
        ibv_wc {
            wr_id: w.wr_id,
            status: w.status.into(),
            opcode: w.opcode.into(),
            vendor_err: w.vendor_err,
            byte_len: w.byte_len,
            anon_1: ibv_wc_anon_1 {
                imm_data: Be32(imm),
            },
            qp_num: w.qp_num,
            src_qp: w.src_qp,
            wc_flags: w.wc_flags,
            pkey_index: w.pkey_index,
            slid: w.slid,
            sl: w.sl,
            dlid_path_bits: w.dlid_path_bits,
        }
    }));
    Ok(out)
}
