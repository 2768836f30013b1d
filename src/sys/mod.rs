//! Every system call and libc entry point the library makes lives under this module.
//!
//! Callers elsewhere are `#![forbid(unsafe_code)]`; the `unsafe` here is small and commented.

pub mod cdev;
pub mod dir;
pub mod dl;
pub mod file;
pub mod fnmatch;
pub mod heap;
pub mod ids;
pub mod limits;
pub mod mem;
pub mod netlink;
pub mod pod;
pub mod sync;
pub mod udp;
pub mod uverbs;
pub mod valgrind;

/// Set the calling thread's `errno`.
pub fn set_errno(e: core::ffi::c_int) {
    // SAFETY: __errno_location returns this thread's errno slot, valid for the thread's lifetime.
    unsafe { *libc::__errno_location() = e };
}

/// Read the calling thread's `errno`.
pub fn errno() -> core::ffi::c_int {
    // SAFETY: __errno_location returns this thread's errno slot, valid for the thread's lifetime.
    unsafe { *libc::__errno_location() }
}

/// The soft RLIMIT_MEMLOCK in bytes, or None when getrlimit fails.
pub fn memlock_limit() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct we pass.
    (unsafe { libc::getrlimit(libc::RLIMIT_MEMLOCK, &mut r) } == 0).then_some(r.rlim_cur)
}

/// The soft and hard RLIMIT_MEMLOCK in bytes (`RLIM_INFINITY` as `u64::MAX`), or None when
/// getrlimit fails.
pub fn memlock_limits() -> Option<(u64, u64)> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct we pass.
    (unsafe { libc::getrlimit(libc::RLIMIT_MEMLOCK, &mut r) } == 0)
        .then_some((r.rlim_cur, r.rlim_max))
}

/// if_nametoindex(3): 0 when there is no such interface (errno set).
pub fn if_nametoindex(name: &str) -> u32 {
    let Ok(c) = std::ffi::CString::new(name) else {
        return 0;
    };
    // SAFETY: c is a valid NUL-terminated string.
    unsafe { libc::if_nametoindex(c.as_ptr()) }
}
