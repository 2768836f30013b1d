//! A C-ABI drop-in replacement for rdma-core's `libibverbs.so.1`.
//!
//! Module map (each file's header names the rdma-core file it answers to):
//! - `abi`: `#[repr(C)]` mirrors of verbs.h, driver.h (provider ABI 34) and the kernel uapi; no logic.
//! - `capi`: the only `#[no_mangle]` exports, one file per object family.
//! - `cmd`: the kernel command layer (ioctl and write commands, fallback rules).
//! - `errno`: the one error type and the C return conventions.
//! - `strings`: the type-to-string and rate helpers (enum_strs.c, verbs.c).
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod abi;
pub mod capi;
pub mod cmd;
pub mod errno;
pub mod log;
pub mod strings;
pub mod sys;
