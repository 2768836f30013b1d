//! The kernel command layer: every uverbs command the library and its providers send (rdma-core:
//! `libibverbs/cmd_ioctl.[ch]`, `cmd_write.h`, `cmd_fallback.c`, `cmd_device.c`, `cmd.c`,
//! `cmd_*.c`).
//!
//! Everything here works on Rust values, byte slices and user addresses, and talks to the kernel
//! through the [`Uverbs`] seam, so tests check the exact bytes without a device:
//! - [`attr`]: one ioctl attribute and the ioctl header;
//! - [`ioctl`]: [`IoctlCmd`], the one command builder (inline attributes in the [`IoctlArg`] it
//!   borrows, heap past [`attr::INLINE_ATTRS`]), [`Driver`] (a provider's linked buffers) and [`execute_ioctl`];
//! - [`methods`]: the ioctl methods the library sends, one row each;
//! - [`fallback`]: the per-context [`CmdState`] and the ioctl-or-write decision;
//! - [`mod@write`]: legacy and extended write commands; [`compat`]: the legacy entry points'
//!   provider buffers;
//! - [`device`]: context, device, port and GID commands; [`pd`]: PD and XRCD commands; [`mr`]:
//!   MR and MW commands; [`ah`]: address handles; [`mcast`]: multicast; [`cq`]: CQ commands;
//!   [`qp`]: QP commands;
//!   [`srq`]: SRQ commands; [`wq`]: WQ and indirection tables; [`dm`]: device memory,
//!   counters, DMA handles and dma-buf export; [`counters`]: completion counters;
//!   [`post`]: work requests through the kernel;
//!   [`flow`]: flow destroys.
//!
//! Addresses: an attribute or write request may carry a user address the kernel writes to. The
//! command layer's own are taken from buffers borrowed by the command ([`IoctlCmd`]'s lifetime)
//! or passed along with the call; addresses taken over from C command buffers are the C
//! caller's (the glue's contract).
//!
//! How the C exports use it:
//! - context init (`verbs_init_context`): `CmdState::init(&CmdFd(cmd_fd), driver_id)` (probes
//!   `use_ioctl_write`), kept with the context; each call builds `Ctx::on_fd(CmdFd(cmd_fd),
//!   &state)` (the real descriptor, called directly; `Ctx::new(&fake, &state)` takes any
//!   [`Uverbs`]).
//! - every ioctl is an [`IoctlCmd`] built on the stack and sent from there (its [`IoctlArg`], a
//!   local of its own beside it): the command's own
//!   attributes, the write-compat link of a legacy entry point, then a provider's chain
//!   ([`Driver`]: `verbs::cmdbuf::Chain`, whose buffers get the kernel's answers back).
//! - `execute_ioctl(ctx, cmdb)` (the provider's own C command): a buffer without links is sent
//!   in place (`verbs::cmdbuf`); a chain becomes an [`IoctlCmd`] (the head's attributes and
//!   flags, then each link), refused (EINVAL) when longer than the head's room; after
//!   [`execute_ioctl`] the head holds the header and the whole array, each link its own answers.
//! - `__ioctl_final_num_attrs`: [`final_num_attrs`].
//! - `ibv_cmd_X(…, cmd, cmd_size, resp, resp_size)`: the provider's buffers as byte slices of
//!   exactly those sizes; a `driver` chain as a [`Driver`]; object pointers as their handles;
//!   results come back as values to store into the provider's objects (see each function).
#![forbid(unsafe_code)]

pub mod ah;
pub mod attr;
pub mod compat;
pub mod counters;
pub mod cq;
pub mod device;
pub mod dm;
pub mod fallback;
pub mod flow;
pub mod ioctl;
pub mod mcast;
pub mod methods;
pub mod mr;
pub mod pd;
pub mod post;
pub mod qp;
pub mod qp_attr;
pub mod srq;
pub mod wire;
pub mod wq;
pub mod write;

use crate::errno;
pub use crate::sys::uverbs::{CmdFd, Uverbs};
pub use attr::{Attr, IoctlHdr};
pub use fallback::{CmdState, Fallback, OpBit, op};
pub use ioctl::{Driver, IoctlArg, IoctlCmd, execute_ioctl, execute_linked, final_num_attrs};

/// What a command needs of its context: the command channel and the per-context state.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    chan: Chan<'a>,
    pub state: &'a CmdState,
}

/// A context's command channel: the real descriptor, called directly (no dynamic dispatch on
/// every command), or any other [`Uverbs`] (tests' fake kernels).
#[derive(Clone, Copy)]
enum Chan<'a> {
    Fd(CmdFd),
    Seam(&'a dyn Uverbs),
}

impl<'a> Ctx<'a> {
    /// Commands through `fd`, whatever it is.
    pub fn new(fd: &'a dyn Uverbs, state: &'a CmdState) -> Self {
        Ctx {
            chan: Chan::Seam(fd),
            state,
        }
    }

    /// Commands on a real `cmd_fd` (what [`Self::new`] with `&fd` does, without the indirect
    /// call per command).
    #[inline]
    pub fn on_fd(fd: CmdFd, state: &'a CmdState) -> Self {
        Ctx {
            chan: Chan::Fd(fd),
            state,
        }
    }

    /// [`Uverbs::ioctl`] on the channel.
    #[inline]
    pub(crate) fn ioctl(&self, buf: &mut [u8]) -> errno::Result<()> {
        match self.chan {
            Chan::Fd(fd) => fd.ioctl(buf),
            Chan::Seam(u) => u.ioctl(buf),
        }
    }

    /// [`Uverbs::write`] on the channel.
    #[inline]
    pub(crate) fn write(&self, buf: &[u8]) -> errno::Result<usize> {
        match self.chan {
            Chan::Fd(fd) => fd.write(buf),
            Chan::Seam(u) => u.write(buf),
        }
    }
}
