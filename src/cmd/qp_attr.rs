//! QP attributes: query and modify (rdma-core: `libibverbs/cmd.c`: `ibv_cmd_query_qp`,
//! `ibv_cmd_modify_qp`, `ibv_cmd_modify_qp_ex`, and their `copy_modify_qp_fields`). The create,
//! open and destroy commands are in [`super::qp`].
#![forbid(unsafe_code)]

use core::mem::offset_of;

use super::Ctx;
use super::qp::QpCap;
use super::wire::{put, put_field};
use super::write::{
    CMD_HDR_SIZE, EX_HDR_SIZE, execute_cmd_write, execute_cmd_write_ex, execute_cmd_write_req,
};
use crate::abi::kern_abi::*;
use crate::abi::uapi::*;
use crate::abi::verbs::ibv_qp_attr_mask::*;
use crate::abi::verbs::{ibv_ah_attr, ibv_gid, ibv_global_route, ibv_qp_attr, ibv_qp_attr_mask};
use crate::errno::{Errno, Result};
use crate::sys::pod;

/// The `ibv_ah_attr` of an `ib_uverbs_qp_dest`.
fn ah_from_dest(d: &ib_uverbs_qp_dest) -> ibv_ah_attr {
    ibv_ah_attr {
        grh: ibv_global_route {
            dgid: ibv_gid { raw: d.dgid },
            flow_label: d.flow_label,
            sgid_index: d.sgid_index,
            hop_limit: d.hop_limit,
            traffic_class: d.traffic_class,
        },
        dlid: d.dlid,
        sl: d.sl,
        src_path_bits: d.src_path_bits,
        static_rate: d.static_rate,
        is_global: d.is_global,
        port_num: d.port_num,
    }
}

/// What `ibv_cmd_query_qp` reports beyond `ibv_qp_attr`: the `ibv_qp_init_attr` fields that
/// come from the kernel (the caller adds qp_context, CQs, SRQ and type from its `ibv_qp`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpInitReport {
    pub cap: QpCap,
    pub sq_sig_all: i32,
}

/// `ibv_cmd_query_qp`: `IB_USER_VERBS_CMD_QUERY_QP` with the provider's request; masks from
/// `IBV_QP_RATE_LIMIT` up are EOPNOTSUPP (only the extended path has them). Fills the `attr`
/// fields rdma-core fills (the others keep their values).
pub fn query_qp(
    ctx: Ctx<'_>,
    qp_handle: u32,
    attr_mask: i32,
    req: &mut [u8],
    attr: &mut ibv_qp_attr,
) -> Result<QpInitReport> {
    if attr_mask as u32 & !(IBV_QP_RATE_LIMIT as u32 - 1) != 0 {
        return Err(Errno::EOPNOTSUPP);
    }
    put_field!(req, CMD_HDR_SIZE; ib_uverbs_query_qp, qp_handle, qp_handle)?;
    put_field!(req, CMD_HDR_SIZE; ib_uverbs_query_qp, attr_mask, attr_mask as u32)?;
    let mut r: ib_uverbs_query_qp_resp = pod::zeroed();
    execute_cmd_write::<ibv_query_qp>(ctx, req, pod::bytes_mut(&mut r))?;
    attr.qkey = r.qkey;
    attr.rq_psn = r.rq_psn;
    attr.sq_psn = r.sq_psn;
    attr.dest_qp_num = r.dest_qp_num;
    attr.qp_access_flags = r.qp_access_flags;
    attr.pkey_index = r.pkey_index;
    attr.alt_pkey_index = r.alt_pkey_index;
    attr.qp_state = r.qp_state.into();
    attr.cur_qp_state = r.cur_qp_state.into();
    attr.path_mtu = r.path_mtu.into();
    attr.path_mig_state = r.path_mig_state.into();
    attr.sq_draining = r.sq_draining;
    attr.max_rd_atomic = r.max_rd_atomic;
    attr.max_dest_rd_atomic = r.max_dest_rd_atomic;
    attr.min_rnr_timer = r.min_rnr_timer;
    attr.port_num = r.port_num;
    attr.timeout = r.timeout;
    attr.retry_cnt = r.retry_cnt;
    attr.rnr_retry = r.rnr_retry;
    attr.alt_port_num = r.alt_port_num;
    attr.alt_timeout = r.alt_timeout;
    let cap = QpCap {
        max_send_wr: r.max_send_wr,
        max_recv_wr: r.max_recv_wr,
        max_send_sge: r.max_send_sge,
        max_recv_sge: r.max_recv_sge,
        max_inline_data: r.max_inline_data,
    };
    attr.cap = cap.into();
    attr.ah_attr = ah_from_dest(&r.dest);
    attr.alt_ah_attr = ah_from_dest(&r.alt_dest);
    Ok(QpInitReport {
        cap,
        sq_sig_all: r.sq_sig_all.into(),
    })
}

/// The `ib_uverbs_qp_dest` of an `ibv_ah_attr`.
fn dest_of(ah: &ibv_ah_attr) -> ib_uverbs_qp_dest {
    let mut dgid = [0u8; 16];
    dgid.copy_from_slice(pod::bytes(&ah.grh.dgid));
    ib_uverbs_qp_dest {
        dgid,
        flow_label: ah.grh.flow_label,
        dlid: ah.dlid,
        reserved: 0,
        sgid_index: ah.grh.sgid_index,
        hop_limit: ah.grh.hop_limit,
        traffic_class: ah.grh.traffic_class,
        sl: ah.sl,
        src_path_bits: ah.src_path_bits,
        static_rate: ah.static_rate,
        is_global: ah.is_global,
        port_num: ah.port_num,
    }
}

/// The `ib_uverbs_qp_dest` of `ah` at `at` of `req` (EINVAL when it does not fit).
#[inline(always)]
fn put_dest(req: &mut [u8], at: usize, ah: &ibv_ah_attr) -> Result<()> {
    let mut d = dest_of(ah);
    req.get_mut(at..at + size_of::<ib_uverbs_qp_dest>())
        .ok_or(Errno::EINVAL)?
        .copy_from_slice(pod::bytes_mut(&mut d));
    Ok(())
}

/// `copy_modify_qp_fields`: the masked `attr` fields into the core `ib_uverbs_modify_qp` at
/// `base` of `req`; fields outside the mask keep the provider's bytes. (Inlined into its two
/// callers, where `base` is a constant: with the length checked once up front, the per-field
/// bounds checks fold away.)
#[inline(always)]
fn copy_modify_qp_fields(
    req: &mut [u8],
    base: usize,
    qp_handle: u32,
    attr: &ibv_qp_attr,
    mask: u32,
) -> Result<()> {
    type M = ib_uverbs_modify_qp;
    let req = base
        .checked_add(size_of::<M>())
        .and_then(|end| req.get_mut(..end))
        .ok_or(Errno::EINVAL)?;
    let has = |bit: ibv_qp_attr_mask| mask & bit as u32 != 0;
    // One row per attribute: its mask bit => its field of the command = its value.
    macro_rules! masked {
        ($bit:ident => $f:ident = $v:expr) => {
            if has($bit) {
                put_field!(req, base; M, $f, $v)?;
            }
        };
    }
    put_field!(req, base; M, qp_handle, qp_handle)?;
    put_field!(req, base; M, attr_mask, mask)?;
    masked!(IBV_QP_STATE => qp_state = attr.qp_state.raw() as u8);
    masked!(IBV_QP_CUR_STATE => cur_qp_state = attr.cur_qp_state.raw() as u8);
    masked!(IBV_QP_EN_SQD_ASYNC_NOTIFY => en_sqd_async_notify = attr.en_sqd_async_notify);
    masked!(IBV_QP_ACCESS_FLAGS => qp_access_flags = attr.qp_access_flags);
    masked!(IBV_QP_PKEY_INDEX => pkey_index = attr.pkey_index);
    masked!(IBV_QP_PORT => port_num = attr.port_num);
    masked!(IBV_QP_QKEY => qkey = attr.qkey);
    if has(IBV_QP_AV) {
        put_dest(req, base + offset_of!(M, dest), &attr.ah_attr)?;
    }
    masked!(IBV_QP_PATH_MTU => path_mtu = attr.path_mtu.raw() as u8);
    masked!(IBV_QP_TIMEOUT => timeout = attr.timeout);
    masked!(IBV_QP_RETRY_CNT => retry_cnt = attr.retry_cnt);
    masked!(IBV_QP_RNR_RETRY => rnr_retry = attr.rnr_retry);
    masked!(IBV_QP_RQ_PSN => rq_psn = attr.rq_psn);
    masked!(IBV_QP_MAX_QP_RD_ATOMIC => max_rd_atomic = attr.max_rd_atomic);
    if has(IBV_QP_ALT_PATH) {
        put_field!(req, base; M, alt_pkey_index, attr.alt_pkey_index)?;
        put_field!(req, base; M, alt_port_num, attr.alt_port_num)?;
        put_field!(req, base; M, alt_timeout, attr.alt_timeout)?;
        put_dest(req, base + offset_of!(M, alt_dest), &attr.alt_ah_attr)?;
    }
    masked!(IBV_QP_MIN_RNR_TIMER => min_rnr_timer = attr.min_rnr_timer);
    masked!(IBV_QP_SQ_PSN => sq_psn = attr.sq_psn);
    masked!(IBV_QP_MAX_DEST_RD_ATOMIC => max_dest_rd_atomic = attr.max_dest_rd_atomic);
    masked!(IBV_QP_PATH_MIG_STATE => path_mig_state = attr.path_mig_state.raw() as u8);
    masked!(IBV_QP_DEST_QPN => dest_qp_num = attr.dest_qp_num);
    put_field!(req, base; M, reserved, [0u8; 2])
}

/// `ibv_cmd_modify_qp`: `IB_USER_VERBS_CMD_MODIFY_QP` with the provider's request; masks from
/// `IBV_QP_RATE_LIMIT` up are EOPNOTSUPP.
// Inlined into its callers (bench row `modify_qp_rts`: the export repeats the mask check, which
// then folds away; no second frame). Always: from `verbs::qp`, a plain hint was not taken.
#[inline(always)]
pub fn modify_qp(
    ctx: Ctx<'_>,
    qp_handle: u32,
    attr: &ibv_qp_attr,
    attr_mask: i32,
    req: &mut [u8],
) -> Result<()> {
    if attr_mask as u32 & !(IBV_QP_RATE_LIMIT as u32 - 1) != 0 {
        return Err(Errno::EOPNOTSUPP);
    }
    copy_modify_qp_fields(req, CMD_HDR_SIZE, qp_handle, attr, attr_mask as u32)?;
    execute_cmd_write_req::<ibv_modify_qp>(ctx, req)
}

/// `ibv_cmd_modify_qp_ex`: `IB_USER_VERBS_EX_CMD_MODIFY_QP` with the provider's request and
/// response; `IBV_QP_RATE_LIMIT` needs a request that holds `rate_limit` (else EINVAL).
pub fn modify_qp_ex(
    ctx: Ctx<'_>,
    qp_handle: u32,
    attr: &ibv_qp_attr,
    attr_mask: i32,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    let base = EX_HDR_SIZE + offset_of!(ib_uverbs_ex_modify_qp, base);
    copy_modify_qp_fields(req, base, qp_handle, attr, attr_mask as u32)?;
    if attr_mask as u32 & IBV_QP_RATE_LIMIT as u32 != 0 {
        let at = EX_HDR_SIZE + offset_of!(ib_uverbs_ex_modify_qp, rate_limit);
        if req.len() < at + 4 {
            return Err(Errno::EINVAL);
        }
        put(req, at, attr.rate_limit)?;
    }
    execute_cmd_write_ex::<ibv_modify_qp_ex>(ctx, req, Some(resp))
}
