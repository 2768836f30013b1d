//! Whether a destroy's EIO on a disassociated device counts as success (rdma-core: init.c
//! `verbs_allow_disassociate_destroy`, read by cmd_write.h's `verbs_is_destroy_err`).
//!
//! The flag is a data symbol providers read, defined at the C edge in both provider ABIs' nodes
//! (`capi::driver` for IBVERBS_PRIVATE_34, `capi::pabi65` for the PRIVATE_65 byte); here they are
//! reached by their link names, so the core reads and writes them without importing the edge.
//! Library init (`devlist`) writes both once, before any context exists; the destroy verbs read it.

unsafe extern "C" {
    /// `verbs_allow_disassociate_destroy@@IBVERBS_PRIVATE_34` (a `#[no_mangle]` static in capi).
    static mut verbs_allow_disassociate_destroy: bool;
    /// `verbs_allow_disassociate_destroy@IBVERBS_PRIVATE_65` (a byte of capi::pabi65's asm).
    static mut __symver_p65_verbs_allow_disassociate_destroy: bool;
}

/// Whether a destroy's EIO on a disassociated device counts as success: library init's value.
pub(crate) fn allow_disassociate() -> bool {
    let p = &raw const verbs_allow_disassociate_destroy;
    // SAFETY: a plain byte, written only during library init.
    unsafe { p.read() }
}

/// Library init's write of both bytes (RDMAV_ALLOW_DISASSOC_DESTROY).
pub(crate) fn set_allow_disassociate_destroy(on: bool) {
    let p34 = &raw mut verbs_allow_disassociate_destroy;
    let p65 = &raw mut __symver_p65_verbs_allow_disassociate_destroy;
    // SAFETY: written once during library init, before any context exists to read it; providers
    // only read it.
    unsafe { p34.write(on) };
    // SAFETY: as above, for the PRIVATE_65 twin.
    unsafe { p65.write(on) };
}
