//! The object model under the C edge (rdma-core: device.c, init.c, verbs.c, cmd_*.c's library
//! halves): the device registry, contexts and their private part, the op tables of both provider
//! ABIs, the queries and object lifecycles the exports in [`crate::capi`] are thin wrappers of.
//!
//! Called by [`crate::capi`] only; calls down into `cmd`, `device`, `provider`, `fork`, `sys`.
//! Never calls an export and never imports [`crate::capi`].
#![deny(clippy::multiple_unsafe_ops_per_block)]

pub(crate) mod ah;
pub(crate) mod buf;
pub(crate) mod cmdbuf;
pub(crate) mod compat_1_0;
pub(crate) mod context;
pub(crate) mod counters;
pub(crate) mod cq;
pub(crate) mod ctxlayout;
pub(crate) mod ctxpriv;
pub(crate) mod device;
pub(crate) mod devlist;
pub(crate) mod disassoc;
pub(crate) mod dm;
pub(crate) mod events;
pub mod explain;
pub(crate) mod flow;
pub(crate) mod gid;
pub(crate) mod handed;
pub mod handle;
pub(crate) mod marshall;
pub(crate) mod mcast;
pub(crate) mod mr;
pub(crate) mod ops;
pub(crate) mod pd;
pub mod post;
pub mod qp;
pub(crate) mod query;
pub mod srq;
pub(crate) mod sysfs;
pub mod wq;
