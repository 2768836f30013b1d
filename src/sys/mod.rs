//! Every system call and libc entry point the library makes lives under this module.
//!
//! Callers elsewhere are `#![forbid(unsafe_code)]`; the `unsafe` here is small and commented.

pub mod pod;
pub mod uverbs;

/// Set the calling thread's `errno`.
pub fn set_errno(e: core::ffi::c_int) {
    // SAFETY: __errno_location returns this thread's errno slot, valid for the thread's lifetime.
    unsafe { *libc::__errno_location() = e };
}

/// Read the calling thread's `errno`.
pub fn errno() -> core::ffi::c_int {
    // SAFETY: as above.
    unsafe { *libc::__errno_location() }
}
