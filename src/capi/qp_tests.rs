//! The public QP and SRQ verbs over a context with test ops: what the library adds around the
//! provider (state bookkeeping, ECE and data-in-order rules, SRQ core fields) and what it
//! passes through untouched.

use core::ffi::c_int;
use core::mem::zeroed;
use core::ptr::null_mut;
use std::cell::Cell;

use crate::abi::ctype::CEnum;
use crate::abi::driver::{verbs_context_ops, verbs_context_pabi34, verbs_qp};
use crate::abi::verbs::*;
use crate::sys::{errno, set_errno};
use crate::verbs::ctxpriv::ContextPriv;

const SENTINEL: c_int = 12345;

thread_local! {
    static CALLS: Cell<u32> = const { Cell::new(0) };
    static RET: Cell<c_int> = const { Cell::new(0) };
}

fn called() -> u32 {
    CALLS.with(|c| c.replace(0))
}
fn bump() -> c_int {
    CALLS.with(|c| c.set(c.get() + 1));
    RET.with(Cell::get)
}

unsafe extern "C" fn modify_qp(_: *mut ibv_qp, _: *mut ibv_qp_attr, _: c_int) -> c_int {
    bump()
}
unsafe extern "C" fn query_qp(
    _: *mut ibv_qp,
    a: *mut ibv_qp_attr,
    _: c_int,
    _: *mut ibv_qp_init_attr,
) -> c_int {
    // SAFETY: the test's attribute struct.
    unsafe { (*a).qp_state = CEnum::new(ibv_qp_state::IBV_QPS_RTS as u32) };
    bump()
}
unsafe extern "C" fn set_ece(_: *mut ibv_qp, _: *mut ibv_ece) -> c_int {
    bump()
}
unsafe extern "C" fn in_order(_: *mut ibv_qp, _: u32, _: u32) -> c_int {
    bump()
}
unsafe extern "C" fn create_srq(_: *mut ibv_pd, _: *mut ibv_srq_init_attr) -> *mut ibv_srq {
    bump();
    // SAFETY: a zeroed SRQ from libc, freed by the test.
    unsafe { libc::calloc(1, size_of::<ibv_srq>()).cast() }
}

/// A context whose op table is the defaults plus the test ops above; freed on drop.
struct TestCtx(*mut verbs_context_pabi34);

impl TestCtx {
    fn new() -> Self {
        let mut ops: verbs_context_ops = crate::verbs::ops::DEFAULT_OPS;
        ops.modify_qp = Some(modify_qp);
        ops.query_qp = Some(query_qp);
        ops.set_ece = Some(set_ece);
        ops.query_qp_data_in_order = Some(in_order);
        ops.create_srq = Some(create_srq);
        // SAFETY: plain calloc, checked.
        let v = unsafe { libc::calloc(1, size_of::<verbs_context_pabi34>()) }
            .cast::<verbs_context_pabi34>();
        assert!(!v.is_null());
        let p = Box::new(ContextPriv::new(
            ops,
            crate::cmd::CmdState::new(0, false),
            false,
        ));
        // SAFETY: a live zeroed allocation.
        unsafe { (*v).r#priv = Box::into_raw(p).cast() };
        TestCtx(v)
    }
    fn ctx(&self) -> *mut ibv_context {
        // SAFETY: only an address inside the allocation.
        unsafe { &raw mut (*self.0).context }
    }
}

impl Drop for TestCtx {
    fn drop(&mut self) {
        // SAFETY: allocated in new(), unused afterwards.
        unsafe {
            drop(Box::from_raw((*self.0).r#priv.cast::<ContextPriv>()));
            libc::free(self.0.cast());
        }
    }
}

fn qp_on(c: &TestCtx) -> Box<verbs_qp> {
    // SAFETY: all-zero is a valid verbs_qp.
    let mut q: Box<verbs_qp> = Box::new(unsafe { zeroed() });
    q.anon_1.qp.context = c.ctx();
    q
}

fn qp_ptr(q: &mut verbs_qp) -> *mut ibv_qp {
    (q as *mut verbs_qp).cast()
}

#[test]
fn modify_and_query_keep_qp_state() {
    let c = TestCtx::new();
    let mut q = qp_on(&c);
    let qp = qp_ptr(&mut q);
    // SAFETY: all-zero is a valid attribute struct.
    let mut a: ibv_qp_attr = unsafe { zeroed() };
    a.qp_state = CEnum::new(ibv_qp_state::IBV_QPS_INIT as u32);
    // SAFETY: live test objects throughout.
    unsafe {
        RET.with(|r| r.set(0));
        assert_eq!(
            crate::capi::qp::ibv_modify_qp(qp, &mut a, ibv_qp_attr_mask::IBV_QP_PORT as c_int),
            0
        );
        assert_eq!(
            ((*qp).state.raw(), called()),
            (0, 1),
            "no STATE in the mask: untouched"
        );
        assert_eq!(
            crate::capi::qp::ibv_modify_qp(qp, &mut a, ibv_qp_attr_mask::IBV_QP_STATE as c_int),
            0
        );
        assert_eq!((*qp).state.raw(), 1);
        RET.with(|r| r.set(libc::EINVAL));
        a.qp_state = CEnum::new(ibv_qp_state::IBV_QPS_RTR as u32);
        set_errno(SENTINEL);
        assert_eq!(crate::capi::qp::ibv_modify_qp(qp, &mut a, 1), libc::EINVAL);
        assert_eq!(
            ((*qp).state.raw(), errno()),
            (1, SENTINEL),
            "a failure changes neither state nor errno"
        );

        // SAFETY: all-zero is a valid init attribute struct.
        let mut ia: ibv_qp_init_attr = zeroed();
        RET.with(|r| r.set(0));
        (*qp).state = CEnum::new(ibv_qp_state::IBV_QPS_SQE as u32);
        assert_eq!(
            crate::capi::qp::ibv_query_qp(
                qp,
                &mut a,
                ibv_qp_attr_mask::IBV_QP_PORT as c_int,
                &mut ia
            ),
            0
        );
        assert_eq!((*qp).state.raw(), ibv_qp_state::IBV_QPS_SQE as u32);
        assert_eq!(crate::capi::qp::ibv_query_qp(qp, &mut a, 1, &mut ia), 0);
        assert_eq!((*qp).state.raw(), ibv_qp_state::IBV_QPS_RTS as u32);
        called();

        set_errno(SENTINEL);
        assert_eq!(
            crate::capi::qp::ibv_modify_qp(null_mut(), &mut a, 1),
            libc::EINVAL
        );
        assert_eq!(errno(), libc::EINVAL);
        assert_eq!(
            crate::capi::qp::ibv_query_qp(qp, &mut a, 1, null_mut()),
            libc::EINVAL
        );
    }
}

#[test]
fn ece_and_data_in_order_rules() {
    let c = TestCtx::new();
    let mut q = qp_on(&c);
    let qp = qp_ptr(&mut q);
    let mut ece = ibv_ece {
        vendor_id: 0,
        options: 1,
        comp_mask: 0,
    };
    // SAFETY: live test objects throughout.
    unsafe {
        called();
        set_errno(SENTINEL);
        assert_eq!(crate::capi::qp::ibv_set_ece(qp, &mut ece), libc::EOPNOTSUPP);
        assert_eq!(
            (errno(), called()),
            (libc::EOPNOTSUPP, 0),
            "vendor 0: refused without the provider"
        );
        ece.vendor_id = 0x15b3;
        RET.with(|r| r.set(0));
        assert_eq!(
            (crate::capi::qp::ibv_set_ece(qp, &mut ece), called()),
            (0, 1)
        );
        // The default query_ece: EOPNOTSUPP, errno untouched.
        set_errno(SENTINEL);
        assert_eq!(
            (crate::capi::qp::ibv_query_ece(qp, &mut ece), errno()),
            (libc::EOPNOTSUPP, SENTINEL)
        );

        use ibv_query_qp_data_in_order_caps::*;
        RET.with(|r| r.set(IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG as c_int));
        assert_eq!(
            crate::capi::qp::ibv_query_qp_data_in_order(qp, CEnum::new(0), 0),
            1
        );
        assert_eq!(
            crate::capi::qp::ibv_query_qp_data_in_order(qp, CEnum::new(0), 1),
            3,
            "whole message implies 128-byte"
        );
        assert_eq!(called(), 2);
        assert_eq!(
            (
                crate::capi::qp::ibv_query_qp_data_in_order(qp, CEnum::new(0), 4),
                called()
            ),
            (0, 0),
            "unknown flags"
        );
        RET.with(|r| r.set(IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES as c_int));
        assert_eq!(
            crate::capi::qp::ibv_query_qp_data_in_order(qp, CEnum::new(0), 0),
            0
        );
        assert_eq!(
            crate::capi::qp::ibv_query_qp_data_in_order(qp, CEnum::new(0), 3),
            2
        );
        set_errno(SENTINEL);
        assert_eq!(
            (
                crate::capi::qp::ibv_query_qp_data_in_order(null_mut(), CEnum::new(0), 0),
                errno()
            ),
            (0, libc::EINVAL)
        );
    }
}

#[test]
fn qp_to_qp_ex_follows_the_mask() {
    let c = TestCtx::new();
    let mut q = qp_on(&c);
    let qp = qp_ptr(&mut q);
    // SAFETY: live test objects.
    unsafe {
        set_errno(SENTINEL);
        assert!(crate::capi::qp::ibv_qp_to_qp_ex(qp).is_null());
        assert_eq!(errno(), SENTINEL);
        q.comp_mask = crate::abi::driver::verbs_qp_mask::VERBS_QP_EX as u32;
        assert_eq!(crate::capi::qp::ibv_qp_to_qp_ex(qp).cast::<ibv_qp>(), qp);
        // A v45-v56 provider's struct: `wr_flush` (here set) at 352, comp_mask at 360.
        let words = qp.cast::<u8>();
        words.add(352).cast::<u64>().write(0x0000_7f00_1234_5670);
        words.add(360).cast::<u32>().write(0);
        assert!(crate::capi::qp::ibv_qp_to_qp_ex(qp).is_null());
        words
            .add(360)
            .cast::<u32>()
            .write(crate::abi::driver::verbs_qp_mask::VERBS_QP_EX as u32);
        assert_eq!(crate::capi::qp::ibv_qp_to_qp_ex(qp).cast::<ibv_qp>(), qp);
        words.add(352).cast::<u64>().write(0);
        assert_eq!(
            crate::capi::qp::ibv_qp_to_qp_ex(qp).cast::<ibv_qp>(),
            qp,
            "wr_flush NULL"
        );
        // A v44 XRC QP: comp_mask XRCD, the xrcd pointer's low half at 360 is not a mask.
        words
            .add(352)
            .cast::<u32>()
            .write(crate::abi::driver::verbs_qp_mask::VERBS_QP_XRCD as u32);
        words.add(360).cast::<u32>().write(0x5678_9abe);
        assert!(crate::capi::qp::ibv_qp_to_qp_ex(qp).is_null());
        assert!(crate::capi::qp::ibv_qp_to_qp_ex(null_mut()).is_null());
        assert_eq!(errno(), libc::EINVAL);
    }
}

#[test]
fn create_srq_sets_the_core_fields() {
    let c = TestCtx::new();
    let mut pd = ibv_pd {
        context: c.ctx(),
        handle: 1,
    };
    let mut a = ibv_srq_init_attr {
        srq_context: 0x99 as *mut _,
        attr: ibv_srq_attr {
            max_wr: 4,
            max_sge: 1,
            srq_limit: 0,
        },
    };
    // SAFETY: live test objects; the SRQ comes from the test op's calloc.
    unsafe {
        let srq = crate::capi::srq::ibv_create_srq(&mut pd, &mut a);
        assert!(!srq.is_null());
        assert_eq!(
            ((*srq).context, (*srq).pd, (*srq).srq_context as usize),
            (c.ctx(), &raw mut pd, 0x99)
        );
        assert_eq!(called(), 1);
        // The lock is usable.
        assert_eq!(libc::pthread_mutex_lock(&raw mut (*srq).mutex), 0);
        assert_eq!(libc::pthread_mutex_unlock(&raw mut (*srq).mutex), 0);
        libc::free(srq.cast());
        assert!(crate::capi::srq::ibv_create_srq(null_mut(), &mut a).is_null());
        assert_eq!(errno(), libc::EINVAL);
    }
}
