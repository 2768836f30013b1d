//! Write commands through the fake seam: legacy and extended headers, word counts, response
//! address, short writes, and the same commands as INVOKE_WRITE ioctls.

mod common;

use common::{Fake, Out, Reply, u16_at, u32_at, u64_at};
use ibverbs::abi::kern_abi::{ibv_alloc_pd, ibv_dealloc_pd, ibv_query_device_ex};
use ibverbs::abi::uapi::*;
use ibverbs::cmd::write::{
    EX_HDR_SIZE, cmd_write_ex, execute_cmd_write, execute_cmd_write_ex, execute_cmd_write_req,
};
use ibverbs::cmd::{CmdState, Ctx};
use ibverbs::errno::Errno;

#[test]
fn legacy_header_words_and_response() {
    // ibv_alloc_pd (16 bytes) + 8 bytes of driver data; response 4 core + 12 driver bytes.
    let mut req = [0u8; 24];
    req[16..].copy_from_slice(&[9; 8]);
    let mut resp = [0u8; 16];
    let fake = Fake::new([Reply::WriteOk(vec![7, 0, 0, 0, 1, 2, 3, 4])]);
    let st = CmdState::new(14, false);
    execute_cmd_write::<ibv_alloc_pd>(Ctx::new(&fake, &st), &mut req, &mut resp).unwrap();
    let w = &fake.writes()[0];
    assert_eq!(w.len(), 24);
    assert_eq!(u32_at(w, 0), IB_USER_VERBS_CMD_ALLOC_PD);
    assert_eq!(u16_at(w, 4), 24 / 4, "in_words counts the header");
    assert_eq!(u16_at(w, 6), 16 / 4, "out_words counts the driver response");
    assert_eq!(u64_at(w, 8), resp.as_ptr() as u64);
    assert_eq!(&w[16..], &[9; 8]);
    assert_eq!(&resp[..8], &[7, 0, 0, 0, 1, 2, 3, 4]);
}

#[test]
fn legacy_without_response() {
    let mut req = [0u8; 16];
    req[8..12].copy_from_slice(&5u32.to_ne_bytes());
    let fake = Fake::new([Reply::WriteOk(vec![])]);
    let st = CmdState::new(14, false);
    execute_cmd_write_req::<ibv_dealloc_pd>(Ctx::new(&fake, &st), &mut req).unwrap();
    let w = &fake.writes()[0];
    assert_eq!(
        (u32_at(w, 0), u16_at(w, 4), u16_at(w, 6)),
        (IB_USER_VERBS_CMD_DEALLOC_PD, 4, 0)
    );
    assert_eq!(u32_at(w, 8), 5);
}

#[test]
fn short_write_and_errno() {
    let st = CmdState::new(14, false);
    let mut req = [0u8; 16];
    let mut resp = [0u8; 4];
    let fake = Fake::new([Reply::WriteShort(8), Reply::WriteErr(libc::EFAULT)]);
    let ctx = Ctx::new(&fake, &st);
    assert_eq!(
        execute_cmd_write::<ibv_alloc_pd>(ctx, &mut req, &mut resp),
        Err(Errno::EIO)
    );
    assert_eq!(
        execute_cmd_write::<ibv_alloc_pd>(ctx, &mut req, &mut resp),
        Err(Errno::EFAULT)
    );
    // A request shorter than the core struct is refused before anything is sent.
    let mut short = [0u8; 8];
    assert_eq!(
        execute_cmd_write::<ibv_alloc_pd>(ctx, &mut short, &mut resp),
        Err(Errno::EINVAL)
    );
    assert_eq!(fake.calls().len(), 2);
}

#[test]
fn extended_header() {
    // ex_hdr + ib_uverbs_ex_query_device (8) + 16 bytes driver; resp 304 core + 24 driver.
    let mut req = vec![0u8; EX_HDR_SIZE + 8 + 16];
    req[32..].copy_from_slice(&[3; 16]);
    let mut resp = vec![0xffu8; 304 + 24];
    let fake = Fake::new([Reply::WriteOk(vec![1; 4])]);
    let st = CmdState::new(14, false);
    execute_cmd_write_ex::<ibv_query_device_ex>(Ctx::new(&fake, &st), &mut req, Some(&mut resp))
        .unwrap();
    let w = &fake.writes()[0];
    assert_eq!(w.len(), 48);
    assert_eq!(
        u32_at(w, 0),
        IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_QUERY_DEVICE
    );
    assert_eq!(
        u16_at(w, 4),
        1,
        "in_words: core request / 8, without headers"
    );
    assert_eq!(u16_at(w, 6), 304 / 8, "out_words: core response / 8");
    assert_eq!(u64_at(w, 8), resp.as_ptr() as u64);
    assert_eq!(u16_at(w, 16), 2, "provider_in_words");
    assert_eq!(u16_at(w, 18), 3, "provider_out_words");
    assert_eq!(u32_at(w, 20), 0, "cmd_hdr_reserved");
    // The kernel wrote its 4 bytes; the rest is as the caller left it (rdma-core does not clear
    // it either: the kernel clears the core part it does not fill, the driver writes its own).
    assert_eq!(&resp[..4], &[1; 4]);
    assert!(resp[4..].iter().all(|&b| b == 0xff));
}

#[test]
fn extended_without_response() {
    let mut req = vec![0u8; EX_HDR_SIZE + 8];
    let fake = Fake::new([Reply::WriteOk(vec![])]);
    let st = CmdState::new(14, false);
    cmd_write_ex(Ctx::new(&fake, &st), 7, &mut req, EX_HDR_SIZE + 8, None, 0).unwrap();
    let w = &fake.writes()[0];
    assert_eq!(
        (
            u16_at(w, 4),
            u16_at(w, 6),
            u64_at(w, 8),
            u16_at(w, 16),
            u16_at(w, 18)
        ),
        (1, 0, 0, 0, 0)
    );
}

#[test]
fn legacy_over_ioctl() {
    let mut req = [0u8; 24];
    req[16..].copy_from_slice(&[9; 8]);
    let mut resp = [0u8; 4 + 12];
    let fake = Fake::new([Reply::IoctlOk(vec![
        (UVERBS_ATTR_CORE_OUT, Out::Bytes(vec![7, 0, 0, 0])),
        (UVERBS_ATTR_UHW_OUT, Out::Bytes(vec![5; 12])),
    ])]);
    let st = CmdState::new(14, true);
    execute_cmd_write::<ibv_alloc_pd>(Ctx::new(&fake, &st), &mut req, &mut resp).unwrap();
    assert!(fake.writes().is_empty());
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id, p.driver_id),
        (UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, 14)
    );
    let a: Vec<_> = p
        .attrs
        .iter()
        .map(|a| (a.id, a.len, a.flags, a.data))
        .collect();
    let resp_addr = resp.as_ptr() as u64;
    assert_eq!(
        a,
        [
            (
                UVERBS_ATTR_WRITE_CMD,
                8,
                1,
                u64::from(IB_USER_VERBS_CMD_ALLOC_PD)
            ),
            // The core request (the response address field) is 8 bytes: inline.
            (UVERBS_ATTR_CORE_IN, 8, 1, resp_addr),
            (UVERBS_ATTR_CORE_OUT, 4, 1, resp_addr),
            (UVERBS_ATTR_UHW_IN, 8, 1, u64::from_ne_bytes([9; 8])),
            (UVERBS_ATTR_UHW_OUT, 12, 1, resp_addr + 4),
        ]
    );
    assert_eq!(resp, [7, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]);
}

#[test]
fn extended_over_ioctl() {
    let mut req = vec![0u8; EX_HDR_SIZE + 8];
    req[24..].copy_from_slice(&0x42u64.to_ne_bytes());
    let mut resp = vec![0u8; 304];
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    let st = CmdState::new(14, true);
    execute_cmd_write_ex::<ibv_query_device_ex>(Ctx::new(&fake, &st), &mut req, Some(&mut resp))
        .unwrap();
    let p = &fake.ioctls()[0];
    let a: Vec<_> = p.attrs.iter().map(|a| (a.id, a.len, a.data)).collect();
    assert_eq!(
        a,
        [
            (
                UVERBS_ATTR_WRITE_CMD,
                8,
                u64::from(IB_USER_VERBS_CMD_FLAG_EXTENDED | 1)
            ),
            (UVERBS_ATTR_CORE_IN, 8, 0x42),
            (UVERBS_ATTR_CORE_OUT, 304, resp.as_ptr() as u64),
        ]
    );
    // The ex header is not sent over ioctl, so it is left as it was.
    assert!(req[..24].iter().all(|&b| b == 0));
}

/// An attribute's length is 16 bits: over ioctl, a request or response part longer than 65,535
/// bytes fails EINVAL with nothing sent; buffers longer than that in total whose every part
/// fits go out.
#[test]
fn over_ioctl_part_lengths() {
    let st = CmdState::new(14, true);
    // The driver part of the request is 65,536 bytes: too long.
    let mut req = vec![0u8; 24 + 65_536 - 8];
    let mut resp = [0u8; 4];
    let fake = Fake::new([]);
    let r = execute_cmd_write::<ibv_alloc_pd>(Ctx::new(&fake, &st), &mut req, &mut resp);
    assert_eq!(r, Err(Errno::EINVAL));
    assert!(fake.ioctls().is_empty() && fake.writes().is_empty());
    // The driver part of the response is 65,536 bytes: too long.
    let mut req = [0u8; 16];
    let mut resp = vec![0u8; 4 + 65_536];
    let fake = Fake::new([]);
    let r = execute_cmd_write::<ibv_alloc_pd>(Ctx::new(&fake, &st), &mut req, &mut resp);
    assert_eq!(r, Err(Errno::EINVAL));
    assert!(fake.ioctls().is_empty());
    // Request 8 + 65,535 bytes after its header and response 4 + 65,535: every part fits.
    let mut req = vec![0u8; 16 + 65_535];
    let mut resp = vec![0u8; 4 + 65_535];
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    execute_cmd_write::<ibv_alloc_pd>(Ctx::new(&fake, &st), &mut req, &mut resp).unwrap();
    let lens: Vec<_> = fake.ioctls()[0]
        .attrs
        .iter()
        .map(|a| (a.id, a.len))
        .collect();
    assert_eq!(
        lens,
        [
            (UVERBS_ATTR_WRITE_CMD, 8),
            (UVERBS_ATTR_CORE_IN, 8),
            (UVERBS_ATTR_CORE_OUT, 4),
            (UVERBS_ATTR_UHW_IN, 65_535),
            (UVERBS_ATTR_UHW_OUT, 65_535),
        ]
    );
}
