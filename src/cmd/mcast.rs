//! Multicast commands (rdma-core: `libibverbs/cmd.c`: `ibv_cmd_attach_mcast`,
//! `ibv_cmd_detach_mcast`).
//!
//! Both are write commands with the same request: the QP's handle, the group's GID and LID.
//! Called by `verbs::mcast`.
#![forbid(unsafe_code)]

use super::Ctx;
use super::fallback::destroy_result;
use super::wire::put_field;
use super::write::{CMD_HDR_SIZE, execute_cmd_write_req};
use crate::abi::kern_abi::{KernCmd, ibv_attach_mcast, ibv_detach_mcast};
use crate::abi::uapi::ib_uverbs_attach_mcast;
use crate::abi::verbs::ibv_gid;
use crate::errno::Result;
use crate::sys::pod;

const H: usize = CMD_HDR_SIZE;

/// The request of command `C` (ATTACH_MCAST or DETACH_MCAST, which share a layout).
fn mcast_req<C: KernCmd>(qp_handle: u32, gid: &ibv_gid, lid: u16) -> Result<Vec<u8>> {
    let mut req = vec![0u8; size_of::<C>()];
    let mut g = [0u8; 16];
    g.copy_from_slice(pod::bytes(gid));
    put_field!(&mut req, H; ib_uverbs_attach_mcast, gid, g)?;
    put_field!(&mut req, H; ib_uverbs_attach_mcast, qp_handle, qp_handle)?;
    put_field!(&mut req, H; ib_uverbs_attach_mcast, mlid, lid)?;
    Ok(req)
}

/// `ibv_cmd_attach_mcast`: `IB_USER_VERBS_CMD_ATTACH_MCAST`.
pub fn attach_mcast(ctx: Ctx<'_>, qp_handle: u32, gid: &ibv_gid, lid: u16) -> Result<()> {
    let mut req = mcast_req::<ibv_attach_mcast>(qp_handle, gid, lid)?;
    execute_cmd_write_req::<ibv_attach_mcast>(ctx, &mut req)
}

/// `ibv_cmd_detach_mcast`: `IB_USER_VERBS_CMD_DETACH_MCAST` (a destroy: see
/// [`destroy_result`]).
pub fn detach_mcast(
    ctx: Ctx<'_>,
    qp_handle: u32,
    gid: &ibv_gid,
    lid: u16,
    allow_disassociate_destroy: bool,
) -> Result<()> {
    let mut req = mcast_req::<ibv_detach_mcast>(qp_handle, gid, lid)?;
    destroy_result(
        execute_cmd_write_req::<ibv_detach_mcast>(ctx, &mut req),
        allow_disassociate_destroy,
    )
}
