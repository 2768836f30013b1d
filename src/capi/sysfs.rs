//! sysfs helpers (rdma-core: sysfs.c).
//!
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use core::ffi::{CStr, c_char, c_int};
use std::ffi::{CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::abi::driver::verbs_sysfs_dev;
use crate::device::sysfs;
use crate::errno::{CRet, Errno};

/// `const char *ibv_get_sysfs_path(void)`
///
/// The sysfs root: `SYSFS_PATH` (trailing slashes dropped) when the process is not set-uid, else
/// "/sys". Never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn ibv_get_sysfs_path() -> *const c_char {
    static PATH: OnceLock<CString> = OnceLock::new();
    PATH.get_or_init(|| {
        let p = crate::device::sysfs::sysfs_path().as_os_str().as_encoded_bytes();
        CString::new(p).unwrap_or_else(|_| c"/sys".to_owned())
    })
    .as_ptr()
}

/// Copy a read result into the C convention: the length, or -1 (errno from the read; untouched
/// when the value did not fit, as rdma-core leaves it). The caller's buffer gets exactly the
/// bytes rdma-core's single read() leaves there: nothing for an empty file, the value and its
/// NUL, or all `size` bytes (unterminated) when the value did not fit.
fn read_into(path: &Path, buf: *mut c_char, size: usize) -> c_int {
    if buf.is_null() && size > 0 {
        return Err(Errno::EINVAL).ret_minus_one();
    }
    let mut tmp = vec![0u8; size];
    let r = sysfs::read_sysfs_file_into(path, &mut tmp);
    let written = match r {
        Ok(0) | Err(sysfs::ReadError::Os(_)) => 0,
        Ok(n) => size.min(n + 1),
        Err(sysfs::ReadError::TooLong) => size,
    };
    // SAFETY: the caller's buffer has `size` bytes; we copy at most that.
    unsafe { core::ptr::copy_nonoverlapping(tmp.as_ptr(), buf.cast::<u8>(), written) };
    match r {
        Ok(n) => n as c_int,
        Err(sysfs::ReadError::Os(e)) => Err(e).ret_minus_one(),
        Err(sysfs::ReadError::TooLong) => -1,
    }
}

/// `<dir>/<file>` as rdma-core's `"%s/%s"` forms it.
fn join(dir: &CStr, file: &CStr) -> PathBuf {
    let os = |c: &CStr| OsStr::from_bytes(c.to_bytes()).to_owned();
    sysfs::join(Path::new(&os(dir)), &os(file))
}

/// `int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size)`
///
/// Reads `<dir>/<file>` into `buf` (at most `size` bytes, a trailing newline replaced by the NUL).
/// The length, or -1 with errno. Divergence: NULL `dir`/`file` give -1 with errno EINVAL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_read_sysfs_file(
    dir: *const c_char,
    file: *const c_char,
    buf: *mut c_char,
    size: usize,
) -> c_int {
    if dir.is_null() || file.is_null() {
        return Err(Errno::EINVAL).ret_minus_one();
    }
    // SAFETY: NUL-terminated strings from the caller.
    let path = unsafe { join(CStr::from_ptr(dir), CStr::from_ptr(file)) };
    read_into(&path, buf, size)
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
    let full = unsafe { join(CStr::from_ptr((*sysfs_dev).ibdev_path.as_ptr()), CStr::from_ptr(path)) };
    read_into(&full, buf, size)
}
