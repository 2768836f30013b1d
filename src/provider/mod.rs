//! Provider discovery: the half of rdma-core's libibverbs that finds user-space drivers and picks
//! one per device (libibverbs/dynamic_driver.c and the matching part of init.c; the same from v44,
//! our provider ABI 34, to v65).
//!
//! - [`config`]: config directory + RDMAV_DRIVERS/IBV_DRIVERS → ordered provider names.
//! - [`loader`]: name → candidate files (per provider ABI) → `dlopen`.
//! - [`registry`]: what providers registered (from inside `dlopen`), in rdma-core's list order.
//! - [`matcher`]: rdma-core's matching rules and the lazy walk (with the equivalence argument).
//! - [`session`]: one discovery round: first try, the once-per-process load moment, lazy loading
//!   (with skips and stand-ins for names known not to matter).
//! - [`known`]: what rdma-core's own providers claim (kernel driver id, name, PCI vendor,
//!   modalias), from their match tables: lets a walk leave names unloaded.
//! - [`hints`]: [`known`] for the configured names whose file is in the provider directory.
//! - [`elfneed`]: the `IBVERBS_PRIVATE_<N>` nodes a provider file needs (which provider ABI it
//!   was built for), read from its ELF version section without loading it.
//! - [`release`]: which layout a provider of ABI 59 was built with (rdma-core v59-v61's or
//!   v62/v63's, which changed it without a new ABI number), from its imports and the release
//!   installed beside it.
//! - [`explain`]: why a device has no provider, in words (the library's log and `ibverbs-doctor`).
//!
//! Everything here works on plain Rust data; the C glue converts `verbs_device_ops` and
//! `verbs_sysfs_dev` to and from it.
#![forbid(unsafe_code)]

pub mod config;
pub mod elfneed;
pub mod explain;
pub mod hints;
pub mod known;
pub mod loader;
pub mod matcher;
pub mod registry;
pub mod release;
pub mod session;

/// The provider ABIs this library can load (`lib<name>-rdmav<N>.so`, registering through
/// `verbs_register_driver_<N>` and binding to `IBVERBS_PRIVATE_<N>`), ascending: the one list,
/// [`abi::driver::pabi::PROVIDER_ABIS`](crate::abi::driver::pabi::PROVIDER_ABIS). A provider file
/// needing another `IBVERBS_PRIVATE_<N>` ([`elfneed`]) was built for an ABI we lack.
/// [`loader::PROVIDER_ABIS`] lists the same ABIs newest first with their file names.
pub const SUPPORTED_PROVIDER_ABIS: &[u32] = &crate::abi::driver::pabi::PROVIDER_ABIS;
