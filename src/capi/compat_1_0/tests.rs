//! The 1.0 layer without a kernel: NULL arguments (rdma-core crashes on them, so the behaviour
//! diffs cannot try them) and the data-path translation against fake provider ops.
use core::ffi::c_int;
use core::ptr::{NonNull, null_mut};
use std::cell::RefCell;

use super::objects;
use super::*;
use crate::abi::compat_1_0::*;
use crate::abi::ctype::CEnum;
use crate::abi::verbs::{
    ibv_ah, ibv_context, ibv_cq, ibv_qp, ibv_qp_type, ibv_recv_wr, ibv_send_wr, ibv_sge, ibv_srq,
    ibv_wc, ibv_wr_opcode,
};
use crate::sys;
use crate::verbs::compat_1_0::datapath;

fn with_errno<T>(f: impl FnOnce() -> T) -> (T, i32) {
    sys::set_errno(12345);
    let r = f();
    (r, sys::errno())
}

#[test]
fn device_and_context_verbs_reject_null() {
    // SAFETY: every call takes NULL (our divergence from rdma-core).
    unsafe {
        ibv_free_device_list_1_0(null_mut());
        let (name, e) = with_errno(|| ibv_get_device_name_1_0(null_mut()));
        assert!(name.is_null());
        assert_eq!(e, libc::EINVAL);
        let (guid, e) = with_errno(|| ibv_get_device_guid_1_0(null_mut()));
        assert_eq!((guid, e), (0, libc::EINVAL));
        let (ctx, e) = with_errno(|| ibv_open_device_1_0(null_mut()));
        assert!(ctx.is_null());
        assert_eq!(e, libc::EINVAL);
        assert_eq!(
            with_errno(|| ibv_close_device_1_0(null_mut())),
            (-1, libc::EINVAL)
        );
        assert_eq!(ibv_query_device_1_0(null_mut(), null_mut()), libc::EINVAL);
        assert_eq!(ibv_query_port_1_0(null_mut(), 1, null_mut()), libc::EINVAL);
        assert_eq!(ibv_query_gid_1_0(null_mut(), 1, 0, null_mut()), -1);
        assert_eq!(ibv_query_pkey_1_0(null_mut(), 1, 0, null_mut()), -1);
        assert_ne!(ibv_get_async_event_1_0(null_mut(), null_mut()), 0);
        ibv_ack_async_event_1_0(null_mut());
    }
}

#[test]
fn object_verbs_reject_null() {
    // SAFETY: NULL is the input under test, and every export checks it before any dereference. The
    // 1.1 exports reject the NULL real object (EINVAL once implemented).
    unsafe {
        let (pd, e) = with_errno(|| objects::ibv_alloc_pd_1_0(null_mut()));
        assert!(pd.is_null());
        assert_ne!(e, 12345);
        assert_ne!(objects::ibv_dealloc_pd_1_0(null_mut()), 0);
        let (qp, e) = with_errno(|| objects::ibv_create_qp_1_0(null_mut(), null_mut()));
        assert!(qp.is_null());
        assert_eq!(e, libc::EINVAL);
        let mut attr: crate::abi::verbs::ibv_qp_attr = core::mem::zeroed();
        assert_eq!(
            objects::ibv_query_qp_1_0(null_mut(), &mut attr, 0, null_mut()),
            libc::EINVAL
        );
        let (r, e) =
            with_errno(|| objects::ibv_get_cq_event_1_0(null_mut(), null_mut(), null_mut()));
        assert_eq!((r, e), (-1, libc::EINVAL));
        objects::ibv_ack_cq_events_1_0(null_mut(), 1);
    }
}

#[test]
fn data_path_rejects_null_objects() {
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut wc: ibv_wc = unsafe { core::mem::zeroed() };
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut swr: ibv_send_wr_1_0 = unsafe { core::mem::zeroed() };
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut rwr: ibv_recv_wr_1_0 = unsafe { core::mem::zeroed() };
    let (mut sbad, mut rbad) = (null_mut(), null_mut());
    // SAFETY: NULL objects are rejected before anything is read.
    unsafe {
        assert_eq!(
            with_errno(|| datapath::poll_cq(null_mut(), 1, &mut wc)),
            (-1, libc::EINVAL)
        );
        assert_eq!(datapath::req_notify_cq(null_mut(), 0), libc::EINVAL);
        assert_eq!(
            datapath::post_send(null_mut(), &mut swr, &mut sbad),
            libc::EINVAL
        );
        assert_eq!(sbad, &raw mut swr);
        assert_eq!(
            datapath::post_recv(null_mut(), &mut rwr, &mut rbad),
            libc::EINVAL
        );
        assert_eq!(rbad, &raw mut rwr);
        rbad = null_mut();
        assert_eq!(
            datapath::post_srq_recv(null_mut(), &mut rwr, &mut rbad),
            libc::EINVAL
        );
        assert_eq!(rbad, &raw mut rwr);
        assert_eq!(
            datapath::post_send(null_mut(), &mut swr, null_mut()),
            libc::EINVAL
        );
    }
}

/// What a fake provider op saw of one send request.
#[derive(Debug, PartialEq)]
struct SeenSend {
    wr_id: u64,
    opcode: u32,
    send_flags: u32,
    imm: u32,
    remote_addr: u64,
    rkey: u32,
    ah: usize,
    remote_qpn: u32,
    remote_qkey: u32,
    srqn: u32,
}

thread_local! {
    static SENDS: RefCell<Vec<SeenSend>> = const { RefCell::new(Vec::new()) };
    static RECVS: RefCell<Vec<(u64, usize, c_int)>> = const { RefCell::new(Vec::new()) };
}

/// The fake ops refuse the request with this wr_id (and post the ones before it).
const REFUSED: u64 = 99;

unsafe extern "C" fn fake_post_send(
    qp: *mut ibv_qp,
    mut wr: *mut ibv_send_wr,
    bad: *mut *mut ibv_send_wr,
) -> c_int {
    // SAFETY: the QP the test made, alive for the call.
    let ud = unsafe { (*qp).qp_type }.raw() == ibv_qp_type::IBV_QPT_UD as u32;
    while let Some(w) = NonNull::new(wr) {
        // SAFETY: the WR list the test built: NULL or a live WR.
        let w = unsafe { w.as_ref() };
        if w.wr_id == REFUSED {
            // SAFETY: the caller's bad_wr out-pointer.
            unsafe { *bad = wr };
            return libc::EINVAL;
        }
        // SAFETY: a union of plain integers: every bit pattern is valid.
        let u = unsafe { w.wr.ud };
        // SAFETY: the same union of plain integers: every bit pattern is valid.
        let a = unsafe { w.wr.rdma };
        SENDS.with_borrow_mut(|s| {
            s.push(SeenSend {
                wr_id: w.wr_id,
                opcode: w.opcode.raw(),
                send_flags: w.send_flags,
                // SAFETY: a union of plain integers: every bit pattern is valid.
                imm: unsafe { w.anon_1.imm_data }.0,
                remote_addr: if ud { 0 } else { a.remote_addr },
                rkey: if ud { 0 } else { a.rkey },
                ah: if ud { u.ah as usize } else { 0 },
                remote_qpn: if ud { u.remote_qpn } else { 0 },
                remote_qkey: if ud { u.remote_qkey } else { 0 },
                // SAFETY: a union of plain integers: every bit pattern is valid.
                srqn: unsafe { w.qp_type.xrc.remote_srqn },
            })
        });
        wr = w.next;
    }
    0
}

unsafe extern "C" fn fake_post_recv(
    _qp: *mut ibv_qp,
    mut wr: *mut ibv_recv_wr,
    bad: *mut *mut ibv_recv_wr,
) -> c_int {
    while let Some(w) = NonNull::new(wr) {
        // SAFETY: the WR list the test built: NULL or a live WR.
        let w = unsafe { w.as_ref() };
        if w.wr_id == REFUSED {
            // SAFETY: the caller's bad_wr out-pointer.
            unsafe { *bad = wr };
            return libc::ENOMEM;
        }
        RECVS.with_borrow_mut(|r| r.push((w.wr_id, w.sg_list as usize, w.num_sge)));
        wr = w.next;
    }
    0
}

unsafe extern "C" fn fake_post_srq_recv(
    srq: *mut ibv_srq,
    wr: *mut ibv_recv_wr,
    bad: *mut *mut ibv_recv_wr,
) -> c_int {
    // SAFETY: forwarded: the same contract as this fake op.
    unsafe { fake_post_recv(srq.cast(), wr, bad) }
}

unsafe extern "C" fn fake_poll_cq(cq: *mut ibv_cq, n: c_int, wc: *mut ibv_wc) -> c_int {
    // SAFETY: the CQ and work completion the test passed, both live.
    unsafe { (*wc).wr_id = (*cq).handle as u64 };
    n.min(1)
}

/// A fake real context with the data-path ops, a real QP/SRQ/CQ on it, and their 1.0 wrappers.
struct Fake {
    ctx: Box<ibv_context>,
    qp: Box<ibv_qp>,
    srq: Box<ibv_srq>,
    cq: Box<ibv_cq>,
    qp10: Box<ibv_qp_1_0>,
    srq10: Box<ibv_srq_1_0>,
    cq10: Box<ibv_cq_1_0>,
}

fn fake(qp_type: ibv_qp_type) -> Fake {
    fn z<T>() -> Box<T> {
        // SAFETY: only used for all-zero-valid C structs.
        Box::new(unsafe { core::mem::zeroed() })
    }
    let mut f = Fake {
        ctx: z(),
        qp: z(),
        srq: z(),
        cq: z(),
        qp10: z(),
        srq10: z(),
        cq10: z(),
    };
    f.ctx.ops.post_send = Some(fake_post_send);
    f.ctx.ops.post_recv = Some(fake_post_recv);
    f.ctx.ops.post_srq_recv = Some(fake_post_srq_recv);
    f.ctx.ops.poll_cq = Some(fake_poll_cq);
    f.qp.context = &mut *f.ctx;
    f.qp.qp_type = CEnum::new(qp_type as u32);
    f.srq.context = &mut *f.ctx;
    f.cq.context = &mut *f.ctx;
    f.cq.handle = 7;
    f.qp10.real_qp = &mut *f.qp;
    f.qp10.qp_type = qp_type as u32;
    f.srq10.real_srq = &mut *f.srq;
    f.cq10.real_cq = &mut *f.cq;
    SENDS.with_borrow_mut(Vec::clear);
    RECVS.with_borrow_mut(Vec::clear);
    f
}

fn send_chain(n: usize) -> Vec<ibv_send_wr_1_0> {
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut v: Vec<ibv_send_wr_1_0> = (0..n).map(|_| unsafe { core::mem::zeroed() }).collect();
    let base = v.as_mut_ptr();
    for (i, w) in v.iter_mut().enumerate() {
        w.next = if i + 1 < n {
            // SAFETY: i + 1 < n: inside the vector.
            unsafe { base.add(i + 1) }
        } else {
            null_mut()
        };
        w.wr_id = i as u64 + 1;
        w.num_sge = 1;
        w.opcode = ibv_wr_opcode::IBV_WR_RDMA_WRITE_WITH_IMM as u32;
        w.send_flags = 2;
        w.imm_data = 0x1234_5678 + i as u32;
        w.wr.rdma = ibv_send_wr_1_0_wr_rdma {
            remote_addr: 0x1000 * (i as u64 + 1),
            rkey: 40 + i as u32,
        };
    }
    v
}

#[test]
fn post_send_translates_rc_requests() {
    let mut f = fake(ibv_qp_type::IBV_QPT_RC);
    // More than the inline scratch, so the heap path runs too.
    for n in [1usize, 3, 40] {
        SENDS.with_borrow_mut(Vec::clear);
        let mut c = send_chain(n);
        let mut bad = null_mut();
        // SAFETY: a wrapper over the fake QP and a well-formed chain.
        let r = unsafe { datapath::post_send(&mut *f.qp10, c.as_mut_ptr(), &mut bad) };
        assert_eq!(r, 0);
        assert!(bad.is_null());
        SENDS.with_borrow(|s| {
            assert_eq!(s.len(), n);
            for (i, seen) in s.iter().enumerate() {
                let expect = SeenSend {
                    wr_id: i as u64 + 1,
                    opcode: ibv_wr_opcode::IBV_WR_RDMA_WRITE_WITH_IMM as u32,
                    send_flags: 2,
                    imm: 0x1234_5678 + i as u32,
                    remote_addr: 0x1000 * (i as u64 + 1),
                    rkey: 40 + i as u32,
                    ah: 0,
                    remote_qpn: 0,
                    remote_qkey: 0,
                    srqn: 0,
                };
                assert_eq!(*seen, expect);
            }
        });
    }
}

#[test]
fn post_send_maps_the_refused_request_back() {
    let mut f = fake(ibv_qp_type::IBV_QPT_RC);
    for n in [4usize, 30] {
        let mut c = send_chain(n);
        c[2].wr_id = REFUSED;
        let mut bad = null_mut();
        // SAFETY: the fixture's live 1.0 QP; `c` is a WR chain linked inside its own array, alive
        // for the call.
        let r = unsafe { datapath::post_send(&mut *f.qp10, c.as_mut_ptr(), &mut bad) };
        assert_eq!(r, libc::EINVAL);
        assert_eq!(bad, &raw mut c[2]);
    }
}

#[test]
fn post_send_swaps_the_ud_ah_and_stops_at_a_missing_one() {
    let mut f = fake(ibv_qp_type::IBV_QPT_UD);
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut real_ah: ibv_ah = unsafe { core::mem::zeroed() };
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut ah10: ibv_ah_1_0 = unsafe { core::mem::zeroed() };
    ah10.real_ah = &mut real_ah;
    let mut c = send_chain(3);
    for w in &mut c {
        w.wr.ud = ibv_send_wr_1_0_wr_ud {
            ah: &mut ah10,
            remote_qpn: 0x42,
            remote_qkey: 0x1111,
        };
    }
    let mut bad = null_mut();
    assert_eq!(
        // SAFETY: the fixture's live 1.0 QP and the relinked chain `c`, alive for the call.
        unsafe { datapath::post_send(&mut *f.qp10, c.as_mut_ptr(), &mut bad) },
        0
    );
    SENDS.with_borrow(|s| {
        assert_eq!(s.len(), 3);
        assert!(s.iter().all(|x| x.ah == &raw mut real_ah as usize));
        assert!(
            s.iter()
                .all(|x| x.remote_qpn == 0x42 && x.remote_qkey == 0x1111)
        );
    });

    // A request without an AH: the ones before it are posted, then EINVAL at it.
    SENDS.with_borrow_mut(Vec::clear);
    c[1].wr.ud.ah = null_mut();
    // SAFETY: the fixture's live 1.0 QP; `c` is linked inside its array, its second WR without an
    // AH on purpose.
    let r = unsafe { datapath::post_send(&mut *f.qp10, c.as_mut_ptr(), &mut bad) };
    assert_eq!(r, libc::EINVAL);
    assert_eq!(bad, &raw mut c[1]);
    SENDS.with_borrow(|s| assert_eq!(s.iter().map(|x| x.wr_id).collect::<Vec<_>>(), [1]));

    // ... and at the head: nothing is posted.
    SENDS.with_borrow_mut(Vec::clear);
    c[0].wr.ud.ah = null_mut();
    // SAFETY: the fixture's live 1.0 QP; `c` is linked inside its array, its first WR without an AH
    // on purpose.
    let r = unsafe { datapath::post_send(&mut *f.qp10, c.as_mut_ptr(), &mut bad) };
    assert_eq!((r, bad), (libc::EINVAL, &raw mut c[0]));
    SENDS.with_borrow(|s| assert!(s.is_empty()));
}

#[test]
fn post_recv_and_srq_recv_translate_and_map_back() {
    let mut f = fake(ibv_qp_type::IBV_QPT_RC);
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut sge: ibv_sge = unsafe { core::mem::zeroed() };
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut c: Vec<ibv_recv_wr_1_0> = (0..20).map(|_| unsafe { core::mem::zeroed() }).collect();
    let base = c.as_mut_ptr();
    for (i, w) in c.iter_mut().enumerate() {
        w.next = if i + 1 < 20 {
            // SAFETY: i + 1 < 20: inside the vector.
            unsafe { base.add(i + 1) }
        } else {
            null_mut()
        };
        w.wr_id = 500 + i as u64;
        w.sg_list = &mut sge;
        w.num_sge = 1 + i as c_int;
    }
    let mut bad = null_mut();
    // SAFETY: wrappers over the fake QP/SRQ and a well-formed chain.
    unsafe {
        assert_eq!(
            datapath::post_recv(&mut *f.qp10, c.as_mut_ptr(), &mut bad),
            0
        );
        RECVS.with_borrow(|r| {
            assert_eq!(r.len(), 20);
            assert!(
                r.iter()
                    .enumerate()
                    .all(|(i, x)| *x == (500 + i as u64, &raw mut sge as usize, 1 + i as c_int))
            );
        });
        c[5].wr_id = REFUSED;
        assert_eq!(
            datapath::post_srq_recv(&mut *f.srq10, c.as_mut_ptr(), &mut bad),
            libc::ENOMEM
        );
        assert_eq!(bad, &raw mut c[5]);
        // An empty chain reaches the provider as an empty chain.
        assert_eq!(datapath::post_recv(&mut *f.qp10, null_mut(), &mut bad), 0);
    }
}

#[test]
fn poll_and_notify_reach_the_real_cq() {
    let mut f = fake(ibv_qp_type::IBV_QPT_RC);
    // SAFETY: plain C data: all-zero bytes are a valid value.
    let mut wc: ibv_wc = unsafe { core::mem::zeroed() };
    // SAFETY: a wrapper over the fake CQ.
    unsafe {
        assert_eq!(datapath::poll_cq(&mut *f.cq10, 4, &mut wc), 1);
        assert_eq!(wc.wr_id, 7);
        // The fake context has no req_notify_cq op.
        assert_eq!(datapath::req_notify_cq(&mut *f.cq10, 0), libc::EINVAL);
    }
}
