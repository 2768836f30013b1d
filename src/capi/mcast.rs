//! Multicast attach and detach (rdma-core: verbs.c; cmd.c): the public verbs and the provider's
//! commands, each a declaration over `verbs::mcast`.
//!
//! The public verbs hand the call to the context's op (the provider's, which sends the kernel
//! command, or none: EOPNOTSUPP) and return its 0 or positive errno, errno as it left it.
//! Divergence throughout: a NULL `qp`, its NULL `context`, or a NULL `gid` gives EINVAL where
//! rdma-core (or the provider) would crash.
use crate::abi::verbs::ibv_gid;
use crate::capi::export::export;
use crate::verbs::handle::{Ptr, Qp};
use crate::verbs::mcast;

/// `int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// Joins UD QP `qp` to the multicast group `gid`/`lid` (the provider's `attach_mcast`).
#[export("IBVERBS_1.1")]
fn ibv_attach_mcast(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> Status {
    Ok(mcast::attach(qp, gid, lid))
}

/// `int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// Removes `qp` from the multicast group `gid`/`lid` (the provider's `detach_mcast`).
#[export("IBVERBS_1.1")]
fn ibv_detach_mcast(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> Status {
    Ok(mcast::detach(qp, gid, lid))
}

/// `int ibv_cmd_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// ATTACH_MCAST (write command): joins `qp` (a UD QP) to multicast group `gid`/`lid`. 0, or the
/// positive errno (also left in errno).
#[export(PRIVATE 34..)]
fn ibv_cmd_attach_mcast(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> Errno {
    mcast::cmd_attach(qp, gid, lid)
}

/// `int ibv_cmd_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// DETACH_MCAST (write command): `qp` leaves multicast group `gid`/`lid`. 0, or the positive
/// errno (also left in errno); EIO counts as success on a disassociated device when allowed.
#[export(PRIVATE 34..)]
fn ibv_cmd_detach_mcast(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> Errno {
    mcast::cmd_detach(qp, gid, lid)
}
