//! Address handle commands (rdma-core: `libibverbs/cmd.c`: `ibv_cmd_create_ah`; `cmd_ah.c`:
//! `ibv_cmd_destroy_ah`).
//!
//! CREATE_AH is a write command whose request the library builds itself (the provider gives only
//! a response buffer); the destroy goes by handle, ioctl first. Called by `verbs::ah`.
#![forbid(unsafe_code)]

use super::Ctx;
use super::fallback::op;
use super::methods;
use super::pd::destroy_handle;
use super::wire::put_field;
use super::write::{CMD_HDR_SIZE, execute_cmd_write};
use crate::abi::kern_abi::{ibv_create_ah, ibv_destroy_ah};
use crate::abi::uapi::*;
use crate::abi::verbs::{ibv_ah_attr, ibv_gid};
use crate::errno::{Errno, Result};
use crate::sys::pod::{self, bytes_mut};

const H: usize = CMD_HDR_SIZE;

/// The kernel's address vector from `ibv_ah_attr` (`ib_uverbs_ah_attr`, reserved fields 0).
fn kern_ah_attr(a: &ibv_ah_attr) -> ib_uverbs_ah_attr {
    let mut dgid = [0u8; 16];
    dgid.copy_from_slice(pod::bytes::<ibv_gid>(&a.grh.dgid));
    ib_uverbs_ah_attr {
        grh: ib_uverbs_global_route {
            dgid,
            flow_label: a.grh.flow_label,
            sgid_index: a.grh.sgid_index,
            hop_limit: a.grh.hop_limit,
            traffic_class: a.grh.traffic_class,
            reserved: 0,
        },
        dlid: a.dlid,
        sl: a.sl,
        src_path_bits: a.src_path_bits,
        static_rate: a.static_rate,
        is_global: a.is_global,
        port_num: a.port_num,
        reserved: 0,
    }
}

/// `ibv_cmd_create_ah`: `IB_USER_VERBS_CMD_CREATE_AH` with a request of our own (no driver
/// data); `user_handle` is the `ibv_ah` address. Returns `ah->handle`.
pub fn create_ah(
    ctx: Ctx<'_>,
    pd_handle: u32,
    user_handle: u64,
    attr: &ibv_ah_attr,
    resp: &mut [u8],
) -> Result<u32> {
    let mut req = [0u8; size_of::<ibv_create_ah>()];
    put_field!(&mut req, H; ib_uverbs_create_ah, user_handle, user_handle)?;
    put_field!(&mut req, H; ib_uverbs_create_ah, pd_handle, pd_handle)?;
    let mut av = kern_ah_attr(attr);
    let at = H + core::mem::offset_of!(ib_uverbs_create_ah, attr);
    req.get_mut(at..at + size_of::<ib_uverbs_ah_attr>())
        .ok_or(Errno::EINVAL)?
        .copy_from_slice(bytes_mut(&mut av));
    execute_cmd_write::<ibv_create_ah>(ctx, &mut req, resp)?;
    Ok(pod::read::<ib_uverbs_create_ah_resp>(resp).ah_handle)
}

/// `ibv_cmd_destroy_ah`: `UVERBS_METHOD_AH_DESTROY`, falling back to
/// `IB_USER_VERBS_CMD_DESTROY_AH`.
pub fn destroy_ah(ctx: Ctx<'_>, ah_handle: u32, allow_disassociate_destroy: bool) -> Result<()> {
    destroy_handle::<ibv_destroy_ah>(
        ctx,
        op::DESTROY_AH,
        methods::AH_DESTROY,
        UVERBS_ATTR_DESTROY_AH_HANDLE,
        ah_handle,
        allow_disassociate_destroy,
    )
}
