//! What each provider ABI changed in the layouts a provider shares with the core, as data (read
//! off rdma-core's `driver.h` and `verbs.h` of v34.0, v35.0, v44, v57.0, v61.0, v62.1, v64.0 and
//! v65: the releases of each layout below).
//!
//! Two things changed from one layout to the next, both by addition:
//! - `struct verbs_context_ops` gained ops, each at its alphabetical place ([`OPS_ADDED`]): a
//!   provider's table holds exactly the ops of its layout, in the newest table's order;
//! - `struct verbs_context` gained public ops *in front* of its older members ([`FRONT_OPS`]),
//!   so everything from `query_port` to `context` sits at the same distance before `ibv_context`
//!   in every layout: the library works on that common part (`verbs_context_pabi34`), which
//!   starts [`front_bytes`] after the provider's `verbs_context`.
//!
//! Everything per layout is derived from these two lists, [`PROVIDER_ABIS`] and
//! [`OTHER_LAYOUTS`]; adding a provider ABI means adding its number there (in `ibverbs-edge`,
//! which binds the symbol versions too) and its additions here. The signatures a release changed
//! are declarations of their own in `capi`.
//!
//! Layouts and nodes: the lists are keyed by *layout*, which is the provider ABI's number except
//! where rdma-core changed an ABI in place ([`OTHER_LAYOUTS`], each told apart per provider file
//! when it registers: `provider::release`; each context carries it: `verbs::ctxlayout`):
//! - ABI 34 (node `IBVERBS_PRIVATE_34`, files `-rdmav34.so`) is rdma-core v36 to v56's table.
//!   v34 built it without `import_dm`, `unimport_dm` and `query_qp_data_in_order` (73 ops) and
//!   v35 without `query_qp_data_in_order` (75): layouts [`LAYOUT_V34`] and [`LAYOUT_V35`], keyed
//!   below 34 so that numeric order is release order. v54 to v56 kept v36's tables but gave
//!   `ibv_cmd_reg_dmabuf_mr` an eighth parameter: layout [`LAYOUT_V54`] (its tables are 34's).
//! - v62 and v63 kept ABI 59 but added `dm_export_dmabuf_fd` and `query_port_speed` to the op
//!   table and `dm_export_dmabuf_fd` in front of `verbs_context`: layout [`LAYOUT_V62`], between
//!   59's and 64's.

use core::mem::{offset_of, size_of};

use super::{verbs_context_ops, verbs_context_pabi34};
use crate::abi::verbs::verbs_context;

/// The provider ABIs, oldest first (`IBVERBS_PRIVATE_<N>`, `lib<name>-rdmav<N>.so`).
pub const PROVIDER_ABIS: [u32; ibverbs_edge::provider_abis!().len()] =
    ibverbs_edge::provider_abis!();

/// Each provider ABI for a provider author, in [`PROVIDER_ABIS`]' order: the rdma-core releases
/// (and distributions) that build it and what it added. driver.h's opening comment lists them
/// (tools/headers fills its `@IBVERBS_PABI_NOTES@`); a provider ABI without its note does not
/// compile.
///
/// cbindgen:ignore
pub const PABI_NOTES: [(u32, &str); PROVIDER_ABIS.len()] = [
    (
        34,
        "rdma-core v34 to v56 (Debian 12 and 13, Ubuntu 24.04, RHEL 9): lib<name>-rdmav34.so, \
         the default when nothing says otherwise",
    ),
    (
        57,
        "rdma-core v57 and v58 (UBI 9): GET_CONTEXT takes file descriptors",
    ),
    (
        59,
        "rdma-core v59 to v63 (Ubuntu 26.04): DMA handles, reg_mr_ex, provider-allocated CQ rings",
    ),
    (
        64,
        "rdma-core v64 (Ubuntu 26.10): buffers, dma-buf export, port speed",
    ),
    (65, "rdma-core v65 (Debian sid): completion counters"),
];

const _: () = {
    let mut i = 0;
    while i < PROVIDER_ABIS.len() {
        assert!(
            PABI_NOTES[i].0 == PROVIDER_ABIS[i],
            "PABI_NOTES: one note per provider ABI, in order"
        );
        i += 1;
    }
};

/// The newest provider ABI, whose layout `verbs_context_ops` and the public `verbs_context` are.
pub const NEWEST: u32 = PROVIDER_ABIS[PROVIDER_ABIS.len() - 1];

/// The oldest provider ABI, whose layouts `verbs_context_pabi34` and the objects are.
pub const OLDEST: u32 = PROVIDER_ABIS[0];

/// The provider ABI (node `IBVERBS_PRIVATE_59`) whose providers rdma-core v62 and v63 built with
/// another layout than v59 to v61 did, without a new ABI number (`provider::release` tells them
/// apart).
///
/// cbindgen:ignore
pub const NODE_V62: u32 = 59;

/// The key of that other layout: rdma-core v62/v63's, between 59's and 64's.
///
/// cbindgen:ignore
pub const LAYOUT_V62: u32 = 62;

/// rdma-core v34's layout of provider ABI 34: 73 ops (no `import_dm`, `unimport_dm`,
/// `query_qp_data_in_order`), and `verbs_sysfs_dev` without `num_ports` (its `abi_ver` sits
/// where v35 put `num_ports`). Keyed below 34: numeric order is release order.
///
/// cbindgen:ignore
pub const LAYOUT_V34: u32 = 32;

/// rdma-core v35's layout of provider ABI 34: 75 ops (no `query_qp_data_in_order`).
///
/// cbindgen:ignore
pub const LAYOUT_V35: u32 = 33;

/// rdma-core v54 to v56's layout of provider ABI 34: 34's tables, and `ibv_cmd_reg_dmabuf_mr`
/// with the provider's `driver` chain as an eighth argument (v36 to v53 pass seven).
///
/// cbindgen:ignore
pub const LAYOUT_V54: u32 = 54;

/// The layouts that are not a provider ABI's own, each with its node (provider ABI).
pub const OTHER_LAYOUTS: [(u32, u32); 4] = [
    (LAYOUT_V34, 34),
    (LAYOUT_V35, 34),
    (LAYOUT_V54, 34),
    (LAYOUT_V62, NODE_V62),
];

/// Every layout, oldest first: the provider ABIs' and [`OTHER_LAYOUTS`]'.
pub const LAYOUTS: [u32; PROVIDER_ABIS.len() + OTHER_LAYOUTS.len()] = {
    let mut out = [0; PROVIDER_ABIS.len() + OTHER_LAYOUTS.len()];
    let mut j = 0;
    while j < PROVIDER_ABIS.len() {
        out[j] = PROVIDER_ABIS[j];
        j += 1;
    }
    while j < out.len() {
        out[j] = OTHER_LAYOUTS[j - PROVIDER_ABIS.len()].0;
        j += 1;
    }
    // Insertion sort (const).
    let mut i = 1;
    while i < out.len() {
        let mut k = i;
        while k > 0 && out[k - 1] > out[k] {
            let t = out[k];
            out[k] = out[k - 1];
            out[k - 1] = t;
            k -= 1;
        }
        i += 1;
    }
    i = 1;
    while i < out.len() {
        assert!(out[i - 1] < out[i], "a layout key twice");
        i += 1;
    }
    out
};

/// The provider ABI (version node) of a layout.
pub const fn node_of(layout: u32) -> u32 {
    let mut i = 0;
    while i < OTHER_LAYOUTS.len() {
        if OTHER_LAYOUTS[i].0 == layout {
            return OTHER_LAYOUTS[i].1;
        }
        i += 1;
    }
    layout
}

/// Whether provider ABI `abi` has layouts besides its own ([`OTHER_LAYOUTS`]).
pub const fn has_other_layouts(abi: u32) -> bool {
    let mut i = 0;
    while i < OTHER_LAYOUTS.len() {
        if OTHER_LAYOUTS[i].1 == abi {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether a context of `layout` differs from one of its node's own layout (its op table or its
/// front): such a context is recorded (`verbs::ctxlayout`). [`LAYOUT_V54`] does not.
pub const fn tables_differ(layout: u32) -> bool {
    let node = node_of(layout);
    op_count(layout) != op_count(node) || front_bytes(layout) != front_bytes(node)
}

/// Whether `n` is a layout key ([`LAYOUTS`]).
pub const fn is_layout(n: u32) -> bool {
    is_provider_abi(n) || node_of(n) != n
}

/// Whether `n` is a provider ABI this library speaks.
pub const fn is_provider_abi(n: u32) -> bool {
    let mut i = 0;
    while i < PROVIDER_ABIS.len() {
        if PROVIDER_ABIS[i] == n {
            return true;
        }
        i += 1;
    }
    false
}

/// The slots (byte offsets in the newest [`verbs_context_ops`]) each layout after the oldest
/// ([`LAYOUTS`]`[0]`: rdma-core v34's) added to the op table. ops.rs marks the members added
/// after provider ABI 34's own layout `pabi: N` for the header generator; tests/abi_layout_rust.rs
/// checks that the two agree.
pub const OPS_ADDED: [(u32, &[usize]); 6] = [
    // rdma-core v35 and v36, still provider ABI 34 (its own layout is v36's).
    (
        LAYOUT_V35,
        &[
            offset_of!(verbs_context_ops, import_dm),
            offset_of!(verbs_context_ops, unimport_dm),
        ],
    ),
    (34, &[offset_of!(verbs_context_ops, query_qp_data_in_order)]),
    (
        59,
        &[
            offset_of!(verbs_context_ops, alloc_dmah),
            offset_of!(verbs_context_ops, dealloc_dmah),
            offset_of!(verbs_context_ops, reg_mr_ex),
        ],
    ),
    // rdma-core v62/v63, still provider ABI 59.
    (
        LAYOUT_V62,
        &[
            offset_of!(verbs_context_ops, dm_export_dmabuf_fd),
            offset_of!(verbs_context_ops, query_port_speed),
        ],
    ),
    (
        64,
        &[
            offset_of!(verbs_context_ops, alloc_buf),
            offset_of!(verbs_context_ops, free_buf),
        ],
    ),
    (
        65,
        &[
            offset_of!(verbs_context_ops, create_comp_cntr),
            offset_of!(verbs_context_ops, destroy_comp_cntr),
            offset_of!(verbs_context_ops, inc_comp_cntr),
            offset_of!(verbs_context_ops, inc_err_comp_cntr),
            offset_of!(verbs_context_ops, qp_attach_comp_cntr),
            offset_of!(verbs_context_ops, query_comp_cntr_caps),
            offset_of!(verbs_context_ops, read_comp_cntr),
            offset_of!(verbs_context_ops, read_err_comp_cntr),
            offset_of!(verbs_context_ops, set_comp_cntr),
            offset_of!(verbs_context_ops, set_err_comp_cntr),
        ],
    ),
];

/// The number of op slots in the newest table (each one function pointer).
pub const OPS: usize = size_of::<verbs_context_ops>() / size_of::<usize>();

/// The layout that added each slot of the newest table (`LAYOUTS[0]` for rdma-core v34's).
pub const OP_SINCE: [u32; OPS] = {
    let mut t = [LAYOUTS[0]; OPS];
    let mut i = 0;
    while i < OPS_ADDED.len() {
        let (abi, slots) = OPS_ADDED[i];
        assert!(is_layout(abi), "OPS_ADDED names a layout LAYOUTS lacks");
        let mut j = 0;
        while j < slots.len() {
            t[slots[j] / size_of::<usize>()] = abi;
            j += 1;
        }
        i += 1;
    }
    t
};

/// The number of ops a layout's table holds.
pub const fn op_count(abi: u32) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < OPS {
        if OP_SINCE[i] <= abi {
            n += 1;
        }
        i += 1;
    }
    n
}

/// Where op `i` of the newest table (its slot index there) sits in a provider table of layout
/// `abi`: None when that layout lacks the op, else the number of the layout's ops before it.
pub const fn slot_in(abi: u32, i: usize) -> Option<usize> {
    if i >= OPS || OP_SINCE[i] > abi {
        return None;
    }
    let mut k = 0;
    let mut j = 0;
    while j < i {
        if OP_SINCE[j] <= abi {
            k += 1;
        }
        j += 1;
    }
    Some(k)
}

/// The public ops in front of the common part of `verbs_context`, in memory order (the newest
/// in front), each with the layout that added it and its offset in the newest (public) layout.
pub const FRONT_OPS: [(u32, usize); 6] = [
    (64, offset_of!(verbs_context, free_buf)),
    (64, offset_of!(verbs_context, alloc_buf)),
    (LAYOUT_V62, offset_of!(verbs_context, dm_export_dmabuf_fd)),
    (59, offset_of!(verbs_context, reg_mr_ex)),
    (59, offset_of!(verbs_context, dealloc_dmah)),
    (59, offset_of!(verbs_context, alloc_dmah)),
];

/// Bytes in front of the common part in the newest `verbs_context`.
const NEWEST_FRONT: usize =
    offset_of!(verbs_context, context) - offset_of!(verbs_context_pabi34, context);

/// Bytes from the start of a layout's `verbs_context` to its common part (the
/// `verbs_context_pabi34` view): the public ops that layout has in front.
pub const fn front_bytes(abi: u32) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < FRONT_OPS.len() {
        if FRONT_OPS[i].0 <= abi {
            n += size_of::<usize>();
        }
        i += 1;
    }
    n
}

/// The size of a layout's `verbs_context` (its `sz`).
pub const fn context_size(abi: u32) -> usize {
    size_of::<verbs_context_pabi34>() + front_bytes(abi)
}

/// Distance from a front op's slot to the common part (the same in every layout that has it).
pub const fn front_distance(newest_offset: usize) -> usize {
    NEWEST_FRONT - newest_offset
}

// The facts the common view rests on: the front ops are packed newest first in front of the
// ABI-34 members, and the newest layout is the ABI-34 one plus all of them.
const _: () = {
    // rdma-core v44's `sizeof(struct verbs_context)` on the target: 608 bytes of pointers and
    // ints (every supported target is LP64) around `ibv_context`'s `pthread_mutex_t`, whose size
    // is the target's (40 bytes on x86_64, ppc64le, s390x and riscv64: 648; 48 on aarch64: 656).
    const V44_CONTEXT: usize = 608 + size_of::<libc::pthread_mutex_t>();
    let mut i = 0;
    while i < FRONT_OPS.len() {
        assert!(FRONT_OPS[i].1 == i * size_of::<usize>());
        assert!(is_layout(FRONT_OPS[i].0));
        if i > 0 {
            assert!(FRONT_OPS[i - 1].0 >= FRONT_OPS[i].0);
        }
        i += 1;
    }
    assert!(NEWEST_FRONT == FRONT_OPS.len() * size_of::<usize>());
    assert!(size_of::<verbs_context>() == context_size(PROVIDER_ABIS[PROVIDER_ABIS.len() - 1]));
    assert!(op_count(PROVIDER_ABIS[PROVIDER_ABIS.len() - 1]) == OPS);
    assert!(op_count(OLDEST) == 76);
    // rdma-core v34.0's, v35.0's and v54-v56's verbs_context_ops: 73, 75 and 76 ops; their
    // verbs_context is v44's.
    assert!(op_count(LAYOUT_V34) == 73 && op_count(LAYOUT_V35) == 75);
    assert!(op_count(LAYOUT_V54) == 76 && !tables_differ(LAYOUT_V54));
    assert!(context_size(LAYOUT_V34) == V44_CONTEXT && context_size(LAYOUT_V35) == V44_CONTEXT);
    assert!(tables_differ(LAYOUT_V34) && tables_differ(LAYOUT_V35) && tables_differ(LAYOUT_V62));
    // rdma-core v61.0's and v62.1's verbs_context_ops: 79 and 81 ops; their verbs_context: three
    // and four pointers more than v44's (672 and 680 bytes on x86_64).
    assert!(op_count(NODE_V62) == 79 && op_count(LAYOUT_V62) == 81);
    assert!(context_size(NODE_V62) == V44_CONTEXT + 3 * size_of::<usize>());
    assert!(context_size(LAYOUT_V62) == V44_CONTEXT + 4 * size_of::<usize>());
    assert!(size_of::<verbs_context_pabi34>() == V44_CONTEXT);
};
