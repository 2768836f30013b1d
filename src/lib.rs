//! A C-ABI drop-in replacement for rdma-core's `libibverbs.so.1`.
//!
//! Module map (each file's header names the rdma-core file it answers to):
//! - `abi`: `#[repr(C)]` mirrors of verbs.h, driver.h (every provider ABI, `abi::driver::pabi`) and the kernel uapi; no logic.
//! - `capi`: the C edge: the only `#[no_mangle]` exports, one file per object family.
//! - `verbs`: the object model under the edge: device registry, contexts, op tables, lifecycles.
//! - `device`: finding the RDMA devices (sysfs walk and RDMA netlink), as plain Rust records.
//! - `cmd`: the kernel command layer (ioctl and write commands, fallback rules).
//! - `errno`: the one error type; `cret`: the C return conventions.
//! - `fork`: fork protection of registered memory (memory.c): page-range reference counts.
//! - `env`: every environment variable rdma-core reads, with its exact semantics.
//! - `provider`: provider discovery: config files, candidate paths, registry, device matching.
//! - `strings`: the type-to-string and rate helpers (enum_strs.c, verbs.c).
//! - `sys`: every system call and libc entry point.
//!
//! Imports run only down the layers `tools/layers` declares (`make lint` checks it).
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
// Unit tests may use std's locks (clippy.toml refuses them in the library: sys::sync).
#![cfg_attr(test, allow(clippy::disallowed_types))]

pub mod abi;
// The C edge's docs link the contract each export is the C form of, stated once where it is
// enforced (mostly `verbs`, crate-private); `make lint` builds the docs with private items, where
// those links resolve (tools/headers writes them out in the C headers).
#[allow(rustdoc::private_intra_doc_links)]
pub mod capi;
pub mod cmd;
pub mod cret;
pub mod device;
pub mod env;
pub mod errno;
pub mod fork;
pub mod log;
pub mod provider;
pub mod strings;
pub mod sys;
pub mod verbs;
