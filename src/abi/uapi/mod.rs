//! The kernel uverbs uapi the command layer writes to `/dev/infiniband/uverbsN`: rdma-core's
//! `kernel-headers/rdma/` copies of `ib_user_verbs.h`, `ib_user_ioctl_verbs.h`,
//! `ib_user_ioctl_cmds.h`, `rdma_user_ioctl_cmds.h` and the verbs part of `rdma_user_ioctl.h`
//! (as of rdma-core v65; the kernel only ever appends, so older kernels see a prefix).
//!
//! Layouts are checked against `layouts-v65.0-pabi65.tsv` by `tests/abi_layout_kern.rs`.
//!
//! One representation per C enum, chosen by how the numbers are used:
//! - ioctl object / method / attribute ids (`enum uverbs_default_objects`, every
//!   `enum uverbs_methods_*` and `enum uverbs_attrs_*`, the driver-namespace ids): `pub const`
//!   of the wire type `u16`, no Rust enum (`ioctl_cmds`). `UVERBS_ATTR_F_*` are `u16` too.
//! - write command numbers (`enum ib_uverbs_write_cmds` and the `IB_USER_VERBS_EX_CMD_*` block):
//!   `pub const u32`, the type of `ib_uverbs_cmd_hdr.command` (`cmd`).
//! - every other named enum (opcodes, capability and access flags, QP/SRQ/WQ types, driver ids,
//!   ...): a `#[repr(C)] pub enum` per the `abi` conventions; enumerators that repeat a value or do
//!   not fit an `int` are `pub const` next to it (`u32`, or `u64` above 32 bits).
//! - big-endian (`__be*`) fields are plain `u16`/`u32`/`u64` holding network byte order.
//! - flexible array members are zero-length arrays; `RDMA_UAPI_PTR` members are an anonymous
//!   union of the pointer and its `u64` image, as rdma-core compiles them.

mod cmd;
mod device;
mod flow;
mod ioctl;
mod ioctl_cmds;
mod ioctl_verbs;
mod qp;
mod srq_wq;

pub use cmd::*;
pub use device::*;
pub use flow::*;
pub use ioctl::*;
pub use ioctl_cmds::*;
pub use ioctl_verbs::*;
pub use qp::*;
pub use srq_wq::*;
