//! The ioctl methods the library sends: their rows sit beside the ids they are made of, at the end
//! of [`abi::uapi`](crate::abi::uapi)'s `ioctl_cmds.rs` (rdma-core has no such list: its
//! `cmd_*.c` name each method where they build it), re-exported here. Every command the command
//! layer builds is [`IoctlCmd::of`] one of these rows; a provider's own command (`execute_ioctl`,
//! `verbs::cmdbuf`) is forwarded with its ids as the provider built it. The write commands' list
//! is the `KernCmd` impls of [`abi::kern_abi`](crate::abi::kern_abi) (one per request layout; a
//! command number can have several, its old-ABI forms).
//!
//! Read by `tests/providers/run` (`make providers`), which counts how many of these commands
//! and of the write commands the real providers on the emulator reach.
#![forbid(unsafe_code)]

use super::ioctl::{IoctlArg, IoctlCmd};
pub use crate::abi::uapi::Method;
pub use crate::abi::uapi::methods::*;

impl<'a> IoctlCmd<'a> {
    /// An empty command for method `m` (a row of this table), built and sent in `arg`.
    #[inline]
    pub fn of(arg: &'a mut IoctlArg, m: Method) -> Self {
        IoctlCmd::new(arg, m.object, m.method)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No method twice, and no two names for one.
    #[test]
    fn rows_are_distinct() {
        for (i, (n, m)) in ALL.iter().enumerate() {
            for (n2, m2) in ALL.iter().skip(i + 1) {
                assert!(n != n2 && m != m2, "{n} and {n2}");
            }
        }
    }
}
