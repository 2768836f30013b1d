//! The one error type: a positive errno value, and `Result` over it.
//!
//! The bottom of the house: every module may use it, it uses nothing of the crate. How a `Result`
//! becomes a C return value (and the thread's `errno`) is [`crate::cret`].
#![forbid(unsafe_code)]

use core::ffi::c_int;

/// A positive errno value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Errno(pub c_int);

impl Errno {
    pub const EPERM: Errno = Errno(libc::EPERM);
    pub const ENOENT: Errno = Errno(libc::ENOENT);
    pub const EIO: Errno = Errno(libc::EIO);
    pub const ENOMEM: Errno = Errno(libc::ENOMEM);
    pub const EACCES: Errno = Errno(libc::EACCES);
    pub const EFAULT: Errno = Errno(libc::EFAULT);
    pub const EBUSY: Errno = Errno(libc::EBUSY);
    pub const ENODEV: Errno = Errno(libc::ENODEV);
    pub const EINVAL: Errno = Errno(libc::EINVAL);
    pub const ENOSYS: Errno = Errno(libc::ENOSYS);
    pub const EOPNOTSUPP: Errno = Errno(libc::EOPNOTSUPP);
    pub const EPROTONOSUPPORT: Errno = Errno(libc::EPROTONOSUPPORT);
    pub const ENOTTY: Errno = Errno(libc::ENOTTY);
    pub const EAGAIN: Errno = Errno(libc::EAGAIN);
    pub const ENOSPC: Errno = Errno(libc::ENOSPC);
    pub const E2BIG: Errno = Errno(libc::E2BIG);
}

/// The mark of an error returned to C without touching `errno` ([`Errno::quiet`]); no errno value
/// comes near it.
const QUIET: c_int = 1 << 30;

impl Errno {
    /// This error, returned to C with `errno` left as it was: where rdma-core returns a value it
    /// did not get from a failing call (an early check, a missing op). Made only at the edge, as
    /// the last thing a body returns: nothing below compares a quiet error.
    pub const fn quiet(self) -> Errno {
        Errno(self.0 | QUIET)
    }

    /// Whether it is to leave `errno` alone.
    pub const fn is_quiet(self) -> bool {
        self.0 & QUIET != 0
    }

    /// The errno value.
    pub const fn value(self) -> c_int {
        self.0 & !QUIET
    }
}

pub type Result<T> = core::result::Result<T, Errno>;
