//! Completion counter commands, ioctl only (rdma-core v65: `libibverbs/cmd_comp_cntr.c`:
//! `ibv_cmd_create_comp_cntr`, `ibv_cmd_destroy_comp_cntr`, the set/inc/read pairs,
//! `ibv_cmd_qp_attach_comp_cntr`; `cmd_device.c`: `ibv_cmd_query_comp_cntr_caps`).
//!
//! A counter has two entries, completions and errors (`IB_UVERBS_COMP_CNTR_ENTRY_*`); the six
//! set/inc/read exports are [`modify_comp_cntr`] and [`read_comp_cntr`] on one of them.
#![forbid(unsafe_code)]

use super::Ctx;
use super::fallback::destroy_result;
use super::ioctl::Driver;
use super::ioctl::{IoctlArg, IoctlCmd, execute_ioctl};
use super::methods;
use crate::abi::uapi::*;
use crate::errno::Result;

/// `IBV_QP_ATTACH_COMP_CNTR_OP_*` bits that have a kernel counterpart
/// (`IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_*`, the same values): send, recv, RDMA read, remote RDMA
/// read, RDMA write, remote RDMA write. Other bits are dropped both ways.
pub const QP_ATTACH_OPS: u32 = 0x3f;

/// `ibv_cmd_create_comp_cntr`: `UVERBS_METHOD_COMP_CNTR_CREATE` with the provider's `link`
/// chain (given the kernel's answers). Returns the new counter's handle.
pub fn create_comp_cntr(ctx: Ctx<'_>, link: &mut dyn Driver) -> Result<u32> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::COMP_CNTR_CREATE);
    let h = cmd.out_obj(UVERBS_ATTR_CREATE_COMP_CNTR_HANDLE);
    super::dm::run_linked(ctx, &mut cmd, link, h)
}

/// `ibv_cmd_destroy_comp_cntr`: `UVERBS_METHOD_COMP_CNTR_DESTROY` (a destroy).
pub fn destroy_comp_cntr(
    ctx: Ctx<'_>,
    handle: u32,
    allow_disassociate_destroy: bool,
) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::COMP_CNTR_DESTROY);
    cmd.in_obj(UVERBS_ATTR_DESTROY_COMP_CNTR_HANDLE, handle);
    destroy_result(execute_ioctl(ctx, &mut cmd), allow_disassociate_destroy)
}

/// `UVERBS_METHOD_COMP_CNTR_MODIFY`: set (`IB_UVERBS_COMP_CNTR_MODIFY_OP_SET`) or add to
/// (`_OP_INC`) entry `entry` (`IB_UVERBS_COMP_CNTR_ENTRY_COMP` or `_ERR`) of the counter.
pub fn modify_comp_cntr(ctx: Ctx<'_>, handle: u32, entry: u8, op: u8, value: u64) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::COMP_CNTR_MODIFY);
    cmd.in_obj(UVERBS_ATTR_MODIFY_COMP_CNTR_HANDLE, handle);
    cmd.in_u64(UVERBS_ATTR_MODIFY_COMP_CNTR_ENTRY, entry.into());
    cmd.in_u64(UVERBS_ATTR_MODIFY_COMP_CNTR_OP, op.into());
    cmd.in_u64(UVERBS_ATTR_MODIFY_COMP_CNTR_VALUE, value);
    execute_ioctl(ctx, &mut cmd)
}

/// `UVERBS_METHOD_COMP_CNTR_READ`: the value of entry `entry` of the counter.
pub fn read_comp_cntr(ctx: Ctx<'_>, handle: u32, entry: u8) -> Result<u64> {
    let mut value = 0u64;
    {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::COMP_CNTR_READ);
        cmd.in_obj(UVERBS_ATTR_READ_COMP_CNTR_HANDLE, handle);
        cmd.in_u64(UVERBS_ATTR_READ_COMP_CNTR_ENTRY, entry.into());
        cmd.out_pod(UVERBS_ATTR_READ_COMP_CNTR_RESP_VALUE, &mut value);
        execute_ioctl(ctx, &mut cmd)?;
    }
    Ok(value)
}

/// `ibv_cmd_qp_attach_comp_cntr`: `UVERBS_METHOD_QP_ATTACH_COMP_CNTR`; `op_mask` holds
/// `IBV_QP_ATTACH_COMP_CNTR_OP_*` bits (only [`QP_ATTACH_OPS`] are sent).
pub fn qp_attach_comp_cntr(
    ctx: Ctx<'_>,
    qp_handle: u32,
    cntr_handle: u32,
    op_mask: u32,
) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::QP_ATTACH_COMP_CNTR);
    cmd.in_obj(UVERBS_ATTR_QP_ATTACH_COMP_CNTR_HANDLE, qp_handle);
    cmd.in_obj(UVERBS_ATTR_QP_ATTACH_COMP_CNTR_CNTR_HANDLE, cntr_handle);
    cmd.in_u32(
        UVERBS_ATTR_QP_ATTACH_COMP_CNTR_OP_MASK,
        op_mask & QP_ATTACH_OPS,
    );
    execute_ioctl(ctx, &mut cmd)
}

/// What `UVERBS_METHOD_QUERY_COMP_CNTR_CAPS` answers (`struct ibv_comp_cntr_caps` fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompCntrCaps {
    pub max_counters: u32,
    pub max_value: u64,
    /// `IBV_QP_ATTACH_COMP_CNTR_OP_*` bits (unknown kernel bits dropped).
    pub supported_qp_attach_ops: u32,
}

/// `ibv_cmd_query_comp_cntr_caps`: `UVERBS_METHOD_QUERY_COMP_CNTR_CAPS` (the caller checks the
/// size of its `ibv_comp_cntr_caps`).
pub fn query_comp_cntr_caps(ctx: Ctx<'_>) -> Result<CompCntrCaps> {
    let (mut max_counters, mut max_value, mut ops) = (0u32, 0u64, 0u32);
    {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::QUERY_COMP_CNTR_CAPS);
        cmd.out_pod(
            UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_MAX_COUNTERS,
            &mut max_counters,
        );
        cmd.out_pod(UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_MAX_VALUE, &mut max_value);
        cmd.out_pod(
            UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_SUPPORTED_QP_ATTACH_OPS,
            &mut ops,
        );
        execute_ioctl(ctx, &mut cmd)?;
    }
    Ok(CompCntrCaps {
        max_counters,
        max_value,
        supported_qp_attach_ops: ops & QP_ATTACH_OPS,
    })
}
