//! Process credentials.

/// `getuid() == geteuid()`: rdma-core's test for honouring user-chosen paths (not setuid).
pub fn uid_is_euid() -> bool {
    // SAFETY: getuid and geteuid cannot fail and touch no memory of ours.
    unsafe { libc::getuid() == libc::geteuid() }
}
