//! The process credentials the library consults: whether it runs in secure execution (set-uid,
//! set-gid, file capabilities), where nothing the environment names may be trusted.

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

/// `getuid() == geteuid()`: rdma-core's own test for honouring user-chosen paths and driver
/// lists. Blind to set-gid programs and file capabilities; see [`secure_execution`].
pub fn uid_is_euid() -> bool {
    getuid() == geteuid()
}

/// `getauxval(AT_SECURE)`: the kernel marked this process for secure execution at exec
/// (set-uid, set-gid, gained file capabilities, or an LSM asked for it). glibc ignores
/// `LD_LIBRARY_PATH` and friends then; so must a library that picks files from the environment.
pub fn at_secure() -> bool {
    // SAFETY: getauxval reads the auxiliary vector; an absent type gives 0.
    unsafe { libc::getauxval(libc::AT_SECURE) != 0 }
}

/// Secure execution: [`at_secure`], or the real and effective ids differ (a process that
/// changed its credentials after exec, which AT_SECURE does not record: rdma-core's own case).
pub fn secure_execution() -> bool {
    // SAFETY: getgid/getegid take no arguments and cannot fail.
    let gid_differs = unsafe { libc::getgid() != libc::getegid() };
    at_secure() || !uid_is_euid() || gid_differs
}
