//! rdma-core v65 `libibverbs/driver.h` (provider ABI 65): the layouts a `lib<name>-rdmav65.so`
//! provider shares with the core where they differ from provider ABI 34.
//!
//! - `verbs_context` is the public v65 one ([`crate::abi::verbs::verbs_context`], 696 bytes,
//!   `context` at 368): six ops more *in front* of the ABI-34 members, so everything from
//!   `query_port` to `context` sits at the same distance before `ibv_context` in both layouts.
//! - `verbs_context_ops` gains 17 ops ([`verbs_context_ops_pabi65`]).
//! - `verbs_device_ops`, `verbs_device`, `verbs_sysfs_dev`, `verbs_match_ent` and the object
//!   wrappers (`verbs_cq`, `verbs_mr`, …) have the same layout as in `pabi34` (v56's).

mod ops;

pub use ops::*;

/// The provider ABI of these layouts (`verbs_register_driver_65`, `IBVERBS_PRIVATE_65`).
pub const IBVERBS_PABI_VERSION: u32 = 65;

/// A provider ABI 65 `verbs_context` (the public v65 layout).
pub type verbs_context_pabi65 = crate::abi::verbs::verbs_context;

/// The core's wrapper around a DMA handle (v65 `driver.h`; `verbs_get_dmah` is its
/// `container_of`: `dmah` is first).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_dmah {
    pub dmah: crate::abi::verbs::ibv_dmah,
    pub handle: u32,
}
