//! The QP glue of the provider command layer through the fake seam: what the `ibv_cmd_*` QP and
//! post exports read from the C objects, what they send, and what they store back into the
//! provider's structs (`*_with` functions of `verbs::qp` and `verbs::post`).

mod common;

use common::{Fake, Out, Reply, u32_at, u64_at};
use core::ffi::c_int;
use core::mem::{offset_of, zeroed};
use core::ptr::{addr_of_mut, null_mut};
use ibverbs::abi::ctype::CEnum;
use ibverbs::abi::driver::{verbs_qp, verbs_xrcd};
use ibverbs::abi::kern_abi::*;
use ibverbs::abi::uapi::*;
use ibverbs::abi::verbs::*;
use ibverbs::cmd::{CmdState, Ctx};
use ibverbs::sys::{errno, pod, set_errno};
use ibverbs::verbs::post::{post_recv_with, post_send_with};
use ibverbs::verbs::qp::*;

const RXE: u32 = 14;
const SENTINEL: c_int = 12345;

/// The C objects a QP refers to, zeroed like a provider's calloc, with handles set.
struct World {
    ctx: ibv_context,
    pd: ibv_pd,
    scq: ibv_cq,
    rcq: ibv_cq,
    srq: ibv_srq,
    xrcd: verbs_xrcd,
}

impl World {
    fn new() -> Box<World> {
        // SAFETY: all-zero is a valid value of each C struct (integers, NULL pointers, and
        // pthread objects that are initialised before use).
        let mut w: Box<World> = Box::new(unsafe { zeroed() });
        w.ctx.async_fd = 33;
        w.pd.handle = 5;
        w.scq.handle = 7;
        w.rcq.handle = 8;
        w.srq.handle = 9;
        w.xrcd.handle = 11;
        let ctx = addr_of_mut!(w.ctx);
        w.pd.context = ctx;
        w
    }

    fn attr(&mut self, qp_type: ibv_qp_type) -> ibv_qp_init_attr {
        ibv_qp_init_attr {
            qp_context: 0x1234 as *mut _,
            send_cq: &mut self.scq,
            recv_cq: &mut self.rcq,
            srq: null_mut(),
            cap: ibv_qp_cap {
                max_send_wr: 16,
                max_recv_wr: 8,
                max_send_sge: 2,
                max_recv_sge: 1,
                max_inline_data: 0,
            },
            qp_type: CEnum::new(qp_type as u32),
            sq_sig_all: 1,
        }
    }
}

fn zero<T>() -> Box<T> {
    // SAFETY: used only for the C structs above, for which all-zero is valid.
    Box::new(unsafe { zeroed() })
}

fn attr_of(p: &common::Parsed, id: u16) -> common::A {
    *p.attrs
        .iter()
        .find(|a| a.id == id)
        .unwrap_or_else(|| panic!("attribute {id} not sent"))
}

fn granted() -> ib_uverbs_qp_cap {
    ib_uverbs_qp_cap {
        max_send_wr: 31,
        max_recv_wr: 15,
        max_send_sge: 2,
        max_recv_sge: 1,
        max_inline_data: 16,
    }
}

#[test]
fn create_qp_fills_the_qp_and_the_caps() {
    let st = CmdState::new(RXE, false);
    let mut w = World::new();
    let mut attr = w.attr(ibv_qp_type::IBV_QPT_RC);
    attr.srq = &mut w.srq;
    let mut qp = zero::<ibv_qp>();
    qp.state = CEnum::new(77);
    qp.events_completed = 5;
    let fake = Fake::new([Reply::IoctlOk(vec![
        (UVERBS_ATTR_CREATE_QP_HANDLE, Out::Data(42)),
        (
            UVERBS_ATTR_CREATE_QP_RESP_CAP,
            Out::Bytes(pod::bytes(&granted()).to_vec()),
        ),
        (
            UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
            Out::Bytes(0x99u32.to_ne_bytes().to_vec()),
        ),
    ])]);
    let (mut req, mut resp) = (
        vec![0u8; size_of::<ibv_create_qp>()],
        vec![0u8; size_of::<ib_uverbs_create_qp_resp>()],
    );
    // SAFETY: every pointer is to a live object above.
    let r = unsafe {
        create_qp_with(
            Ctx::new(&fake, &st),
            false,
            &mut w.pd,
            &mut *qp,
            &mut attr,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!(r, 0);
    assert_eq!(
        (qp.handle, qp.qp_num, qp.state.raw(), qp.events_completed),
        (42, 0x99, 0, 0)
    );
    assert_eq!(qp.context, addr_of_mut!(w.ctx));
    assert_eq!(qp.pd, addr_of_mut!(w.pd));
    assert_eq!(
        (qp.send_cq, qp.recv_cq, qp.srq),
        (
            addr_of_mut!(w.scq),
            addr_of_mut!(w.rcq),
            addr_of_mut!(w.srq)
        )
    );
    assert_eq!(
        (qp.qp_type.raw(), qp.qp_context as usize),
        (ibv_qp_type::IBV_QPT_RC as u32, 0x1234)
    );
    let c = attr.cap;
    assert_eq!(
        (c.max_send_wr, c.max_recv_wr, c.max_inline_data),
        (31, 15, 16),
        "granted caps copied back"
    );

    let p = &fake.ioctls()[0];
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_QP_PD_HANDLE).data, 5);
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE).data, 7);
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE).data, 8);
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE).data, 9);
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_QP_EVENT_FD).data, 33);
    assert_eq!(
        attr_of(p, UVERBS_ATTR_CREATE_QP_USER_HANDLE).data,
        &*qp as *const ibv_qp as u64
    );
}

#[test]
fn create_qp_legacy_write_and_failures() {
    // No ioctl: the legacy write, the answer copied back.
    let st = CmdState::new(RXE, false);
    let mut w = World::new();
    let mut attr = w.attr(ibv_qp_type::IBV_QPT_UD);
    let mut qp = zero::<ibv_qp>();
    let mut kr: ib_uverbs_create_qp_resp = pod::zeroed();
    (kr.qp_handle, kr.qpn, kr.max_send_wr, kr.max_recv_wr) = (3, 0x12, 20, 10);
    let fake = Fake::new([
        Reply::IoctlErr(libc::ENOTTY),
        Reply::WriteOk(pod::bytes(&kr).to_vec()),
    ]);
    let (mut req, mut resp) = (
        vec![0u8; size_of::<ibv_create_qp>()],
        vec![0u8; size_of::<ib_uverbs_create_qp_resp>()],
    );
    // SAFETY: live objects.
    let r = unsafe {
        create_qp_with(
            Ctx::new(&fake, &st),
            false,
            &mut w.pd,
            &mut *qp,
            &mut attr,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!(r, 0);
    assert_eq!(
        (
            qp.handle,
            qp.qp_num,
            attr.cap.max_send_wr,
            attr.cap.max_recv_wr
        ),
        (3, 0x12, 20, 10)
    );
    let wr = &fake.writes()[0];
    assert_eq!(u32_at(wr, 0), IB_USER_VERBS_CMD_CREATE_QP);
    assert_eq!(
        u64_at(wr, 8 + offset_of!(ib_uverbs_create_qp, user_handle)),
        &*qp as *const ibv_qp as u64
    );

    // A kernel failure: the errno, set; the QP keeps only its context; the caps stay.
    let st = CmdState::new(RXE, false);
    let mut attr = w.attr(ibv_qp_type::IBV_QPT_UD);
    let mut qp = zero::<ibv_qp>();
    let fake = Fake::new([Reply::IoctlErr(libc::EINVAL)]);
    set_errno(SENTINEL);
    // SAFETY: live objects.
    let r = unsafe {
        create_qp_with(
            Ctx::new(&fake, &st),
            false,
            &mut w.pd,
            &mut *qp,
            &mut attr,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!((r, errno()), (libc::EINVAL, libc::EINVAL));
    assert_eq!((qp.handle, qp.context), (0, addr_of_mut!(w.ctx)));
    assert_eq!(attr.cap.max_send_wr, 16);

    // A missing CQ: EINVAL before anything is sent (rdma-core would crash).
    let mut attr = w.attr(ibv_qp_type::IBV_QPT_RC);
    attr.send_cq = null_mut();
    let fake = Fake::new([]);
    // SAFETY: live objects.
    let r = unsafe {
        create_qp_with(
            Ctx::new(&fake, &st),
            false,
            &mut w.pd,
            &mut *qp,
            &mut attr,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!(r, libc::EINVAL);
    assert!(fake.calls().is_empty());
}

#[test]
fn create_qp_ex2_sets_the_verbs_qp_and_keeps_the_providers_fields() {
    let st = CmdState::new(RXE, true);
    let mut w = World::new();
    let base = w.attr(ibv_qp_type::IBV_QPT_XRC_RECV);
    // SAFETY: all-zero is a valid ibv_qp_init_attr_ex.
    let mut ax: ibv_qp_init_attr_ex = unsafe { zeroed() };
    ax.qp_context = base.qp_context;
    ax.qp_type = base.qp_type;
    ax.cap = base.cap;
    ax.comp_mask = (ibv_qp_init_attr_mask::IBV_QP_INIT_ATTR_XRCD as u32)
        | (ibv_qp_init_attr_mask::IBV_QP_INIT_ATTR_SEND_OPS_FLAGS as u32);
    ax.xrcd = addr_of_mut!(w.xrcd.xrcd);
    let mut vqp = zero::<verbs_qp>();
    // The provider set up its send functions before the command (rxe does): they must survive.
    unsafe extern "C" fn wr_start(_: *mut ibverbs::abi::driver::ibv_qp_ex_pabi34) {}
    vqp.anon_1.qp_ex.wr_start = Some(wr_start);
    vqp.comp_mask = 0xff;
    let fake = Fake::new([Reply::IoctlOk(vec![(
        UVERBS_ATTR_CREATE_QP_HANDLE,
        Out::Data(6),
    )])]);
    let (mut req, mut resp) = (
        vec![0u8; size_of::<ibv_create_qp_ex>()],
        vec![0u8; size_of::<ib_uverbs_ex_create_qp_resp>()],
    );
    let ctx = addr_of_mut!(w.ctx);
    // SAFETY: live objects.
    let r = unsafe {
        create_qp_ex2_with(
            Ctx::new(&fake, &st),
            true,
            ctx,
            &mut *vqp,
            &mut ax,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!(r, 0);
    // SAFETY: reading the plain view of the union.
    let qp = unsafe { vqp.anon_1.qp };
    assert_eq!((qp.handle, qp.context, qp.pd), (6, ctx, null_mut()));
    assert_eq!(vqp.comp_mask, 1, "VERBS_QP_XRCD only");
    assert_eq!(vqp.xrcd, addr_of_mut!(w.xrcd));
    assert!(
        // SAFETY: the union's qp_ex view of a verbs_qp the call filled; reading a fn pointer field.
        unsafe { vqp.anon_1.qp_ex.wr_start }.is_some(),
        "the extended fields are the provider's"
    );
    let p = &fake.ioctls()[0];
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE).data, 11);
    assert!(
        !p.attrs
            .iter()
            .any(|a| a.id == UVERBS_ATTR_CREATE_QP_PD_HANDLE)
    );

    // Without an XRCD the verbs_qp words after ibv_qp_ex are not written (in a v45-v56
    // provider's struct the first is the low half of `wr_flush`).
    ax.comp_mask = ibv_qp_init_attr_mask::IBV_QP_INIT_ATTR_PD as u32;
    ax.pd = &mut w.pd;
    ax.qp_type = CEnum::new(ibv_qp_type::IBV_QPT_RC as u32);
    ax.send_cq = &mut w.scq;
    ax.recv_cq = &mut w.rcq;
    vqp.comp_mask = 0x4444;
    let fake = Fake::new([Reply::IoctlOk(vec![(
        UVERBS_ATTR_CREATE_QP_HANDLE,
        Out::Data(7),
    )])]);
    // SAFETY: live objects.
    let r = unsafe {
        create_qp_ex2_with(
            Ctx::new(&fake, &st),
            true,
            ctx,
            &mut *vqp,
            &mut ax,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!((r, vqp.comp_mask), (0, 0x4444));

    // Unknown comp_mask bits: EINVAL, errno set, nothing sent.
    ax.comp_mask |= 1 << 20;
    let fake = Fake::new([]);
    set_errno(SENTINEL);
    // SAFETY: live objects.
    let r = unsafe {
        create_qp_ex2_with(
            Ctx::new(&fake, &st),
            true,
            ctx,
            &mut *vqp,
            &mut ax,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!((r, errno()), (libc::EINVAL, libc::EINVAL));
    assert!(fake.calls().is_empty());
}

#[test]
fn open_qp_checks_and_fills() {
    let st = CmdState::new(RXE, false);
    let mut w = World::new();
    let ctx = addr_of_mut!(w.ctx);
    let mut oa = ibv_qp_open_attr {
        comp_mask: 1 | 2 | 8,
        qp_num: 0x77,
        xrcd: addr_of_mut!(w.xrcd.xrcd),
        qp_context: 0x55 as *mut _,
        qp_type: CEnum::new(ibv_qp_type::IBV_QPT_XRC_RECV as u32),
    };
    let (mut req, mut resp) = (
        vec![0u8; size_of::<ibv_open_qp>()],
        vec![0u8; size_of::<ib_uverbs_create_qp_resp>()],
    );
    let mut vqp = zero::<verbs_qp>();
    let fake = Fake::new([]);
    for (mask, want) in [(1 << 5, libc::EOPNOTSUPP), (1 | 2, libc::EINVAL)] {
        oa.comp_mask = mask;
        set_errno(SENTINEL);
        // SAFETY: live objects.
        let r = unsafe {
            open_qp_with(
                Ctx::new(&fake, &st),
                ctx,
                &mut *vqp,
                size_of::<verbs_qp>() as c_int,
                &mut oa,
                &mut req,
                &mut resp,
            )
        };
        assert_eq!(
            (r, errno()),
            (want, SENTINEL),
            "rdma-core returns these without errno"
        );
    }
    assert!(fake.calls().is_empty());

    oa.comp_mask = 1 | 2 | 8;
    let mut kr: ib_uverbs_create_qp_resp = pod::zeroed();
    kr.qp_handle = 21;
    let fake = Fake::new([
        Reply::WriteOk(pod::bytes(&kr).to_vec()),
        Reply::WriteOk(pod::bytes(&kr).to_vec()),
    ]);
    // SAFETY: live objects.
    let r = unsafe {
        open_qp_with(
            Ctx::new(&fake, &st),
            ctx,
            &mut *vqp,
            size_of::<verbs_qp>() as c_int,
            &mut oa,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!(r, 0);
    // SAFETY: the plain view.
    let qp = unsafe { vqp.anon_1.qp };
    assert_eq!(
        (qp.handle, qp.qp_num, qp.state.raw(), qp.qp_context as usize),
        (21, 0x77, ibv_qp_state::IBV_QPS_UNKNOWN as u32, 0x55)
    );
    assert_eq!((vqp.comp_mask, vqp.xrcd), (1, addr_of_mut!(w.xrcd)));
    let wr = &fake.writes()[0];
    assert_eq!(
        u32_at(wr, 8 + offset_of!(ib_uverbs_open_qp, pd_handle)),
        11,
        "the XRCD's handle as PD"
    );
    // A v45-v56 provider's struct (376 bytes on x86_64, `wr_flush` at 352; later by the bytes
    // the target's pthread_mutex_t has beyond 40): comp_mask and xrcd 8 bytes on.
    let mx = size_of::<libc::pthread_mutex_t>() - 40;
    let mut v56 = vec![0u64; (376 + mx) / 8];
    v56[(352 + mx) / 8] = 0x1111_2222_3333_4444;
    // SAFETY: a live buffer of the size passed.
    let r = unsafe {
        open_qp_with(
            Ctx::new(&fake, &st),
            ctx,
            v56.as_mut_ptr().cast(),
            (376 + mx) as c_int,
            &mut oa,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!(r, 0);
    assert_eq!(
        v56[(352 + mx) / 8],
        0x1111_2222_3333_4444,
        "wr_flush untouched"
    );
    assert_eq!(
        (
            u32_at(&v56[(360 + mx) / 8].to_ne_bytes(), 0),
            v56[(368 + mx) / 8]
        ),
        (1, addr_of_mut!(w.xrcd) as u64)
    );
    let fake = Fake::new([Reply::WriteOk(pod::bytes(&kr).to_vec())]);
    // A provider struct that ends before `xrcd`: neither it nor the mask beyond is written.
    let mut small = zero::<verbs_qp>();
    small.comp_mask = 0xaa;
    // SAFETY: live objects.
    let r = unsafe {
        open_qp_with(
            Ctx::new(&fake, &st),
            ctx,
            &mut *small,
            (352 + mx) as c_int,
            &mut oa,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!((r, small.comp_mask, small.xrcd), (0, 0xaa, null_mut()));
}

fn resp_with_state(state: u8) -> ib_uverbs_query_qp_resp {
    let mut r: ib_uverbs_query_qp_resp = pod::zeroed();
    r.qp_state = state;
    r.max_send_wr = 31;
    r.max_inline_data = 16;
    r.sq_sig_all = 1;
    r.port_num = 1;
    r.dest.dgid = [0xfe; 16];
    r
}

#[test]
fn query_qp_fills_attr_and_init_attr() {
    let st = CmdState::new(RXE, false);
    let mut w = World::new();
    let mut qp = zero::<ibv_qp>();
    qp.handle = 4;
    qp.qp_context = 0x1234 as *mut _;
    qp.send_cq = &mut w.scq;
    qp.recv_cq = &mut w.rcq;
    qp.qp_type = CEnum::new(ibv_qp_type::IBV_QPT_RC as u32);
    let mut attr = zero::<ibv_qp_attr>();
    let mut init = zero::<ibv_qp_init_attr>();
    let mut req = vec![0u8; size_of::<ibv_query_qp>()];

    // Masks from RATE_LIMIT up: EOPNOTSUPP, errno untouched, nothing sent.
    let fake = Fake::new([]);
    set_errno(SENTINEL);
    let m = ibv_qp_attr_mask::IBV_QP_STATE as c_int | ibv_qp_attr_mask::IBV_QP_RATE_LIMIT as c_int;
    // SAFETY: live objects.
    let r = unsafe {
        query_qp_with(
            Ctx::new(&fake, &st),
            &mut *qp,
            &mut *attr,
            m,
            &mut *init,
            &mut req,
        )
    };
    assert_eq!((r, errno()), (libc::EOPNOTSUPP, SENTINEL));
    assert!(fake.calls().is_empty());

    let fake = Fake::new([Reply::WriteOk(pod::bytes(&resp_with_state(3)).to_vec())]);
    // SAFETY: live objects.
    let r = unsafe {
        query_qp_with(
            Ctx::new(&fake, &st),
            &mut *qp,
            &mut *attr,
            1,
            &mut *init,
            &mut req,
        )
    };
    assert_eq!(r, 0);
    assert_eq!(
        (attr.qp_state.raw(), attr.port_num, attr.cap.max_send_wr),
        (3, 1, 31)
    );
    // SAFETY: reading a union of byte arrays.
    assert_eq!(unsafe { attr.ah_attr.grh.dgid.raw }, [0xfe; 16]);
    assert_eq!(
        qp.state.raw(),
        0,
        "qp->state is ibv_query_qp's to update, not the command's"
    );
    assert_eq!(
        (init.qp_context as usize, init.send_cq, init.recv_cq),
        (0x1234, qp.send_cq, qp.recv_cq)
    );
    assert_eq!(
        (init.qp_type, init.sq_sig_all, init.cap.max_inline_data),
        (qp.qp_type, 1, 16)
    );
    let wr = &fake.writes()[0];
    assert_eq!(
        (u32_at(wr, 0), u32_at(wr, 16), u32_at(wr, 20)),
        (IB_USER_VERBS_CMD_QUERY_QP, 4, 1)
    );
}

#[test]
fn modify_qp_mask_checks_are_quiet() {
    let st = CmdState::new(RXE, false);
    let mut qp = zero::<ibv_qp>();
    qp.handle = 4;
    let mut attr = zero::<ibv_qp_attr>();
    attr.qp_state = CEnum::new(1);
    attr.rate_limit = 100;
    let fake = Fake::new([]);
    let mut req = vec![0u8; size_of::<ibv_modify_qp>()];
    set_errno(SENTINEL);
    // SAFETY: live objects.
    let r = unsafe {
        modify_qp_with(
            Ctx::new(&fake, &st),
            &mut *qp,
            &mut *attr,
            1 << 30,
            &mut req,
        )
    };
    assert_eq!((r, errno()), (libc::EOPNOTSUPP, SENTINEL));
    // The extended command: RATE_LIMIT needs room for it in the provider's request.
    let rl = ibv_qp_attr_mask::IBV_QP_RATE_LIMIT as c_int;
    let mut short = vec![0u8; size_of::<ibv_modify_qp_ex>() - 8];
    let mut resp = vec![0u8; size_of::<ib_uverbs_ex_modify_qp_resp>()];
    // SAFETY: live objects.
    let r = unsafe {
        modify_qp_ex_with(
            Ctx::new(&fake, &st),
            &mut *qp,
            &mut *attr,
            rl,
            &mut short,
            &mut resp,
        )
    };
    assert_eq!((r, errno()), (libc::EINVAL, SENTINEL));
    assert!(fake.calls().is_empty());

    let fake = Fake::new([Reply::WriteOk(vec![]), Reply::WriteErr(libc::EINVAL)]);
    // SAFETY: live objects.
    let r = unsafe { modify_qp_with(Ctx::new(&fake, &st), &mut *qp, &mut *attr, 1, &mut req) };
    assert_eq!(r, 0);
    let wr = &fake.writes()[0];
    let k = 8;
    assert_eq!(
        u32_at(wr, k + offset_of!(ib_uverbs_modify_qp, qp_handle)),
        4
    );
    assert_eq!(wr[k + offset_of!(ib_uverbs_modify_qp, qp_state)], 1);
    // SAFETY: live objects.
    let r = unsafe { modify_qp_with(Ctx::new(&fake, &st), &mut *qp, &mut *attr, 1, &mut req) };
    assert_eq!((r, errno()), (libc::EINVAL, libc::EINVAL));
}

/// Raw pointers handed to a helper thread in a test.
struct Shared<T>(*mut T);
// SAFETY: the tests synchronise through the object's own mutex.
unsafe impl<T> Send for Shared<T> {}

#[test]
fn destroy_qp_waits_for_the_acks() {
    let st = CmdState::new(RXE, false);
    let mut qp = zero::<ibv_qp>();
    qp.handle = 4;
    // SAFETY: initialising the QP's own lock.
    unsafe {
        libc::pthread_mutex_init(&mut qp.mutex, core::ptr::null());
        libc::pthread_cond_init(&mut qp.cond, core::ptr::null());
    }
    let mut resp: ib_uverbs_destroy_qp_resp = pod::zeroed();
    resp.events_reported = 2;
    let fake = Fake::new([Reply::IoctlOk(vec![(
        UVERBS_ATTR_DESTROY_QP_RESP,
        Out::Bytes(pod::bytes(&resp).to_vec()),
    )])]);
    let p = Shared(&mut *qp as *mut ibv_qp);
    let acker = std::thread::spawn(move || {
        let p = p;
        for _ in 0..2 {
            std::thread::sleep(std::time::Duration::from_millis(100));
            // SAFETY: what ibv_ack_async_event does, under the QP's lock.
            unsafe {
                libc::pthread_mutex_lock(&raw mut (*p.0).mutex);
                (*p.0).events_completed += 1;
                libc::pthread_cond_signal(&raw mut (*p.0).cond);
                libc::pthread_mutex_unlock(&raw mut (*p.0).mutex);
            }
        }
    });
    let t = std::time::Instant::now();
    // SAFETY: a live QP with an initialised lock.
    let r = unsafe { destroy_qp_with(Ctx::new(&fake, &st), &mut *qp) };
    let waited = t.elapsed();
    acker.join().unwrap();
    assert_eq!(r, 0);
    assert!(
        waited >= std::time::Duration::from_millis(190),
        "returned after {waited:?}, before the second ack"
    );
    assert_eq!(
        fake.ioctls()[0]
            .attrs
            .iter()
            .find(|a| a.id == UVERBS_ATTR_DESTROY_QP_HANDLE)
            .unwrap()
            .data,
        4
    );

    // A failed destroy does not wait.
    let fake = Fake::new([Reply::IoctlErr(libc::EBUSY)]);
    qp.events_completed = 0;
    // SAFETY: the same live QP on the same context; the fake kernel answers EBUSY.
    let r = unsafe { destroy_qp_with(Ctx::new(&fake, &st), &mut *qp) };
    assert_eq!(r, libc::EBUSY);
}

#[test]
fn post_send_maps_the_list_and_bad_wr() {
    let st = CmdState::new(RXE, false);
    let mut qp = zero::<ibv_qp>();
    qp.handle = 4;
    qp.qp_type = CEnum::new(ibv_qp_type::IBV_QPT_UD as u32);
    let mut ah = zero::<ibv_ah>();
    ah.handle = 66;
    let mut sge = [ibv_sge {
        addr: 0x1000,
        length: 64,
        lkey: 3,
    }];
    // SAFETY: all-zero is a valid send WR.
    let wrs: *mut [ibv_send_wr; 2] = Box::into_raw(Box::new(unsafe { zeroed() }));
    // SAFETY: the two WRs live in `wrs` until the end of the test; only raw pointers touch them.
    unsafe {
        let (w1, w2) = (&raw mut (*wrs)[0], &raw mut (*wrs)[1]);
        (*w2).wr_id = 2;
        (*w2).opcode = CEnum::new(ibv_wr_opcode::IBV_WR_SEND as u32);
        (*w2).wr.ud = ibv_send_wr_wr_ud {
            ah: &mut *ah,
            remote_qpn: 0x10,
            remote_qkey: 0x22,
        };
        *w1 = *w2;
        (*w1).wr_id = 1;
        (*w1).sg_list = sge.as_mut_ptr();
        (*w1).num_sge = 1;
        (*w1).next = w2;
        let mut bad: *mut ibv_send_wr = null_mut();

        // The kernel names the second WR.
        let fake = Fake::new([Reply::WriteOk(2u32.to_ne_bytes().to_vec())]);
        let r = post_send_with(Ctx::new(&fake, &st), &mut *qp, w1, &mut bad);
        assert_eq!((r, bad), (0, w2));
        let req = &fake.writes()[0];
        type P = ib_uverbs_post_send;
        let k = 8;
        assert_eq!(
            (
                u32_at(req, k + offset_of!(P, wr_count)),
                u32_at(req, k + offset_of!(P, sge_count))
            ),
            (2, 1)
        );
        let wr0 = size_of::<ibv_post_send>() + offset_of!(ib_uverbs_send_wr, wr);
        assert_eq!(u32_at(req, wr0), 66, "the AH travels as its handle");

        // A failed write without a kernel bad_wr names the first WR.
        let fake = Fake::new([Reply::WriteErr(libc::EINVAL)]);
        bad = null_mut();
        let r = post_send_with(Ctx::new(&fake, &st), &mut *qp, w1, &mut bad);
        assert_eq!((r, bad), (libc::EINVAL, w1));

        // A UD WR without an AH: EINVAL naming it, nothing sent (rdma-core would crash).
        (*w2).wr.ud.ah = null_mut();
        let fake = Fake::new([]);
        let r = post_send_with(Ctx::new(&fake, &st), &mut *qp, w1, &mut bad);
        assert_eq!((r, bad), (libc::EINVAL, w2));
        assert!(fake.calls().is_empty());
        drop(Box::from_raw(wrs));
    }
}

#[test]
fn post_recv_rejects_bad_sge_counts() {
    let st = CmdState::new(RXE, false);
    let mut sge = [ibv_sge {
        addr: 0x1000,
        length: 64,
        lkey: 3,
    }];
    let s = sge.as_mut_ptr();
    let wrs: *mut [ibv_recv_wr; 2] = Box::into_raw(Box::new([
        ibv_recv_wr {
            wr_id: 1,
            next: null_mut(),
            sg_list: s,
            num_sge: 1,
        },
        ibv_recv_wr {
            wr_id: 2,
            next: null_mut(),
            sg_list: s,
            num_sge: -1,
        },
    ]));
    // SAFETY: the two WRs live in `wrs` until the end of the test; only raw pointers touch them.
    unsafe {
        let (w1, w2) = (&raw mut (*wrs)[0], &raw mut (*wrs)[1]);
        (*w1).next = w2;
        let mut bad: *mut ibv_recv_wr = null_mut();
        let fake = Fake::new([]);
        let r = post_recv_with(Ctx::new(&fake, &st), 4, w1, &mut bad, false);
        assert_eq!((r, bad), (libc::EINVAL, w2));
        assert!(fake.calls().is_empty());

        (*w2).num_sge = 1;
        let fake = Fake::new([Reply::WriteOk(vec![0; 4])]);
        let r = post_recv_with(Ctx::new(&fake, &st), 9, w1, null_mut(), true);
        assert_eq!(r, 0);
        let req = &fake.writes()[0];
        assert_eq!(
            (u32_at(req, 0), u32_at(req, 16), u32_at(req, 20)),
            (IB_USER_VERBS_CMD_POST_SRQ_RECV, 9, 2)
        );
        drop(Box::from_raw(wrs));
    }
}
