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
/// The C form of [`mcast::attach`]: 0, or the positive errno.
#[export("IBVERBS_1.1")]
fn ibv_attach_mcast(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> Status {
    Ok(mcast::attach(qp, gid, lid))
}

/// `int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// The C form of [`mcast::detach`]: 0, or the positive errno.
#[export("IBVERBS_1.1")]
fn ibv_detach_mcast(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> Status {
    Ok(mcast::detach(qp, gid, lid))
}

/// `int ibv_cmd_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// The C form of [`mcast::cmd_attach`]: 0, or the positive errno (also left in errno).
#[export(PRIVATE 34..)]
fn ibv_cmd_attach_mcast(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> Errno {
    mcast::cmd_attach(qp, gid, lid)
}

/// `int ibv_cmd_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// The C form of [`mcast::cmd_detach`]: 0, or the positive errno (also left in errno).
#[export(PRIVATE 34..)]
fn ibv_cmd_detach_mcast(qp: Qp, gid: Ptr<ibv_gid>, lid: u16) -> Errno {
    mcast::cmd_detach(qp, gid, lid)
}
