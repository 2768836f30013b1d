//! The generated headers and the few facts the generator is told: what each header owns, the
//! types C spells its own way, the hand-written headers beside them.

/// Which exported functions a header declares.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Fns {
    /// The public ones (IBVERBS_1.x nodes).
    Public,
    /// The provider-private ones (IBVERBS_PRIVATE_*).
    Private,
    /// None: types and constants only.
    None,
}

pub(crate) struct Header {
    pub(crate) file: &'static str,
    pub(crate) guard: &'static str,
    /// `#include <...>` lines, in this order (rdma-core's header includes the same).
    pub(crate) includes: &'static [&'static str],
    pub(crate) abi_dirs: &'static [&'static str],
    pub(crate) fns: Fns,
    /// Hand-written C appended after the generated declarations (inline functions and
    /// function-like macros), in the project's own words; absent file: nothing appended.
    pub(crate) fragment: &'static str,
    /// Hand-written C inserted before the first `#include` (what must be decided before the
    /// included headers are read); absent file: nothing inserted.
    pub(crate) prelude: &'static str,
    /// The generated declarations use GNU C layouts on purpose (the kernel ABI's zero-length and
    /// nested flexible arrays): `-Wpedantic` is silenced around them, and only them.
    pub(crate) gnu_layouts: bool,
}

/// The generated headers. The kernel uapi (`src/abi/uapi`) is not emitted: the headers include
/// linux-libc-dev's `<rdma/*.h>`, and the Rust mirrors serve only the library.
pub(crate) const HEADERS: [Header; 3] = [
    Header {
        file: "include/infiniband/verbs.h",
        guard: "INFINIBAND_VERBS_H",
        includes: &[
            "stdint.h",
            "pthread.h",
            "stddef.h",
            "errno.h",
            "string.h",
            "linux/types.h",
            "linux/if_ether.h",
            "sys/types.h",
            "infiniband/verbs_api.h",
        ],
        abi_dirs: &["verbs"],
        fns: Fns::Public,
        fragment: "include/fragments/verbs-inline.h",
        prelude: "include/fragments/verbs-prelude.h",
        gnu_layouts: false,
    },
    Header {
        file: "include/infiniband/kern-abi.h",
        guard: "INFINIBAND_KERN_ABI_H",
        includes: &[
            "stdint.h",
            "stddef.h",
            "linux/types.h",
            "rdma/ib_user_verbs.h",
            "rdma/rdma_user_ioctl_cmds.h",
        ],
        abi_dirs: &["kern_abi"],
        fns: Fns::None,
        fragment: "include/fragments/kern-abi-inline.h",
        prelude: "",
        gnu_layouts: true,
    },
    Header {
        file: "include/infiniband/driver.h",
        guard: "INFINIBAND_DRIVER_H",
        includes: &[
            "stdbool.h",
            "stdint.h",
            "sys/types.h",
            "infiniband/verbs.h",
            "infiniband/kern-abi.h",
            "rdma/rdma_user_ioctl_cmds.h",
            "rdma/ib_user_ioctl_verbs.h",
        ],
        abi_dirs: &["driver"],
        fns: Fns::Private,
        fragment: "include/fragments/driver-inline.h",
        prelude: "include/fragments/driver-prelude.h",
        gnu_layouts: true,
    },
];

/// Types whose layout depends on the provider ABI a C translation unit builds for
/// (`IBVERBS_PABI_VERSION`, see include/fragments/driver-prelude.h): C has one name for each,
/// Rust one type per ABI. (Rust type, C name, emitted): an emitted type is written under its C
/// name; one not emitted is only renamed where used, its C definition being another (verbs.h's
/// `verbs_context` and `ibv_qp_ex`, whose `pabi: N` members an older provider ABI's build leaves
/// out: `pabi_members`; driver.h's `verbs_context_ops` is emitted the same way).
pub(crate) const PABI_TYPES: &[(&str, &str, bool)] = &[
    ("verbs_context_pabi34", "verbs_context", false),
    ("ibv_qp_ex_pabi34", "ibv_qp_ex", false),
];

/// Constants a prelude defines instead (driver.h's `IBVERBS_PABI_VERSION` is the provider's
/// choice, 34 unless it says otherwise).
pub(crate) const PRELUDE_CONSTS: &[&str] = &["IBVERBS_PABI_VERSION"];

/// Definitions another header may already have made: (type, that header's include guard).
/// rdma-core's in-tree providers get ccan's `struct list_node` (same layout) through driver.h;
/// driver-prelude.h includes ccan's list.h when it is on the include path.
pub(crate) const GUARDED_DEFINITIONS: &[(&str, &str)] = &[("list_node", "CCAN_LIST_H")];

/// Types of src/abi/ctype.rs that stand for a C spelling: `CEnum<E>` is `enum E`, `BeN` is
/// `__beN` (see `spell_c_types`); never emitted, never given a tag.
pub(crate) const C_SPELLINGS: &[&str] = &["CEnum", "Be16", "Be32", "Be64", "CAtomicInt"];

/// Rust files whose items the generator leaves out: spelled by a hand-written header
/// (verbs_api.rs) or fragment (fragment.rs), or declared but not defined in C (opaque.rs: only
/// forward-declared).
pub(crate) const NOT_EMITTED: &[&str] = &[
    "src/abi/verbs/verbs_api.rs",
    "src/abi/verbs/opaque.rs",
    "src/abi/driver/fragment.rs",
];

/// The installed headers written by hand, each with the reason in its own opening comment: they
/// are spellings of kernel names, wire formats the library never touches, or obsolete remnants,
/// with no Rust type to generate them from. abi-tests checks their names, values and layouts
/// against rdma-core v65 (abi-tests/values/, abi-tests/layouts/sa-tm-v65.tsv).
pub(crate) const HAND_WRITTEN: &[&str] = &[
    "include/infiniband/verbs_api.h",
    "include/infiniband/ib_user_ioctl_verbs.h",
    "include/infiniband/sa.h",
    "include/infiniband/sa-kern-abi.h",
    "include/infiniband/opcode.h",
    "include/infiniband/arch.h",
    "include/infiniband/tm_types.h",
];
