//! Provider-facing mirrors of rdma-core's `libibverbs/driver.h`, one submodule per provider ABI.
//!
//! - `pabi34`: rdma-core v34–v56 providers (`lib<name>-rdmav34.so`), layouts of v44.0. Its items
//!   are re-exported here, so `driver::verbs_context_ops` means the PABI 34 table.
//! - The enums and constants (unchanged across provider ABIs) and `list_node` live at this level.
//!
//! - `pabi65`: rdma-core v65 providers (`lib<name>-rdmav65.so`): only what differs (the larger
//!   `verbs_context_ops_pabi65`; its `verbs_context` is the public v65 one); not glob-exported.
//!
//! Note that `driver::verbs_context_pabi34` and `verbs::verbs_context` are different
//! layouts under the same C name; do not glob-import both.

mod common;
pub mod pabi34;
pub mod pabi65;

pub use common::*;
pub use pabi34::*;
