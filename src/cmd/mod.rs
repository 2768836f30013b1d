//! The kernel command layer: every uverbs command the library and its providers send (rdma-core:
//! `libibverbs/cmd_ioctl.[ch]`, `cmd_write.h`, `cmd_fallback.c`, `cmd_device.c`, `cmd.c`,
//! `cmd_*.c`).
//!
//! Everything here works on Rust values, byte slices and user addresses, and talks to the kernel
//! through the [`Uverbs`] seam, so tests check the exact bytes without a device:
//! - [`attr`]: one ioctl attribute, the ioctl header, one command-buffer segment;
//! - [`ioctl`]: [`IoctlCmd`] and [`execute_ioctl`];
//! - [`fallback`]: the per-context [`CmdState`] and the ioctl-or-write decision;
//! - [`write`]: legacy and extended write commands; [`compat`]: the legacy entry points'
//!   provider buffers;
//! - [`device`]: context, device, port and GID commands; [`pd`]: PD, XRCD, MR, MW, AH and
//!   multicast commands; [`cq`]: CQ commands; [`qp`]: QP commands;
//!   [`srq`]: SRQ commands; [`wq`]: WQ and indirection tables; [`dm`]: device memory and
//!   counters; [`post`]: work requests through the kernel.
//!
//! Addresses: an attribute or write request may carry a user address the kernel writes to. The
//! command layer's own are taken from buffers borrowed by the command ([`IoctlCmd`]'s lifetime)
//! or passed along with the call; addresses converted from C command buffers are the C caller's
//! (the capi glue's contract).
#![forbid(unsafe_code)]

pub mod attr;
pub mod compat;
pub mod cq;
pub mod device;
pub mod dm;
pub mod fallback;
pub mod ioctl;
pub mod pd;
pub mod post;
pub mod qp;
pub mod srq;
pub mod wire;
pub mod wq;
pub mod write;

pub use attr::{Attr, CmdBuf, IoctlHdr};
pub use fallback::{CmdState, Fallback, OpBit, op};
pub use ioctl::{IoctlCmd, execute_ioctl, final_num_attrs};
pub use crate::sys::uverbs::{CmdFd, Uverbs};

/// What a command needs of its context: the command channel and the per-context state.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub fd: &'a dyn Uverbs,
    pub state: &'a CmdState,
}

impl<'a> Ctx<'a> {
    pub fn new(fd: &'a dyn Uverbs, state: &'a CmdState) -> Self {
        Ctx { fd, state }
    }
}
