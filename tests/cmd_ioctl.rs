//! `execute_ioctl` through the fake seam: header and attribute bytes, linearisation of linked
//! buffers, errno passthrough and copy-back.

mod common;

use common::{Call, Fake, Link, Links, Out, Reply, attr};
use ibverbs::abi::uapi::*;
use ibverbs::cmd::attr::{Attr, INLINE_ATTRS, IoctlHdr, decode_attrs, encode};
use ibverbs::cmd::{
    CmdState, Ctx, IoctlArg, IoctlCmd, execute_ioctl, execute_linked, final_num_attrs,
};

const RXE: u32 = 14;

fn addr_of(b: &[u8]) -> u64 {
    b.as_ptr() as u64
}

#[test]
fn header_and_attrs_byte_for_byte() {
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    let st = CmdState::new(RXE, false);
    let small = [0xa1u8, 0xa2, 0xa3];
    let big: Vec<u8> = (0..20).collect();
    let mut out = [0u8; 12];
    let (big_addr, out_addr) = (addr_of(&big), addr_of(&out));
    {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::new(&mut arg, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
        cmd.in_u64(0x10, 0x1122_3344_5566_7788);
        cmd.in_u32(0x11, 0xdead_beef);
        cmd.in_bytes(0x12, &small);
        cmd.in_bytes(0x13, &big);
        let o = cmd.out(0x14, &mut out);
        cmd.optional(o);
        cmd.in_obj(0x15, 77);
        cmd.out_fd(0x16);
        assert_eq!(cmd.in_fd(0x17, -1), None);
        execute_ioctl(Ctx::new(&fake, &st), &mut cmd).unwrap();
    }
    let Call::Ioctl(b) = &fake.calls()[0] else {
        panic!()
    };
    let mut want = Vec::new();
    want.extend_from_slice(&(24u16 + 16 * 7).to_ne_bytes());
    want.extend_from_slice(&UVERBS_OBJECT_CQ.to_ne_bytes());
    want.extend_from_slice(&UVERBS_METHOD_CQ_CREATE.to_ne_bytes());
    want.extend_from_slice(&7u16.to_ne_bytes());
    want.extend_from_slice(&0u64.to_ne_bytes());
    want.extend_from_slice(&RXE.to_ne_bytes());
    want.extend_from_slice(&0u32.to_ne_bytes());
    let mut attr = |id: u16, len: u16, flags: u16, data: [u8; 8]| {
        want.extend_from_slice(&id.to_ne_bytes());
        want.extend_from_slice(&len.to_ne_bytes());
        want.extend_from_slice(&flags.to_ne_bytes());
        want.extend_from_slice(&[0, 0]);
        want.extend_from_slice(&data);
    };
    attr(0x10, 8, 1, 0x1122_3344_5566_7788u64.to_ne_bytes());
    attr(0x11, 4, 1, common::inline(4, 0xdead_beef).to_ne_bytes());
    attr(0x12, 3, 1, [0xa1, 0xa2, 0xa3, 0, 0, 0, 0, 0]);
    attr(0x13, 20, 1, big_addr.to_ne_bytes());
    attr(0x14, 12, 0, out_addr.to_ne_bytes());
    attr(0x15, 0, 1, 77u64.to_ne_bytes());
    attr(0x16, 0, 1, [0; 8]);
    assert_eq!(b, &want);
}

#[test]
fn buffer_error_is_einval_without_a_call() {
    let fake = Fake::new([]);
    let st = CmdState::new(RXE, false);
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::new(
        &mut arg,
        UVERBS_OBJECT_DEVICE,
        UVERBS_METHOD_QUERY_GID_TABLE,
    );
    cmd.out_addr(1, 0x1000, 70_000);
    assert!(cmd.buffer_error);
    assert_eq!(cmd.attrs()[0].len, 70_000u32 as u16);
    assert_eq!(
        execute_ioctl(Ctx::new(&fake, &st), &mut cmd),
        Err(ibverbs::errno::Errno::EINVAL)
    );
    assert!(fake.calls().is_empty());
}

#[test]
fn links_are_linearised_and_copied_back() {
    let fake = Fake::new([Reply::IoctlOk(vec![
        (0x21, Out::Data(9)),
        (0x30, Out::Data(5)),
    ])]);
    let st = CmdState::new(3, false);
    let l1 = Link::of([attr(0x20, 8, 1), attr(0x21, 0, 0)]);
    let mut l2 = Link::of([attr(UVERBS_ATTR_UHW_IN, 4, 0x55)]);
    l2.uhw_in_idx = Some(0);
    let mut links = Links(vec![l1, l2]);
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::new(&mut arg, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE);
    cmd.out_obj(0x30);
    cmd.in_u64(0x31, 2);
    execute_linked(Ctx::new(&fake, &st), &mut cmd, &mut links).unwrap();
    assert_eq!(cmd.len(), 5);

    let p = &fake.ioctls()[0];
    assert_eq!(p.num_attrs, 5);
    assert_eq!(p.length, 24 + 5 * 16);
    assert_eq!(p.driver_id, 3);
    let ids: Vec<u16> = p.attrs.iter().map(|a| a.id).collect();
    assert_eq!(ids, [0x30, 0x31, 0x20, 0x21, UVERBS_ATTR_UHW_IN]);
    // The link's UHW_IN index lands after the head's two and link 1's two attributes.
    assert_eq!(cmd.uhw_in_idx, Some(4));
    // Kernel results are in the command and copied back into the link that owns them.
    assert_eq!(cmd.attrs()[0].data, 5);
    assert_eq!(links.0[0].attrs[1].data, 9);
    assert_eq!(cmd.header(3).num_attrs, 5);
}

#[test]
fn errno_passes_through_and_links_stay_untouched() {
    let fake = Fake::new([Reply::IoctlErr(libc::EINVAL)]);
    let st = CmdState::new(RXE, false);
    let mut links = Links(vec![Link::of([attr(0x21, 0, 0)])]);
    let before = links.clone();
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::new(&mut arg, 1, 2);
    assert_eq!(
        execute_linked(Ctx::new(&fake, &st), &mut cmd, &mut links),
        Err(ibverbs::errno::Errno::EINVAL)
    );
    assert_eq!(links, before);
}

#[test]
fn past_the_inline_room_the_array_spills_and_is_sent_the_same() {
    // One command of INLINE_ATTRS + 5 attributes: sent from the heap, header right before
    // them, answers found where they were.
    let n = INLINE_ATTRS + 5;
    let fake = Fake::new([Reply::IoctlOk(vec![(0x100 + n as u16 - 1, Out::Data(77))])]);
    let st = CmdState::new(RXE, false);
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::new(&mut arg, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
    for i in 0..n {
        assert_eq!(cmd.in_u64(0x100 + i as u16, i as u64), i);
    }
    execute_ioctl(Ctx::new(&fake, &st), &mut cmd).unwrap();
    let p = &fake.ioctls()[0];
    assert_eq!((p.num_attrs as usize, p.length as usize), (n, 24 + 16 * n));
    assert_eq!(p.object_id, UVERBS_OBJECT_DEVICE);
    assert_eq!(p.method_id, UVERBS_METHOD_QUERY_PORT);
    for (i, a) in p.attrs.iter().enumerate() {
        assert_eq!((a.id, a.len, a.data), (0x100 + i as u16, 8, i as u64));
    }
    assert_eq!(cmd.attr(n - 1).unwrap().data, 77);
    // The same with the room reserved first, and a driver chain spilling it.
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::new(&mut arg, 1, 2);
    cmd.in_u64(1, 1);
    cmd.try_reserve(40).unwrap();
    let mut links = Links(vec![Link::of(
        (0..40).map(|i| attr(0x200 + i, 8, i.into())),
    )]);
    execute_linked(Ctx::new(&fake, &st), &mut cmd, &mut links).unwrap();
    let p = &fake.ioctls()[0];
    assert_eq!(p.num_attrs, 41);
    assert_eq!(p.attrs[40].id, 0x200 + 39);
    // A reservation that cannot be had is ENOMEM, never an abort.
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::new(&mut arg, 1, 2);
    assert_eq!(
        cmd.try_reserve(usize::MAX / 2),
        Err(ibverbs::errno::Errno::ENOMEM)
    );
}

#[test]
fn ptr_out_written_by_kernel() {
    let fake = Fake::new([Reply::IoctlOk(vec![(7, Out::Bytes(vec![1, 2, 3, 4]))])]);
    let st = CmdState::new(RXE, false);
    let mut v: u32 = 0;
    {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::new(&mut arg, 0, 4);
        let i = cmd.out_pod(7, &mut v);
        execute_ioctl(Ctx::new(&fake, &st), &mut cmd).unwrap();
        assert_eq!(
            cmd.attr(i).unwrap().flags,
            UVERBS_ATTR_F_MANDATORY | UVERBS_ATTR_F_VALID_OUTPUT
        );
    }
    assert_eq!(v, u32::from_ne_bytes([1, 2, 3, 4]));
}

#[test]
fn final_num_attrs_adds_links() {
    assert_eq!(final_num_attrs(2, [3, 0, 4]), 9);
    assert_eq!(final_num_attrs(2, []), 2);
}

#[test]
fn attr_and_header_encoding() {
    let a = Attr {
        attr_id: 0x1001,
        len: 0x20,
        flags: 3,
        // `enum_data.elem_id` is the union's first byte in memory, 5.
        attr_data: u16::from_ne_bytes([5, 1]),
        data: 0x0102_0304_0506_0708,
    };
    let b = a.to_bytes();
    assert_eq!(Attr::from_bytes(&b), a);
    let head: Vec<u8> = [0x1001u16, 0x20, 3]
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .chain([5, 1])
        .collect();
    assert_eq!(&b[..8], &head[..]);
    assert_eq!(a.elem_id(), 5);
    let h = IoctlHdr {
        length: 40,
        object_id: 3,
        method_id: 1,
        num_attrs: 1,
        reserved1: 0,
        driver_id: 14,
        reserved2: 0,
    };
    let buf = encode(&h, &[a]);
    let head: Vec<u8> = [40u16, 3, 1, 1]
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
    assert_eq!(&buf[..8], &head[..]);
    assert_eq!(&buf[16..20], &14u32.to_ne_bytes());
    assert_eq!(decode_attrs(&buf), vec![a]);
}

#[test]
fn header_is_what_was_sent_and_an_unencodable_command_sends_nothing() {
    let st = CmdState::new(RXE, false);
    let fake = Fake::new([Reply::IoctlErr(libc::EINVAL)]);
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::new(&mut arg, 1, 2);
    cmd.in_u64(3, 4);
    let _ = execute_ioctl(Ctx::new(&fake, &st), &mut cmd);
    let Call::Ioctl(b) = &fake.calls()[0] else {
        panic!()
    };
    assert_eq!(&b[..24], &cmd.header(RXE).to_bytes());
    let mut arg = IoctlArg::new();
    let mut bad = IoctlCmd::new(&mut arg, 1, 2);
    bad.buffer_error = true;
    assert_eq!(
        execute_ioctl(Ctx::new(&fake, &st), &mut bad),
        Err(ibverbs::errno::Errno::EINVAL)
    );
    assert_eq!(fake.calls().len(), 1);
}
