//! Multicast attach and detach (rdma-core: verbs.c `ibv_attach_mcast`, `ibv_detach_mcast`;
//! cmd.c for the provider's commands).
//!
//! The public verbs hand the call to the context's op (the provider's, which sends the kernel
//! command, or none: EOPNOTSUPP as rdma-core's default op answers, errno untouched) and pass its
//! status on; the provider's commands go to [`cmd::mcast`](crate::cmd::mcast). Called by
//! [`capi::mcast`](crate::capi::mcast) (and the 1.0 twins).
use core::ffi::c_int;

use crate::abi::verbs::ibv_gid;
use crate::verbs::handle::{Ptr, Qp};

/// `ibv_attach_mcast`: the provider's `attach_mcast` for UD QP `qp` and group `gid`/`lid`: its
/// status (0 or the positive errno, errno as it left it); EOPNOTSUPP without the op.
#[inline]
pub(crate) fn attach(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> c_int {
    match qp.ops().attach_mcast {
        // SAFETY: the provider's op on its own QP and the caller's GID.
        Some(op) => unsafe { op(qp.raw(), gid.as_ptr(), lid) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_detach_mcast`: the provider's `detach_mcast`, which takes `qp` out of group `gid`/`lid`:
/// its status (0 or the positive errno, errno as it left it); EOPNOTSUPP without the op.
#[inline]
pub(crate) fn detach(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> c_int {
    match qp.ops().detach_mcast {
        // SAFETY: the provider's op on its own QP and the caller's GID.
        Some(op) => unsafe { op(qp.raw(), gid.as_ptr(), lid) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_cmd_attach_mcast`: ATTACH_MCAST (write command:
/// [`cmd::mcast::attach_mcast`](crate::cmd::mcast::attach_mcast)) for the QP's handle: joins it (a
/// UD QP) to multicast group `gid`/`lid`.
pub(crate) fn cmd_attach(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> crate::errno::Result<()> {
    // SAFETY: a live QP (the handle's contract).
    let h = unsafe { (*qp.raw()).handle };
    let c = qp.ctx().channel();
    crate::cmd::mcast::attach_mcast(c.cmd(), h, &gid.read(), lid)
}

/// `ibv_cmd_detach_mcast`: DETACH_MCAST (write command:
/// [`cmd::mcast::detach_mcast`](crate::cmd::mcast::detach_mcast)) for the QP's handle, which
/// leaves group `gid`/`lid`; EIO counts as done on a disassociated device when allowed
/// ([`allow_disassociate`](crate::verbs::disassoc::allow_disassociate)).
pub(crate) fn cmd_detach(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> crate::errno::Result<()> {
    // SAFETY: a live QP (the handle's contract).
    let h = unsafe { (*qp.raw()).handle };
    let c = qp.ctx().channel();
    let allow = crate::verbs::disassoc::allow_disassociate();
    crate::cmd::mcast::detach_mcast(c.cmd(), h, &gid.read(), lid, allow)
}
