//! Whether a destroy's EIO on a disassociated device counts as success (rdma-core: init.c
//! `verbs_allow_disassociate_destroy`, read by cmd_write.h's `verbs_is_destroy_err`).
//!
//! The flag is a data symbol providers read: one byte, defined at the C edge
//! ([`capi::driver`](crate::capi::driver)) with a symbol version in every provider ABI's node, all
//! naming the same byte; here it is reached by its link name, so the core reads and writes it
//! without importing the edge. Library init (`devlist`) writes it once, before any context exists;
//! the destroy verbs read it.

unsafe extern "C" {
    /// The byte of `verbs_allow_disassociate_destroy` ([`capi::driver`](crate::capi::driver)'s,
    /// every version of it).
    #[link_name = "__ibvx_verbs_allow_disassociate_destroy"]
    static mut verbs_allow_disassociate_destroy: bool;
}

/// Whether a destroy's EIO on a disassociated device counts as success: library init's value.
pub(crate) fn allow_disassociate() -> bool {
    let p = &raw const verbs_allow_disassociate_destroy;
    // SAFETY: a plain byte, written only during library init.
    unsafe { p.read() }
}

/// Library init's write of the byte (RDMAV_ALLOW_DISASSOC_DESTROY).
pub(crate) fn set_allow_disassociate_destroy(on: bool) {
    let p = &raw mut verbs_allow_disassociate_destroy;
    // SAFETY: written once during library init, before any context exists to read it; providers
    // only read it.
    unsafe { p.write(on) };
}
