//! Tests of rdma-core v34's and v35's layouts of provider ABI 34 (`pabi::LAYOUT_V34`,
//! `pabi::LAYOUT_V35`): their tables read op by op, and `verbs_set_ops` of node 34 on a context
//! recorded as one of them.

#![allow(clippy::multiple_unsafe_ops_per_block)] // test fixtures: one reason per fixture

use super::*;

/// v35's table is v36's without query_qp_data_in_order (its index 62), v34's also without
/// import_dm (42) and unimport_dm (73): a provider table of each lands op by op in the newest
/// slots of the same names (driver.h of v34.0 and v35.0).
#[test]
fn tables_of_v34_and_v35() {
    if super::shared_abi().is_none() {
        return;
    }
    // rdma-core v56's table (the ABI's own layout, v36 to v56) in slot order.
    let v56 = ops_names("layouts-v56.0-pabi34.tsv");
    assert_eq!(v56.len(), 76);
    assert_eq!(
        (v56[42].as_str(), v56[62].as_str(), v56[73].as_str()),
        ("import_dm", "query_qp_data_in_order", "unimport_dm")
    );
    let without = |drop: &[&str]| -> Vec<String> {
        v56.iter()
            .filter(|n| !drop.contains(&n.as_str()))
            .cloned()
            .collect()
    };
    let v35 = without(&["query_qp_data_in_order"]);
    let v34 = without(&["query_qp_data_in_order", "import_dm", "unimport_dm"]);
    for (layout, names) in [(pabi::LAYOUT_V35, &v35), (pabi::LAYOUT_V34, &v34)] {
        assert_eq!(pabi::op_count(layout), names.len());
        assert_eq!(pabi::node_of(layout), 34);
        let mut table: Vec<usize> = (0..names.len()).map(|j| 0x1000 + j).collect();
        table.push(usize::MAX);
        // SAFETY: a table of the layout's size (values never called).
        let got = slots(&unsafe { provider_table(layout, table.as_ptr().cast()) });
        for (j, name) in names.iter().enumerate() {
            let at = super::layout62::newest_at(name);
            assert_eq!(got[at], 0x1000 + j, "layout {layout}: {name}");
        }
        assert_eq!(got.iter().filter(|&&v| v != 0).count(), names.len());
    }
}

/// `verbs_set_ops` of node 34 on a context recorded as v35's (and v34's) layout reads the
/// provider's table in that layout: the ops after the missing ones land in their own slots.
#[test]
fn set_ops_of_node_34_on_v34_and_v35_contexts() {
    for layout in [pabi::LAYOUT_V35, pabi::LAYOUT_V34] {
        let c = Ctx::new(layout, empty());
        // SAFETY: as in the tests above.
        unsafe { init_defaults(c.vctx, layout) };
        let start = c.base.wrapping_add(GUARD).cast::<core::ffi::c_void>();
        crate::verbs::ctxlayout::record(start, layout).unwrap();
        let mut p = empty();
        p.post_send = Some(p_post_send);
        p.req_notify_cq = Some(p_req_notify);
        p.reg_mr = Some(p_reg_mr);
        // The provider's own table, in its layout.
        let own: Vec<usize> = slots(&p)
            .iter()
            .enumerate()
            .filter(|&(i, _)| pabi::slot_in(layout, i).is_some())
            .map(|(_, &v)| v)
            .collect();
        assert_eq!(own.len(), pabi::op_count(layout));
        verbs_set_ops::<34>(start, own.as_ptr().cast());
        let t = c.table();
        assert_eq!(addr(t.post_send), p_post_send as *const () as usize);
        assert_eq!(addr(t.req_notify_cq), p_req_notify as *const () as usize);
        assert_eq!(addr(t.reg_mr), p_reg_mr as *const () as usize);
        assert_eq!(
            addr(c.v().context.ops.req_notify_cq),
            p_req_notify as *const () as usize
        );
        // An op the layout lacks keeps its default.
        assert_eq!(
            addr(t.query_qp_data_in_order),
            addr(DEFAULT_OPS.query_qp_data_in_order)
        );
        assert!(c.guards_clean());
        crate::verbs::ctxlayout::forget(start);
    }
}

unsafe extern "C" fn p_req_notify(_: *mut ibv_cq, _: c_int) -> c_int {
    9
}
unsafe extern "C" fn p_reg_mr(
    _: *mut ibv_pd,
    _: *mut core::ffi::c_void,
    _: usize,
    _: u64,
    _: c_int,
) -> *mut ibv_mr {
    null_mut()
}
