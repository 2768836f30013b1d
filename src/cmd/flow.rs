//! Flow steering commands (rdma-core: `libibverbs/cmd_flow.c`: `ibv_cmd_destroy_flow`;
//! `cmd_flow_action.c`: `ibv_cmd_destroy_flow_action`). Creating flows (`ibv_cmd_create_flow`
//! with its spec conversion) and ESP flow actions is not here yet.
#![forbid(unsafe_code)]

use super::fallback::{Fallback, destroy_result, execute_ioctl_fallback, op};
use super::ioctl::{IoctlCmd, execute_ioctl};
use super::wire::put_field;
use super::write::{EX_HDR_SIZE, execute_cmd_write_ex_req};
use super::Ctx;
use crate::abi::kern_abi::ibv_destroy_flow;
use crate::abi::uapi::*;
use crate::errno::{Errno, Result};

/// `ibv_cmd_destroy_flow`: `UVERBS_METHOD_FLOW_DESTROY`, falling back to
/// `IB_USER_VERBS_EX_CMD_DESTROY_FLOW` (rdma-core files it under the destroy_ah bit).
pub fn destroy_flow(ctx: Ctx<'_>, flow_handle: u32, allow_disassociate_destroy: bool) -> Result<()> {
    let mut cmd = IoctlCmd::new(UVERBS_OBJECT_FLOW, UVERBS_METHOD_FLOW_DESTROY);
    cmd.in_obj(UVERBS_ATTR_DESTROY_FLOW_HANDLE, flow_handle);
    let r = match execute_ioctl_fallback(ctx, op::DESTROY_AH, &mut cmd) {
        Ok(Fallback::TryWrite) => {
            let mut req = [0u8; size_of::<ibv_destroy_flow>()];
            put_field!(&mut req, EX_HDR_SIZE; ib_uverbs_destroy_flow, flow_handle, flow_handle)?;
            execute_cmd_write_ex_req::<ibv_destroy_flow>(ctx, &mut req)
        }
        Ok(Fallback::Success) => Ok(()),
        Ok(Fallback::TryWriteEx) => Err(Errno::EOPNOTSUPP),
        Err(e) => Err(e),
    };
    destroy_result(r, allow_disassociate_destroy)
}

/// `ibv_cmd_destroy_flow_action`: `UVERBS_METHOD_FLOW_ACTION_DESTROY` (ioctl only).
pub fn destroy_flow_action(ctx: Ctx<'_>, handle: u32, allow_disassociate_destroy: bool) -> Result<()> {
    let mut cmd = IoctlCmd::new(UVERBS_OBJECT_FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_DESTROY);
    cmd.in_obj(UVERBS_ATTR_DESTROY_FLOW_ACTION_HANDLE, handle);
    destroy_result(execute_ioctl(ctx, &mut cmd), allow_disassociate_destroy)
}
