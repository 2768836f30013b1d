//! Tests of the default op table and of `set_ops`.

#![allow(clippy::multiple_unsafe_ops_per_block)] // test fixtures: one reason per fixture

use super::*;
use crate::abi::verbs::*;
use crate::sys::{errno, set_errno};
use core::ffi::c_int;
use core::mem::{offset_of, size_of};
use core::ptr::null_mut;

/// Number of ops in the PABI-34 table (608 bytes of function pointers).
const NOPS: usize = 76;

/// A zeroed PABI-34 verbs_context (calloc'd like a provider's) whose priv is a fresh ContextPriv
/// with the given table; freed on drop.
struct Ctx {
    vctx: *mut verbs_context_pabi34,
}

impl Ctx {
    fn new(ops: verbs_context_ops) -> Self {
        // SAFETY: plain calloc; the result is checked.
        let vctx = unsafe { libc::calloc(1, size_of::<verbs_context_pabi34>()) }
            .cast::<verbs_context_pabi34>();
        assert!(!vctx.is_null());
        let p = Box::new(ContextPriv::new(
            ops,
            crate::cmd::CmdState::new(0, false),
            false,
        ));
        // SAFETY: vctx is a live zeroed allocation.
        unsafe { (*vctx).r#priv = Box::into_raw(p).cast() };
        Ctx { vctx }
    }
    fn table(&self) -> &verbs_context_ops {
        // SAFETY: priv is the ContextPriv set in new().
        unsafe { &(*(*self.vctx).r#priv.cast::<ContextPriv>()).ops }
    }
    fn v(&self) -> &verbs_context_pabi34 {
        // SAFETY: live allocation, only written through set_ops while no borrow is held.
        unsafe { &*self.vctx }
    }
    /// The verbs_context as pointer-sized words.
    fn words(&self) -> Vec<usize> {
        let n = size_of::<verbs_context_pabi34>() / size_of::<usize>();
        // SAFETY: the allocation is n words long and usize-aligned.
        unsafe { core::slice::from_raw_parts(self.vctx.cast::<usize>(), n) }.to_vec()
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: both were allocated in new() and are not used afterwards.
        unsafe {
            drop(Box::from_raw((*self.vctx).r#priv.cast::<ContextPriv>()));
            libc::free(self.vctx.cast());
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
fn table_has_76_pointer_slots() {
    assert_eq!(size_of::<verbs_context_ops>(), NOPS * size_of::<usize>());
    assert_eq!(size_of::<verbs_context_ops>(), 608);
}

/// What a fresh context's private table holds: the defaults, except the two event
/// notifications whose defaults do nothing, which stay empty (see `init_defaults`).
fn fresh_private() -> verbs_context_ops {
    let mut t = DEFAULT_OPS;
    t.cq_event = None;
    t.async_event = None;
    t
}

#[test]
fn init_defaults_fills_every_private_slot() {
    let c = Ctx::new(empty());
    assert!(slots(c.table()).iter().all(|&s| s == 0));
    // SAFETY: c.vctx is a zeroed verbs_context with a ContextPriv.
    unsafe { init_defaults(c.vctx) };
    let got = slots(c.table());
    assert_eq!(
        got.iter().filter(|&&s| s == 0).count(),
        2,
        "a slot set_ops does not handle"
    );
    assert!(slots(&DEFAULT_OPS).iter().all(|&s| s != 0));
    assert_eq!(got, slots(&fresh_private()));
    assert!(c.table().cq_event.is_none() && c.table().async_event.is_none());
}

#[test]
fn init_defaults_fills_exactly_the_public_slots() {
    let c = Ctx::new(empty());
    // SAFETY: as above.
    unsafe { init_defaults(c.vctx) };
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
    // Nothing else in ibv_context is touched.
    assert!(
        (ctx_start..ops_start)
            .chain(ops_end..w.len())
            .all(|i| w[i] == 0)
    );
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
    let c = Ctx::new(empty());
    // SAFETY: as above.
    unsafe { init_defaults(c.vctx) };
    let before = c.words();
    let mut p = empty();
    p.post_send = Some(p_post_send);
    p.alloc_pd = Some(p_alloc_pd);
    p.query_device_ex = Some(p_query_device_ex);
    p.create_flow = Some(p_create_flow);
    p.query_ece = Some(p_query_ece);
    // SAFETY: as above; p is a readable table.
    unsafe { set_ops(c.vctx, &p) };

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
    let c = Ctx::new(empty());
    let mut p = empty();
    p.post_send = Some(p_post_send);
    p.alloc_pd = Some(p_alloc_pd);
    let mut q = empty();
    q.post_send = Some(p_post_send2);
    // SAFETY: as above.
    unsafe {
        init_defaults(c.vctx);
        set_ops(c.vctx, &p);
        set_ops(c.vctx, &q);
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
