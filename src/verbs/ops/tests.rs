//! Tests of the default op table and of `set_ops`.

#![allow(clippy::multiple_unsafe_ops_per_block)] // test fixtures: one reason per fixture

use super::*;
use crate::abi::verbs::*;
use crate::sys::{errno, set_errno};
use core::ffi::c_int;
use core::mem::{offset_of, size_of};
use core::ptr::null_mut;

/// Number of ops in the newest table.
const NOPS: usize = pabi::OPS;

/// Bytes of guard before and after a test context, which no op installation may touch.
const GUARD: usize = 64;

/// A zeroed `verbs_context` of provider ABI `abi` (calloc'd like a provider's, with guard bytes
/// on both sides) whose priv is a fresh ContextPriv with the given table; freed on drop. `vctx`
/// is its common part, as the library sees it.
struct Ctx {
    abi: u32,
    base: *mut u8,
    vctx: *mut verbs_context_pabi34,
}

impl Ctx {
    fn new(abi: u32, ops: verbs_context_ops) -> Self {
        let len = GUARD + pabi::context_size(abi) + GUARD;
        // SAFETY: plain calloc; the result is checked.
        let base = unsafe { libc::calloc(1, len) }.cast::<u8>();
        assert!(!base.is_null());
        let vctx = crate::verbs::ctxpriv::view34(base.wrapping_add(GUARD).cast(), abi);
        let p = Box::new(ContextPriv::new(
            ops,
            crate::cmd::CmdState::new(0, false),
            false,
        ));
        // SAFETY: vctx is inside the live zeroed allocation.
        unsafe { (*vctx).r#priv = Box::into_raw(p).cast() };
        Ctx { abi, base, vctx }
    }
    fn table(&self) -> &verbs_context_ops {
        // SAFETY: priv is the ContextPriv set in new().
        unsafe { &(*(*self.vctx).r#priv.cast::<ContextPriv>()).ops }
    }
    fn v(&self) -> &verbs_context_pabi34 {
        // SAFETY: live allocation, only written through set_ops while no borrow is held.
        unsafe { &*self.vctx }
    }
    /// The common part of the verbs_context as pointer-sized words.
    fn words(&self) -> Vec<usize> {
        let n = size_of::<verbs_context_pabi34>() / size_of::<usize>();
        // SAFETY: the common part is n words long and usize-aligned.
        unsafe { core::slice::from_raw_parts(self.vctx.cast::<usize>(), n) }.to_vec()
    }
    /// The public op slots in front of the common part, newest first (as `pabi::FRONT_OPS`).
    fn front(&self) -> Vec<usize> {
        let n = pabi::front_bytes(self.abi) / size_of::<usize>();
        // SAFETY: the front slots precede the common part inside the allocation.
        unsafe { core::slice::from_raw_parts(self.base.add(GUARD).cast::<usize>(), n) }.to_vec()
    }
    /// The guard bytes, which must stay zero.
    fn guards_clean(&self) -> bool {
        let end = GUARD + pabi::context_size(self.abi);
        // SAFETY: both guards lie inside the allocation.
        let (a, b) = unsafe {
            (
                core::slice::from_raw_parts(self.base, GUARD),
                core::slice::from_raw_parts(self.base.add(end), GUARD),
            )
        };
        a.iter().chain(b).all(|&x| x == 0)
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: both were allocated in new() and are not used afterwards.
        unsafe {
            drop(Box::from_raw((*self.vctx).r#priv.cast::<ContextPriv>()));
            libc::free(self.base.cast());
        }
    }
}

fn slots(t: &verbs_context_ops) -> [usize; NOPS] {
    // SAFETY: the table is NOPS pointer-sized Option<fn> fields (checked in the test below);
    // None is 0.
    unsafe { core::mem::transmute_copy(t) }
}

fn addr<F: Copy>(f: Option<F>) -> usize {
    assert_eq!(size_of::<Option<F>>(), size_of::<usize>());
    // SAFETY: F is a function pointer type here (size checked); None reads as 0.
    unsafe { core::mem::transmute_copy(&f) }
}

fn empty() -> verbs_context_ops {
    // SAFETY: every field is an Option of a function pointer; all-zero is all None.
    unsafe { core::mem::zeroed() }
}

#[test]
fn table_has_a_pointer_slot_per_op_of_each_abi() {
    assert_eq!(size_of::<verbs_context_ops>(), NOPS * size_of::<usize>());
    // rdma-core's layouts up to v65's, one row each, in release order: (layout, ops in
    // verbs_context_ops, bytes of public ops in front of verbs_context). History, typed from the
    // releases; a later layout's op count is checked against its layout file in ../shared/abi by
    // provider_tables_match_rdma_core_layouts.
    let want: Vec<(u32, usize, usize)> = vec![
        (32, 73, 0),  // v34 (ABI 34)
        (33, 75, 0),  // v35 (ABI 34)
        (34, 76, 0),  // v36 to v53: 608 bytes
        (54, 76, 0),  // v54 to v56 (ABI 34, the same tables)
        (57, 76, 0),  // v57, v58
        (59, 79, 24), // v59 to v61: 3 ops more
        (62, 81, 32), // v62, v63 (still ABI 59): 2 more
        (64, 83, 48), // v64: 2 more
        (65, 93, 48), // v65: 10 more
    ];
    let got: Vec<(u32, usize, usize)> = pabi::LAYOUTS
        .iter()
        .filter(|&&a| a <= 65)
        .map(|&a| (a, pabi::op_count(a), pabi::front_bytes(a)))
        .collect();
    assert_eq!(got, want);
}

/// What a fresh context's private table holds: the defaults, except `async_event` (whose
/// default does nothing) and the ops later ABIs added, which stay empty (see `init_defaults`).
fn fresh_private() -> verbs_context_ops {
    let mut t = DEFAULT_OPS;
    t.async_event = None;
    let mut out = slots(&t);
    for (slot, since) in out.iter_mut().zip(pabi::OP_SINCE.iter()) {
        if *since > pabi::OLDEST {
            *slot = 0;
        }
    }
    // SAFETY: each slot is 0 or one of DEFAULT_OPS's function addresses.
    unsafe { core::mem::transmute::<[usize; NOPS], verbs_context_ops>(out) }
}

#[test]
fn init_defaults_fills_every_private_slot() {
    for &abi in &pabi::LAYOUTS {
        let c = Ctx::new(abi, empty());
        assert!(slots(c.table()).iter().all(|&s| s == 0));
        // SAFETY: c.vctx is a zeroed verbs_context of `abi` with a ContextPriv.
        unsafe { init_defaults(c.vctx, abi) };
        let got = slots(c.table());
        assert_eq!(
            got.iter().filter(|&&s| s == 0).count(),
            1 + NOPS - pabi::op_count(pabi::OLDEST),
            "a slot set_ops does not handle"
        );
        assert!(slots(&DEFAULT_OPS).iter().all(|&s| s != 0));
        assert_eq!(got, slots(&fresh_private()));
        assert!(c.table().cq_event.is_some() && c.table().async_event.is_none());
        assert!(c.guards_clean());
    }
}

#[test]
fn init_defaults_fills_exactly_the_public_slots() {
    for &abi in &pabi::LAYOUTS {
        let c = Ctx::new(abi, empty());
        // SAFETY: `c.vctx` is the fixture's live, writable verbs_context of `abi`'s layout.
        unsafe { init_defaults(c.vctx, abi) };
        let w = c.words();
        let word = size_of::<usize>();
        let ctx_start = offset_of!(verbs_context_pabi34, context) / word;
        let ops_start =
            (offset_of!(verbs_context_pabi34, context) + offset_of!(ibv_context, ops)) / word;
        let ops_end = ops_start + size_of::<ibv_context_ops>() / word;
        let priv_at = offset_of!(verbs_context_pabi34, r#priv) / word;
        // 39 same-name + 2 renamed + 22 compat = 63 public slots: 33 in verbs_context, 30 in ops.
        let vctx_set = (0..ctx_start)
            .filter(|&i| i != priv_at && w[i] != 0)
            .count();
        let ops_set = (ops_start..ops_end).filter(|&i| w[i] != 0).count();
        assert_eq!((vctx_set, ops_set), (33, 30));
        // Nothing else in ibv_context is touched, nor anything around the context.
        assert!(
            (ctx_start..ops_start)
                .chain(ops_end..w.len())
                .all(|i| w[i] == 0)
        );
        assert!(c.guards_clean());
        // The front slots this ABI has hold the defaults, newest first.
        let want: Vec<usize> = pabi::FRONT_OPS
            .iter()
            .filter(|(since, _)| *since <= abi)
            .map(|&(_, off)| {
                let newest = offset_of!(crate::abi::verbs::verbs_context, context)
                    - offset_of!(verbs_context_pabi34, context);
                // The default op of the same name sits in DEFAULT_OPS; find it by the slot.
                front_default(newest - off)
            })
            .collect();
        assert_eq!(c.front(), want, "provider ABI {abi}");
        let v = c.v();
        assert!(v.query_port.is_none() && v.create_cq_ex.is_none());
        assert!(v.ABI_placeholder1.is_none() && v.ABI_placeholder2.is_none());
        assert!(v.context.ops._compat_query_device.is_none());
        assert!(v.context.ops._compat_query_port.is_none());
        assert_eq!(addr(v.context.ops.post_send), addr(DEFAULT_OPS.post_send));
        assert_eq!(
            addr(v.context.ops._compat_alloc_pd),
            addr(DEFAULT_OPS.alloc_pd)
        );
        assert_eq!(addr(v.ibv_create_flow), addr(DEFAULT_OPS.create_flow));
        assert_eq!(addr(v.ibv_destroy_flow), addr(DEFAULT_OPS.destroy_flow));
        assert_eq!(addr(v.query_device_ex), addr(DEFAULT_OPS.query_device_ex));
    }
}

/// The default of the front op whose slot lies `back` bytes before the common part.
fn front_default(back: usize) -> usize {
    let d = &DEFAULT_OPS;
    match back {
        48 => addr(d.free_buf),
        40 => addr(d.alloc_buf),
        32 => addr(d.dm_export_dmabuf_fd),
        24 => addr(d.reg_mr_ex),
        16 => addr(d.dealloc_dmah),
        8 => addr(d.alloc_dmah),
        _ => panic!("no front op {back} bytes before the common part"),
    }
}

unsafe extern "C" fn p_post_send(
    _: *mut ibv_qp,
    _: *mut ibv_send_wr,
    _: *mut *mut ibv_send_wr,
) -> c_int {
    11
}
unsafe extern "C" fn p_alloc_pd(_: *mut ibv_context) -> *mut ibv_pd {
    0x1000 as *mut ibv_pd
}
unsafe extern "C" fn p_query_device_ex(
    _: *mut ibv_context,
    _: *const ibv_query_device_ex_input,
    _: *mut ibv_device_attr_ex,
    _: usize,
) -> c_int {
    22
}
unsafe extern "C" fn p_create_flow(_: *mut ibv_qp, _: *mut ibv_flow_attr) -> *mut ibv_flow {
    0x2000 as *mut ibv_flow
}
unsafe extern "C" fn p_query_ece(_: *mut ibv_qp, _: *mut ibv_ece) -> c_int {
    33
}
unsafe extern "C" fn p_post_send2(
    _: *mut ibv_qp,
    _: *mut ibv_send_wr,
    _: *mut *mut ibv_send_wr,
) -> c_int {
    44
}

#[test]
fn provider_ops_land_in_private_and_public_slots() {
    let c = Ctx::new(34, empty());
    // SAFETY: `c.vctx` is the fixture's live, writable verbs_context of ABI 34's layout.
    unsafe { init_defaults(c.vctx, 34) };
    let before = c.words();
    let mut p = empty();
    p.post_send = Some(p_post_send);
    p.alloc_pd = Some(p_alloc_pd);
    p.query_device_ex = Some(p_query_device_ex);
    p.create_flow = Some(p_create_flow);
    p.query_ece = Some(p_query_ece);
    // SAFETY: `c.vctx` is the fixture's live, writable verbs_context; `p` is a readable table.
    unsafe { set_ops_table(c.vctx, 34, &p) };

    let t = c.table();
    assert_eq!(addr(t.post_send), p_post_send as *const () as usize);
    assert_eq!(addr(t.alloc_pd), p_alloc_pd as *const () as usize);
    assert_eq!(
        addr(t.query_device_ex),
        p_query_device_ex as *const () as usize
    );
    assert_eq!(addr(t.create_flow), p_create_flow as *const () as usize);
    assert_eq!(addr(t.query_ece), p_query_ece as *const () as usize);
    // Slots the provider left NULL keep their defaults.
    let (got, dflt) = (slots(t), slots(&fresh_private()));
    assert_eq!(
        got.iter().zip(dflt.iter()).filter(|(a, b)| a != b).count(),
        5
    );

    let v = c.v();
    assert_eq!(
        addr(v.context.ops.post_send),
        p_post_send as *const () as usize
    );
    assert_eq!(
        addr(v.context.ops._compat_alloc_pd),
        p_alloc_pd as *const () as usize
    );
    assert_eq!(
        addr(v.query_device_ex),
        p_query_device_ex as *const () as usize
    );
    assert_eq!(addr(v.ibv_create_flow), p_create_flow as *const () as usize);
    // query_ece is private only: exactly four public words changed.
    let after = c.words();
    let changed: Vec<usize> = (0..after.len())
        .filter(|&i| after[i] != before[i])
        .collect();
    let word = size_of::<usize>();
    let ops_at = offset_of!(verbs_context_pabi34, context) + offset_of!(ibv_context, ops);
    let mut want = vec![
        (ops_at + offset_of!(ibv_context_ops, post_send)) / word,
        (ops_at + offset_of!(ibv_context_ops, _compat_alloc_pd)) / word,
        offset_of!(verbs_context_pabi34, query_device_ex) / word,
        offset_of!(verbs_context_pabi34, ibv_create_flow) / word,
    ];
    want.sort();
    assert_eq!(changed, want);

    // Calls through the table reach the provider.
    // SAFETY: the provider test ops ignore their arguments.
    unsafe {
        assert_eq!(t.post_send.unwrap()(null_mut(), null_mut(), null_mut()), 11);
        assert_eq!(t.alloc_pd.unwrap()(null_mut()) as usize, 0x1000);
        assert_eq!(t.query_ece.unwrap()(null_mut(), null_mut()), 33);
    }
}

#[test]
fn later_set_ops_override_only_given_slots() {
    let c = Ctx::new(34, empty());
    let mut p = empty();
    p.post_send = Some(p_post_send);
    p.alloc_pd = Some(p_alloc_pd);
    let mut q = empty();
    q.post_send = Some(p_post_send2);
    // SAFETY: `c.vctx` is the fixture's live, writable verbs_context; `p` and `q` are readable
    // tables.
    unsafe {
        init_defaults(c.vctx, 34);
        set_ops_table(c.vctx, 34, &p);
        set_ops_table(c.vctx, 34, &q);
    }
    assert_eq!(
        addr(c.table().post_send),
        p_post_send2 as *const () as usize
    );
    assert_eq!(
        addr(c.v().context.ops.post_send),
        p_post_send2 as *const () as usize
    );
    assert_eq!(addr(c.table().alloc_pd), p_alloc_pd as *const () as usize);
    assert_eq!(
        addr(c.v().context.ops._compat_alloc_pd),
        p_alloc_pd as *const () as usize
    );
}

#[test]
fn defaults_report_unsupported() {
    let d = &DEFAULT_OPS;
    let mut bad_send = 0x77 as *mut ibv_send_wr;
    let mut bad_recv = 0x88 as *mut ibv_recv_wr;
    // SAFETY: the defaults never dereference their arguments.
    unsafe {
        // Pointer ops: NULL and errno.
        set_errno(0);
        assert!(d.alloc_pd.unwrap()(null_mut()).is_null());
        assert_eq!(errno(), libc::EOPNOTSUPP);
        set_errno(0);
        assert!(d.reg_mr.unwrap()(null_mut(), null_mut(), 0, 0, 0).is_null());
        assert_eq!(errno(), libc::EOPNOTSUPP);
        set_errno(0);
        assert!(d.create_flow.unwrap()(null_mut(), null_mut()).is_null());
        assert_eq!(errno(), libc::EOPNOTSUPP);

        // Int ops: positive EOPNOTSUPP, errno and *bad_wr untouched.
        set_errno(0);
        assert_eq!(
            d.post_send.unwrap()(null_mut(), null_mut(), &mut bad_send),
            libc::EOPNOTSUPP
        );
        assert_eq!(
            d.post_recv.unwrap()(null_mut(), null_mut(), &mut bad_recv),
            libc::EOPNOTSUPP
        );
        assert_eq!(
            d.post_srq_recv.unwrap()(null_mut(), null_mut(), &mut bad_recv),
            libc::EOPNOTSUPP
        );
        assert_eq!(bad_send as usize, 0x77);
        assert_eq!(bad_recv as usize, 0x88);
        assert_eq!(
            d.poll_cq.unwrap()(null_mut(), 4, null_mut()),
            libc::EOPNOTSUPP
        );
        assert_eq!(d.req_notify_cq.unwrap()(null_mut(), 0), libc::EOPNOTSUPP);
        assert_eq!(
            d.query_device_ex.unwrap()(null_mut(), null_mut(), null_mut(), 0),
            libc::EOPNOTSUPP
        );
        assert_eq!(
            d.get_srq_num.unwrap()(null_mut(), null_mut()),
            libc::EOPNOTSUPP
        );
        assert_eq!(d.set_ece.unwrap()(null_mut(), null_mut()), libc::EOPNOTSUPP);
        assert_eq!(errno(), 0);

        // The odd ones.
        assert_eq!(d.query_qp_data_in_order.unwrap()(null_mut(), 0, 0), 0);
        assert_eq!(errno(), 0);
        assert_eq!(
            d.rereg_mr.unwrap()(null_mut(), 0, null_mut(), null_mut(), 0, 0),
            ibv_rereg_mr_err_code::IBV_REREG_MR_ERR_INPUT as c_int
        );
        assert_eq!(errno(), libc::EOPNOTSUPP);

        // Void ops: nothing happens.
        set_errno(0);
        d.free_context.unwrap()(null_mut());
        d.async_event.unwrap()(null_mut(), null_mut());
        d.cq_event.unwrap()(null_mut());
        d.unimport_pd.unwrap()(null_mut());
        d.unimport_mr.unwrap()(null_mut());
        d.unimport_dm.unwrap()(null_mut());
        assert_eq!(errno(), 0);
    }
}

unsafe extern "C" fn p_reg_mr_ex(_: *mut ibv_pd, _: *mut ibv_mr_init_attr) -> *mut ibv_mr {
    0x3000 as *mut ibv_mr
}
unsafe extern "C" fn p_free_buf(_: *mut ibv_buf) {}
unsafe extern "C" fn p_read_comp_cntr(_: *mut ibv_comp_cntr, _: *mut u64) -> c_int {
    55
}

/// The ops later ABIs added go to the private table, and to the public slots in front of the
/// context where the context's ABI has them; never outside the context.
#[test]
fn newer_ops_land_in_front_slots_the_abi_has() {
    for &abi in &pabi::LAYOUTS {
        let c = Ctx::new(abi, empty());
        let mut p = empty();
        p.reg_mr_ex = Some(p_reg_mr_ex);
        p.free_buf = Some(p_free_buf);
        p.read_comp_cntr = Some(p_read_comp_cntr);
        // SAFETY: `c.vctx` is the fixture's live, writable verbs_context of `abi`'s layout; `p` is
        // a readable table.
        unsafe {
            init_defaults(c.vctx, abi);
            set_ops_table(c.vctx, abi, &p);
        }
        assert_eq!(addr(c.table().reg_mr_ex), p_reg_mr_ex as *const () as usize);
        assert_eq!(addr(c.table().free_buf), p_free_buf as *const () as usize);
        assert_eq!(
            addr(c.table().read_comp_cntr),
            p_read_comp_cntr as *const () as usize
        );
        let f = c.front();
        let has = |back: usize| f.len() * size_of::<usize>() >= back;
        // reg_mr_ex 24 bytes before the common part (ABI 59 on), free_buf 48 (ABI 64 on).
        if has(24) {
            assert_eq!(
                f[f.len() - 3],
                p_reg_mr_ex as *const () as usize,
                "ABI {abi}"
            );
        }
        if has(48) {
            assert_eq!(f[0], p_free_buf as *const () as usize, "ABI {abi}");
        }
        assert_eq!(has(24), abi >= 59);
        assert_eq!(has(48), abi >= 64);
        assert!(c.guards_clean(), "ABI {abi}: wrote outside the context");
    }
}

/// A provider's table of each ABI (its ops in order, `pabi::op_count` of them) is read into
/// the newest layout slot by slot; the ops its ABI lacks stay empty, and nothing past its end
/// is read (the table is followed by a poison word).
#[test]
fn provider_tables_of_each_abi_read_into_the_newest_layout() {
    for &abi in &pabi::LAYOUTS {
        let n = pabi::op_count(abi);
        let mut table: Vec<usize> = (0..n).map(|j| 0x1000 + j).collect();
        table.push(usize::MAX);
        // SAFETY: a table of n readable slots (values never called).
        let full = unsafe { provider_table(abi, table.as_ptr().cast()) };
        let got = slots(&full);
        let mut j = 0;
        for (i, &since) in pabi::OP_SINCE.iter().enumerate() {
            if since <= abi {
                assert_eq!(got[i], 0x1000 + j, "ABI {abi} slot {i}");
                j += 1;
            } else {
                assert_eq!(got[i], 0, "ABI {abi} slot {i} is not in its table");
            }
        }
        assert_eq!(j, n);
        assert!(!got.contains(&usize::MAX));
    }
}

/// The slot layout of each provider ABI's table, against rdma-core's own (every layout file
/// `layouts-v<release>-pabi<N>.tsv` of ../shared/abi): the op at each of its offsets lands in the
/// newest slot of the same name.
#[test]
fn provider_tables_match_rdma_core_layouts() {
    if shared_abi().is_none() {
        return;
    }
    let files = layout_files();
    let newest_file = files
        .iter()
        .find(|(abi, _)| *abi == pabi::NEWEST)
        .map(|(_, f)| f.as_str())
        .expect("a layout file of the newest provider ABI in ../shared/abi");
    let newest: std::collections::BTreeMap<String, usize> =
        ops_rows(newest_file).into_iter().collect();
    assert_eq!(newest.len(), NOPS);
    for (abi, file) in &files {
        let (abi, file) = (*abi, file.as_str());
        let rows = ops_rows(file);
        assert_eq!(rows.len(), pabi::op_count(abi), "{file}");
        let mut table = vec![0usize; rows.len()];
        for (name, off) in &rows {
            table[off / size_of::<usize>()] = 1 + newest[name];
        }
        // SAFETY: a table of the ABI's size (values never called).
        let got = slots(&unsafe { provider_table(abi, table.as_ptr().cast()) });
        for (name, _) in &rows {
            let at = newest[name] / size_of::<usize>();
            assert_eq!(got[at], 1 + newest[name], "{file}: {name}");
        }
    }
}

/// ../shared/abi (or `$IBVERBS_RS_SHARED/abi`), the ABI facts; None, with one line saying the
/// test is skipped, when it is missing (tests/common/shared.rs does the same for tests/).
fn shared_abi() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("IBVERBS_RS_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared").into())
        .join("abi");
    if dir.is_dir() {
        return Some(dir);
    }
    eprintln!(
        "skipped: {} is missing (README, \"Set up and run\")",
        dir.display()
    );
    None
}

/// ../shared/abi's layout files, `layouts-v<release>-pabi<N>.tsv`, as (N, file name), sorted.
fn layout_files() -> Vec<(u32, String)> {
    let dir = shared_abi().expect("checked by the caller");
    let mut out: Vec<(u32, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_prefix("layouts-v")?.strip_suffix(".tsv")?;
            let abi = stem.rsplit_once("-pabi")?.1.parse().ok()?;
            Some((abi, name))
        })
        .collect();
    out.sort();
    out
}

/// The members of `struct verbs_context_ops` in one of ../shared/abi's layout files, with their
/// byte offsets, in slot order.
fn ops_rows(file: &str) -> Vec<(String, usize)> {
    let path = shared_abi().expect("checked by the caller").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut rows: Vec<(String, usize)> = text
        .lines()
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c.len() == 5 && c[0] == "struct verbs_context_ops" && !c[1].is_empty())
                .then(|| (c[1].to_string(), c[2].parse().unwrap()))
        })
        .collect();
    rows.sort_by_key(|r| r.1);
    rows
}

/// The op names of [`ops_rows`], in slot order.
fn ops_names(file: &str) -> Vec<String> {
    ops_rows(file).into_iter().map(|r| r.0).collect()
}

#[path = "tests_layout62.rs"]
mod layout62;
#[path = "tests_layout_v34.rs"]
mod layout_v34;
