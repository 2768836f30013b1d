//! What each provider ABI changed in the layouts a provider shares with the core, as data (read
//! off rdma-core's `driver.h` and `verbs.h` of v44 (ABI 34), v57.0 (57), v61.0 (59), v64.0 (64)
//! and v65 (65)).
//!
//! Two things changed from one ABI to the next, both by addition:
//! - `struct verbs_context_ops` gained ops, each at its alphabetical place ([`OPS_ADDED`]): a
//!   provider's table holds exactly the ops of its ABI, in the newest table's order;
//! - `struct verbs_context` gained public ops *in front* of its older members ([`FRONT_OPS`]),
//!   so everything from `query_port` to `context` sits at the same distance before `ibv_context`
//!   in every ABI's layout: the library works on that common part (`verbs_context_pabi34`),
//!   which starts [`front_bytes`] after the provider's `verbs_context`.
//!
//! Everything per ABI is derived from these two lists and [`PROVIDER_ABIS`]; adding a provider
//! ABI means adding its number there (in `ibverbs-edge`, which binds the symbol versions too) and
//! its additions here. The signatures a release changed are declarations of their own in `capi`.
//!
//! Layouts and nodes: the lists are keyed by *layout*, which is the provider ABI's number except
//! for one ABI rdma-core changed in place. v62 and v63 kept ABI 59 (node `IBVERBS_PRIVATE_59`,
//! files `-rdmav59.so`) but added `dm_export_dmabuf_fd` and `query_port_speed` to the op table
//! and `dm_export_dmabuf_fd` in front of `verbs_context`: layout [`LAYOUT_V62`] (62), which
//! belongs to node [`NODE_V62`] (59) and sits between 59's and 64's ([`LAYOUTS`]). Which of the
//! two a provider of ABI 59 has is told when it registers (`provider::release`), and each
//! context of that node carries it (`verbs::ctxlayout`).

use core::mem::{offset_of, size_of};

use super::{verbs_context_ops, verbs_context_pabi34};
use crate::abi::verbs::verbs_context;

/// The provider ABIs, oldest first (`IBVERBS_PRIVATE_<N>`, `lib<name>-rdmav<N>.so`).
pub const PROVIDER_ABIS: [u32; 5] = ibverbs_edge::provider_abis!();

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

/// Every layout, oldest first: the provider ABIs', and [`LAYOUT_V62`] after its node's.
pub const LAYOUTS: [u32; PROVIDER_ABIS.len() + 1] = {
    let mut out = [0; PROVIDER_ABIS.len() + 1];
    let (mut i, mut j) = (0, 0);
    while i < PROVIDER_ABIS.len() {
        out[j] = PROVIDER_ABIS[i];
        j += 1;
        if PROVIDER_ABIS[i] == NODE_V62 {
            out[j] = LAYOUT_V62;
            j += 1;
        }
        i += 1;
    }
    assert!(j == out.len());
    out
};

/// The provider ABI (version node) of a layout.
pub const fn node_of(layout: u32) -> u32 {
    if layout == LAYOUT_V62 {
        NODE_V62
    } else {
        layout
    }
}

/// Whether `n` is a layout key ([`LAYOUTS`]).
pub const fn is_layout(n: u32) -> bool {
    is_provider_abi(n) || n == LAYOUT_V62
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
/// added to the op table. ops.rs marks the same members `pabi: N` for the header generator;
/// tests/abi_layout_rust.rs checks that the two agree.
pub const OPS_ADDED: [(u32, &[usize]); 4] = [
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

/// The layout that added each slot of the newest table ([`OLDEST`] for the original ones).
pub const OP_SINCE: [u32; OPS] = {
    let mut t = [OLDEST; OPS];
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
    // rdma-core v61.0's and v62.1's verbs_context_ops: 79 and 81 ops; their verbs_context: 672
    // and 680 bytes.
    assert!(op_count(NODE_V62) == 79 && op_count(LAYOUT_V62) == 81);
    assert!(context_size(NODE_V62) == 672 && context_size(LAYOUT_V62) == 680);
    assert!(size_of::<verbs_context_pabi34>() == 648);
};
