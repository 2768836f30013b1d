//! The SRQ, WQ, indirection table and flow glue of the provider command layer through the fake
//! seam (`*_with` functions of `verbs::srq`, `verbs::wq` and `capi::flow`), and the flow spec
//! conversion of `cmd::flow`.

mod common;

use common::{Fake, Out, Reply, u16_at, u32_at};
use core::ffi::c_int;
use core::mem::{offset_of, zeroed};
use core::ptr::{addr_of_mut, null_mut};
use ibverbs::abi::ctype::CEnum;
use ibverbs::abi::driver::{verbs_flow_action, verbs_srq, verbs_xrcd};
use ibverbs::abi::kern_abi::*;
use ibverbs::abi::uapi::*;
use ibverbs::abi::verbs::*;
use ibverbs::capi::flow::create_flow_with;
use ibverbs::cmd::flow::{SpecObj, ib_spec_read_len, kern_spec};
use ibverbs::cmd::{CmdState, Ctx};
use ibverbs::errno::Errno;
use ibverbs::sys::{errno, pod, set_errno};
use ibverbs::verbs::srq::*;
use ibverbs::verbs::wq::*;

const RXE: u32 = 14;
const SENTINEL: c_int = 12345;

fn zero<T>() -> Box<T> {
    // SAFETY: used only for C structs, for which all-zero is valid.
    Box::new(unsafe { zeroed() })
}

fn attr_of(p: &common::Parsed, id: u16) -> common::A {
    *p.attrs
        .iter()
        .find(|a| a.id == id)
        .unwrap_or_else(|| panic!("attribute {id} not sent"))
}

/// A context and PD (handle 5) and CQ (handle 7).
struct World {
    ctx: ibv_context,
    pd: ibv_pd,
    cq: ibv_cq,
    xrcd: verbs_xrcd,
}

fn world() -> Box<World> {
    let mut w = zero::<World>();
    w.ctx.async_fd = 33;
    w.pd.handle = 5;
    w.cq.handle = 7;
    w.xrcd.handle = 11;
    w.pd.context = addr_of_mut!(w.ctx);
    w
}

#[test]
fn create_srq_fills_the_srq_and_the_sizes() {
    let st = CmdState::new(RXE, false);
    let mut w = world();
    let mut srq = zero::<ibv_srq>();
    let mut a = ibv_srq_init_attr {
        srq_context: 0x42 as *mut _,
        attr: ibv_srq_attr {
            max_wr: 16,
            max_sge: 1,
            srq_limit: 3,
        },
    };
    let fake = Fake::new([Reply::IoctlOk(vec![
        (UVERBS_ATTR_CREATE_SRQ_HANDLE, Out::Data(12)),
        (
            UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR,
            Out::Bytes(31u32.to_ne_bytes().to_vec()),
        ),
        (
            UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE,
            Out::Bytes(2u32.to_ne_bytes().to_vec()),
        ),
    ])]);
    let (mut req, mut resp) = (
        vec![0u8; size_of::<ibv_create_srq>()],
        vec![0u8; size_of::<ib_uverbs_create_srq_resp>()],
    );
    // SAFETY: live objects.
    let r = unsafe {
        create_srq_with(
            Ctx::new(&fake, &st),
            false,
            &mut w.pd,
            &mut *srq,
            &mut a,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!(r, 0);
    assert_eq!(
        (srq.handle, srq.pd, srq.context),
        (12, addr_of_mut!(w.pd), addr_of_mut!(w.ctx))
    );
    assert_eq!(
        (a.attr.max_wr, a.attr.max_sge, a.attr.srq_limit),
        (31, 2, 3)
    );
    let p = &fake.ioctls()[0];
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE).data, 5);
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_SRQ_TYPE).data, 0);
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_SRQ_EVENT_FD).data, 33);
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_SRQ_LIMIT).value(), 3);
    assert_eq!(
        attr_of(p, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE).data,
        &*srq as *const ibv_srq as u64
    );
}

#[test]
fn create_srq_ex_sets_the_verbs_srq() {
    let st = CmdState::new(RXE, false);
    let mut w = world();
    let mut vsrq = zero::<verbs_srq>();
    // SAFETY: all-zero is a valid attribute struct.
    let mut a: ibv_srq_init_attr_ex = unsafe { zeroed() };
    a.attr = ibv_srq_attr {
        max_wr: 8,
        max_sge: 1,
        srq_limit: 0,
    };
    a.srq_type = CEnum::new(ibv_srq_type::IBV_SRQT_XRC as u32);
    a.pd = &mut w.pd;
    a.cq = &mut w.cq;
    a.xrcd = addr_of_mut!(w.xrcd.xrcd);
    use ibv_srq_init_attr_mask::*;
    a.comp_mask =
        IBV_SRQ_INIT_ATTR_PD as u32 | IBV_SRQ_INIT_ATTR_TYPE as u32 | IBV_SRQ_INIT_ATTR_CQ as u32;
    let (mut req, mut resp) = (
        vec![0u8; size_of::<ibv_create_xsrq>()],
        vec![0u8; size_of::<ib_uverbs_create_srq_resp>()],
    );

    // XRC without XRCD: EINVAL with errno, nothing sent.
    let fake = Fake::new([]);
    set_errno(SENTINEL);
    // SAFETY: live objects.
    let r = unsafe {
        create_srq_ex_with(
            Ctx::new(&fake, &st),
            false,
            &mut *vsrq,
            &mut a,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!((r, errno()), (libc::EINVAL, libc::EINVAL));
    // Unknown comp_mask bits: EOPNOTSUPP with errno.
    a.comp_mask |= 1 << 7;
    // SAFETY: live objects.
    let r = unsafe {
        create_srq_ex_with(
            Ctx::new(&fake, &st),
            false,
            &mut *vsrq,
            &mut a,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!((r, errno()), (libc::EOPNOTSUPP, libc::EOPNOTSUPP));
    assert!(fake.calls().is_empty());

    a.comp_mask = a.comp_mask & !(1 << 7) | IBV_SRQ_INIT_ATTR_XRCD as u32;
    let fake = Fake::new([Reply::IoctlOk(vec![
        (UVERBS_ATTR_CREATE_SRQ_HANDLE, Out::Data(13)),
        (
            UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
            Out::Bytes(0x55u32.to_ne_bytes().to_vec()),
        ),
    ])]);
    // SAFETY: live objects.
    let r = unsafe {
        create_srq_ex_with(
            Ctx::new(&fake, &st),
            false,
            &mut *vsrq,
            &mut a,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!(r, 0);
    assert_eq!(
        (vsrq.srq.handle, vsrq.srq.pd, vsrq.srq_type.raw()),
        (13, addr_of_mut!(w.pd), 1)
    );
    assert_eq!(
        (vsrq.srq_num, vsrq.xrcd, vsrq.cq),
        (0x55, addr_of_mut!(w.xrcd), addr_of_mut!(w.cq))
    );
    let p = &fake.ioctls()[0];
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE).data, 11);
    assert_eq!(attr_of(p, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE).data, 7);
}

#[test]
fn query_and_destroy_srq() {
    let st = CmdState::new(RXE, false);
    let mut srq = zero::<ibv_srq>();
    srq.handle = 3;
    let mut a = ibv_srq_attr {
        max_wr: 0,
        max_sge: 0,
        srq_limit: 0,
    };
    let r = ib_uverbs_query_srq_resp {
        max_wr: 31,
        max_sge: 1,
        srq_limit: 4,
        reserved: 0,
    };
    let fake = Fake::new([Reply::WriteOk(pod::bytes(&r).to_vec())]);
    let mut req = vec![0u8; size_of::<ibv_query_srq>()];
    assert_eq!(
        // SAFETY: live objects.
        unsafe { query_srq_with(Ctx::new(&fake, &st), &mut *srq, &mut a, &mut req) },
        0
    );
    assert_eq!((a.max_wr, a.max_sge, a.srq_limit), (31, 1, 4));

    // events_reported 0: no wait (the lock is never touched, so it need not be initialised).
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    assert_eq!(
        // SAFETY: live object.
        unsafe { destroy_srq_with(Ctx::new(&fake, &st), &mut *srq) },
        0
    );
    assert_eq!(
        attr_of(&fake.ioctls()[0], UVERBS_ATTR_DESTROY_SRQ_HANDLE).data,
        3
    );
}

#[test]
fn create_modify_destroy_wq() {
    let st = CmdState::new(RXE, false);
    let mut w = world();
    let ctx = addr_of_mut!(w.ctx);
    let mut wq = zero::<ibv_wq>();
    let mut a = ibv_wq_init_attr {
        wq_context: null_mut(),
        wq_type: CEnum::new(ibv_wq_type::IBV_WQT_RQ as u32),
        max_wr: 16,
        max_sge: 1,
        pd: &mut w.pd,
        cq: &mut w.cq,
        comp_mask: 2,
        create_flags: 0,
    };
    let (mut req, mut resp) = (
        vec![0u8; size_of::<ibv_create_wq>()],
        vec![0u8; size_of::<ib_uverbs_ex_create_wq_resp>()],
    );
    let fake = Fake::new([]);
    set_errno(SENTINEL);
    // SAFETY: live objects.
    let r = unsafe {
        create_wq_with(
            Ctx::new(&fake, &st),
            false,
            ctx,
            &mut a,
            &mut *wq,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!(
        (r, errno(), wq.context),
        (libc::EINVAL, libc::EINVAL, null_mut()),
        "checked before the WQ is touched"
    );

    a.comp_mask = 0;
    let fake = Fake::new([Reply::IoctlOk(vec![
        (UVERBS_ATTR_CREATE_WQ_HANDLE, Out::Data(14)),
        (
            UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR,
            Out::Bytes(32u32.to_ne_bytes().to_vec()),
        ),
        (
            UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM,
            Out::Bytes(0x66u32.to_ne_bytes().to_vec()),
        ),
    ])]);
    // SAFETY: live objects.
    let r = unsafe {
        create_wq_with(
            Ctx::new(&fake, &st),
            false,
            ctx,
            &mut a,
            &mut *wq,
            &mut req,
            &mut resp,
        )
    };
    assert_eq!(r, 0);
    assert_eq!(
        (wq.handle, wq.wq_num, wq.context, wq.pd, wq.cq),
        (14, 0x66, ctx, a.pd, a.cq)
    );
    assert_eq!(a.max_wr, 32);

    // modify: quiet checks, then the state bookkeeping.
    let mut m = ibv_wq_attr {
        attr_mask: 1 << 3,
        wq_state: CEnum::new(1),
        curr_wq_state: CEnum::new(0),
        flags: 0,
        flags_mask: 0,
    };
    let mut mreq = vec![0u8; size_of::<ibv_modify_wq>()];
    let fake = Fake::new([Reply::WriteOk(vec![])]);
    set_errno(SENTINEL);
    // SAFETY: live objects.
    let r = unsafe { modify_wq_with(Ctx::new(&fake, &st), &mut *wq, &mut m, &mut mreq) };
    assert_eq!((r, errno()), (libc::EINVAL, SENTINEL));
    m.attr_mask = ibv_wq_attr_mask::IBV_WQ_ATTR_FLAGS as u32;
    m.flags_mask = 1 << 9;
    // SAFETY: live objects.
    let r = unsafe { modify_wq_with(Ctx::new(&fake, &st), &mut *wq, &mut m, &mut mreq) };
    assert_eq!((r, errno()), (libc::EOPNOTSUPP, SENTINEL));
    m.attr_mask = ibv_wq_attr_mask::IBV_WQ_ATTR_STATE as u32;
    // SAFETY: live objects.
    let r = unsafe { modify_wq_with(Ctx::new(&fake, &st), &mut *wq, &mut m, &mut mreq) };
    assert_eq!((r, wq.state.raw()), (0, 1));

    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    assert_eq!(
        // SAFETY: live object.
        unsafe { destroy_wq_with(Ctx::new(&fake, &st), &mut *wq) },
        0
    );
}

#[test]
fn create_rwq_ind_table_sends_the_wq_handles() {
    let st = CmdState::new(RXE, false);
    let mut w = world();
    let ctx = addr_of_mut!(w.ctx);
    let mut wqs: [Box<ibv_wq>; 2] = [zero(), zero()];
    wqs[0].handle = 20;
    wqs[1].handle = 21;
    let tbl: *mut [*mut ibv_wq; 2] = Box::into_raw(Box::new([&mut *wqs[0], &mut *wqs[1]]));
    let mut a = ibv_rwq_ind_table_init_attr {
        log_ind_tbl_size: 1,
        ind_tbl: tbl.cast(),
        comp_mask: 1,
    };
    let mut t = zero::<ibv_rwq_ind_table>();
    let mut resp = vec![0u8; size_of::<ib_uverbs_ex_create_rwq_ind_table_resp>()];
    let fake = Fake::new([]);
    set_errno(SENTINEL);
    // SAFETY: live objects.
    let r =
        unsafe { create_rwq_ind_table_with(Ctx::new(&fake, &st), ctx, &mut a, &mut *t, &mut resp) };
    assert_eq!(
        (r, errno()),
        (libc::EINVAL, SENTINEL),
        "rdma-core returns this without errno"
    );

    a.comp_mask = 0;
    let kr = ib_uverbs_ex_create_rwq_ind_table_resp {
        comp_mask: 0,
        response_length: size_of::<ib_uverbs_ex_create_rwq_ind_table_resp>() as u32,
        ind_tbl_handle: 8,
        ind_tbl_num: 0x77,
    };
    let fake = Fake::new([Reply::WriteOk(pod::bytes(&kr).to_vec())]);
    // SAFETY: live objects.
    let r =
        unsafe { create_rwq_ind_table_with(Ctx::new(&fake, &st), ctx, &mut a, &mut *t, &mut resp) };
    assert_eq!(r, 0);
    assert_eq!((t.ind_tbl_handle, t.ind_tbl_num, t.context), (8, 0x77, ctx));
    let req = &fake.writes()[0];
    let at = size_of::<ibv_create_rwq_ind_table>();
    assert_eq!((u32_at(req, at), u32_at(req, at + 4)), (20, 21));
    assert_eq!(req.len() % 8, 0);

    // A NULL WQ in the table: EINVAL (rdma-core would crash).
    // A size above the kernel's maximum: EINVAL without reading the (2-entry) table.
    a.log_ind_tbl_size = 14;
    let fake = Fake::new([]);
    // SAFETY: live objects; the table is not read.
    let r =
        unsafe { create_rwq_ind_table_with(Ctx::new(&fake, &st), ctx, &mut a, &mut *t, &mut resp) };
    assert_eq!(r, libc::EINVAL);
    a.log_ind_tbl_size = 1;

    // SAFETY: the table is live until freed below; only raw pointers touch it.
    unsafe {
        (*tbl)[1] = null_mut();
        let fake = Fake::new([]);
        let r = create_rwq_ind_table_with(Ctx::new(&fake, &st), ctx, &mut a, &mut *t, &mut resp);
        assert_eq!(r, libc::EINVAL);
        drop(Box::from_raw(tbl));
    }
}

/// An ETH spec, an IPv6 spec with longer filters than the kernel's, and an action-handle spec,
/// laid out as C would (each spec right after the previous one's `size` bytes).
#[repr(C)]
struct Rule {
    attr: ibv_flow_attr,
    eth: ibv_flow_spec_eth,
    ipv6: ibv_flow_spec_ipv6,
    extra: [u8; 12],
    act: ibv_flow_spec_action_handle,
}

#[test]
fn kern_spec_converts_each_kind() {
    let mut none = |_: SpecObj, _: u64| -> ibverbs::errno::Result<u32> { panic!("no object here") };
    // ETH: value and mask copied, kernel size 40.
    // SAFETY: all-zero is a valid spec.
    let mut eth: ibv_flow_spec_eth = unsafe { zeroed() };
    eth.r#type = CEnum::new(
        ibv_flow_spec_type::IBV_FLOW_SPEC_ETH as u32
            | ibv_flow_spec_type::IBV_FLOW_SPEC_INNER as u32,
    );
    eth.size = size_of::<ibv_flow_spec_eth>() as u16;
    eth.val.dst_mac = [1, 2, 3, 4, 5, 6];
    eth.mask.ether_type = 0xffff;
    // SAFETY: the spec's bytes (padding included, as C would send it).
    let ib = unsafe {
        core::slice::from_raw_parts(
            (&raw const eth).cast::<u8>(),
            size_of::<ibv_flow_spec_eth>(),
        )
    };
    let k = kern_spec(ib, &mut none).unwrap();
    assert_eq!(k.len(), size_of::<ib_uverbs_flow_spec_eth>());
    assert_eq!(
        (u32_at(&k, 0), u16_at(&k, 4) as usize),
        (eth.r#type.raw(), k.len())
    );
    assert_eq!(&k[8..14], &[1, 2, 3, 4, 5, 6]);
    assert_eq!(u16_at(&k, 24 + 12), 0xffff);

    // IPv4 extended: sent as IPv4 with the inner bit kept; a too-short filter is EINVAL.
    let mut b = vec![0u8; 8 + 2 * 12];
    b[0..4].copy_from_slice(
        &(ibv_flow_spec_type::IBV_FLOW_SPEC_IPV4_EXT as u32 | 0x100).to_ne_bytes(),
    );
    let n = b.len() as u16;
    b[4..6].copy_from_slice(&n.to_ne_bytes());
    b[8] = 10;
    b[20] = 0xff;
    let k = kern_spec(&b, &mut none).unwrap();
    assert_eq!(
        u32_at(&k, 0),
        ibv_flow_spec_type::IBV_FLOW_SPEC_IPV4 as u32 | 0x100
    );
    assert_eq!(
        (k.len(), k[8], k[20]),
        (size_of::<ib_uverbs_flow_spec_ipv4>(), 10, 0xff)
    );
    b[4..6].copy_from_slice(&(8u16 + 2 * 11).to_ne_bytes());
    assert_eq!(kern_spec(&b, &mut none), Err(Errno::EINVAL));

    // Unknown and GRE|INNER (GRE has no inner form): EINVAL.
    let mut u = [0u8; 8];
    u[0..4].copy_from_slice(&0x77u32.to_ne_bytes());
    assert_eq!(kern_spec(&u, &mut none), Err(Errno::EINVAL));
    let t = ibv_flow_spec_type::IBV_FLOW_SPEC_GRE as u32 | 0x100;
    assert_eq!(ib_spec_read_len(t, 0), 8);
    u[0..4].copy_from_slice(&t.to_ne_bytes());
    assert_eq!(kern_spec(&u, &mut none), Err(Errno::EINVAL));

    // Counters: the object's handle.
    let mut c = [0u8; 16];
    c[0..4].copy_from_slice(&(ibv_flow_spec_type::IBV_FLOW_SPEC_ACTION_COUNT as u32).to_ne_bytes());
    c[8..16].copy_from_slice(&0xabcdu64.to_ne_bytes());
    let k = kern_spec(&c, &mut |o, p| {
        assert_eq!((o, p), (SpecObj::Counters, 0xabcd));
        Ok(99)
    })
    .unwrap();
    assert_eq!((k.len(), u32_at(&k, 8)), (16, 99));
}

#[test]
fn create_flow_builds_the_rule() {
    let st = CmdState::new(RXE, false);
    let mut ctx = zero::<ibv_context>();
    let mut qp = zero::<ibv_qp>();
    qp.handle = 4;
    qp.context = &mut *ctx;
    let mut action = zero::<verbs_flow_action>();
    action.handle = 31;
    let mut rule = zero::<Rule>();
    rule.attr.r#type = CEnum::new(ibv_flow_attr_type::IBV_FLOW_ATTR_NORMAL as u32);
    rule.attr.priority = 2;
    rule.attr.num_of_specs = 3;
    rule.attr.port = 1;
    rule.eth.r#type = CEnum::new(ibv_flow_spec_type::IBV_FLOW_SPEC_ETH as u32);
    rule.eth.size = size_of::<ibv_flow_spec_eth>() as u16;
    rule.ipv6.r#type = CEnum::new(ibv_flow_spec_type::IBV_FLOW_SPEC_IPV6 as u32);
    // The application's IPv6 filters are 6 bytes longer each than its struct's (46 bytes; the
    // kernel takes 39), so the mask starts at 8 + 46 and the action spec lands 8-aligned.
    rule.ipv6.size = (size_of::<ibv_flow_spec_ipv6>() + 12) as u16;
    rule.act.r#type = CEnum::new(ibv_flow_spec_type::IBV_FLOW_SPEC_ACTION_HANDLE as u32);
    rule.act.size = size_of::<ibv_flow_spec_action_handle>() as u16;
    rule.act.action = &action.action;
    let mut flow = zero::<ibv_flow>();
    let fake = Fake::new([Reply::WriteOk(
        [0u32.to_ne_bytes(), 50u32.to_ne_bytes()].concat(),
    )]);
    let ucmd = [0xaau8; 8];
    // SAFETY: the rule's specs follow its header, as in C.
    let r = unsafe {
        create_flow_with(
            Ctx::new(&fake, &st),
            &mut *qp,
            &mut *flow,
            &mut rule.attr,
            &ucmd,
        )
    };
    assert_eq!(r, 0);
    assert_eq!((flow.handle, flow.context), (50, qp.context));
    let req = &fake.writes()[0];
    type C = ib_uverbs_create_flow;
    let k = 24;
    let specs = size_of::<ib_uverbs_flow_spec_eth>() + size_of::<ib_uverbs_flow_spec_ipv6>() + 16;
    assert_eq!(u32_at(req, k + offset_of!(C, qp_handle)), 4);
    assert_eq!(
        u16_at(req, k + offset_of!(C, flow_attr) + 4) as usize,
        specs,
        "flow_attr.size: the kernel specs"
    );
    assert_eq!(req.len(), size_of::<ibv_create_flow>() + specs + ucmd.len());
    assert_eq!(
        u16_at(req, 4) as usize,
        (size_of::<ibv_create_flow>() + specs - 24) / 8,
        "in_words: core only"
    );
    assert_eq!(&req[req.len() - 8..], &ucmd);
    assert_eq!(
        u32_at(req, size_of::<ibv_create_flow>() + specs - 8),
        31,
        "the action's handle"
    );

    // A mask bit beyond what the kernel takes: EOPNOTSUPP, nothing sent.
    rule.extra[5] = 1;
    let fake = Fake::new([]);
    // SAFETY: the same live QP and rule buffer; the call refuses the mask before sending.
    let r = unsafe {
        create_flow_with(
            Ctx::new(&fake, &st),
            &mut *qp,
            &mut *flow,
            &mut rule.attr,
            &[],
        )
    };
    assert_eq!((r, errno()), (libc::EOPNOTSUPP, libc::EOPNOTSUPP));
    assert!(fake.calls().is_empty());
}
