//! sysfs helpers (rdma-core: sysfs.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_char, c_int};

use crate::abi::driver::verbs_sysfs_dev;
use crate::errno::{CRet, unimplemented};

/// `const char *ibv_get_sysfs_path(void)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// rdma-core cannot fail here (it falls back to "/sys").
#[unsafe(no_mangle)]
pub extern "C" fn ibv_get_sysfs_path() -> *const c_char {
    Err(unimplemented("ibv_get_sysfs_path")).ret_null()
}

/// `int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_read_sysfs_file(
    dir: *const c_char,
    file: *const c_char,
    buf: *mut c_char,
    size: usize,
) -> c_int {
    Err(unimplemented("ibv_read_sysfs_file")).ret_minus_one()
}

/// `int ibv_read_ibdev_sysfs_file(char *buf, size_t size, struct verbs_sysfs_dev *sysfs_dev, const char *fnfmt, ...)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// C declares this variadic. Stable Rust cannot define a C variadic, and on x86-64 SysV the fixed
/// arguments arrive exactly as for a non-variadic call, so this definition takes the four fixed
/// ones; the implementation needs a C shim, as `__verbs_log` has.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_read_ibdev_sysfs_file(
    buf: *mut c_char,
    size: usize,
    sysfs_dev: *mut verbs_sysfs_dev,
    fnfmt: *const c_char,
) -> c_int {
    Err(unimplemented("ibv_read_ibdev_sysfs_file")).ret_minus_one()
}
