//! Choosing between the ioctl and the write interface, per context (rdma-core:
//! `libibverbs/cmd_fallback.c`: `_check_legacy`, `_execute_ioctl_fallback`; `device.c`:
//! `has_ioctl_write`; `ibverbs.h`: the `unsupported_ioctls` bitmap, `driver_id` and
//! `use_ioctl_write` of `struct verbs_ex_private`).
#![forbid(unsafe_code)]

use core::mem::offset_of;
use core::sync::atomic::{AtomicU64, Ordering};

use super::Ctx;
use super::ioctl::{IoctlArg, IoctlCmd, execute_ioctl};
use super::methods;
use crate::abi::driver::verbs_context_ops;
use crate::abi::uapi::{
    IB_USER_VERBS_ABI_VERSION, IB_USER_VERBS_CMD_QUERY_DEVICE, UVERBS_ATTR_WRITE_CMD,
};
use crate::errno::{Errno, Result};
use crate::sys::uverbs::Uverbs;

/// Number of operation slots in the newest `verbs_context_ops` (`VERBS_OPS_NUM`).
pub const VERBS_OPS_NUM: usize = size_of::<verbs_context_ops>() / size_of::<usize>();

/// Bits of the unsupported-ioctl bitmap: one per `verbs_context_ops` slot.
pub const OP_BITS: usize = VERBS_OPS_NUM;

/// The per-command bit of the unsupported-ioctl bitmap: the index of the `verbs_context_ops`
/// slot the command implements (`_CMD_BIT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpBit(pub usize);

macro_rules! op_bits {
    ($($name:ident = $field:ident;)*) => {
        /// The bits rdma-core uses, named after their `verbs_context_ops` slot.
        pub mod op {
            use super::*;
            $(pub const $name: OpBit = OpBit(offset_of!(verbs_context_ops, $field) / size_of::<usize>());)*
        }
    };
}

op_bits! {
    ASYNC_EVENT = async_event;
    CLOSE_XRCD = close_xrcd;
    CREATE_CQ = create_cq;
    CREATE_QP = create_qp;
    CREATE_SRQ = create_srq;
    CREATE_WQ = create_wq;
    DEALLOC_MW = dealloc_mw;
    DEALLOC_PD = dealloc_pd;
    DEREG_MR = dereg_mr;
    DESTROY_AH = destroy_ah;
    DESTROY_CQ = destroy_cq;
    DESTROY_QP = destroy_qp;
    DESTROY_SRQ = destroy_srq;
    DESTROY_WQ = destroy_wq;
    FREE_CONTEXT = free_context;
    QUERY_PORT = query_port;
    REG_MR_EX = reg_mr_ex;
}

/// What the command layer keeps per context (rdma-core's `verbs_ex_private` minus the ops).
#[derive(Debug)]
pub struct CmdState {
    driver_id: u32,
    use_ioctl_write: bool,
    abi_ver: u32,
    unsupported: [AtomicU64; OP_BITS.div_ceil(64)],
}

impl CmdState {
    /// State with a known `use_ioctl_write` (tests, or a forced interface).
    pub const fn new(driver_id: u32, use_ioctl_write: bool) -> Self {
        CmdState {
            driver_id,
            use_ioctl_write,
            abi_ver: IB_USER_VERBS_ABI_VERSION,
            unsupported: [const { AtomicU64::new(0) }; OP_BITS.div_ceil(64)],
        }
    }

    /// State of a new context (`verbs_init_context`): probes whether write commands may travel
    /// over the ioctl interface.
    pub fn init(fd: &dyn Uverbs, driver_id: u32) -> Self {
        let probe = CmdState::new(driver_id, false);
        let use_ioctl_write = has_ioctl_write(Ctx::new(fd, &probe));
        CmdState {
            use_ioctl_write,
            ..probe
        }
    }

    /// The same state for a kernel of uverbs ABI `abi_ver` (rdma-core's global `abi_ver`, read
    /// from sysfs; default 6). Versions below 5 change the create-QP/SRQ and modify-SRQ writes.
    pub fn with_abi_ver(self, abi_ver: u32) -> Self {
        CmdState { abi_ver, ..self }
    }

    /// The kernel's uverbs ABI version.
    pub fn abi_ver(&self) -> u32 {
        self.abi_ver
    }

    /// The `RDMA_DRIVER_*` id sent in every ioctl header.
    pub fn driver_id(&self) -> u32 {
        self.driver_id
    }

    /// Whether write commands are sent as `UVERBS_METHOD_INVOKE_WRITE` ioctls.
    pub fn use_ioctl_write(&self) -> bool {
        self.use_ioctl_write
    }

    /// Has the kernel refused the ioctl of `bit` before?
    pub fn is_unsupported(&self, bit: OpBit) -> bool {
        self.unsupported
            .get(bit.0 / 64)
            .is_some_and(|w| w.load(Ordering::Relaxed) & (1 << (bit.0 % 64)) != 0)
    }

    /// Remember that the ioctl of `bit` is absent.
    pub fn set_unsupported(&self, bit: OpBit) {
        if let Some(w) = self.unsupported.get(bit.0 / 64) {
            w.fetch_or(1 << (bit.0 % 64), Ordering::Relaxed);
        }
    }

    /// Remember that no ioctl is available at all (`bitmap_fill` of all [`OP_BITS`] bits).
    pub fn set_all_unsupported(&self) {
        for bit in 0..OP_BITS {
            self.set_unsupported(OpBit(bit));
        }
    }
}

/// What to do after trying a command's ioctl (`enum write_fallback` without `ERROR`, which is
/// the `Err` of the result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// The ioctl ran.
    Success,
    /// Use the legacy write command.
    TryWrite,
    /// Use the extended write command.
    TryWriteEx,
}

/// `_check_legacy`: can the command go over write() instead? Not if a linked buffer holds a
/// mandatory attribute other than UHW_IN/UHW_OUT, nor if any buffer demands the ioctl
/// (EOPNOTSUPP either way); the extended write if any buffer asks for it. (The command holds
/// every buffer's flags together: [`IoctlCmd::push_link`].)
#[inline]
pub fn check_legacy(cmd: &IoctlCmd<'_>) -> Result<Fallback> {
    if cmd.link_mandatory || cmd.fallback_ioctl_only {
        Err(Errno::EOPNOTSUPP)
    } else if cmd.fallback_require_ex {
        Ok(Fallback::TryWriteEx)
    } else {
        Ok(Fallback::TryWrite)
    }
}

/// `_execute_ioctl_fallback`: run the ioctl unless this context already knows it is absent.
/// ENOTTY (no ioctl interface) marks every command, EPROTONOSUPPORT (no such method or
/// attribute) marks this one; both then ask [`check_legacy`]. Other errors are returned.
// Always inlined (with the compat link's): bench rows mlx5 (emulated) ibv_query_port,
// ibv_dealloc_pd, ibv_dereg_mr, ibv_destroy_cq (as plain hints: 297 -> 342, 293 -> 336,
// 321 -> 360, 808 -> 853 instructions).
#[inline(always)]
pub fn execute_ioctl_fallback(
    ctx: Ctx<'_>,
    bit: OpBit,
    cmd: &mut IoctlCmd<'_>,
) -> Result<Fallback> {
    if ctx.state.is_unsupported(bit) {
        return check_legacy(cmd);
    }
    match execute_ioctl(ctx, cmd) {
        Ok(()) => Ok(Fallback::Success),
        Err(Errno::ENOTTY) => {
            ctx.state.set_all_unsupported();
            check_legacy(cmd)
        }
        Err(Errno::EPROTONOSUPPORT) => {
            ctx.state.set_unsupported(bit);
            check_legacy(cmd)
        }
        Err(e) => Err(e),
    }
}

/// `has_ioctl_write`: ask the kernel to run a write command over ioctl with a request too short
/// to be valid (it answers ENOSPC). Only ENOTTY and EPROTONOSUPPORT mean it cannot.
pub fn has_ioctl_write(ctx: Ctx<'_>) -> bool {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::INVOKE_WRITE);
    cmd.in_u64(
        UVERBS_ATTR_WRITE_CMD,
        u64::from(IB_USER_VERBS_CMD_QUERY_DEVICE),
    );
    !matches!(
        execute_ioctl(ctx, &mut cmd),
        Err(Errno::EPROTONOSUPPORT | Errno::ENOTTY)
    )
}

/// The end every destroy whose answer counts events shares (CQ, QP, SRQ, WQ): `r` is the
/// ioctl's outcome; on `TryWrite` the write command `write` is sent instead (a kernel without
/// the method), `TryWriteEx` has no form here (EOPNOTSUPP). An EIO on a disassociated device is
/// forgiven as [`destroy_result`] says. `Ok(true)` when the kernel answered (its event counts are
/// valid), `Ok(false)` when the failure was forgiven (nothing to wait for).
pub fn destroy_counted(
    r: Result<Fallback>,
    write: impl FnOnce() -> Result<()>,
    allow_disassociate_destroy: bool,
) -> Result<bool> {
    let r = match r {
        Ok(Fallback::TryWrite) => write(),
        Ok(Fallback::Success) => Ok(()),
        Ok(Fallback::TryWriteEx) => Err(Errno::EOPNOTSUPP),
        Err(e) => Err(e),
    };
    let answered = r.is_ok();
    destroy_result(r, allow_disassociate_destroy)?;
    Ok(answered)
}

/// `verbs_is_destroy_err`: a destroy that failed with EIO on a disassociated device counts as
/// done when the process allows it (the exported `verbs_allow_disassociate_destroy`).
pub fn destroy_result(r: Result<()>, allow_disassociate_destroy: bool) -> Result<()> {
    match r {
        Err(Errno::EIO) if allow_disassociate_destroy => Ok(()),
        r => r,
    }
}
