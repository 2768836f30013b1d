//! sysfs helpers (rdma-core: sysfs.c), each a declaration over `verbs::sysfs`.
use core::ffi::{CStr, c_char, c_int};

use crate::abi::driver::verbs_sysfs_dev;
use crate::capi::export::{export, export_c};
use crate::cret::CRet;
use crate::verbs::sysfs::{self, ReadBuf};

/// `const char *ibv_get_sysfs_path(void)`
///
/// The C form of [`sysfs::path`]: a plain value, no failure.
#[export("IBVERBS_1.0")]
fn ibv_get_sysfs_path() -> Raw<*const c_char> {
    sysfs::path().as_ptr()
}

/// `int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size)`
///
/// The C form of [`sysfs::read_file`]: the length, or -1 with errno.
///
/// Divergence: NULL `dir`/`file` give -1 with errno EINVAL.
#[export("IBVERBS_1.0")]
fn ibv_read_sysfs_file(
    dir: &'static CStr,
    file: &'static CStr,
    (buf, size): ReadBuf,
) -> MinusOne<c_int> {
    sysfs::read_file(dir, file, buf)
}

/// `int ibverbs_rs_read_ibdev_sysfs_file(char *buf, size_t size, struct verbs_sysfs_dev *sysfs_dev, const char *path)`
///
/// Not exported (hidden by the version script): the body of the variadic
/// `ibv_read_ibdev_sysfs_file`, whose C shim (src/shim/verbs_log.c) formats the relative path.
/// The C form of [`sysfs::read_ibdev_file`]: the length, or -1 with errno.
///
/// # Safety
/// The shim passes the provider's buffer of `size` bytes, its sysfs record and the path it
/// formatted (or NULL).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibverbs_rs_read_ibdev_sysfs_file(
    buf: *mut c_char,
    size: usize,
    sysfs_dev: *mut verbs_sysfs_dev,
    path: *const c_char,
) -> c_int {
    // SAFETY: the caller's contract, forwarded.
    unsafe { sysfs::read_ibdev_file(ReadBuf::from_raw(buf, size), sysfs_dev, path) }.ret_minus_one()
}

/// `int ibv_read_ibdev_sysfs_file(char *buf, size_t size, struct verbs_sysfs_dev *sysfs_dev, const char *fnfmt, ...)`
///
/// Reads the file `fnfmt` (a printf format) of the device's sysfs directory into `buf`: the
/// number of bytes read, or -1 with errno. A C variadic, defined in src/shim/verbs_log.c.
#[export_c(PRIVATE 34..)]
fn ibv_read_ibdev_sysfs_file();
