//! sysfs reads for programs and providers (rdma-core: sysfs.c `ibv_get_sysfs_path`,
//! `ibv_read_sysfs_file`, `ibv_read_ibdev_sysfs_file`).
//!
//! The sysfs root comes from [`crate::device::sysfs`]; a read is one read(2) straight into the
//! caller's buffer, as rdma-core's `ibv_read_sysfs_file_at` makes it. Called by
//! [`capi::sysfs`](crate::capi::sysfs).
use crate::sys::sync::OnceLock;
use core::ffi::{CStr, c_char, c_int};
use std::ffi::CString;

use crate::abi::driver::verbs_sysfs_dev;
use crate::errno::{Errno, Result};

/// `ibv_get_sysfs_path`: the sysfs root ([`sysfs_path`](crate::device::sysfs::sysfs_path)):
/// `SYSFS_PATH` (trailing slashes dropped) outside secure execution (set-uid, set-gid, file
/// capabilities: rdma-core checks set-uid only), else "/sys". Made once; never NULL ("/sys" also
/// when the root cannot be a C string).
pub(crate) fn path() -> &'static CStr {
    static PATH: OnceLock<CString> = OnceLock::new();
    PATH.get_or_init(|| {
        let p = crate::device::sysfs::sysfs_path()
            .as_os_str()
            .as_encoded_bytes();
        CString::new(p).unwrap_or_else(|_| c"/sys".to_owned())
    })
}

/// A caller's buffer for one read(2), `(buf, size)` as the caller gave them: the kernel checks
/// the range (NULL, or a `size` past the address space, is EFAULT, as under rdma-core).
#[derive(Clone, Copy)]
pub struct ReadBuf {
    buf: *mut c_char,
    size: usize,
}

impl ReadBuf {
    /// # Safety
    /// `buf` is NULL or the caller's buffer of `size` bytes, writable for the call.
    #[inline(always)]
    pub(crate) unsafe fn from_raw(buf: *mut c_char, size: usize) -> ReadBuf {
        ReadBuf { buf, size }
    }
}

/// rdma-core's `ibv_read_sysfs_file_at` on `path`: one read() straight into the caller's
/// buffer, then a trailing newline becomes the NUL, or a NUL is appended when there is room.
/// The length, or the errno of open/read; when the value filled the buffer (no room for the
/// NUL), a quiet error: rdma-core's -1 with errno untouched.
fn read_into(path: &CStr, b: ReadBuf) -> Result<c_int> {
    let p = b.buf.cast::<u8>();
    // SAFETY: ReadBuf's contract: NULL or the caller's `size` bytes (the kernel checks them).
    let n = unsafe { crate::sys::file::read_once(path, p, b.size) }?;
    if n == 0 {
        return Ok(0);
    }
    let last = p.wrapping_add(n - 1);
    // SAFETY: read() stored n bytes at p (so p is the caller's buffer), the last of them here.
    if unsafe { last.read() } == b'\n' {
        // SAFETY: the same last byte `read()` stored, in the caller's writable buffer.
        unsafe { last.write(0) };
        return Ok((n - 1) as c_int);
    }
    if n == b.size {
        return Err(Errno::ENOSPC.quiet());
    }
    // SAFETY: n < size: a byte of the caller's buffer, after the ones read() stored.
    unsafe { p.wrapping_add(n).write(0) };
    // rdma-core returns its ssize_t through an int.
    Ok(n as c_int)
}

/// `"<dir>/<file>"` as rdma-core's `"%s/%s"` forms it, NUL-terminated; ENOMEM when the copy
/// cannot be allocated (the strings' lengths are the caller's).
fn join(dir: &CStr, file: &CStr) -> Result<CString> {
    let (d, f) = (dir.to_bytes(), file.to_bytes());
    let mut v = Vec::new();
    let len = d
        .len()
        .checked_add(f.len())
        .and_then(|l| l.checked_add(2))
        .ok_or(Errno::ENOMEM)?;
    v.try_reserve_exact(len).map_err(|_| Errno::ENOMEM)?;
    v.extend_from_slice(d);
    v.push(b'/');
    v.extend_from_slice(f);
    // Neither part holds a NUL (each came from a C string).
    CString::new(v).map_err(|_| Errno::EINVAL)
}

/// `ibv_read_sysfs_file`: `<dir>/<file>` read into `buf` ([`read_into`]): one read of at most
/// `size` bytes, a trailing newline replaced by the NUL. The length, or the errno (EFAULT for a
/// buffer the kernel cannot write, such as a `size` past the address space); a quiet error (errno
/// untouched) when the value fills the buffer.
pub(crate) fn read_file(dir: &CStr, file: &CStr, buf: ReadBuf) -> Result<c_int> {
    read_into(&join(dir, file)?, buf)
}

/// `ibv_read_ibdev_sysfs_file`'s body: `path` (formatted by the C shim) under the device's
/// sysfs directory, read into `buf` as `ibv_read_sysfs_file` ([`read_file`]). EINVAL for a NULL
/// record or path.
///
/// # Safety
/// `sysfs_dev` is NULL or a provider's (or our own) live sysfs record; `path` is NULL or a
/// NUL-terminated string.
pub(crate) unsafe fn read_ibdev_file(
    buf: ReadBuf,
    sysfs_dev: *mut verbs_sysfs_dev,
    path: *const c_char,
) -> Result<c_int> {
    if sysfs_dev.is_null() || path.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: the caller's contract: a live record; only the address of its path is taken.
    let dir = unsafe { &raw const (*sysfs_dev).ibdev_path };
    // SAFETY: the caller's contract: a live record, whose `ibdev_path` is NUL-terminated.
    let dir = unsafe { CStr::from_ptr(dir.cast::<c_char>()) };
    // SAFETY: the caller's contract.
    let file = unsafe { CStr::from_ptr(path) };
    read_file(dir, file, buf)
}
