//! The two system calls of the uverbs command channel: `ioctl(RDMA_VERBS_IOCTL)` and `write(2)`
//! on a context's `cmd_fd` (rdma-core: the `ioctl()` in `cmd_ioctl.c`, the `write()`s in
//! `cmd_fallback.c`).
//!
//! [`Uverbs`] is the seam the command layer (`crate::cmd`) talks through; [`CmdFd`] is the real
//! one. Tests substitute a fake that records the bytes and plays the kernel.

use core::ffi::c_int;

use crate::abi::uapi::RDMA_VERBS_IOCTL;
use crate::errno::Errno;

/// A uverbs command channel.
pub trait Uverbs {
    /// `ioctl(fd, RDMA_VERBS_IOCTL, buf)`: `buf` is an `ib_uverbs_ioctl_hdr` followed by its
    /// attributes; the kernel may update the attributes in place.
    fn ioctl(&self, buf: &mut [u8]) -> Result<(), Errno>;
    /// `write(fd, buf)`: one whole write command; returns the byte count the kernel accepted.
    fn write(&self, buf: &[u8]) -> Result<usize, Errno>;
}

/// A borrowed `/dev/infiniband/uverbsN` descriptor (the context's `cmd_fd`); never closed here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CmdFd(pub c_int);

fn last_errno() -> Errno {
    Errno(super::errno())
}

impl Uverbs for CmdFd {
    fn ioctl(&self, buf: &mut [u8]) -> Result<(), Errno> {
        // SAFETY: buf is a live, exclusively borrowed buffer for the whole call; the kernel reads
        // `buf.len()` bytes at most (hdr.length, set by the caller to buf.len()) and writes back
        // only inside the attribute array. Addresses carried inside the attributes are the
        // command layer's responsibility (see crate::cmd).
        let rc = unsafe { libc::ioctl(self.0, RDMA_VERBS_IOCTL as _, buf.as_mut_ptr()) };
        if rc == 0 { Ok(()) } else { Err(last_errno()) }
    }

    fn write(&self, buf: &[u8]) -> Result<usize, Errno> {
        // SAFETY: buf is a live buffer of buf.len() readable bytes.
        let n = unsafe { libc::write(self.0, buf.as_ptr().cast(), buf.len()) };
        usize::try_from(n).map_err(|_| last_errno())
    }
}
