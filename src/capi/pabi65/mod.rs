//! Provider ABI 65 (rdma-core v65 providers, `lib<name>-rdmav65.so`) next to ABI 34.
//!
//! Symbol versions: every name of rdma-core v65's private node is exported in
//! IBVERBS_PRIVATE_65. A name both ABIs have keeps `name@@IBVERBS_PRIVATE_34` as its default
//! version and gets a non-default twin `name@IBVERBS_PRIVATE_65` (`twins.rs`): providers
//! always bind by version, so the choice only matters for unversioned lookups (dlsym, a link
//! against this library), and there the ABI-34 form stays what symbols-target.txt names as the
//! default; it also leaves the existing `#[no_mangle]` definitions untouched (a plain symbol
//! takes its one version from symbols.map). Names only v65 has (`new.rs`) are
//! `name@@IBVERBS_PRIVATE_65`.
//!
//! Where the v65 signature or layout differs (`verbs_context` grew six ops in front, the op
//! table has 17 more, and a few `ibv_cmd_*` gained an argument) the twin points at an adapter
//! in `adapt.rs` that calls the ABI-34 implementation. Contexts: a device claimed by a driver
//! that registered through `verbs_register_driver_65` is an ABI-65 device; the library works on
//! the ABI-34 view of its `verbs_context` (`ctxpriv::view34`), which covers `priv`, `sz` and
//! every public slot but the six new ones.

mod adapt;
pub mod heap;
pub mod new;
mod twins;

// The two C variadics of the private node (src/shim/verbs_log.c) and the data symbol get their
// PRIVATE_65 twins here. A data symbol cannot be a trampoline, so the twin of
// `verbs_allow_disassociate_destroy` is a byte of its own that library init keeps equal to it (`verbs::disassoc`).
core::arch::global_asm!(
    ".globl __symver_p65___verbs_log",
    ".type __symver_p65___verbs_log,@function",
    "__symver_p65___verbs_log:",
    "    jmp __verbs_log@PLT",
    ".size __symver_p65___verbs_log, .-__symver_p65___verbs_log",
    ".symver __symver_p65___verbs_log, __verbs_log@IBVERBS_PRIVATE_65",
    ".globl __symver_p65_ibv_read_ibdev_sysfs_file",
    ".type __symver_p65_ibv_read_ibdev_sysfs_file,@function",
    "__symver_p65_ibv_read_ibdev_sysfs_file:",
    "    jmp ibv_read_ibdev_sysfs_file@PLT",
    ".size __symver_p65_ibv_read_ibdev_sysfs_file, .-__symver_p65_ibv_read_ibdev_sysfs_file",
    ".symver __symver_p65_ibv_read_ibdev_sysfs_file, ibv_read_ibdev_sysfs_file@IBVERBS_PRIVATE_65",
    ".pushsection .bss.__symver_p65_verbs_allow_disassociate_destroy,\"aw\",@nobits",
    ".globl __symver_p65_verbs_allow_disassociate_destroy",
    ".type __symver_p65_verbs_allow_disassociate_destroy,@object",
    ".size __symver_p65_verbs_allow_disassociate_destroy, 1",
    "__symver_p65_verbs_allow_disassociate_destroy:",
    "    .zero 1",
    ".popsection",
    ".symver __symver_p65_verbs_allow_disassociate_destroy, verbs_allow_disassociate_destroy@IBVERBS_PRIVATE_65",
);

#[cfg(test)]
mod tests;
