//! sysfs helpers (rdma-core: sysfs.c).
//!
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::{CStr, c_char, c_int};
use std::ffi::CString;
use std::sync::OnceLock;

use crate::abi::driver::verbs_sysfs_dev;
use crate::cret::CRet;
use crate::errno::Errno;

/// `const char *ibv_get_sysfs_path(void)`
///
/// The sysfs root: `SYSFS_PATH` (trailing slashes dropped) outside secure execution (set-uid,
/// set-gid, file capabilities: rdma-core checks set-uid only), else "/sys". Never NULL.
#[export("IBVERBS_1.0")]
fn ibv_get_sysfs_path() -> Raw<*const c_char> {
    static PATH: OnceLock<CString> = OnceLock::new();
    PATH.get_or_init(|| {
        let p = crate::device::sysfs::sysfs_path()
            .as_os_str()
            .as_encoded_bytes();
        CString::new(p).unwrap_or_else(|_| c"/sys".to_owned())
    })
    .as_ptr()
}

/// rdma-core's `ibv_read_sysfs_file_at` on `path`: one read() straight into the caller's
/// buffer (so the kernel judges it: NULL or a `size` past the address space is EFAULT), then a
/// trailing newline becomes the NUL, or a NUL is appended when there is room. The length, or -1:
/// errno from open/read, untouched when the value filled the buffer (no room for the NUL).
///
/// # Safety
/// `buf` is NULL or the caller's buffer of `size` bytes.
unsafe fn read_into(path: &CStr, buf: *mut c_char, size: usize) -> c_int {
    let b = buf.cast::<u8>();
    // SAFETY: the caller's contract.
    let n = match unsafe { crate::sys::file::read_once(path, b, size) } {
        Ok(n) => n,
        Err(e) => return Err(e).ret_minus_one(),
    };
    if n == 0 {
        return 0;
    }
    // SAFETY: read() stored n bytes at b, and n <= size.
    unsafe {
        if *b.add(n - 1) == b'\n' {
            *b.add(n - 1) = 0;
            return (n - 1) as c_int;
        }
        if n == size {
            return -1;
        }
        *b.add(n) = 0;
    }
    // rdma-core returns its ssize_t through an int.
    n as c_int
}

/// `"<dir>/<file>"` as rdma-core's `"%s/%s"` forms it, NUL-terminated; ENOMEM when the copy
/// cannot be allocated (the strings' lengths are the caller's).
fn join(dir: &CStr, file: &CStr) -> Result<CString, Errno> {
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

/// `int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size)`
///
/// Reads `<dir>/<file>` into `buf` (one read of at most `size` bytes, a trailing newline replaced
/// by the NUL). The length, or -1 with errno (EFAULT for a buffer the kernel cannot write, such
/// as a `size` past the address space). Divergence: NULL `dir`/`file` give -1 with errno EINVAL.
#[export("IBVERBS_1.0")]
fn ibv_read_sysfs_file(
    dir: *const c_char,
    file: *const c_char,
    buf: *mut c_char,
    size: usize,
) -> Raw<c_int> {
    if dir.is_null() || file.is_null() {
        return Err(Errno::EINVAL).ret_minus_one();
    }
    // SAFETY: NUL-terminated strings from the caller.
    match unsafe { join(CStr::from_ptr(dir), CStr::from_ptr(file)) } {
        // SAFETY: the caller's buffer of `size` bytes.
        Ok(path) => unsafe { read_into(&path, buf, size) },
        Err(e) => Err(e).ret_minus_one(),
    }
}

/// `int ibverbs_rs_read_ibdev_sysfs_file(char *buf, size_t size, struct verbs_sysfs_dev *sysfs_dev, const char *path)`
///
/// Not exported (hidden by the version script): the body of the variadic
/// `ibv_read_ibdev_sysfs_file`, whose C shim (src/shim/verbs_log.c) formats the relative path.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibverbs_rs_read_ibdev_sysfs_file(
    buf: *mut c_char,
    size: usize,
    sysfs_dev: *mut verbs_sysfs_dev,
    path: *const c_char,
) -> c_int {
    if sysfs_dev.is_null() || path.is_null() {
        return Err(Errno::EINVAL).ret_minus_one();
    }
    // SAFETY: a provider's or our own sysfs record, and the shim's formatted path.
    match unsafe {
        join(
            CStr::from_ptr((*sysfs_dev).ibdev_path.as_ptr()),
            CStr::from_ptr(path),
        )
    } {
        // SAFETY: the caller's buffer of `size` bytes.
        Ok(full) => unsafe { read_into(&full, buf, size) },
        Err(e) => Err(e).ret_minus_one(),
    }
}
