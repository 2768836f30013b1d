//! Provider command layer: posting work requests through the kernel (rdma-core: cmd.c
//! `ibv_cmd_post_send`, `ibv_cmd_post_recv`; `ibv_cmd_post_srq_recv` lives with the SRQ
//! commands and shares [`post_recv_with`]).
//!
//! For providers without a user-space data path: the C work request lists are walked into the
//! command layer's values ([`crate::cmd::post`]) and the kernel's `bad_wr` mapped back to the
//! caller's list.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use crate::verbs::ctxpriv::Context;
use core::ffi::c_int;

use crate::abi::verbs::{ibv_qp, ibv_recv_wr, ibv_send_wr};
use crate::cmd::Ctx;
use crate::cmd::post::{SendTarget, SendWr, TargetKind, send_target_kind};
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::qpcommon::{recv_list, set_bad_wr, sges, with_room, wr_count};

/// `int ibv_cmd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)`
///
/// Posts the send work request list through the kernel (write command POST_SEND, for providers
/// without a user-space send queue). 0, or the positive errno with `*bad_wr` the WR the kernel
/// named (the first one when it named none). Divergence: NULL `ibqp` gives EINVAL; a WR with a
/// negative SGE count, a NULL SGE list or (UD) a NULL AH fails EINVAL before anything is sent,
/// naming that WR; a NULL `bad_wr` is not written.
#[export(PRIVATE 34..)]
fn ibv_cmd_post_send(
    ibqp: *mut ibv_qp,
    wr: *mut ibv_send_wr,
    bad_wr: *mut *mut ibv_send_wr,
) -> Raw<c_int> {
    // SAFETY: the provider's QP and the caller's list.
    unsafe {
        if ibqp.is_null() || (*ibqp).context.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let ctx = (*ibqp).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        post_send_with(c, ibqp, wr, bad_wr)
    }
}

/// One C send WR as the command layer's value.
///
/// # Safety
/// `w` is a live WR; its SGE array and (UD) AH too.
unsafe fn send_wr<'a>(qp_type: u32, w: *const ibv_send_wr) -> Result<SendWr<'a>> {
    // SAFETY: the caller's contract; union members are read as rdma-core reads them.
    unsafe {
        let opcode = (*w).opcode.raw();
        let target = match send_target_kind(qp_type, opcode) {
            TargetKind::None => SendTarget::None,
            TargetKind::Rdma => {
                let r = (*w).wr.rdma;
                SendTarget::Rdma {
                    remote_addr: r.remote_addr,
                    rkey: r.rkey,
                }
            }
            TargetKind::Atomic => {
                let a = (*w).wr.atomic;
                SendTarget::Atomic {
                    remote_addr: a.remote_addr,
                    compare_add: a.compare_add,
                    swap: a.swap,
                    rkey: a.rkey,
                }
            }
            TargetKind::Ud => {
                let u = (*w).wr.ud;
                if u.ah.is_null() {
                    return Err(Errno::EINVAL);
                }
                SendTarget::Ud {
                    ah_handle: (*u.ah).handle,
                    remote_qpn: u.remote_qpn,
                    remote_qkey: u.remote_qkey,
                }
            }
        };
        Ok(SendWr {
            wr_id: (*w).wr_id,
            opcode,
            send_flags: (*w).send_flags,
            imm_data: (*w).anon_1.imm_data.0,
            target,
            sg_list: sges((*w).sg_list, (*w).num_sge)?,
        })
    }
}

/// [`ibv_cmd_post_send`] on a given command channel.
///
/// # Safety
/// As for the export.
pub unsafe fn post_send_with(
    c: Ctx<'_>,
    qp: *mut ibv_qp,
    mut wr: *mut ibv_send_wr,
    bad_wr: *mut *mut ibv_send_wr,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        let qp_type = (*qp).qp_type.raw();
        let (mut wrs, mut ptrs) = match with_room(wr_count(wr, |w| (*w).next)) {
            Ok(v) => v,
            Err(e) => {
                set_bad_wr(bad_wr, &[wr], Some(0));
                return e.ret_errno();
            }
        };
        while !wr.is_null() {
            ptrs.push(wr);
            match send_wr(qp_type, wr) {
                Ok(w) => wrs.push(w),
                Err(e) => {
                    set_bad_wr(bad_wr, &ptrs, Some(ptrs.len() - 1));
                    return e.ret_errno();
                }
            }
            wr = (*wr).next;
        }
        let p = crate::cmd::post::post_send(c, (*qp).handle, &wrs);
        set_bad_wr(bad_wr, &ptrs, p.bad_wr);
        p.ret.ret_errno()
    }
}

/// `int ibv_cmd_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)`
///
/// Posts the receive work request list through the kernel (write command POST_RECV). 0, or the
/// positive errno with `*bad_wr` as for [`ibv_cmd_post_send`]. Divergence: as there.
#[export(PRIVATE 34..)]
fn ibv_cmd_post_recv(
    ibqp: *mut ibv_qp,
    wr: *mut ibv_recv_wr,
    bad_wr: *mut *mut ibv_recv_wr,
) -> Raw<c_int> {
    // SAFETY: the provider's QP and the caller's list.
    unsafe {
        if ibqp.is_null() || (*ibqp).context.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let ctx = (*ibqp).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        post_recv_with(c, (*ibqp).handle, wr, bad_wr, false)
    }
}

/// [`ibv_cmd_post_recv`] (or, with `srq`, `ibv_cmd_post_srq_recv`) on a given command channel
/// for the object with kernel handle `handle`.
///
/// # Safety
/// As for the export.
pub unsafe fn post_recv_with(
    c: Ctx<'_>,
    handle: u32,
    wr: *mut ibv_recv_wr,
    bad_wr: *mut *mut ibv_recv_wr,
    srq: bool,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        let (wrs, ptrs) = match recv_list(wr) {
            Ok(l) => l,
            Err((i, e)) => {
                // `*bad_wr` names the WR that could not be taken (the first one for ENOMEM).
                if !bad_wr.is_null() {
                    let mut p = wr;
                    for _ in 0..i {
                        p = (*p).next;
                    }
                    *bad_wr = p;
                }
                return e.ret_errno();
            }
        };
        let p = if srq {
            crate::cmd::post::post_srq_recv(c, handle, &wrs)
        } else {
            crate::cmd::post::post_recv(c, handle, &wrs)
        };
        set_bad_wr(bad_wr, &ptrs, p.bad_wr);
        p.ret.ret_errno()
    }
}
