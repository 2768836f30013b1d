//! The two system calls of the uverbs command channel: `ioctl(RDMA_VERBS_IOCTL)` and `write(2)`
//! on a context's `cmd_fd` (rdma-core: the `ioctl()` in `cmd_ioctl.c`, the `write()`s in
//! `cmd_fallback.c`).
//!
//! [`Uverbs`] is the seam the command layer (`crate::cmd`) talks through; [`CmdFd`] is the real
//! one. Tests substitute a fake that records the bytes and plays the kernel.

use core::ffi::c_int;

use crate::abi::uapi::RDMA_VERBS_IOCTL;
use crate::errno::Errno;

/// One `struct ib_uverbs_attr` as it sits in an ioctl buffer (the `attr_data` and `data`
/// unions as raw integers; the command layer gives them meaning: `crate::cmd::attr`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Attr {
    pub attr_id: u16,
    pub len: u16,
    pub flags: u16,
    /// The 16-bit `attr_data` union as it sits in memory (`enum_data.elem_id` is its first byte).
    pub attr_data: u16,
    /// The 64-bit `data` union: inline value, user address, object handle or fd.
    pub data: u64,
}

/// The `struct ib_uverbs_ioctl_hdr` that starts an ioctl buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IoctlHdr {
    pub length: u16,
    pub object_id: u16,
    pub method_id: u16,
    pub num_attrs: u16,
    pub reserved1: u64,
    pub driver_id: u32,
    pub reserved2: u32,
}

/// An ioctl buffer with room for `N` attributes (the first `num_attrs` are sent).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct IoctlBuf<const N: usize> {
    pub hdr: IoctlHdr,
    pub attrs: [Attr; N],
}

// The three are records of integers without padding (checked here), so they are plain data.
const _: () = assert!(size_of::<Attr>() == 16 && size_of::<IoctlHdr>() == 24 && size_of::<IoctlBuf<3>>() == 24 + 48);
// SAFETY: repr(C), integer fields only, no padding (sizes asserted above: the fields fill them).
unsafe impl super::pod::Pod for Attr {}
// SAFETY: as above.
unsafe impl super::pod::Pod for IoctlHdr {}
// SAFETY: as above: a header of 24 bytes (a multiple of the 8-byte alignment) then the array.
unsafe impl<const N: usize> super::pod::Pod for IoctlBuf<N> {}

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
