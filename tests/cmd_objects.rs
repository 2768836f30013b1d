//! PD/MR/AH, CQ, QP and SRQ commands through the fake seam: ioctl attributes, write fallbacks
//! (including where the legacy request lands in the provider's buffer), destroy rules.

mod common;

use common::{Fake, Link, Links, Out, Reply, attr, u16_at, u32_at, u64_at};
use core::mem::offset_of;
use ibverbs::abi::ctype::CEnum;
use ibverbs::abi::kern_abi::*;
use ibverbs::abi::uapi::*;
use ibverbs::abi::verbs::*;
use ibverbs::cmd::ah::*;
use ibverbs::cmd::cq::*;
use ibverbs::cmd::mcast::*;
use ibverbs::cmd::mr::*;
use ibverbs::cmd::pd::*;
use ibverbs::cmd::qp::*;
use ibverbs::cmd::qp_attr::*;
use ibverbs::cmd::srq::*;
use ibverbs::cmd::{CmdState, Ctx, op};
use ibverbs::errno::Errno;
use ibverbs::sys::pod;

const RXE: u32 = 14;

fn ids(p: &common::Parsed) -> Vec<u16> {
    p.attrs.iter().map(|a| a.id).collect()
}

#[test]
fn alloc_pd_and_dealloc_pd() {
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([Reply::WriteOk(7u32.to_ne_bytes().to_vec())]);
    let (mut req, mut resp) = ([0u8; 16], [0u8; 4]);
    assert_eq!(alloc_pd(Ctx::new(&fake, &st), &mut req, &mut resp), Ok(7));
    let w = &fake.writes()[0];
    assert_eq!(
        (u32_at(w, 0), u16_at(w, 4), u16_at(w, 6)),
        (IB_USER_VERBS_CMD_ALLOC_PD, 4, 1)
    );

    // Destroy: ioctl by handle...
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    dealloc_pd(Ctx::new(&fake, &st), 7, false).unwrap();
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id, p.num_attrs),
        (UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, 1)
    );
    assert_eq!(
        (
            p.attrs[0].id,
            p.attrs[0].len,
            p.attrs[0].flags,
            p.attrs[0].data
        ),
        (UVERBS_ATTR_DESTROY_PD_HANDLE, 0, 1, 7)
    );
    // ...or write when the kernel lacks it.
    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::WriteOk(vec![]),
    ]);
    dealloc_pd(Ctx::new(&fake, &st), 7, false).unwrap();
    let w = &fake.writes()[0];
    assert_eq!(w.len(), 12);
    assert_eq!(
        (u32_at(w, 0), u16_at(w, 4), u16_at(w, 6), u32_at(w, 8)),
        (IB_USER_VERBS_CMD_DEALLOC_PD, 3, 0, 7)
    );
    // A disassociated device's EIO is forgiven only when allowed.
    let fake = Fake::new([Reply::WriteErr(libc::EIO), Reply::WriteErr(libc::EIO)]);
    assert_eq!(dealloc_pd(Ctx::new(&fake, &st), 7, true), Ok(()));
    assert_eq!(dealloc_pd(Ctx::new(&fake, &st), 7, false), Err(Errno::EIO));
}

#[test]
fn other_destroys_use_their_objects() {
    let st = CmdState::new(RXE, false);
    let fake = Fake::new((0..4).map(|_| Reply::IoctlOk(vec![])));
    let ctx = Ctx::new(&fake, &st);
    close_xrcd(ctx, 1, false).unwrap();
    dereg_mr(ctx, 2, false).unwrap();
    dealloc_mw(ctx, 3, false).unwrap();
    destroy_ah(ctx, 4, false).unwrap();
    let got: Vec<_> = fake
        .ioctls()
        .iter()
        .map(|p| (p.object_id, p.method_id, p.attrs[0].data))
        .collect();
    assert_eq!(
        got,
        [
            (UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_DESTROY, 1),
            (UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, 2),
            (UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY, 3),
            (UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY, 4),
        ]
    );
}

#[test]
fn reg_mr_fields_and_implicit_odp() {
    let st = CmdState::new(RXE, false);
    let mut r: ib_uverbs_reg_mr_resp = pod::zeroed();
    r.mr_handle = 5;
    r.lkey = 0x11;
    r.rkey = 0x22;
    let fake = Fake::new([
        Reply::WriteOk(pod::bytes(&r).to_vec()),
        Reply::WriteOk(pod::bytes(&r).to_vec()),
    ]);
    let mut req = [0u8; size_of::<ibv_reg_mr>()];
    let mut resp = [0u8; size_of::<ib_uverbs_reg_mr_resp>()];
    let k = reg_mr(
        Ctx::new(&fake, &st),
        9,
        0x1000,
        4096,
        0x2000,
        7,
        &mut req,
        &mut resp,
    )
    .unwrap();
    assert_eq!(
        k,
        MrKeys {
            handle: 5,
            lkey: 0x11,
            rkey: 0x22
        }
    );
    let w = &fake.writes()[0];
    let c = 8;
    assert_eq!(u64_at(w, c + offset_of!(ib_uverbs_reg_mr, start)), 0x1000);
    assert_eq!(u64_at(w, c + offset_of!(ib_uverbs_reg_mr, length)), 4096);
    assert_eq!(u64_at(w, c + offset_of!(ib_uverbs_reg_mr, hca_va)), 0x2000);
    assert_eq!(u32_at(w, c + offset_of!(ib_uverbs_reg_mr, pd_handle)), 9);
    assert_eq!(u32_at(w, c + offset_of!(ib_uverbs_reg_mr, access_flags)), 7);
    // Implicit ODP: SIZE_MAX length goes out as u64::MAX, and needs a NULL address.
    let odp = ibv_access_flags::IBV_ACCESS_ON_DEMAND as i32;
    reg_mr(
        Ctx::new(&fake, &st),
        9,
        0,
        usize::MAX,
        0,
        odp,
        &mut req,
        &mut resp,
    )
    .unwrap();
    assert_eq!(
        u64_at(&fake.writes()[1], c + offset_of!(ib_uverbs_reg_mr, length)),
        u64::MAX
    );
    assert_eq!(
        reg_mr(
            Ctx::new(&fake, &st),
            9,
            0x1000,
            usize::MAX,
            0,
            odp,
            &mut req,
            &mut resp
        ),
        Err(Errno::EINVAL)
    );
}

#[test]
fn open_xrcd_checks_comp_mask() {
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([]);
    let (mut req, mut resp) = ([0u8; 24], [0u8; 8]);
    assert_eq!(
        open_xrcd(Ctx::new(&fake, &st), 4, 3, 0, &mut req, &mut resp),
        Err(Errno::EOPNOTSUPP)
    );
    assert_eq!(
        open_xrcd(Ctx::new(&fake, &st), 1, 3, 0, &mut req, &mut resp),
        Err(Errno::EINVAL)
    );
    let fake = Fake::new([Reply::WriteOk(common::ne32(&[6]))]);
    assert_eq!(
        open_xrcd(Ctx::new(&fake, &st), 3, 3, 0x40, &mut req, &mut resp),
        Ok(6)
    );
    let w = &fake.writes()[0];
    assert_eq!((u32_at(w, 16), u32_at(w, 20)), (3, 0x40));
}

fn gid(b: u8) -> ibv_gid {
    ibv_gid { raw: [b; 16] }
}

#[test]
fn create_ah_and_mcast() {
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([
        Reply::WriteOk(common::ne32(&[3])),
        Reply::WriteOk(vec![]),
        Reply::WriteOk(vec![]),
    ]);
    let ctx = Ctx::new(&fake, &st);
    let attr = ibv_ah_attr {
        grh: ibv_global_route {
            dgid: gid(0xab),
            flow_label: 5,
            sgid_index: 1,
            hop_limit: 64,
            traffic_class: 2,
        },
        dlid: 0x10,
        sl: 3,
        src_path_bits: 0,
        static_rate: 7,
        is_global: 1,
        port_num: 1,
    };
    let mut resp = [0u8; 4];
    assert_eq!(create_ah(ctx, 2, 0xdead, &attr, &mut resp), Ok(3));
    let w = &fake.writes()[0];
    assert_eq!(w.len(), size_of::<ibv_create_ah>());
    let c = 8;
    assert_eq!(
        u64_at(w, c + offset_of!(ib_uverbs_create_ah, user_handle)),
        0xdead
    );
    assert_eq!(u32_at(w, c + offset_of!(ib_uverbs_create_ah, pd_handle)), 2);
    let av = c + offset_of!(ib_uverbs_create_ah, attr);
    assert_eq!(&w[av..av + 16], &[0xab; 16]);
    assert_eq!(u32_at(w, av + 16), 5);
    assert_eq!(&w[av + 20..av + 24], &[1, 64, 2, 0]);
    assert_eq!(u16_at(w, av + 24), 0x10);
    assert_eq!(&w[av + 26..av + 32], &[3, 0, 7, 1, 1, 0]);

    attach_mcast(ctx, 9, &gid(0xcd), 0xc001).unwrap();
    detach_mcast(ctx, 9, &gid(0xcd), 0xc001, false).unwrap();
    for (w, cmd) in fake.writes()[1..].iter().zip([
        IB_USER_VERBS_CMD_ATTACH_MCAST,
        IB_USER_VERBS_CMD_DETACH_MCAST,
    ]) {
        assert_eq!((w.len(), u32_at(w, 0), u16_at(w, 6)), (32, cmd, 0));
        assert_eq!(&w[8..24], &[0xcd; 16]);
        assert_eq!((u32_at(w, 24), u16_at(w, 28)), (9, 0xc001));
    }
}

fn cq_init() -> CqInit {
    CqInit {
        cqe: 64,
        channel_fd: Some(11),
        comp_vector: 1,
        user_handle: 0x5000,
        async_fd: 12,
        imported: false,
        buffer: None,
    }
}

#[test]
fn create_cq_over_ioctl() {
    let st = CmdState::new(RXE, true);
    let fake = Fake::new([Reply::IoctlOk(vec![
        (UVERBS_ATTR_CREATE_CQ_HANDLE, Out::Data(21)),
        (
            UVERBS_ATTR_CREATE_CQ_RESP_CQE,
            Out::Bytes(127u32.to_ne_bytes().to_vec()),
        ),
    ])]);
    let mut req = [0u8; size_of::<ibv_create_cq>() + 8];
    let mut resp = [0u8; size_of::<ib_uverbs_create_cq_resp>()];
    let c = create_cq(Ctx::new(&fake, &st), &cq_init(), &mut req, &mut resp).unwrap();
    assert_eq!(
        c,
        CqCreated {
            handle: 21,
            cqe: 127
        }
    );
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id),
        (UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE)
    );
    assert_eq!(
        ids(p),
        [
            UVERBS_ATTR_CREATE_CQ_HANDLE,
            UVERBS_ATTR_CREATE_CQ_RESP_CQE,
            UVERBS_ATTR_CREATE_CQ_CQE,
            UVERBS_ATTR_CREATE_CQ_USER_HANDLE,
            UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL,
            UVERBS_ATTR_CREATE_CQ_COMP_VECTOR,
            UVERBS_ATTR_CREATE_CQ_EVENT_FD,
            UVERBS_ATTR_UHW_IN,
        ]
    );
    assert_eq!((p.attrs[2].len, p.attrs[2].value()), (4, 64));
    assert_eq!(p.attrs[3].data, 0x5000);
    assert_eq!(p.attrs[4].data, 11);
    assert_eq!(
        (p.attrs[6].data, p.attrs[6].flags),
        (12, 0),
        "the async fd is optional"
    );
}

#[test]
fn create_cq_legacy_write_lands_before_the_driver_data() {
    let st = CmdState::new(RXE, false);
    let mut kresp: ib_uverbs_create_cq_resp = pod::zeroed();
    kresp.cq_handle = 4;
    kresp.cqe = 63;
    let mut kbytes = pod::bytes(&kresp).to_vec();
    kbytes.extend_from_slice(&[0xee; 8]);
    let fake = Fake::new([Reply::IoctlErr(libc::ENOTTY), Reply::WriteOk(kbytes)]);
    let core = size_of::<ibv_create_cq>();
    let mut req = vec![0x55u8; core + 8];
    let mut resp = vec![0u8; size_of::<ib_uverbs_create_cq_resp>() + 8];
    let c = create_cq(Ctx::new(&fake, &st), &cq_init(), &mut req, &mut resp).unwrap();
    assert_eq!(c, CqCreated { handle: 4, cqe: 63 });
    let w = &fake.writes()[0];
    assert_eq!(
        w, &req,
        "the write is the provider's own buffer, header and core filled in"
    );
    assert_eq!(
        (u32_at(w, 0), u16_at(w, 4), u16_at(w, 6)),
        (IB_USER_VERBS_CMD_CREATE_CQ, (core as u16 + 8) / 4, 4)
    );
    assert_eq!(u64_at(w, 8), resp.as_ptr() as u64);
    let k = 8;
    assert_eq!(
        u64_at(w, k + offset_of!(ib_uverbs_create_cq, user_handle)),
        0x5000
    );
    assert_eq!(u32_at(w, k + offset_of!(ib_uverbs_create_cq, cqe)), 64);
    assert_eq!(
        u32_at(w, k + offset_of!(ib_uverbs_create_cq, comp_channel)),
        11
    );
    assert_eq!(
        u32_at(w, k + offset_of!(ib_uverbs_create_cq, reserved)),
        0,
        "core zeroed"
    );
    assert_eq!(&w[core..], &[0x55; 8], "driver data untouched");
    assert_eq!(&resp[8..], &[0xee; 8]);
}

#[test]
fn create_cq_ex_flags_choose_the_extended_write() {
    assert_eq!(cq_ex_flags(4, 0, 0), Err(Errno::EOPNOTSUPP));
    let ts = ibv_create_cq_wc_flags::IBV_WC_EX_WITH_COMPLETION_TIMESTAMP as u64;
    assert_eq!(cq_ex_flags(0, ts, 0), Ok(1));
    assert_eq!(cq_ex_flags(1, 0, 2), Ok(2));
    assert_eq!(
        cq_ex_flags(0, 0, 2),
        Ok(0),
        "IGNORE_OVERRUN needs the FLAGS bit"
    );

    let st = CmdState::new(RXE, false);
    let mut kresp: ib_uverbs_ex_create_cq_resp = pod::zeroed();
    kresp.base.cq_handle = 8;
    kresp.base.cqe = 255;
    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::WriteOk(pod::bytes(&kresp).to_vec()),
    ]);
    let core = size_of::<ibv_create_cq_ex>();
    let mut req = vec![0u8; core];
    let mut resp = vec![0u8; size_of::<ib_uverbs_ex_create_cq_resp>()];
    let c = create_cq_ex(
        Ctx::new(&fake, &st),
        &cq_init(),
        0,
        ts,
        0,
        0,
        &mut req,
        &mut resp,
        None,
    )
    .unwrap();
    assert_eq!(
        c,
        CqCreated {
            handle: 8,
            cqe: 255
        }
    );
    let p = &fake.ioctls()[0];
    assert_eq!(*ids(p).last().unwrap(), UVERBS_ATTR_CREATE_CQ_FLAGS);
    let w = &fake.writes()[0];
    assert_eq!(w.len(), core);
    assert_eq!(
        u32_at(w, 0),
        IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_CQ
    );
    assert_eq!(
        (u16_at(w, 4), u16_at(w, 6), u16_at(w, 16), u16_at(w, 18)),
        (4, 2, 0, 0)
    );
    assert_eq!(u32_at(w, 24 + offset_of!(ib_uverbs_ex_create_cq, flags)), 1);
    // With the provider saying it ignores timestamps, the legacy write will do, and it is
    // assembled inside the provider's extended struct, right before the driver data.
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::WriteOk(pod::bytes(&kresp.base).to_vec()),
    ]);
    let mut req = vec![0x77u8; core + 8];
    let mut resp = vec![0u8; size_of::<ib_uverbs_ex_create_cq_resp>()];
    let ts_ignored = create_cq_cmd_flags_ts();
    create_cq_ex(
        Ctx::new(&fake, &st),
        &cq_init(),
        0,
        ts,
        0,
        ts_ignored,
        &mut req,
        &mut resp,
        None,
    )
    .unwrap();
    let w = &fake.writes()[0];
    let legacy = size_of::<ibv_create_cq>();
    assert_eq!(w.len(), legacy + 8);
    assert_eq!(w.as_slice(), &req[core - legacy..]);
    assert_eq!(u32_at(w, 0), IB_USER_VERBS_CMD_CREATE_CQ);
}

/// Provider ABI 59 on: a CQ ring the provider allocated goes to the kernel as the BUFFER
/// attributes (a virtual address, or a dma-buf and offset, and the length), and only over ioctl:
/// a kernel without the method fails the command (no write fallback), as in rdma-core.
#[test]
fn create_cq_ex_with_the_providers_ring() {
    let core = size_of::<ibv_create_cq_ex>();
    for (buffer, want) in [
        (
            CqBuffer::Va {
                addr: 0x7000_0000,
                length: 0x4000,
            },
            vec![
                (UVERBS_ATTR_CREATE_CQ_BUFFER_VA, 0x7000_0000u64),
                (UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH, 0x4000),
            ],
        ),
        (
            CqBuffer::Dmabuf {
                fd: 33,
                offset: 0x100,
                length: 0x2000,
            },
            vec![
                (UVERBS_ATTR_CREATE_CQ_BUFFER_FD, 33),
                (UVERBS_ATTR_CREATE_CQ_BUFFER_OFFSET, 0x100),
                (UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH, 0x2000),
            ],
        ),
    ] {
        let a = CqInit {
            buffer: Some(buffer),
            ..cq_init()
        };
        let st = CmdState::new(RXE, false);
        let fake = Fake::new([Reply::IoctlOk(vec![(
            UVERBS_ATTR_CREATE_CQ_HANDLE,
            Out::Data(5),
        )])]);
        let (mut req, mut resp) = (vec![0u8; core], vec![0u8; 32]);
        let c = create_cq_ex(
            Ctx::new(&fake, &st),
            &a,
            0,
            0,
            0,
            0,
            &mut req,
            &mut resp,
            None,
        )
        .unwrap();
        assert_eq!(c.handle, 5);
        let p = &fake.ioctls()[0];
        let got: Vec<(u16, u64)> = p
            .attrs
            .iter()
            .filter(|a| {
                (UVERBS_ATTR_CREATE_CQ_BUFFER_VA..=UVERBS_ATTR_CREATE_CQ_BUFFER_OFFSET)
                    .contains(&a.id)
            })
            .map(|a| (a.id, a.data))
            .collect();
        assert_eq!(got, want, "{buffer:?}");
        // No ioctl interface: the command fails, nothing is written.
        let st = CmdState::new(RXE, false);
        let fake = Fake::new([Reply::IoctlErr(libc::ENOTTY)]);
        let r = create_cq_ex(
            Ctx::new(&fake, &st),
            &a,
            0,
            0,
            0,
            0,
            &mut req,
            &mut resp,
            None,
        );
        assert!(r.is_err(), "{buffer:?}: {r:?}");
        assert!(fake.writes().is_empty(), "{buffer:?}: no write fallback");
    }
}

fn create_cq_cmd_flags_ts() -> u32 {
    ibverbs::abi::driver::create_cq_cmd_flags::CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX as u32
}

#[test]
fn create_cq_ex2_links_the_driver_chain_after_compat() {
    let st = CmdState::new(RXE, true);
    let fake = Fake::new([Reply::IoctlOk(vec![(0x1010, Out::Data(42))])]);
    let mut drv = Links(vec![Link::of([attr(0x1010, 0, 0)])]);
    let mut req = vec![0u8; size_of::<ibv_create_cq_ex>() + 8];
    let mut resp = vec![0u8; size_of::<ib_uverbs_ex_create_cq_resp>()];
    create_cq_ex(
        Ctx::new(&fake, &st),
        &cq_init(),
        0,
        0,
        0,
        0,
        &mut req,
        &mut resp,
        Some(&mut drv),
    )
    .unwrap();
    let p = &fake.ioctls()[0];
    let n = ids(p).len();
    assert_eq!(&ids(p)[n - 2..], &[UVERBS_ATTR_UHW_IN, 0x1010]);
    assert_eq!(drv.0[0].attrs[0].data, 42);
    // An imported context never falls back.
    let fake = Fake::new([Reply::IoctlErr(libc::ENOTTY)]);
    let a = CqInit {
        imported: true,
        ..cq_init()
    };
    assert_eq!(
        create_cq(Ctx::new(&fake, &st), &a, &mut [0u8; 40], &mut [0u8; 8]),
        Err(Errno::EOPNOTSUPP)
    );
}

#[test]
fn destroy_cq_reports_event_counts() {
    let st = CmdState::new(RXE, false);
    let mut r: ib_uverbs_destroy_cq_resp = pod::zeroed();
    r.comp_events_reported = 3;
    r.async_events_reported = 1;
    let fake = Fake::new([Reply::IoctlOk(vec![(
        UVERBS_ATTR_DESTROY_CQ_RESP,
        Out::Bytes(pod::bytes(&r).to_vec()),
    )])]);
    assert_eq!(destroy_cq(Ctx::new(&fake, &st), 5, false), Ok(Some((3, 1))));
    assert_eq!(
        ids(&fake.ioctls()[0]),
        [UVERBS_ATTR_DESTROY_CQ_RESP, UVERBS_ATTR_DESTROY_CQ_HANDLE]
    );
    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::WriteOk(pod::bytes(&r).to_vec()),
    ]);
    assert_eq!(destroy_cq(Ctx::new(&fake, &st), 5, false), Ok(Some((3, 1))));
    let w = &fake.writes()[0];
    assert_eq!(
        (
            w.len(),
            u32_at(w, 0),
            u16_at(w, 4),
            u16_at(w, 6),
            u32_at(w, 16)
        ),
        (24, IB_USER_VERBS_CMD_DESTROY_CQ, 6, 2, 5)
    );
    assert!(st.is_unsupported(op::DESTROY_CQ));
    let fake = Fake::new([Reply::WriteErr(libc::EIO)]);
    assert_eq!(destroy_cq(Ctx::new(&fake, &st), 5, true), Ok(None));
}

#[test]
fn small_cq_commands() {
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([
        Reply::WriteOk(vec![]),
        Reply::WriteOk(100u32.to_ne_bytes().to_vec()),
        Reply::WriteOk(vec![]),
    ]);
    let ctx = Ctx::new(&fake, &st);
    req_notify_cq(ctx, 5, true).unwrap();
    let mut req = [0u8; size_of::<ibv_resize_cq>()];
    let mut resp = [0u8; size_of::<ib_uverbs_resize_cq_resp>()];
    assert_eq!(resize_cq(ctx, 5, 99, &mut req, &mut resp), Ok(100));
    let mut mreq = [0u8; size_of::<ibv_modify_cq>()];
    assert_eq!(modify_cq(ctx, 5, 2, 1, 2, &mut mreq), Err(Errno::EINVAL));
    modify_cq(ctx, 5, 1, 16, 8, &mut mreq).unwrap();
    let w = fake.writes();
    assert_eq!(
        (
            w[0].len(),
            u32_at(&w[0], 0),
            u32_at(&w[0], 8),
            u32_at(&w[0], 12)
        ),
        (16, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, 5, 1)
    );
    assert_eq!(
        (u32_at(&w[1], 0), u32_at(&w[1], 16), u32_at(&w[1], 20)),
        (IB_USER_VERBS_CMD_RESIZE_CQ, 5, 99)
    );
    assert_eq!(
        u32_at(&w[2], 0),
        IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_CQ
    );
    assert_eq!((u16_at(&w[2], 4), u16_at(&w[2], 6)), (2, 0));
    assert_eq!(
        (
            u32_at(&w[2], 24),
            u32_at(&w[2], 28),
            u16_at(&w[2], 32),
            u16_at(&w[2], 34)
        ),
        (5, 1, 16, 8)
    );
}

#[test]
fn poll_cq_decodes_completions() {
    let st = CmdState::new(RXE, false);
    let mut resp = vec![0u8; 8];
    resp[..4].copy_from_slice(&2u32.to_ne_bytes());
    for i in 0..2u64 {
        let mut w: ib_uverbs_wc = pod::zeroed();
        w.wr_id = 100 + i;
        w.byte_len = 64;
        w.ex = ib_uverbs_wc_ex { imm_data: 0x1234 };
        w.qp_num = 17;
        w.sl = 2;
        resp.extend_from_slice(pod::bytes(&w));
    }
    let fake = Fake::new([Reply::WriteOk(resp)]);
    let wcs = poll_cq(Ctx::new(&fake, &st), 5, 4).unwrap();
    assert_eq!(wcs.len(), 2);
    assert_eq!(
        (wcs[1].wr_id, wcs[1].byte_len, wcs[1].qp_num, wcs[1].sl),
        (101, 64, 17, 2)
    );
    assert_eq!(pod::read::<u32>(pod::bytes(&ibv_gid { raw: [0; 16] })), 0);
    let w = &fake.writes()[0];
    assert_eq!(
        (w.len(), u32_at(w, 0), u16_at(w, 4), u16_at(w, 6)),
        (24, IB_USER_VERBS_CMD_POLL_CQ, 6, (8 + 4 * 48) / 4)
    );
    assert_eq!((u32_at(w, 16), u32_at(w, 20)), (5, 4));
}

fn qp_init() -> QpInit {
    QpInit {
        qp_type: ibv_qp_type::IBV_QPT_RC as u32,
        comp_mask: ibv_qp_init_attr_mask::IBV_QP_INIT_ATTR_PD as u32,
        pd_handle: Some(1),
        send_cq_handle: Some(2),
        recv_cq_handle: Some(3),
        cap: QpCap {
            max_send_wr: 16,
            max_recv_wr: 8,
            max_send_sge: 2,
            max_recv_sge: 1,
            max_inline_data: 64,
        },
        sq_sig_all: 1,
        user_handle: 0x7000,
        async_fd: 12,
        ..QpInit::default()
    }
}

#[test]
fn create_qp_over_ioctl() {
    let st = CmdState::new(RXE, true);
    let granted = ib_uverbs_qp_cap {
        max_send_wr: 32,
        max_recv_wr: 8,
        max_send_sge: 2,
        max_recv_sge: 1,
        max_inline_data: 128,
    };
    let fake = Fake::new([Reply::IoctlOk(vec![
        (UVERBS_ATTR_CREATE_QP_HANDLE, Out::Data(9)),
        (
            UVERBS_ATTR_CREATE_QP_RESP_CAP,
            Out::Bytes(pod::bytes(&granted).to_vec()),
        ),
        (
            UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
            Out::Bytes(0x11u32.to_ne_bytes().to_vec()),
        ),
    ])]);
    let mut req = vec![0u8; size_of::<ibv_create_qp>()];
    let mut resp = vec![0u8; size_of::<ib_uverbs_create_qp_resp>()];
    let q = create_qp(Ctx::new(&fake, &st), &qp_init(), &mut req, &mut resp).unwrap();
    assert_eq!(
        (q.handle, q.qp_num, q.cap.max_send_wr, q.cap.max_inline_data),
        (9, 0x11, 32, 128)
    );
    let p = &fake.ioctls()[0];
    assert_eq!(
        ids(p),
        [
            UVERBS_ATTR_CREATE_QP_PD_HANDLE,
            UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE,
            UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE,
            UVERBS_ATTR_CREATE_QP_HANDLE,
            UVERBS_ATTR_CREATE_QP_TYPE,
            UVERBS_ATTR_CREATE_QP_USER_HANDLE,
            UVERBS_ATTR_CREATE_QP_CAP,
            UVERBS_ATTR_CREATE_QP_EVENT_FD,
            UVERBS_ATTR_CREATE_QP_FLAGS,
            UVERBS_ATTR_CREATE_QP_RESP_CAP,
            UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
        ]
    );
    assert_eq!(p.attrs[6].len, 20);
    assert_eq!(
        (p.attrs[8].len, p.attrs[8].value()),
        (4, 1 << 12),
        "sq_sig_all as a create flag"
    );
    assert_eq!(p.attrs[7].flags, 1, "the QP's async fd stays mandatory");
}

#[test]
fn create_qp_checks_and_write_fallback() {
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([]);
    let (mut req, mut resp) = (vec![0u8; 64], vec![0u8; 32]);
    let no_pd = QpInit {
        pd_handle: None,
        ..qp_init()
    };
    assert_eq!(
        create_qp(Ctx::new(&fake, &st), &no_pd, &mut req, &mut resp),
        Err(Errno::EINVAL)
    );
    let bad = QpInit {
        qp_type: 77,
        ..qp_init()
    };
    assert_eq!(
        create_qp(Ctx::new(&fake, &st), &bad, &mut req, &mut resp),
        Err(Errno::EINVAL)
    );
    let ex = QpInit {
        comp_mask: 1 | (1 << 2),
        ..qp_init()
    };
    assert_eq!(
        create_qp_ex(Ctx::new(&fake, &st), &ex, &mut req, &mut resp),
        Err(Errno::EINVAL)
    );
    assert!(fake.calls().is_empty());

    let mut kr: ib_uverbs_create_qp_resp = pod::zeroed();
    kr.qp_handle = 3;
    kr.qpn = 0x12;
    kr.max_send_wr = 20;
    let fake = Fake::new([
        Reply::IoctlErr(libc::ENOTTY),
        Reply::WriteOk(pod::bytes(&kr).to_vec()),
    ]);
    let mut req = vec![0u8; size_of::<ibv_create_qp>()];
    let mut resp = vec![0u8; size_of::<ib_uverbs_create_qp_resp>()];
    let xrc = QpInit {
        qp_type: ibv_qp_type::IBV_QPT_XRC_SEND as u32,
        ..qp_init()
    };
    let q = create_qp(Ctx::new(&fake, &st), &xrc, &mut req, &mut resp).unwrap();
    assert_eq!((q.handle, q.qp_num, q.cap.max_send_wr), (3, 0x12, 20));
    let p = &fake.ioctls()[0];
    assert!(
        !ids(p).contains(&UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE),
        "XRC send QPs have no receive CQ"
    );
    let w = &fake.writes()[0];
    type C = ib_uverbs_create_qp;
    let k = 8;
    assert_eq!(u32_at(w, 0), IB_USER_VERBS_CMD_CREATE_QP);
    assert_eq!(u32_at(w, k + offset_of!(C, pd_handle)), 1);
    assert_eq!(u32_at(w, k + offset_of!(C, send_cq_handle)), 2);
    assert_eq!(u32_at(w, k + offset_of!(C, recv_cq_handle)), 0);
    assert_eq!(
        u32_at(w, k + offset_of!(C, max_recv_wr)),
        0,
        "XRC send: no receive queue"
    );
    assert_eq!(w[k + offset_of!(C, qp_type)], 9);
    assert_eq!(w[k + offset_of!(C, sq_sig_all)], 1);
}

#[test]
fn create_qp_ex2_with_create_flags_writes_extended() {
    let st = CmdState::new(RXE, false);
    let mut kr: ib_uverbs_ex_create_qp_resp = pod::zeroed();
    kr.base.qp_handle = 4;
    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::WriteOk(pod::bytes(&kr).to_vec()),
    ]);
    let a = QpInit {
        comp_mask: 1 | (1 << 2),
        create_flags: ibv_qp_create_flags::IBV_QP_CREATE_SOURCE_QPN as u32,
        source_qpn: 0x99,
        ..qp_init()
    };
    let mut req = vec![0u8; size_of::<ibv_create_qp_ex>()];
    let mut resp = vec![0u8; size_of::<ib_uverbs_ex_create_qp_resp>()];
    assert_eq!(
        create_qp_ex2(Ctx::new(&fake, &st), &a, &mut req, &mut resp)
            .unwrap()
            .handle,
        4
    );
    let p = &fake.ioctls()[0];
    let i = ids(p)
        .iter()
        .position(|&x| x == UVERBS_ATTR_CREATE_QP_SOURCE_QPN)
        .unwrap();
    assert_eq!(p.attrs[i].value(), 0x99);
    let f = ids(p)
        .iter()
        .position(|&x| x == UVERBS_ATTR_CREATE_QP_FLAGS)
        .unwrap();
    assert_eq!(
        p.attrs[f].value(),
        1 << 12,
        "SOURCE_QPN travels as its own attribute"
    );
    let w = &fake.writes()[0];
    type X = ib_uverbs_ex_create_qp;
    assert_eq!(
        u32_at(w, 0),
        IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP
    );
    assert_eq!(u32_at(w, 24 + offset_of!(X, create_flags)), 1 << 10);
    assert_eq!(u32_at(w, 24 + offset_of!(X, source_qpn)), 0x99);
    assert_eq!(u16_at(w, 4), (size_of::<X>() / 8) as u16);
}

fn qp_attr() -> ibv_qp_attr {
    let ah = ibv_ah_attr {
        grh: ibv_global_route {
            dgid: gid(0x11),
            flow_label: 1,
            sgid_index: 2,
            hop_limit: 3,
            traffic_class: 4,
        },
        dlid: 5,
        sl: 6,
        src_path_bits: 7,
        static_rate: 8,
        is_global: 1,
        port_num: 1,
    };
    ibv_qp_attr {
        qp_state: CEnum::new(3),
        cur_qp_state: CEnum::new(2),
        path_mtu: CEnum::new(3),
        path_mig_state: CEnum::new(0),
        qkey: 0x1111,
        rq_psn: 7,
        sq_psn: 8,
        dest_qp_num: 0x22,
        qp_access_flags: 6,
        cap: ibv_qp_cap {
            max_send_wr: 0,
            max_recv_wr: 0,
            max_send_sge: 0,
            max_recv_sge: 0,
            max_inline_data: 0,
        },
        ah_attr: ah,
        alt_ah_attr: ah,
        pkey_index: 1,
        alt_pkey_index: 2,
        en_sqd_async_notify: 0,
        sq_draining: 0,
        max_rd_atomic: 4,
        max_dest_rd_atomic: 5,
        min_rnr_timer: 12,
        port_num: 1,
        timeout: 14,
        retry_cnt: 7,
        rnr_retry: 6,
        alt_port_num: 1,
        alt_timeout: 3,
        rate_limit: 1000,
    }
}

#[test]
fn modify_qp_writes_only_masked_fields() {
    use ibv_qp_attr_mask::*;
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([Reply::WriteOk(vec![])]);
    type M = ib_uverbs_modify_qp;
    let mut req = vec![0xffu8; size_of::<ibv_modify_qp>()];
    let mask = (IBV_QP_STATE as u32 | IBV_QP_AV as u32 | IBV_QP_DEST_QPN as u32) as i32;
    modify_qp(Ctx::new(&fake, &st), 9, &qp_attr(), mask, &mut req).unwrap();
    let w = &fake.writes()[0];
    let k = 8;
    assert_eq!(
        (u32_at(w, 0), u16_at(w, 4), u16_at(w, 6)),
        (
            IB_USER_VERBS_CMD_MODIFY_QP,
            (size_of::<ibv_modify_qp>() / 4) as u16,
            0
        )
    );
    assert_eq!(u32_at(w, k + offset_of!(M, qp_handle)), 9);
    assert_eq!(u32_at(w, k + offset_of!(M, attr_mask)), mask as u32);
    assert_eq!(w[k + offset_of!(M, qp_state)], 3);
    assert_eq!(u32_at(w, k + offset_of!(M, dest_qp_num)), 0x22);
    let d = k + offset_of!(M, dest);
    assert_eq!(&w[d..d + 16], &[0x11; 16]);
    assert_eq!(u16_at(w, d + offset_of!(ib_uverbs_qp_dest, reserved)), 0);
    assert_eq!(w[d + offset_of!(ib_uverbs_qp_dest, port_num)], 1);
    assert_eq!(
        u32_at(w, k + offset_of!(M, qkey)),
        0xffff_ffff,
        "unmasked: the provider's bytes"
    );
    assert_eq!(w[k + offset_of!(M, alt_dest)], 0xff);
    assert_eq!(
        &w[k + offset_of!(M, reserved)..k + offset_of!(M, reserved) + 2],
        &[0, 0]
    );
    let mut req = vec![0u8; size_of::<ibv_modify_qp>()];
    assert_eq!(
        modify_qp(
            Ctx::new(&fake, &st),
            9,
            &qp_attr(),
            IBV_QP_RATE_LIMIT as i32,
            &mut req
        ),
        Err(Errno::EOPNOTSUPP)
    );
}

#[test]
fn modify_qp_ex_rate_limit() {
    use ibv_qp_attr_mask::*;
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([Reply::WriteOk(vec![])]);
    let mut req = vec![0u8; size_of::<ibv_modify_qp_ex>()];
    let mut resp = vec![0u8; size_of::<ib_uverbs_ex_modify_qp_resp>()];
    modify_qp_ex(
        Ctx::new(&fake, &st),
        9,
        &qp_attr(),
        IBV_QP_RATE_LIMIT as i32,
        &mut req,
        &mut resp,
    )
    .unwrap();
    let w = &fake.writes()[0];
    assert_eq!(
        u32_at(w, 0),
        IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_QP
    );
    assert_eq!(
        u32_at(w, 24 + offset_of!(ib_uverbs_ex_modify_qp, rate_limit)),
        1000
    );
    let mut short = vec![0u8; 24 + size_of::<ib_uverbs_modify_qp>()];
    assert_eq!(
        modify_qp_ex(
            Ctx::new(&fake, &st),
            9,
            &qp_attr(),
            IBV_QP_RATE_LIMIT as i32,
            &mut short,
            &mut resp
        ),
        Err(Errno::EINVAL)
    );
}

#[test]
fn query_qp_decodes() {
    let st = CmdState::new(RXE, false);
    let mut r: ib_uverbs_query_qp_resp = pod::zeroed();
    r.qp_state = 3;
    r.qkey = 0x1111;
    r.max_inline_data = 64;
    r.sq_sig_all = 1;
    r.dest.dgid = [0x22; 16];
    r.dest.dlid = 5;
    r.alt_dest.port_num = 2;
    let fake = Fake::new([Reply::WriteOk(pod::bytes(&r).to_vec())]);
    let mut attr = qp_attr();
    let mut req = vec![0u8; size_of::<ibv_query_qp>()];
    let rep = query_qp(Ctx::new(&fake, &st), 9, 1, &mut req, &mut attr).unwrap();
    assert_eq!((rep.cap.max_inline_data, rep.sq_sig_all), (64, 1));
    assert_eq!(
        (attr.qp_state.raw(), attr.qkey, attr.cap.max_inline_data),
        (3, 0x1111, 64)
    );
    assert_eq!(pod::bytes(&attr.ah_attr.grh.dgid), &[0x22; 16]);
    assert_eq!((attr.ah_attr.dlid, attr.alt_ah_attr.port_num), (5, 2));
    assert_eq!(attr.rate_limit, 1000, "not part of the legacy answer");
    let w = &fake.writes()[0];
    assert_eq!(
        (u32_at(w, 0), u32_at(w, 16), u32_at(w, 20)),
        (IB_USER_VERBS_CMD_QUERY_QP, 9, 1)
    );
}

#[test]
fn destroy_qp_and_open_qp() {
    let st = CmdState::new(RXE, true);
    let fake = Fake::new([Reply::IoctlOk(vec![(
        UVERBS_ATTR_DESTROY_QP_RESP,
        Out::Bytes(4u32.to_ne_bytes().to_vec()),
    )])]);
    assert_eq!(destroy_qp(Ctx::new(&fake, &st), 9, false), Ok(Some(4)));
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.attrs[0].id, p.attrs[0].len),
        (UVERBS_ATTR_DESTROY_QP_RESP, 4)
    );
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([Reply::WriteOk(common::ne32(&[3]))]);
    let (mut req, mut resp) = (
        vec![0u8; size_of::<ibv_open_qp>()],
        vec![0u8; size_of::<ib_uverbs_create_qp_resp>()],
    );
    assert_eq!(
        open_qp(Ctx::new(&fake, &st), 16, 1, 2, 9, 0, &mut req, &mut resp),
        Err(Errno::EOPNOTSUPP)
    );
    assert_eq!(
        open_qp(Ctx::new(&fake, &st), 1, 1, 2, 9, 0, &mut req, &mut resp),
        Err(Errno::EINVAL)
    );
    assert_eq!(
        open_qp(
            Ctx::new(&fake, &st),
            0xb,
            1,
            2,
            9,
            0x50,
            &mut req,
            &mut resp
        ),
        Ok(3)
    );
    let w = &fake.writes()[0];
    type O = ib_uverbs_open_qp;
    assert_eq!(u32_at(w, 0), IB_USER_VERBS_CMD_OPEN_QP);
    assert_eq!(u64_at(w, 8 + offset_of!(O, user_handle)), 0x50);
    assert_eq!(
        (
            u32_at(w, 8 + offset_of!(O, pd_handle)),
            u32_at(w, 8 + offset_of!(O, qpn)),
            w[8 + offset_of!(O, qp_type)]
        ),
        (1, 2, 9)
    );
}

fn srq_init() -> SrqInit {
    SrqInit {
        pd_handle: 1,
        max_wr: 64,
        max_sge: 2,
        srq_limit: 0,
        user_handle: 0x9000,
        async_fd: 12,
        ..SrqInit::default()
    }
}

#[test]
fn srq_commands() {
    let st = CmdState::new(RXE, true);
    let fake = Fake::new([Reply::IoctlOk(vec![
        (UVERBS_ATTR_CREATE_SRQ_HANDLE, Out::Data(6)),
        (
            UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR,
            Out::Bytes(128u32.to_ne_bytes().to_vec()),
        ),
        (
            UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE,
            Out::Bytes(3u32.to_ne_bytes().to_vec()),
        ),
    ])]);
    let mut req = vec![0u8; size_of::<ibv_create_srq>()];
    let mut resp = vec![0u8; size_of::<ib_uverbs_create_srq_resp>()];
    let s = create_srq(Ctx::new(&fake, &st), &srq_init(), &mut req, &mut resp).unwrap();
    assert_eq!(
        s,
        SrqCreated {
            handle: 6,
            max_wr: 128,
            max_sge: 3,
            srq_num: 0
        }
    );
    let p = &fake.ioctls()[0];
    assert_eq!(
        ids(p)[..2],
        [UVERBS_ATTR_CREATE_SRQ_HANDLE, UVERBS_ATTR_CREATE_SRQ_TYPE]
    );
    // XRC SRQ over write: the XSRQ command with XRCD and CQ.
    let mut kr: ib_uverbs_create_srq_resp = pod::zeroed();
    kr.srq_handle = 7;
    kr.srqn = 0x33;
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([
        Reply::IoctlErr(libc::ENOTTY),
        Reply::WriteOk(pod::bytes(&kr).to_vec()),
    ]);
    let a = SrqInit {
        comp_mask: 0xf,
        srq_type: ibv_srq_type::IBV_SRQT_XRC as u32,
        xrcd_handle: Some(4),
        cq_handle: Some(5),
        ..srq_init()
    };
    let mut req = vec![0u8; size_of::<ibv_create_xsrq>()];
    let s = create_srq_ex(Ctx::new(&fake, &st), &a, &mut req, &mut resp).unwrap();
    assert_eq!((s.handle, s.srq_num), (7, 0x33));
    let w = &fake.writes()[0];
    type X = ib_uverbs_create_xsrq;
    assert_eq!(u32_at(w, 0), IB_USER_VERBS_CMD_CREATE_XSRQ);
    assert_eq!(
        (
            u32_at(w, 8 + offset_of!(X, xrcd_handle)),
            u32_at(w, 8 + offset_of!(X, cq_handle))
        ),
        (4, 5)
    );
    assert_eq!(u32_at(w, 8 + offset_of!(X, srq_type)), 1);
    assert_eq!(
        create_srq_ex(
            Ctx::new(&fake, &st),
            &SrqInit { comp_mask: 0, ..a },
            &mut req,
            &mut resp
        ),
        Err(Errno::EINVAL)
    );
    assert_eq!(
        create_srq_ex(
            Ctx::new(&fake, &st),
            &SrqInit {
                comp_mask: 0x20,
                ..a
            },
            &mut req,
            &mut resp
        ),
        Err(Errno::EOPNOTSUPP)
    );

    // modify (current and ABI 3 layouts), query, destroy.
    let fake = Fake::new([
        Reply::WriteOk(vec![]),
        Reply::WriteOk(vec![]),
        Reply::WriteOk(common::ne32(&[1, 2, 3])),
    ]);
    let mut mreq = vec![0u8; size_of::<ibv_modify_srq>() + 8];
    mreq[24..].copy_from_slice(&[0x5a; 8]);
    modify_srq(Ctx::new(&fake, &st), 6, 3, 100, 10, &mut mreq).unwrap();
    let st3 = CmdState::new(RXE, false).with_abi_ver(3);
    modify_srq(Ctx::new(&fake, &st3), 6, 3, 100, 10, &mut mreq).unwrap();
    let mut qreq = vec![0u8; size_of::<ibv_query_srq>()];
    assert_eq!(query_srq(Ctx::new(&fake, &st), 6, &mut qreq), Ok((1, 2, 3)));
    let w = fake.writes();
    assert_eq!(
        (
            w[0].len(),
            u32_at(&w[0], 8),
            u32_at(&w[0], 16),
            u32_at(&w[0], 20)
        ),
        (32, 6, 100, 10)
    );
    assert_eq!(w[1].len(), size_of::<ibv_modify_srq_v3>() + 8);
    assert_eq!(
        (
            u32_at(&w[1], 8),
            u32_at(&w[1], 16),
            u32_at(&w[1], 20),
            u32_at(&w[1], 24)
        ),
        (6, 100, 0, 10)
    );
    assert_eq!(&w[1][w[1].len() - 8..], &[0x5a; 8]);
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::WriteOk(5u32.to_ne_bytes().to_vec()),
    ]);
    assert_eq!(destroy_srq(Ctx::new(&fake, &st), 6, false), Ok(Some(5)));
    assert_eq!(u32_at(&fake.writes()[0], 0), IB_USER_VERBS_CMD_DESTROY_SRQ);
}
