//! Tests of rdma-core v62/v63's layout of provider ABI 59 (`pabi::LAYOUT_V62`): the table read op
//! by op, `verbs_set_ops` of node 59 on a context recorded as that layout.

#![allow(clippy::multiple_unsafe_ops_per_block)] // test fixtures: one reason per fixture

use super::*;

/// rdma-core v62/v63's layout of provider ABI 59 (layout 62): its table is v64.0's without
/// alloc_buf and free_buf (v62.1's driver.h: 81 ops, dm_export_dmabuf_fd at index 41 after
/// detach_mcast, query_port_speed at 64 after query_port), v61's is that without those two; a
/// provider table of layout 62 lands op by op in the newest slots, and `verbs_set_ops` of node 59
/// on a context recorded as layout 62 puts dm_export_dmabuf_fd in its front slot, 32 bytes before
/// the common part; its size (`sz`) is 680 (sizeof(struct verbs_context) in v62).
#[test]
fn layout_62_of_provider_abi_59() {
    if super::shared_abi().is_none() {
        return;
    }
    let slot = |abi: u32, off: usize| pabi::slot_in(abi, off / size_of::<usize>());
    let dm = offset_of!(verbs_context_ops, dm_export_dmabuf_fd);
    let qs = offset_of!(verbs_context_ops, query_port_speed);
    assert_eq!(
        (slot(pabi::LAYOUT_V62, dm), slot(pabi::LAYOUT_V62, qs)),
        (Some(41), Some(64))
    );
    assert_eq!(
        (slot(pabi::NODE_V62, dm), slot(pabi::NODE_V62, qs)),
        (None, None)
    );
    assert_eq!(pabi::node_of(pabi::LAYOUT_V62), 59);
    // Every op of layout 62 sits where v64's table has it, less the ops v64 added before it.
    let v64 = ops_names("layouts-v64.0-pabi64.tsv");
    let v62: Vec<&str> = v64
        .iter()
        .map(String::as_str)
        .filter(|n| *n != "alloc_buf" && *n != "free_buf")
        .collect();
    assert_eq!(v62.len(), 81);
    assert_eq!(
        (v62[41], v62[64]),
        ("dm_export_dmabuf_fd", "query_port_speed")
    );
    let table: Vec<usize> = (0..v62.len()).map(|j| 0x1000 + j).collect();
    // SAFETY: a table of 81 readable slots (values never called).
    let got = slots(&unsafe { provider_table(pabi::LAYOUT_V62, table.as_ptr().cast()) });
    for (j, name) in v62.iter().enumerate() {
        let newest_at = NEWEST_NAMES.iter().position(|n| n == name).unwrap();
        assert_eq!(got[newest_at], 0x1000 + j, "{name}");
    }

    // A context of layout 62 made as _verbs_init_and_alloc_context makes it, and verbs_set_ops of
    // node 59 on it.
    let c = Ctx::new(pabi::LAYOUT_V62, empty());
    // SAFETY: as in the tests above.
    unsafe { init_defaults(c.vctx, pabi::LAYOUT_V62) };
    let start = c.base.wrapping_add(GUARD).cast::<core::ffi::c_void>();
    crate::verbs::ctxlayout::record(start, pabi::LAYOUT_V62).unwrap();
    let mut p = empty();
    p.dm_export_dmabuf_fd = Some(p_dm_export);
    p.query_port_speed = Some(p_query_port_speed);
    p.reg_mr_ex = Some(p_reg_mr_ex);
    p.post_send = Some(p_post_send);
    // The provider's own table, in layout 62.
    let mut own: Vec<usize> = Vec::new();
    let all = slots(&p);
    for (i, since) in pabi::OP_SINCE.iter().enumerate() {
        if *since <= pabi::LAYOUT_V62 {
            own.push(all[i]);
        }
    }
    assert_eq!(own.len(), 81);
    verbs_set_ops::<{ pabi::NODE_V62 }>(start, own.as_ptr().cast());
    let t = c.table();
    assert_eq!(
        addr(t.dm_export_dmabuf_fd),
        p_dm_export as *const () as usize
    );
    assert_eq!(
        addr(t.query_port_speed),
        p_query_port_speed as *const () as usize
    );
    assert_eq!(addr(t.reg_mr_ex), p_reg_mr_ex as *const () as usize);
    assert_eq!(addr(t.post_send), p_post_send as *const () as usize);
    assert_eq!(
        addr(c.v().context.ops.post_send),
        p_post_send as *const () as usize
    );
    // Front: dm_export_dmabuf_fd, reg_mr_ex, dealloc_dmah, alloc_dmah (newest first).
    let f = c.front();
    assert_eq!(f.len(), 4);
    assert_eq!(f[0], p_dm_export as *const () as usize);
    assert_eq!(f[1], p_reg_mr_ex as *const () as usize);
    // Its size (init_context's `sz`: 680 on x86_64, 640 bytes beside the target's
    // pthread_mutex_t), and ibv_context that size - sizeof(ibv_context) bytes after the start
    // (v62's offset; v61's is 8 bytes less).
    let v62 = 640 + size_of::<libc::pthread_mutex_t>();
    assert_eq!(pabi::context_size(pabi::LAYOUT_V62), v62);
    assert_eq!(pabi::context_size(pabi::NODE_V62), v62 - 8);
    let ctx_at = (&raw const c.v().context) as usize - start as usize;
    assert_eq!(ctx_at, v62 - size_of::<ibv_context>());
    assert!(c.guards_clean());
    crate::verbs::ctxlayout::forget(start);
}

unsafe extern "C" fn p_dm_export(_: *mut ibv_dm) -> c_int {
    7
}
unsafe extern "C" fn p_query_port_speed(_: *mut ibv_context, _: u32, _: *mut u64) -> c_int {
    8
}

/// The newest table's op names in slot order (the layout file of the newest provider ABI in
/// ../shared/abi, as `provider_tables_match_rdma_core_layouts` finds it).
static NEWEST_NAMES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
    let files = super::layout_files();
    let newest = files
        .iter()
        .find(|(abi, _)| *abi == pabi::NEWEST)
        .map(|(_, f)| f.as_str())
        .expect("a layout file of the newest provider ABI in ../shared/abi");
    ops_names(newest)
});

/// The slot of op `name` in the newest table.
pub(super) fn newest_at(name: &str) -> usize {
    NEWEST_NAMES
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("{name} is not in the newest table"))
}
