//! One `read` of a file into a caller's buffer (rdma-core: sysfs.c, `ibv_read_sysfs_file_at`),
//! and one `readlink` without allocating ([`provider::release`](crate::provider::release) at a
//! provider's registration).
use std::ffi::CStr;

use crate::errno::{Errno, Result};

/// Open `path` read-only and close-on-exec, make one `read` of at most `size` bytes into `buf`,
/// close it. The byte count, or the errno of `open` or `read`: the kernel checks the buffer,
/// so an unwritable `buf` or a `size` past the address space is `EFAULT`, as under rdma-core.
///
/// # Safety
/// `buf` is NULL or points to `size` bytes the caller lets the kernel write (the kernel writes
/// at most the file's length of them and faults on nothing: an unmapped byte is `EFAULT`).
pub unsafe fn read_once(path: &CStr, buf: *mut u8, size: usize) -> Result<usize> {
    // SAFETY: path is NUL-terminated; open has no other memory arguments.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(Errno(crate::sys::errno()));
    }
    // SAFETY: the caller's contract; read(2) validates the range itself.
    let n = unsafe { libc::read(fd, buf.cast(), size) };
    let err = crate::sys::errno();
    // SAFETY: fd is ours and not used after this.
    unsafe { libc::close(fd) };
    usize::try_from(n).map_err(|_| Errno(err))
}

/// One `read` of `file` into `buf`'s storage, replacing its contents: the bytes read (none at
/// end of file) or the errno. Reads up to the buffer's capacity and never zeroes it first.
pub fn read_reuse<'b>(file: &impl std::os::fd::AsRawFd, buf: &'b mut Vec<u8>) -> Result<&'b [u8]> {
    buf.clear();
    let cap = buf.capacity();
    // SAFETY: `buf` owns `cap` bytes of storage the kernel may write; read(2) writes at most
    // `cap` bytes and validates the range itself.
    let n = unsafe { libc::read(file.as_raw_fd(), buf.as_mut_ptr().cast(), cap) };
    let n = usize::try_from(n).map_err(|_| Errno(crate::sys::errno()))?;
    // SAFETY: read(2) initialised the first `n <= cap` bytes.
    unsafe { buf.set_len(n.min(cap)) };
    Ok(buf.as_slice())
}

/// `readlink` of `dir/name` into `buf`, allocating nothing (the path is built on the stack): the
/// link's target, or None when it is not a link, cannot be read, or does not fit (a path of
/// `PATH_MAX` bytes or more, a NUL inside, a target of `buf.len()` bytes or more).
pub fn readlink_in<'b>(dir: &[u8], name: &[u8], buf: &'b mut [u8]) -> Option<&'b [u8]> {
    let mut path = [0u8; libc::PATH_MAX as usize];
    let len = dir.len() + 1 + name.len();
    if len >= path.len() || dir.contains(&0) || name.contains(&0) {
        return None;
    }
    path[..dir.len()].copy_from_slice(dir);
    path[dir.len()] = b'/';
    path[dir.len() + 1..len].copy_from_slice(name);
    // SAFETY: `path` is NUL-terminated at `len` (zeroed, nothing written there); `buf` is
    // writable for its length, of which readlink writes at most that many bytes.
    let n = unsafe { libc::readlink(path.as_ptr().cast(), buf.as_mut_ptr().cast(), buf.len()) };
    let n = usize::try_from(n).ok()?;
    (n < buf.len()).then(|| &buf[..n])
}
