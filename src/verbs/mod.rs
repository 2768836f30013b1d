//! The object model under the C edge (rdma-core: device.c, init.c, verbs.c, cmd_*.c's library
//! halves): the device registry, contexts and their private part, the op tables of both provider
//! ABIs, the queries and object lifecycles the exports in `crate::capi` are thin wrappers of.
//!
//! Called by `crate::capi` only; calls down into `cmd`, `device`, `provider`, `fork`, `sys`.
//! Never calls an export and never imports `crate::capi`.
#![deny(clippy::multiple_unsafe_ops_per_block)]

pub(crate) mod buf;
pub(crate) mod cmdbuf;
pub(crate) mod context;
pub(crate) mod cq;
pub(crate) mod ctxpriv;
pub(crate) mod devlist;
pub(crate) mod disassoc;
pub(crate) mod events;
pub(crate) mod gid;
pub(crate) mod handed;
pub mod handle;
pub(crate) mod mr;
pub(crate) mod objects;
pub(crate) mod ops;
pub(crate) mod pd;
pub(crate) mod qpcommon;
pub(crate) mod query;
pub mod srq;
pub mod wq;
