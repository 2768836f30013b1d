//! WQ and RSS indirection table commands (rdma-core: `libibverbs/cmd_wq.c`:
//! `ibv_cmd_create_wq`, `ibv_cmd_destroy_wq`; `cmd.c`: `ibv_cmd_modify_wq`,
//! `ibv_cmd_create_rwq_ind_table`; `cmd_rwq_ind.c`: `ibv_cmd_destroy_rwq_ind_table`).
#![forbid(unsafe_code)]

use super::Ctx;
use super::compat::Compat;
use super::fallback::{Fallback, destroy_counted, destroy_result, execute_ioctl_fallback, op};
use super::ioctl::{IoctlArg, IoctlCmd};
use super::methods;
use super::wire::{put, put_field, zero};
use super::write::{
    EX_HDR_SIZE, execute_cmd_write_ex, execute_cmd_write_ex_full, execute_cmd_write_ex_req,
};
use crate::abi::kern_abi::*;
use crate::abi::uapi::*;
use crate::abi::verbs::ibv_wq_attr_mask::*;
use crate::abi::verbs::{ibv_ind_table_init_attr_mask, ibv_wq_flags, ibv_wq_init_attr_mask};
use crate::errno::{Errno, Result};
use crate::sys::pod;

/// `ibv_wq_init_attr` with its PD and CQ resolved to kernel handles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WqInit {
    pub comp_mask: u32,
    pub wq_type: u32,
    pub max_wr: u32,
    pub max_sge: u32,
    pub pd_handle: u32,
    pub cq_handle: u32,
    pub create_flags: u32,
    /// The `ibv_wq` address.
    pub user_handle: u64,
    /// `context->async_fd`.
    pub async_fd: i32,
    /// `priv->imported`.
    pub imported: bool,
}

/// A created WQ: `wq->handle`, `wq->wq_num`, and the granted `max_wr` / `max_sge` (stored back
/// into the caller's `ibv_wq_init_attr`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WqCreated {
    pub handle: u32,
    pub wq_num: u32,
    pub max_wr: u32,
    pub max_sge: u32,
}

/// `ibv_cmd_create_wq`: `UVERBS_METHOD_WQ_CREATE`, falling back to
/// `IB_USER_VERBS_EX_CMD_CREATE_WQ`. `req` is the provider's `struct ibv_create_wq` plus driver
/// data, `resp` its `struct ib_uverbs_ex_create_wq_resp` plus driver data.
pub fn create_wq(ctx: Ctx<'_>, a: &WqInit, req: &mut [u8], resp: &mut [u8]) -> Result<WqCreated> {
    let mut c = Compat::new(
        req,
        size_of::<ibv_create_wq>(),
        resp,
        size_of::<ib_uverbs_ex_create_wq_resp>(),
    )?;
    if a.comp_mask >= ibv_wq_init_attr_mask::IBV_WQ_INIT_ATTR_RESERVED as u32 {
        return Err(Errno::EINVAL);
    }
    let mut create_flags = 0;
    if a.comp_mask & ibv_wq_init_attr_mask::IBV_WQ_INIT_ATTR_FLAGS as u32 != 0 {
        if a.create_flags & !(ibv_wq_flags::IBV_WQ_FLAGS_RESERVED as u32 - 1) != 0 {
            return Err(Errno::EOPNOTSUPP);
        }
        create_flags = a.create_flags;
    }
    let (mut max_wr, mut max_sge, mut wq_num) = (0u32, 0u32, 0u32);
    let (via, handle) = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::WQ_CREATE);
        let h = cmd.out_obj(UVERBS_ATTR_CREATE_WQ_HANDLE);
        cmd.in_u64(UVERBS_ATTR_CREATE_WQ_USER_HANDLE, a.user_handle);
        cmd.in_obj(UVERBS_ATTR_CREATE_WQ_PD_HANDLE, a.pd_handle);
        cmd.in_obj(UVERBS_ATTR_CREATE_WQ_CQ_HANDLE, a.cq_handle);
        cmd.in_u64(UVERBS_ATTR_CREATE_WQ_TYPE, a.wq_type.into());
        cmd.in_u32(UVERBS_ATTR_CREATE_WQ_MAX_WR, a.max_wr);
        cmd.in_u32(UVERBS_ATTR_CREATE_WQ_MAX_SGE, a.max_sge);
        cmd.in_fd(UVERBS_ATTR_CREATE_WQ_EVENT_FD, a.async_fd);
        cmd.in_u32(UVERBS_ATTR_CREATE_WQ_FLAGS, create_flags);
        cmd.out_pod(UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR, &mut max_wr);
        cmd.out_pod(UVERBS_ATTR_CREATE_WQ_RESP_MAX_SGE, &mut max_sge);
        cmd.out_pod(UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM, &mut wq_num);
        if a.imported {
            cmd.fallback_ioctl_only = true;
        }
        cmd.fallback_require_ex = true;
        c.link(&mut cmd);
        let via = execute_ioctl_fallback(ctx, op::CREATE_WQ, &mut cmd);
        (via?, cmd.attr(h).map_or(0, |x| x.data as u32))
    };
    match via {
        Fallback::Success => Ok(WqCreated {
            handle,
            wq_num,
            max_wr,
            max_sge,
        }),
        Fallback::TryWriteEx => {
            let r = c.write_ex::<ibv_create_wq>(ctx, |k| {
                type W = ib_uverbs_ex_create_wq;
                put_field!(k, W, user_handle, a.user_handle)?;
                put_field!(k, W, pd_handle, a.pd_handle)?;
                put_field!(k, W, cq_handle, a.cq_handle)?;
                put_field!(k, W, max_wr, a.max_wr)?;
                put_field!(k, W, max_sge, a.max_sge)?;
                put_field!(k, W, wq_type, a.wq_type)?;
                // rdma-core sends the caller's flags here unfiltered.
                put_field!(k, W, create_flags, a.create_flags)
            })?;
            Ok(WqCreated {
                handle: r.wq_handle,
                wq_num: r.wqn,
                max_wr: r.max_wr,
                max_sge: r.max_sge,
            })
        }
        // Unreachable: the buffer always asks for the extended write.
        Fallback::TryWrite => Err(Errno::EOPNOTSUPP),
    }
}

/// `ibv_cmd_modify_wq`: `IB_USER_VERBS_EX_CMD_MODIFY_WQ` with the provider's request (its core
/// struct, header included, zeroed first). `attr_mask` at or above `IBV_WQ_ATTR_RESERVED` is
/// EINVAL, unknown flag bits EOPNOTSUPP. On success with `IBV_WQ_ATTR_STATE` the caller sets
/// `wq->state`.
#[allow(clippy::too_many_arguments)]
pub fn modify_wq(
    ctx: Ctx<'_>,
    wq_handle: u32,
    attr_mask: u32,
    wq_state: u32,
    curr_wq_state: u32,
    flags: u32,
    flags_mask: u32,
    req: &mut [u8],
) -> Result<()> {
    type M = ib_uverbs_ex_modify_wq;
    if attr_mask >= IBV_WQ_ATTR_RESERVED as u32 {
        return Err(Errno::EINVAL);
    }
    zero(req, 0, size_of::<ibv_modify_wq>())?;
    put_field!(req, EX_HDR_SIZE; M, curr_wq_state, curr_wq_state)?;
    put_field!(req, EX_HDR_SIZE; M, wq_state, wq_state)?;
    if attr_mask & IBV_WQ_ATTR_FLAGS as u32 != 0 {
        if flags_mask & !(ibv_wq_flags::IBV_WQ_FLAGS_RESERVED as u32 - 1) != 0 {
            return Err(Errno::EOPNOTSUPP);
        }
        put_field!(req, EX_HDR_SIZE; M, flags, flags)?;
        put_field!(req, EX_HDR_SIZE; M, flags_mask, flags_mask)?;
    }
    put_field!(req, EX_HDR_SIZE; M, wq_handle, wq_handle)?;
    put_field!(req, EX_HDR_SIZE; M, attr_mask, attr_mask)?;
    execute_cmd_write_ex_req::<ibv_modify_wq>(ctx, req)
}

/// `ibv_cmd_destroy_wq`: `UVERBS_METHOD_WQ_DESTROY`, falling back to
/// `IB_USER_VERBS_EX_CMD_DESTROY_WQ`. Returns `events_reported` to wait for; None when an EIO
/// on a disassociated device was forgiven.
pub fn destroy_wq(
    ctx: Ctx<'_>,
    wq_handle: u32,
    allow_disassociate_destroy: bool,
) -> Result<Option<u32>> {
    let mut resp: ib_uverbs_ex_destroy_wq_resp = pod::zeroed();
    let r = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::WQ_DESTROY);
        cmd.out_pod(UVERBS_ATTR_DESTROY_WQ_RESP, &mut resp.events_reported);
        cmd.in_obj(UVERBS_ATTR_DESTROY_WQ_HANDLE, wq_handle);
        execute_ioctl_fallback(ctx, op::DESTROY_WQ, &mut cmd)
    };
    let write = || {
        let mut req = [0u8; size_of::<ibv_destroy_wq>()];
        put_field!(&mut req, EX_HDR_SIZE; ib_uverbs_ex_destroy_wq, wq_handle, wq_handle)?;
        execute_cmd_write_ex::<ibv_destroy_wq>(ctx, &mut req, Some(pod::bytes_mut(&mut resp)))
    };
    let answered = destroy_counted(r, write, allow_disassociate_destroy)?;
    Ok(answered.then_some(resp.events_reported))
}

/// `ibv_cmd_create_rwq_ind_table`: `IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL` with our own
/// request (the WQ handles padded to 8 bytes); `wq_handles` holds `1 << log_ind_tbl_size`
/// handles. A short answer (`response_length` below the core response) is EINVAL. Returns
/// (ind_tbl_handle, ind_tbl_num).
pub fn create_rwq_ind_table(
    ctx: Ctx<'_>,
    comp_mask: u32,
    log_ind_tbl_size: u32,
    wq_handles: &[u32],
    resp: &mut [u8],
) -> Result<(u32, u32)> {
    type T = ib_uverbs_ex_create_rwq_ind_table;
    type R = ib_uverbs_ex_create_rwq_ind_table_resp;
    if comp_mask >= ibv_ind_table_init_attr_mask::IBV_CREATE_IND_TABLE_RESERVED as u32 {
        return Err(Errno::EINVAL);
    }
    let n = 1usize.checked_shl(log_ind_tbl_size).ok_or(Errno::EINVAL)?;
    let handles = wq_handles.get(..n).ok_or(Errno::EINVAL)?;
    let base = size_of::<ibv_create_rwq_ind_table>();
    let len = n
        .checked_mul(4)
        .and_then(|b| b.checked_add(base))
        .ok_or(Errno::ENOMEM)?
        .div_ceil(8)
        * 8;
    let mut req = crate::sys::mem::try_zeroed(len)?;
    for (i, h) in handles.iter().enumerate() {
        put(&mut req, base + 4 * i, *h)?;
    }
    put_field!(&mut req, EX_HDR_SIZE; T, log_ind_tbl_size, log_ind_tbl_size)?;
    execute_cmd_write_ex_full::<ibv_create_rwq_ind_table>(
        ctx,
        &mut req,
        len,
        Some(resp),
        size_of::<R>(),
    )?;
    let r: R = pod::read(resp);
    if (r.response_length as usize) < size_of::<R>() {
        return Err(Errno::EINVAL);
    }
    Ok((r.ind_tbl_handle, r.ind_tbl_num))
}

/// `ibv_cmd_destroy_rwq_ind_table`: `UVERBS_METHOD_RWQ_IND_TBL_DESTROY`, falling back to
/// `IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL` (rdma-core files it under the destroy_ah bit).
pub fn destroy_rwq_ind_table(
    ctx: Ctx<'_>,
    ind_tbl_handle: u32,
    allow_disassociate_destroy: bool,
) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::RWQ_IND_TBL_DESTROY);
    cmd.in_obj(UVERBS_ATTR_DESTROY_RWQ_IND_TBL_HANDLE, ind_tbl_handle);
    let r = match execute_ioctl_fallback(ctx, op::DESTROY_AH, &mut cmd) {
        Ok(Fallback::TryWrite) => {
            let mut req = [0u8; size_of::<ibv_destroy_rwq_ind_table>()];
            put_field!(&mut req, EX_HDR_SIZE; ib_uverbs_ex_destroy_rwq_ind_table, ind_tbl_handle, ind_tbl_handle)?;
            execute_cmd_write_ex_req::<ibv_destroy_rwq_ind_table>(ctx, &mut req)
        }
        Ok(Fallback::Success) => Ok(()),
        Ok(Fallback::TryWriteEx) => Err(Errno::EOPNOTSUPP),
        Err(e) => Err(e),
    };
    destroy_result(r, allow_disassociate_destroy)
}
