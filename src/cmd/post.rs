//! Posting work requests through the kernel (rdma-core: `libibverbs/cmd.c`: `ibv_cmd_post_send`,
//! `ibv_cmd_post_recv`, `ibv_cmd_post_srq_recv`), for providers without a user-space data path.
//!
//! The caller walks the C work request list into [`SendWr`] / [`RecvWr`] values; which member
//! of `ibv_send_wr.wr` counts is decided here ([`send_target_kind`]).
#![forbid(unsafe_code)]

use super::Ctx;
use super::wire::{put, put_field};
use super::write::{CMD_HDR_SIZE, execute_cmd_write_no_uhw};
use crate::abi::kern_abi::{KernCmd, ibv_post_recv, ibv_post_send, ibv_post_srq_recv};
use crate::abi::uapi::*;
use crate::abi::verbs::ibv_qp_type::IBV_QPT_UD;
use crate::abi::verbs::ibv_sge;
use crate::abi::verbs::ibv_wr_opcode::*;
use crate::errno::{Errno, Result};
use crate::sys::pod;

/// Which member of `ibv_send_wr.wr` a send work request uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    None,
    Rdma,
    Atomic,
    Ud,
}

/// rdma-core's rule: every WR of a UD QP is UD; otherwise RDMA write/read opcodes carry `rdma`,
/// the two atomics `atomic`, and the rest nothing.
pub fn send_target_kind(qp_type: u32, opcode: u32) -> TargetKind {
    if qp_type == IBV_QPT_UD as u32 {
        return TargetKind::Ud;
    }
    match opcode {
        o if o == IBV_WR_RDMA_WRITE as u32
            || o == IBV_WR_RDMA_WRITE_WITH_IMM as u32
            || o == IBV_WR_RDMA_READ as u32 =>
        {
            TargetKind::Rdma
        }
        o if o == IBV_WR_ATOMIC_CMP_AND_SWP as u32 || o == IBV_WR_ATOMIC_FETCH_AND_ADD as u32 => {
            TargetKind::Atomic
        }
        _ => TargetKind::None,
    }
}

/// The member of `ibv_send_wr.wr` in use, with the AH resolved to its handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendTarget {
    None,
    Rdma {
        remote_addr: u64,
        rkey: u32,
    },
    Atomic {
        remote_addr: u64,
        compare_add: u64,
        swap: u64,
        rkey: u32,
    },
    Ud {
        ah_handle: u32,
        remote_qpn: u32,
        remote_qkey: u32,
    },
}

/// One `ibv_send_wr`.
#[derive(Clone, Copy)]
pub struct SendWr<'a> {
    pub wr_id: u64,
    pub opcode: u32,
    pub send_flags: u32,
    /// `imm_data` / `invalidate_rkey`, as stored.
    pub imm_data: u32,
    pub target: SendTarget,
    pub sg_list: &'a [ibv_sge],
}

/// One `ibv_recv_wr`.
#[derive(Clone, Copy)]
pub struct RecvWr<'a> {
    pub wr_id: u64,
    pub sg_list: &'a [ibv_sge],
}

/// Outcome of a post: the command's result, and which WR (index into the list) to report
/// through `bad_wr`, if any: the kernel's (1-based) `bad_wr`, else the first WR on failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Posted {
    pub ret: Result<()>,
    pub bad_wr: Option<usize>,
}

fn sge_bytes(out: &mut Vec<u8>, sges: &[ibv_sge]) {
    for s in sges {
        out.extend_from_slice(&s.addr.to_ne_bytes());
        out.extend_from_slice(&s.length.to_ne_bytes());
        out.extend_from_slice(&s.lkey.to_ne_bytes());
    }
}

/// The request header part shared by the three post commands: `handle`, counts and WQE size;
/// with room for the WRs and SGEs that follow (ENOMEM when the counts, which are the caller's,
/// ask for more than memory holds).
fn post_head<C: KernCmd>(
    handle: u32,
    wr_count: usize,
    sge_count: usize,
    wqe_size: usize,
) -> Result<Vec<u8>> {
    type P = ib_uverbs_post_send;
    let total = wr_count
        .checked_mul(wqe_size)
        .zip(sge_count.checked_mul(size_of::<ibv_sge>()))
        .and_then(|(w, s)| w.checked_add(s)?.checked_add(size_of::<C>()))
        .ok_or(Errno::ENOMEM)?;
    let mut req = Vec::new();
    req.try_reserve_exact(total).map_err(|_| Errno::ENOMEM)?;
    req.resize(size_of::<C>(), 0);
    // The three requests share this layout (response, handle, wr_count, sge_count, wqe_size).
    put_field!(&mut req, CMD_HDR_SIZE; P, qp_handle, handle)?;
    put_field!(&mut req, CMD_HDR_SIZE; P, wr_count, wr_count as u32)?;
    put_field!(&mut req, CMD_HDR_SIZE; P, sge_count, sge_count as u32)?;
    put_field!(&mut req, CMD_HDR_SIZE; P, wqe_size, wqe_size as u32)?;
    Ok(req)
}

fn finish<C: KernCmd>(ctx: Ctx<'_>, mut req: Vec<u8>) -> Posted {
    let mut resp: ib_uverbs_post_send_resp = pod::zeroed();
    let ret = execute_cmd_write_no_uhw::<C>(ctx, &mut req, pod::bytes_mut(&mut resp));
    let bad_wr = match resp.bad_wr {
        0 if ret.is_err() => Some(0),
        0 => None,
        n => Some(n as usize - 1),
    };
    Posted { ret, bad_wr }
}

/// One WR of [`post_send`] as the kernel's `ib_uverbs_send_wr` (its SGEs follow all WRs).
fn send_wr_bytes(w: &SendWr<'_>) -> Result<Vec<u8>> {
    let mut n = vec![0u8; size_of::<ib_uverbs_send_wr>()];
    type S = ib_uverbs_send_wr;
    put_field!(&mut n, S, wr_id, w.wr_id)?;
    put_field!(&mut n, S, num_sge, w.sg_list.len() as u32)?;
    put_field!(&mut n, S, opcode, w.opcode)?;
    put_field!(&mut n, S, send_flags, w.send_flags)?;
    put(&mut n, core::mem::offset_of!(S, ex), w.imm_data)?;
    let at = core::mem::offset_of!(S, wr);
    match w.target {
        SendTarget::None => {}
        SendTarget::Rdma { remote_addr, rkey } => {
            put(
                &mut n,
                at + core::mem::offset_of!(ib_uverbs_send_wr_wr_rdma, remote_addr),
                remote_addr,
            )?;
            put(
                &mut n,
                at + core::mem::offset_of!(ib_uverbs_send_wr_wr_rdma, rkey),
                rkey,
            )?;
        }
        SendTarget::Atomic {
            remote_addr,
            compare_add,
            swap,
            rkey,
        } => {
            type A = ib_uverbs_send_wr_wr_atomic;
            put(
                &mut n,
                at + core::mem::offset_of!(A, remote_addr),
                remote_addr,
            )?;
            put(
                &mut n,
                at + core::mem::offset_of!(A, compare_add),
                compare_add,
            )?;
            put(&mut n, at + core::mem::offset_of!(A, swap), swap)?;
            put(&mut n, at + core::mem::offset_of!(A, rkey), rkey)?;
        }
        SendTarget::Ud {
            ah_handle,
            remote_qpn,
            remote_qkey,
        } => {
            type U = ib_uverbs_send_wr_wr_ud;
            put(&mut n, at + core::mem::offset_of!(U, ah), ah_handle)?;
            put(
                &mut n,
                at + core::mem::offset_of!(U, remote_qpn),
                remote_qpn,
            )?;
            put(
                &mut n,
                at + core::mem::offset_of!(U, remote_qkey),
                remote_qkey,
            )?;
        }
    }
    Ok(n)
}

/// `ibv_cmd_post_send`: `IB_USER_VERBS_CMD_POST_SEND` with every WR and its SGEs.
pub fn post_send(ctx: Ctx<'_>, qp_handle: u32, wrs: &[SendWr<'_>]) -> Posted {
    let build = || -> Result<Vec<u8>> {
        let sges = wrs
            .iter()
            .try_fold(0usize, |n, w| n.checked_add(w.sg_list.len()))
            .ok_or(Errno::ENOMEM)?;
        let mut req =
            post_head::<ibv_post_send>(qp_handle, wrs.len(), sges, size_of::<ib_uverbs_send_wr>())?;
        for w in wrs {
            let n = send_wr_bytes(w)?;
            req.extend_from_slice(&n);
        }
        for w in wrs {
            sge_bytes(&mut req, w.sg_list);
        }
        Ok(req)
    };
    match build() {
        Ok(req) => finish::<ibv_post_send>(ctx, req),
        Err(e) => Posted {
            ret: Err(e),
            bad_wr: Some(0),
        },
    }
}

fn post_recv_common<C: KernCmd>(ctx: Ctx<'_>, handle: u32, wrs: &[RecvWr<'_>]) -> Posted {
    let build = || -> Result<Vec<u8>> {
        let sges = wrs
            .iter()
            .try_fold(0usize, |n, w| n.checked_add(w.sg_list.len()))
            .ok_or(Errno::ENOMEM)?;
        let mut req = post_head::<C>(handle, wrs.len(), sges, size_of::<ib_uverbs_recv_wr>())?;
        for w in wrs {
            req.extend_from_slice(&w.wr_id.to_ne_bytes());
            req.extend_from_slice(&(w.sg_list.len() as u32).to_ne_bytes());
            req.extend_from_slice(&0u32.to_ne_bytes());
        }
        for w in wrs {
            sge_bytes(&mut req, w.sg_list);
        }
        Ok(req)
    };
    match build() {
        Ok(req) => finish::<C>(ctx, req),
        Err(e) => Posted {
            ret: Err(e),
            bad_wr: Some(0),
        },
    }
}

/// `ibv_cmd_post_recv`: `IB_USER_VERBS_CMD_POST_RECV`.
pub fn post_recv(ctx: Ctx<'_>, qp_handle: u32, wrs: &[RecvWr<'_>]) -> Posted {
    post_recv_common::<ibv_post_recv>(ctx, qp_handle, wrs)
}

/// `ibv_cmd_post_srq_recv`: `IB_USER_VERBS_CMD_POST_SRQ_RECV`.
pub fn post_srq_recv(ctx: Ctx<'_>, srq_handle: u32, wrs: &[RecvWr<'_>]) -> Posted {
    post_recv_common::<ibv_post_srq_recv>(ctx, srq_handle, wrs)
}

const _: () = assert!(size_of::<ib_uverbs_recv_wr>() == 16 && size_of::<ibv_sge>() == 16);
