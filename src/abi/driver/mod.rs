//! Provider-facing mirrors of rdma-core's `libibverbs/driver.h`, one submodule per provider ABI.
//!
//! - `pabi34`: rdma-core v34–v56 providers (`lib<name>-rdmav34.so`), layouts of v44.0. Its items
//!   are re-exported here, so `driver::verbs_context_ops` means the PABI 34 table.
//! - The enums and constants (unchanged across provider ABIs) and `list_node` live at this level.
//!
//! A later provider ABI gets a sibling module (`pabi65`) that re-uses the unchanged records from
//! `pabi34` and defines its own `verbs_context`, `verbs_context_ops` and `verbs_qp`; `verbs`
//! stays as it is. Note that `driver::verbs_context` and `verbs::verbs_context` are different
//! layouts under the same C name; do not glob-import both.

mod common;
pub mod pabi34;

pub use common::*;
pub use pabi34::*;
