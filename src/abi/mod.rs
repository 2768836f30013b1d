//! `#[repr(C)]` mirrors of rdma-core's C types. No logic lives here.
//!
//! - `verbs`: the public `infiniband/verbs.h` of rdma-core v65.
//! - `driver`: the provider-facing `infiniband/driver.h` at provider ABI 34 (everything whose
//!   layout a `lib<name>-rdmav34.so` provider walks), in `driver::pabi34`. A later provider ABI gets
//!   a sibling module; nothing outside `abi/` and the provider glue may assume PABI 34.
//! - `kern_abi`: kern-abi.h's command structs and cmd_ioctl.h's `ibv_command_buffer` (PABI 34).
//! - `uapi`: the kernel's `rdma/ib_user_verbs.h`, `ib_user_ioctl_cmds.h`, `ib_user_ioctl_verbs.h`
//!   and `rdma_user_ioctl_cmds.h` (what the command layer writes to /dev/infiniband/uverbsN). Not
//!   emitted into our headers: they include the system's (linux-libc-dev).
//! - `compat_1_0`: the IBVERBS_1.0 wrappers (compat-1_0.c's `struct ibv_*_1_0`), in no header.
//! - `ctype`: C spellings (`CEnum<E>`, `Be16/32/64`, `__u64`) and opaque types the headers only name.
//! - `kern_abi`: rdma-core's `kern-abi.h` write-command structs and the `cmd_ioctl.h` command
//!   buffer at provider ABI 34 (providers embed these in their own commands).
//!
//! Conventions (the header generator and the layout tests rely on them):
//! - Type names are rdma-core's C tag names (`ibv_context`, `verbs_context_ops`, `ib_uverbs_cmd_hdr`).
//! - A C `enum X` is a `#[repr(C)] pub enum X` (so the generated header declares `enum X`), used from
//!   Rust as `X::NAME as u32`; a struct field or function parameter of enum type is a
//!   `ctype::CEnum<X>` (a `u32` the header spells `enum X`), never the Rust enum, because C may
//!   hand us any value. A big-endian field is a `ctype::Be16`/`Be32`/`Be64` (spelled `__be16`...);
//!   a kernel-ABI field rdma-core types `__u64` is `ctype::__u64` (not `uint64_t` in C).
//! - A zero-length array in a kern-abi struct is a flexible array member `[]` in C unless its doc
//!   starts "zero-length array" (tools/headers, `spell::flexible_arrays`).
//! - An anonymous struct/union member is a field named `anon_N` whose type is named
//!   `<parent>_anon_N`; the header generator inlines it as an anonymous member, so C sees rdma-core's
//!   member names. A named member of an anonymous type (`ibv_send_wr.wr`) gets a type `<parent>_<member>`.
//! - Bitfields are an integer field named `bitfield_N` with accessor functions.
pub mod compat_1_0;
pub mod ctype;
pub mod driver;
pub mod kern_abi;
pub mod uapi;
pub mod verbs;
