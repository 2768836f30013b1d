//! The library's own kernel commands at context setup (rdma-core: device.c `has_ioctl_write`,
//! cmd_device.c `ibv_cmd_alloc_async_fd`), on top of `crate::cmd`.
use crate::abi::verbs::ibv_context;
use crate::errno::{Errno, Result};

/// Whether write() commands can travel through the ioctl interface (UVERBS_METHOD_INVOKE_WRITE).
///
/// # Safety
/// `ctx` is a context being initialised (cmd_fd set).
pub(crate) unsafe fn has_ioctl_write(_ctx: *mut ibv_context) -> bool {
    false
}

/// Allocate the async event fd (UVERBS_METHOD_ASYNC_EVENT_ALLOC) into `ctx->async_fd`.
///
/// # Safety
/// `ctx` is an open context.
pub(crate) unsafe fn alloc_async_fd(_ctx: *mut ibv_context) -> Result<()> {
    Err(Errno::EOPNOTSUPP)
}
