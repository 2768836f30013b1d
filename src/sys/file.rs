//! One `read` of a file into a caller's buffer (rdma-core: sysfs.c, `ibv_read_sysfs_file_at`).
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
