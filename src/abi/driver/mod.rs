//! Provider-facing mirrors of rdma-core's `libibverbs/driver.h`.
//!
//! - `common`: the enums and constants (unchanged across provider ABIs) and `list_node`;
//! - `objects`: the `verbs_*` wrappers, device records and match table (unchanged since ABI 34);
//! - `context`: v44's `verbs_context` and `ibv_qp_ex` (provider ABI 34): `verbs_context_pabi34`
//!   is the library's view of every provider ABI's context (the members every ABI has, at the same
//!   distance before `ibv_context`);
//! - `ops`: `verbs_context_ops` as the newest provider ABI lays it out;
//! - `fragment`: types driver.h's hand-written part spells (the provider's CQ ring);
//! - `pabi`: what each provider ABI changed, as data: which ops its table holds, how many public
//!   ops sit in front of its `verbs_context`.
//!
//! Note that `driver::verbs_context_pabi34` and `verbs::verbs_context` are different layouts under
//! the same C name; do not glob-import both.

mod common;
mod context;
mod fragment;
mod objects;
mod ops;
pub mod pabi;

pub use common::*;
pub use context::*;
pub use fragment::*;
pub use objects::*;
pub use ops::*;
