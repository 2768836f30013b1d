//! The process credentials the library consults (rdma-core's `sysfs.c` ignores `SYSFS_PATH` in a
//! set-uid process).

/// The real user id, `getuid()`.
pub fn getuid() -> u32 {
    // SAFETY: getuid takes no arguments and cannot fail.
    unsafe { libc::getuid() }
}

/// The effective user id, `geteuid()`.
pub fn geteuid() -> u32 {
    // SAFETY: geteuid takes no arguments and cannot fail.
    unsafe { libc::geteuid() }
}

/// `getuid() == geteuid()`: rdma-core's test for honouring user-chosen paths and driver lists
/// (a set-uid process ignores them).
pub fn uid_is_euid() -> bool {
    getuid() == geteuid()
}
