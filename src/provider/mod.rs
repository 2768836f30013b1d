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
//! - [`fnmatch`]: glibc `fnmatch(…, 0)` in the C locale, for match-table patterns.
//!
//! Everything here works on plain Rust data; the C glue converts `verbs_device_ops` and
//! `verbs_sysfs_dev` to and from it.
#![forbid(unsafe_code)]

pub mod config;
pub mod fnmatch;
pub mod hints;
pub mod known;
pub mod loader;
pub mod matcher;
pub mod registry;
pub mod session;
