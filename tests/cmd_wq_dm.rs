//! WQ, RSS indirection table, device memory and counters commands through the fake seam.

mod common;

use common::{Fake, Link, Links, Out, Reply, attr, u16_at, u32_at};
use core::mem::offset_of;
use ibverbs::abi::kern_abi::*;
use ibverbs::abi::uapi::*;
use ibverbs::cmd::dm::*;
use ibverbs::cmd::wq::*;
use ibverbs::cmd::{CmdState, Ctx, op};
use ibverbs::errno::Errno;
use ibverbs::sys::pod;

const RXE: u32 = 14;

fn wq_init() -> WqInit {
    WqInit {
        wq_type: 0,
        max_wr: 64,
        max_sge: 1,
        pd_handle: 1,
        cq_handle: 2,
        user_handle: 0x8000,
        async_fd: 12,
        ..WqInit::default()
    }
}

#[test]
fn create_wq_ioctl_then_extended_write() {
    let st = CmdState::new(RXE, true);
    let fake = Fake::new([Reply::IoctlOk(vec![
        (UVERBS_ATTR_CREATE_WQ_HANDLE, Out::Data(5)),
        (
            UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM,
            Out::Bytes(0x44u32.to_ne_bytes().to_vec()),
        ),
    ])]);
    let mut req = vec![0u8; size_of::<ibv_create_wq>()];
    let mut resp = vec![0u8; size_of::<ib_uverbs_ex_create_wq_resp>()];
    let w = create_wq(Ctx::new(&fake, &st), &wq_init(), &mut req, &mut resp).unwrap();
    assert_eq!((w.handle, w.wq_num), (5, 0x44));
    let p = &fake.ioctls()[0];
    let flags = p
        .attrs
        .iter()
        .find(|a| a.id == UVERBS_ATTR_CREATE_WQ_FLAGS)
        .unwrap();
    assert_eq!((flags.len, flags.data), (4, 0), "flags are always sent");

    let st = CmdState::new(RXE, false);
    let mut r: ib_uverbs_ex_create_wq_resp = pod::zeroed();
    r.wq_handle = 6;
    r.max_wr = 128;
    let fake = Fake::new([
        Reply::IoctlErr(libc::ENOTTY),
        Reply::WriteOk(pod::bytes(&r).to_vec()),
    ]);
    let w = create_wq(Ctx::new(&fake, &st), &wq_init(), &mut req, &mut resp).unwrap();
    assert_eq!((w.handle, w.max_wr), (6, 128));
    let wr = &fake.writes()[0];
    assert_eq!(
        u32_at(wr, 0),
        IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_WQ
    );
    assert_eq!(
        u32_at(wr, 24 + offset_of!(ib_uverbs_ex_create_wq, cq_handle)),
        2
    );
    assert_eq!(
        create_wq(
            Ctx::new(&fake, &st),
            &WqInit {
                comp_mask: 2,
                ..wq_init()
            },
            &mut req,
            &mut resp
        ),
        Err(Errno::EINVAL)
    );
    let bad_flags = WqInit {
        comp_mask: 1,
        create_flags: 1 << 4,
        ..wq_init()
    };
    assert_eq!(
        create_wq(Ctx::new(&fake, &st), &bad_flags, &mut req, &mut resp),
        Err(Errno::EOPNOTSUPP)
    );
}

#[test]
fn modify_and_destroy_wq() {
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([Reply::WriteOk(vec![])]);
    let mut req = vec![0xffu8; size_of::<ibv_modify_wq>() + 8];
    modify_wq(Ctx::new(&fake, &st), 5, 1, 1, 0, 3, 3, &mut req).unwrap();
    let w = &fake.writes()[0];
    type M = ib_uverbs_ex_modify_wq;
    assert_eq!(
        u32_at(w, 0),
        IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_WQ
    );
    assert_eq!(
        (u16_at(w, 16), u16_at(w, 18)),
        (1, 0),
        "8 bytes of driver data"
    );
    assert_eq!(
        (
            u32_at(w, 24 + offset_of!(M, wq_handle)),
            u32_at(w, 24 + offset_of!(M, attr_mask))
        ),
        (5, 1)
    );
    assert_eq!(
        u32_at(w, 24 + offset_of!(M, flags)),
        0,
        "core zeroed; flags only with IBV_WQ_ATTR_FLAGS"
    );
    assert_eq!(
        modify_wq(Ctx::new(&fake, &st), 5, 8, 1, 0, 0, 0, &mut req),
        Err(Errno::EINVAL)
    );

    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::WriteOk({
            let mut r: ib_uverbs_ex_destroy_wq_resp = pod::zeroed();
            r.events_reported = 2;
            pod::bytes(&r).to_vec()
        }),
    ]);
    assert_eq!(destroy_wq(Ctx::new(&fake, &st), 5, false), Ok(Some(2)));
    assert!(st.is_unsupported(op::DESTROY_WQ));
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.attrs[0].id, p.attrs[0].len),
        (UVERBS_ATTR_DESTROY_WQ_RESP, 4)
    );
    let w = &fake.writes()[0];
    assert_eq!(
        u32_at(w, 0),
        IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_DESTROY_WQ
    );
}

#[test]
fn rwq_ind_table() {
    let st = CmdState::new(RXE, false);
    let mut r: ib_uverbs_ex_create_rwq_ind_table_resp = pod::zeroed();
    r.response_length = 16;
    r.ind_tbl_handle = 3;
    r.ind_tbl_num = 9;
    let fake = Fake::new([
        Reply::WriteOk(pod::bytes(&r).to_vec()),
        Reply::WriteOk({
            r.response_length = 8;
            pod::bytes(&r).to_vec()
        }),
    ]);
    let mut resp = vec![0u8; 16];
    assert_eq!(
        create_rwq_ind_table(Ctx::new(&fake, &st), 0, 1, &[7, 8], &mut resp),
        Ok((3, 9))
    );
    let w = &fake.writes()[0];
    assert_eq!(w.len(), 40, "32 bytes + two handles");
    assert_eq!(u16_at(w, 4), 2, "in_words: everything after ex_hdr / 8");
    assert_eq!((u32_at(w, 28), u32_at(w, 32), u32_at(w, 36)), (1, 7, 8));
    assert_eq!(
        create_rwq_ind_table(Ctx::new(&fake, &st), 0, 1, &[7, 8], &mut resp),
        Err(Errno::EINVAL),
        "short answer"
    );
    assert_eq!(
        create_rwq_ind_table(Ctx::new(&fake, &st), 0, 2, &[7, 8], &mut resp),
        Err(Errno::EINVAL)
    );
    // The destroy rides on the destroy_ah bit, as in rdma-core.
    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::WriteOk(vec![]),
    ]);
    destroy_rwq_ind_table(Ctx::new(&fake, &st), 3, false).unwrap();
    assert!(st.is_unsupported(op::DESTROY_AH));
}

#[test]
fn dm_and_counters() {
    let st = CmdState::new(RXE, true);
    let fake = Fake::new([
        Reply::IoctlOk(vec![(UVERBS_ATTR_ALLOC_DM_HANDLE, Out::Data(4))]),
        Reply::IoctlOk(vec![(UVERBS_ATTR_REG_DM_MR_HANDLE, Out::Data(5))]),
        Reply::IoctlOk(vec![(UVERBS_ATTR_CREATE_COUNTERS_HANDLE, Out::Data(6))]),
        Reply::IoctlOk(vec![(
            UVERBS_ATTR_READ_COUNTERS_BUFF,
            Out::Bytes(vec![1; 16]),
        )]),
        Reply::IoctlErr(libc::EIO),
        Reply::IoctlErr(libc::EIO),
    ]);
    let ctx = Ctx::new(&fake, &st);
    let mut link = Links(vec![Link::of([attr(0x1010, 8, 1)])]);
    assert_eq!(alloc_dm(ctx, 4096, 6, &mut link), Ok(4));
    assert_eq!(link.0.len(), 1);
    assert_eq!(reg_dm_mr(ctx, 1, 4, 0, 64, 0, &mut ()), Err(Errno::EINVAL));
    let zb = ibverbs::abi::verbs::ibv_access_flags::IBV_ACCESS_ZERO_BASED as u32;
    assert_eq!(reg_dm_mr(ctx, 1, 4, 0, 64, zb, &mut ()).unwrap().handle, 5);
    assert_eq!(create_counters(ctx, 1, &mut ()), Err(Errno::EOPNOTSUPP));
    assert_eq!(create_counters(ctx, 0, &mut ()), Ok(6));
    let mut vals = [0u8; 16];
    read_counters(ctx, 6, &mut vals, 0, &mut ()).unwrap();
    assert_eq!(vals, [1; 16]);
    assert_eq!(free_dm(ctx, 4, true), Ok(()));
    assert_eq!(destroy_counters(ctx, 6, false), Err(Errno::EIO));
    let p = fake.ioctls();
    assert_eq!(
        (p[0].object_id, p[0].method_id, p[0].num_attrs),
        (UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, 4)
    );
    assert_eq!(p[0].attrs[3].id, 0x1010, "the link follows our attributes");
    assert_eq!(
        (p[1].object_id, p[1].method_id),
        (UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG)
    );
    assert_eq!(
        (p[3].attrs[1].id, p[3].attrs[1].len),
        (UVERBS_ATTR_READ_COUNTERS_BUFF, 16)
    );
}

#[test]
fn post_send_and_recv_marshalling() {
    use ibverbs::abi::verbs::ibv_sge;
    use ibverbs::cmd::post::*;
    let st = CmdState::new(RXE, false);
    assert_eq!(send_target_kind(4, 0), TargetKind::Ud);
    assert_eq!(send_target_kind(2, 4), TargetKind::Rdma);
    assert_eq!(send_target_kind(2, 6), TargetKind::Atomic);
    assert_eq!(send_target_kind(2, 2), TargetKind::None);
    let sg = [
        ibv_sge {
            addr: 0x1000,
            length: 64,
            lkey: 7,
        },
        ibv_sge {
            addr: 0x2000,
            length: 32,
            lkey: 8,
        },
    ];
    let wrs = [
        SendWr {
            wr_id: 1,
            opcode: 0,
            send_flags: 2,
            imm_data: 0,
            target: SendTarget::Rdma {
                remote_addr: 0xa000,
                rkey: 9,
            },
            sg_list: &sg[..1],
        },
        SendWr {
            wr_id: 2,
            opcode: 2,
            send_flags: 0,
            imm_data: 0x55,
            target: SendTarget::None,
            sg_list: &sg[1..],
        },
    ];
    // The kernel rejects the second WR.
    let fake = Fake::new([Reply::WriteOk(2u32.to_ne_bytes().to_vec())]);
    let r = post_send(Ctx::new(&fake, &st), 3, &wrs);
    assert_eq!(
        r,
        Posted {
            ret: Ok(()),
            bad_wr: Some(1)
        }
    );
    let w = &fake.writes()[0];
    assert_eq!(w.len(), 32 + 2 * 56 + 2 * 16);
    assert_eq!(
        (u32_at(w, 0), u16_at(w, 4), u16_at(w, 6)),
        (IB_USER_VERBS_CMD_POST_SEND, (w.len() / 4) as u16, 1)
    );
    assert_eq!(
        (u32_at(w, 16), u32_at(w, 20), u32_at(w, 24), u32_at(w, 28)),
        (3, 2, 2, 56)
    );
    let n0 = 32;
    assert_eq!(
        (
            common::u64_at(w, n0),
            u32_at(w, n0 + 8),
            u32_at(w, n0 + 12),
            u32_at(w, n0 + 16)
        ),
        (1, 1, 0, 2)
    );
    assert_eq!(
        (common::u64_at(w, n0 + 24), u32_at(w, n0 + 32)),
        (0xa000, 9)
    );
    assert_eq!(u32_at(w, n0 + 56 + 20), 0x55);
    let s0 = 32 + 112;
    assert_eq!(
        (common::u64_at(w, s0), u32_at(w, s0 + 8), u32_at(w, s0 + 12)),
        (0x1000, 64, 7)
    );
    assert_eq!(common::u64_at(w, s0 + 16), 0x2000);
    // A failed write without a kernel verdict blames the first WR.
    let fake = Fake::new([Reply::WriteErr(libc::EINVAL)]);
    assert_eq!(
        post_send(Ctx::new(&fake, &st), 3, &wrs),
        Posted {
            ret: Err(Errno::EINVAL),
            bad_wr: Some(0)
        }
    );

    let rw = [RecvWr {
        wr_id: 5,
        sg_list: &sg,
    }];
    let fake = Fake::new([Reply::WriteOk(vec![0; 4]), Reply::WriteOk(vec![0; 4])]);
    assert_eq!(
        post_recv(Ctx::new(&fake, &st), 3, &rw),
        Posted {
            ret: Ok(()),
            bad_wr: None
        }
    );
    assert_eq!(post_srq_recv(Ctx::new(&fake, &st), 4, &rw).ret, Ok(()));
    let w = fake.writes();
    assert_eq!(
        (u32_at(&w[0], 0), w[0].len(), u32_at(&w[0], 28)),
        (IB_USER_VERBS_CMD_POST_RECV, 32 + 16 + 32, 16)
    );
    assert_eq!((common::u64_at(&w[0], 32), u32_at(&w[0], 40)), (5, 2));
    assert_eq!(
        (u32_at(&w[1], 0), u32_at(&w[1], 16)),
        (IB_USER_VERBS_CMD_POST_SRQ_RECV, 4)
    );
}

#[test]
fn flow_destroys() {
    use ibverbs::cmd::flow::*;
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::WriteOk(vec![]),
        Reply::IoctlOk(vec![]),
    ]);
    destroy_flow(Ctx::new(&fake, &st), 8, false).unwrap();
    let w = &fake.writes()[0];
    assert_eq!(w.len(), 32);
    assert_eq!(
        u32_at(w, 0),
        IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_DESTROY_FLOW
    );
    assert_eq!(
        (u32_at(w, 24), u32_at(w, 28)),
        (0, 8),
        "comp_mask, then the handle"
    );
    destroy_flow_action(Ctx::new(&fake, &st), 9, false).unwrap();
    let p = &fake.ioctls()[1];
    assert_eq!(
        (p.object_id, p.method_id, p.attrs[0].data),
        (
            UVERBS_OBJECT_FLOW_ACTION,
            UVERBS_METHOD_FLOW_ACTION_DESTROY,
            9
        )
    );
}
