//! `#[repr(C)]` mirrors of rdma-core v65's public `libibverbs/verbs.h`, plus the `IBV_*`
//! constants its `verbs_api.h` maps onto kernel names.
//!
//! Every struct and union of the header is here under its C tag name, every named enum as a
//! `#[repr(C)] pub enum`, and every anonymous-enum or `#define` constant as a `pub const`.
//! Pointers to the kernel's `ib_uverbs_*` types name the `uapi` mirrors (the header spells them `struct ib_uverbs_*`).
//! This module is provider-ABI independent: provider-facing layouts live in `driver`.

mod context;
mod cq;
mod device;
mod flow;
mod mr;
mod objects;
mod qp;
mod srq_wq;
mod verbs_api;
mod wc;

pub use context::*;
pub use cq::*;
pub use device::*;
pub use flow::*;
pub use mr::*;
pub use objects::*;
pub use qp::*;
pub use srq_wq::*;
pub use verbs_api::*;
pub use wc::*;
