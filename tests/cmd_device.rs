//! Context, device, port and GID commands through the fake seam: the ioctl encoding, the write
//! fallback and the decoding of the answers.

mod common;

use common::{Fake, Link, Links, Out, Reply, attr, u16_at, u32_at, u64_at};
use core::mem::offset_of;
use ibverbs::abi::ctype::CEnum;
use ibverbs::abi::uapi::*;
use ibverbs::abi::verbs::{ibv_device_attr, ibv_device_attr_ex, ibv_port_attr};
use ibverbs::cmd::device::*;
use ibverbs::cmd::{CmdState, Ctx, op};
use ibverbs::errno::Errno;
use ibverbs::sys::pod;

const RXE: u32 = 14;

fn port_attr() -> ibv_port_attr {
    ibv_port_attr {
        state: CEnum::new(0),
        max_mtu: CEnum::new(0),
        active_mtu: CEnum::new(0),
        gid_tbl_len: 0,
        port_cap_flags: 0,
        max_msg_sz: 0,
        bad_pkey_cntr: 0,
        qkey_viol_cntr: 0,
        pkey_tbl_len: 0,
        lid: 0,
        sm_lid: 0,
        lmc: 0,
        max_vl_num: 0,
        sm_sl: 0,
        subnet_timeout: 0,
        init_type_reply: 0,
        active_width: 0,
        active_speed: 0,
        phys_state: 0,
        link_layer: 0,
        flags: 0,
        port_cap_flags2: 0xaaaa,
        active_speed_ex: 0xbbbb,
    }
}

fn port_resp() -> ib_uverbs_query_port_resp_ex {
    let mut r: ib_uverbs_query_port_resp_ex = pod::zeroed();
    let l = &mut r.legacy_resp;
    l.port_cap_flags = 0x0001_0000;
    l.max_msg_sz = 0x8000_0000;
    l.gid_tbl_len = 1024;
    l.pkey_tbl_len = 1;
    l.state = 4;
    l.max_mtu = 5;
    l.active_mtu = 3;
    l.active_width = 1;
    l.active_speed = 16;
    l.phys_state = 5;
    l.link_layer = 2;
    l.flags = 1;
    r.port_cap_flags2 = 0x12;
    r.active_speed_ex = 0x40;
    r
}

#[test]
fn get_context_ioctl_with_driver_data() {
    // A provider request with 8 bytes and a response with 8 bytes of driver data.
    let mut req = [0u8; 16 + 8];
    req[16..].copy_from_slice(&[0xd1; 8]);
    let mut resp = [0u8; 8 + 8];
    let fake = Fake::new([Reply::IoctlOk(vec![
        (
            UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
            Out::Bytes(2u32.to_ne_bytes().to_vec()),
        ),
        (
            UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
            Out::Bytes(1u64.to_ne_bytes().to_vec()),
        ),
        (UVERBS_ATTR_UHW_OUT, Out::Bytes(vec![0xe2; 8])),
    ])]);
    let st = CmdState::new(RXE, true);
    let r = get_context(Ctx::new(&fake, &st), &mut req, &mut resp, None).unwrap();
    assert_eq!(
        r,
        GetContext {
            num_comp_vectors: 2,
            async_fd: None,
            core_support: Some(1)
        }
    );
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id, p.num_attrs, p.driver_id),
        (0, UVERBS_METHOD_GET_CONTEXT, 4, RXE)
    );
    let a: Vec<_> = p.attrs.iter().map(|a| (a.id, a.len, a.flags)).collect();
    assert_eq!(
        a,
        [
            (UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, 4, 1),
            (UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, 8, 1),
            (UVERBS_ATTR_UHW_IN, 8, 1),
            (UVERBS_ATTR_UHW_OUT, 8, 1),
        ]
    );
    assert_eq!(
        p.attrs[2].data,
        u64::from_ne_bytes([0xd1; 8]),
        "8 bytes of UHW_IN go inline"
    );
    assert_eq!(
        p.attrs[3].data,
        resp.as_ptr() as u64 + 8,
        "UHW_OUT is the driver part of resp"
    );
    assert_eq!(&resp[8..], &[0xe2; 8]);
    // The request was not touched on the ioctl path.
    assert_eq!(&req[..16], &[0; 16]);
}

/// Provider ABI 57 on: the provider's file descriptors go to the kernel as GET_CONTEXT's
/// FD_ARR, an array of ints (inline up to 8 bytes, by address beyond); the write fallback has no
/// room for them.
#[test]
fn get_context_hands_the_kernel_the_providers_fds() {
    for fds in [vec![7i32], vec![7, 8], vec![7, 8, 9]] {
        let bytes: Vec<u8> = fds.iter().flat_map(|f| f.to_ne_bytes()).collect();
        let mut req = [0u8; 16];
        let mut resp = [0u8; 8];
        let fake = Fake::new([Reply::IoctlOk(vec![])]);
        let st = CmdState::new(RXE, true);
        get_context(Ctx::new(&fake, &st), &mut req, &mut resp, Some(&bytes)).unwrap();
        let p = &fake.ioctls()[0];
        let a = &p.attrs[2];
        assert_eq!(
            (a.id, a.len as usize),
            (UVERBS_ATTR_GET_CONTEXT_FD_ARR, bytes.len())
        );
        if bytes.len() <= 8 {
            let mut inline = [0u8; 8];
            inline[..bytes.len()].copy_from_slice(&bytes);
            assert_eq!(a.data, u64::from_ne_bytes(inline), "{fds:?} inline");
        } else {
            assert_eq!(a.data, bytes.as_ptr() as u64, "{fds:?} by address");
        }
    }
}

#[test]
fn get_context_rxe_sizes_send_no_uhw() {
    // rxe: struct ibv_get_context (16) and ib_uverbs_get_context_resp (8), no driver data.
    let mut req = [0u8; 16];
    let mut resp = [0u8; 8];
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    let st = CmdState::new(RXE, true);
    get_context(Ctx::new(&fake, &st), &mut req, &mut resp, None).unwrap();
    assert_eq!(fake.ioctls()[0].num_attrs, 2);
}

#[test]
fn get_context_falls_back_to_write_on_enotty() {
    let mut req = [0u8; 16 + 16];
    req[16..].copy_from_slice(&[0xd1; 16]);
    let mut resp = [0u8; 8 + 8];
    let mut kresp = Vec::new();
    kresp.extend_from_slice(&17u32.to_ne_bytes());
    kresp.extend_from_slice(&3u32.to_ne_bytes());
    kresp.extend_from_slice(&[0xe2; 8]);
    let fake = Fake::new([Reply::IoctlErr(libc::ENOTTY), Reply::WriteOk(kresp)]);
    let st = CmdState::new(RXE, false);
    let r = get_context(Ctx::new(&fake, &st), &mut req, &mut resp, None).unwrap();
    assert_eq!(
        r,
        GetContext {
            num_comp_vectors: 3,
            async_fd: Some(17),
            core_support: None
        }
    );
    assert!(st.is_unsupported(op::FREE_CONTEXT));
    let p = &fake.ioctls()[0];
    assert_eq!(
        p.attrs[2].data,
        req.as_ptr() as u64 + 16,
        "16 bytes of UHW_IN go by address"
    );
    let w = &fake.writes()[0];
    assert_eq!(w.len(), 32);
    assert_eq!(u32_at(w, 0), IB_USER_VERBS_CMD_GET_CONTEXT);
    assert_eq!(u16_at(w, 4), 32 / 4);
    assert_eq!(u16_at(w, 6), 16 / 4);
    assert_eq!(u64_at(w, 8), resp.as_ptr() as u64);
    assert_eq!(&w[16..], &[0xd1; 16]);
    assert_eq!(&resp[8..], &[0xe2; 8]);
}

#[test]
fn get_context_buffers_no_longer_than_their_core_carry_no_driver_data() {
    // As rdma-core's _write_set_uhw: no UHW attribute (and nothing read from or written to the
    // provider's short buffers).
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    let st = CmdState::new(RXE, false);
    let (mut req, mut resp) = ([0x55u8; 8], [0x66u8; 8]);
    get_context(Ctx::new(&fake, &st), &mut req, &mut resp, None).unwrap();
    let ids: Vec<u16> = fake.ioctls()[0].attrs.iter().map(|a| a.id).collect();
    assert!(
        !ids.contains(&UVERBS_ATTR_UHW_IN) && !ids.contains(&UVERBS_ATTR_UHW_OUT),
        "{ids:?}"
    );
    assert_eq!((req, resp), ([0x55; 8], [0x66; 8]));
}

#[test]
fn query_context_links_the_driver_chain() {
    let mut driver = Links(vec![Link::of([attr(0x1000, 0, 0)])]);
    let fake = Fake::new([Reply::IoctlOk(vec![
        (
            UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
            Out::Bytes(4u32.to_ne_bytes().to_vec()),
        ),
        (
            UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT,
            Out::Bytes(1u64.to_ne_bytes().to_vec()),
        ),
        (0x1000, Out::Data(99)),
    ])]);
    let st = CmdState::new(RXE, true);
    let r = query_context(Ctx::new(&fake, &st), &mut driver).unwrap();
    assert_eq!(
        r,
        QueryContext {
            num_comp_vectors: 4,
            core_support: 1
        }
    );
    assert_eq!(driver.0[0].attrs[0].data, 99);
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id, p.num_attrs),
        (0, UVERBS_METHOD_QUERY_CONTEXT, 3)
    );
    // No fallback: an unsupported kernel is an error, and the chain comes back either way.
    let fake = Fake::new([Reply::IoctlErr(libc::EPROTONOSUPPORT)]);
    assert_eq!(
        query_context(Ctx::new(&fake, &st), &mut driver),
        Err(Errno::EPROTONOSUPPORT)
    );
    assert_eq!(driver.0.len(), 1);
}

#[test]
fn alloc_async_fd_reads_the_fd_attribute() {
    let fake = Fake::new([Reply::IoctlOk(vec![(
        UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE,
        Out::Data(23),
    )])]);
    let st = CmdState::new(RXE, true);
    assert_eq!(alloc_async_fd(Ctx::new(&fake, &st)), Ok(23));
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id, p.num_attrs),
        (
            UVERBS_OBJECT_ASYNC_EVENT,
            UVERBS_METHOD_ASYNC_EVENT_ALLOC,
            1
        )
    );
    assert_eq!(
        (
            p.attrs[0].id,
            p.attrs[0].len,
            p.attrs[0].flags,
            p.attrs[0].data
        ),
        (0, 0, 1, 0)
    );
}

#[test]
fn query_port_over_ioctl() {
    let fake = Fake::new([Reply::IoctlOk(vec![(
        UVERBS_ATTR_QUERY_PORT_RESP,
        Out::Bytes(pod::bytes(&port_resp()).to_vec()),
    )])]);
    let st = CmdState::new(RXE, true);
    let mut attr = port_attr();
    let mut req = [0u8; 16];
    query_port(Ctx::new(&fake, &st), 1, &mut attr, &mut req).unwrap();
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id, p.num_attrs),
        (0, UVERBS_METHOD_QUERY_PORT, 2)
    );
    assert_eq!(
        (p.attrs[0].id, p.attrs[0].len, p.attrs[0].data),
        (UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8, 1)
    );
    assert_eq!(
        (p.attrs[1].id, p.attrs[1].len),
        (UVERBS_ATTR_QUERY_PORT_RESP, 48)
    );
    assert_eq!(
        (
            attr.state.raw(),
            attr.max_mtu.raw(),
            attr.active_mtu.raw(),
            attr.gid_tbl_len
        ),
        (4, 5, 3, 1024)
    );
    assert_eq!(
        (attr.port_cap_flags, attr.max_msg_sz, attr.pkey_tbl_len),
        (0x0001_0000, 0x8000_0000, 1)
    );
    assert_eq!(
        (attr.active_width, attr.active_speed, attr.phys_state),
        (1, 16, 5)
    );
    assert_eq!((attr.link_layer, attr.flags), (2, 1));
    assert_eq!((attr.port_cap_flags2, attr.active_speed_ex), (0x12, 0x40));
    assert!(fake.writes().is_empty());
}

#[test]
fn query_port_falls_back_to_write() {
    let resp = port_resp();
    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::WriteOk(pod::bytes(&resp.legacy_resp).to_vec()),
    ]);
    let st = CmdState::new(RXE, false);
    let mut attr = port_attr();
    let mut req = [0xffu8; 16 + 8];
    query_port(Ctx::new(&fake, &st), 2, &mut attr, &mut req).unwrap();
    let w = &fake.writes()[0];
    assert_eq!(w.len(), 24);
    assert_eq!(
        (u32_at(w, 0), u16_at(w, 4), u16_at(w, 6)),
        (IB_USER_VERBS_CMD_QUERY_PORT, 6, 10)
    );
    assert_eq!(w[16], 2, "port_num");
    assert_eq!(&w[17..24], &[0; 7], "reserved is cleared");
    assert_eq!(
        (
            attr.state.raw(),
            attr.gid_tbl_len,
            attr.link_layer,
            attr.flags
        ),
        (4, 1024, 2, 1)
    );
    // The write answer has no port_cap_flags2 / active_speed_ex: the caller's values stay.
    assert_eq!(
        (attr.port_cap_flags2, attr.active_speed_ex),
        (0xaaaa, 0xbbbb)
    );
    // Remembered: the next query goes straight to write().
    assert!(st.is_unsupported(op::QUERY_PORT));
    let fake = Fake::new([Reply::WriteOk(pod::bytes(&resp.legacy_resp).to_vec())]);
    query_port(Ctx::new(&fake, &st), 2, &mut attr, &mut req).unwrap();
    assert_eq!(fake.ioctls().len(), 0);
    assert_eq!(fake.writes().len(), 1);
}

fn device_resp(response_length: u32) -> ib_uverbs_ex_query_device_resp {
    let mut r: ib_uverbs_ex_query_device_resp = pod::zeroed();
    r.base.fw_ver = 0x0001_0002_0003;
    r.base.node_guid = 0x1122_3344_5566_7788;
    r.base.max_qp = 0x10000;
    r.base.max_cqe = 32767;
    r.base.atomic_cap = 1;
    r.base.max_pkeys = 64;
    r.base.local_ca_ack_delay = 15;
    r.base.phys_port_cnt = 1;
    r.response_length = response_length;
    r.odp_caps.general_caps = 3;
    r.odp_caps.per_transport_caps.ud_odp_caps = 4;
    r.timestamp_mask = 5;
    r.hca_core_clock = 6;
    r.device_cap_flags_ex = 0x1_0000_0000;
    r.rss_caps.max_rwq_indirection_tables = 7;
    r.max_wq_type_rq = 8;
    r.raw_packet_caps = 9;
    r.tm_caps.max_sge = 10;
    r.cq_moderation_caps.max_cq_moderation_period = 11;
    r.max_dm_size = 12;
    r.xrc_odp_caps = 13;
    r
}

fn get<T: Copy>(b: &[u8], off: usize) -> T {
    assert!(off + size_of::<T>() <= b.len());
    // SAFETY: in bounds (checked), T is a plain integer, read unaligned.
    unsafe { (b.as_ptr().add(off) as *const T).read_unaligned() }
}

macro_rules! field {
    ($b:expr, $t:ty, $($f:ident).+) => {
        get::<$t>(&$b, offset_of!(ibv_device_attr_ex, $($f).+))
    };
}

#[test]
fn query_device_any_extended() {
    let full = size_of::<ib_uverbs_ex_query_device_resp>() as u32;
    let kresp = pod::bytes(&device_resp(full)).to_vec();
    let fake = Fake::new([Reply::WriteOk(kresp)]);
    let st = CmdState::new(RXE, false);
    let mut attr = vec![0xeeu8; size_of::<ibv_device_attr_ex>()];
    let mut resp = vec![0u8; size_of::<ib_uverbs_ex_query_device_resp>()];
    let n = query_device_any(Ctx::new(&fake, &st), 0, &mut attr, Some(&mut resp), || 3).unwrap();
    assert_eq!(n, full as usize);
    let w = &fake.writes()[0];
    assert_eq!(w.len(), 32);
    assert_eq!(
        u32_at(w, 0),
        IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_QUERY_DEVICE
    );
    assert_eq!(
        (u16_at(w, 4), u16_at(w, 6), u16_at(w, 16), u16_at(w, 18)),
        (1, 38, 0, 0)
    );
    assert_eq!(u64_at(w, 8), resp.as_ptr() as u64);
    assert_eq!(u64_at(w, 24), 0, "comp_mask and reserved");
    // Legacy part.
    assert_eq!(
        field!(attr, u64, orig_attr.node_guid),
        0x1122_3344_5566_7788
    );
    assert_eq!(field!(attr, i32, orig_attr.max_qp), 0x10000);
    assert_eq!(field!(attr, i32, orig_attr.max_cqe), 32767);
    assert_eq!(field!(attr, u32, orig_attr.atomic_cap), 1);
    assert_eq!(field!(attr, u16, orig_attr.max_pkeys), 64);
    assert_eq!(field!(attr, u8, orig_attr.local_ca_ack_delay), 15);
    assert_eq!(field!(attr, u8, orig_attr.phys_port_cnt), 1);
    // fw_ver and comp_mask are the provider's business: zeroed.
    assert!(attr[..64].iter().all(|&b| b == 0));
    assert_eq!(field!(attr, u32, comp_mask), 0);
    // Extended part.
    assert_eq!(field!(attr, u64, odp_caps.general_caps), 3);
    assert_eq!(
        field!(attr, u32, odp_caps.per_transport_caps.ud_odp_caps),
        4
    );
    assert_eq!(field!(attr, u64, completion_timestamp_mask), 5);
    assert_eq!(field!(attr, u64, hca_core_clock), 6);
    assert_eq!(field!(attr, u64, device_cap_flags_ex), 0x1_0000_0000);
    assert_eq!(field!(attr, u32, rss_caps.max_rwq_indirection_tables), 7);
    assert_eq!(field!(attr, u32, max_wq_type_rq), 8);
    assert_eq!(field!(attr, u32, raw_packet_caps), 9);
    assert_eq!(field!(attr, u32, tm_caps.max_sge), 10);
    assert_eq!(field!(attr, u16, cq_mod_caps.max_cq_period), 11);
    assert_eq!(field!(attr, u64, max_dm_size), 12);
    assert_eq!(field!(attr, u32, xrc_odp_caps), 13);
    assert_eq!(field!(attr, u32, phys_port_cnt_ex), 3, "from sysfs");
    let fake = Fake::new([Reply::WriteOk(pod::bytes(&device_resp(full)).to_vec())]);
    query_device_any(Ctx::new(&fake, &st), 0, &mut attr, None, || 0).unwrap();
    assert_eq!(
        field!(attr, u32, phys_port_cnt_ex),
        1,
        "no sysfs count: the kernel's"
    );
}

#[test]
fn query_device_any_copies_only_what_both_sides_hold() {
    // The kernel answered up to and including hca_core_clock; the caller's struct ends
    // after max_wq_type_rq.
    let len = (offset_of!(ib_uverbs_ex_query_device_resp, hca_core_clock) + 8) as u32;
    let fake = Fake::new([Reply::WriteOk(pod::bytes(&device_resp(len)).to_vec())]);
    let st = CmdState::new(RXE, false);
    let attr_size = offset_of!(ibv_device_attr_ex, max_wq_type_rq) + 4;
    let mut attr = vec![0xeeu8; attr_size];
    let n = query_device_any(Ctx::new(&fake, &st), 0, &mut attr, None, || 0).unwrap();
    assert_eq!(n, len as usize);
    assert_eq!(field!(attr, u64, hca_core_clock), 6);
    assert_eq!(
        field!(attr, u64, device_cap_flags_ex),
        0,
        "beyond the kernel's answer"
    );
    assert_eq!(field!(attr, u32, max_wq_type_rq), 0);
    // The provider's resp_size minus the core size is the driver part.
    let w = &fake.writes()[0];
    assert_eq!(u16_at(w, 18), 0);
}

#[test]
fn query_device_any_legacy_sizes_and_fallback() {
    let st = CmdState::new(RXE, false);
    let orig = size_of::<ibv_device_attr>();
    // attr_size == sizeof(ibv_device_attr): the legacy command only.
    let kresp = pod::bytes(&device_resp(0)).to_vec();
    let fake = Fake::new([Reply::WriteOk(kresp[..176].to_vec())]);
    let mut attr = vec![0u8; orig];
    let mut resp = vec![0u8; size_of::<ib_uverbs_ex_query_device_resp>()];
    let n = query_device_any(Ctx::new(&fake, &st), 0, &mut attr, Some(&mut resp), || 0).unwrap();
    assert_eq!(n, 176);
    let w = &fake.writes()[0];
    assert_eq!(
        (w.len(), u32_at(w, 0), u16_at(w, 4), u16_at(w, 6)),
        (16, IB_USER_VERBS_CMD_QUERY_DEVICE, 4, 44)
    );
    assert_eq!(u64_at(w, 8), resp.as_ptr() as u64);
    assert_eq!(field!(attr, i32, orig_attr.max_qp), 0x10000);
    // EOPNOTSUPP from the extended command: retry with the legacy one, and treat the caller's
    // struct as legacy-sized from then on (so not even phys_port_cnt_ex is filled).
    let fake = Fake::new([
        Reply::WriteErr(libc::EOPNOTSUPP),
        Reply::WriteOk(kresp[..176].to_vec()),
    ]);
    let mut attr = vec![0u8; size_of::<ibv_device_attr_ex>()];
    let n = query_device_any(Ctx::new(&fake, &st), 0, &mut attr, None, || 0).unwrap();
    assert_eq!(n, 176);
    assert_eq!(fake.writes().len(), 2);
    assert_eq!(field!(attr, u64, odp_caps.general_caps), 0);
    assert_eq!(field!(attr, u32, phys_port_cnt_ex), 0);
    // Other errors are final.
    let fake = Fake::new([Reply::WriteErr(libc::EFAULT)]);
    assert_eq!(
        query_device_any(Ctx::new(&fake, &st), 0, &mut attr, None, || 0),
        Err(Errno::EFAULT)
    );
    // Argument checks.
    let fake = Fake::new([]);
    assert_eq!(
        query_device_any(Ctx::new(&fake, &st), 1, &mut attr, None, || 0),
        Err(Errno::EINVAL)
    );
    assert_eq!(
        query_device_any(Ctx::new(&fake, &st), 0, &mut attr[..orig - 1], None, || 0),
        Err(Errno::EINVAL)
    );
}

#[test]
fn query_device_any_over_ioctl_write() {
    let full = size_of::<ib_uverbs_ex_query_device_resp>() as u32;
    let fake = Fake::new([Reply::IoctlOk(vec![(
        UVERBS_ATTR_CORE_OUT,
        Out::Bytes(pod::bytes(&device_resp(full)).to_vec()),
    )])]);
    let st = CmdState::new(RXE, true);
    let mut attr = vec![0u8; size_of::<ibv_device_attr_ex>()];
    query_device_any(Ctx::new(&fake, &st), 0, &mut attr, None, || 1).unwrap();
    let p = &fake.ioctls()[0];
    let a: Vec<_> = p.attrs.iter().map(|a| (a.id, a.len, a.data)).collect();
    assert_eq!(
        a[0],
        (
            UVERBS_ATTR_WRITE_CMD,
            8,
            u64::from(IB_USER_VERBS_CMD_FLAG_EXTENDED | 1)
        )
    );
    assert_eq!(a[1], (UVERBS_ATTR_CORE_IN, 8, 0));
    assert_eq!((a[2].0, a[2].1), (UVERBS_ATTR_CORE_OUT, 304));
    assert_eq!(a.len(), 3);
    assert_eq!(field!(attr, u64, max_dm_size), 12);
}

#[test]
fn gid_entry_over_ioctl_and_fallback() {
    let st = CmdState::new(RXE, true);
    let mut entry = [0u8; 32];
    let fake = Fake::new([Reply::IoctlOk(vec![(
        UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
        Out::Bytes(vec![0xfe; 32]),
    )])]);
    assert_eq!(
        query_gid_entry(Ctx::new(&fake, &st), 1, 3, 0, &mut entry),
        Ok(GidVia::Kernel)
    );
    assert_eq!(entry, [0xfe; 32]);
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id),
        (0, UVERBS_METHOD_QUERY_GID_ENTRY)
    );
    let a: Vec<_> = p
        .attrs
        .iter()
        .map(|a| (a.id, a.len, a.flags, a.data))
        .collect();
    assert_eq!(
        a,
        [
            (UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 8, 1, 1),
            (UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 8, 1, 3),
            (UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 4, 1, 0),
            (
                UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
                32,
                1,
                entry.as_ptr() as u64
            ),
        ]
    );
    // No GID ioctls: sysfs, unless flags ask for something sysfs cannot answer.
    let fake = Fake::new([Reply::IoctlErr(libc::EPROTONOSUPPORT)]);
    assert_eq!(
        query_gid_entry(Ctx::new(&fake, &st), 1, 3, 0, &mut entry),
        Ok(GidVia::Sysfs)
    );
    assert!(st.is_unsupported(op::ASYNC_EVENT));
    assert_eq!(
        query_gid_entry(Ctx::new(&fake, &st), 1, 3, 1, &mut entry),
        Err(Errno::EOPNOTSUPP)
    );
    assert_eq!(fake.calls().len(), 1);
    let fake = Fake::new([Reply::IoctlErr(libc::ENODATA)]);
    let st = CmdState::new(RXE, true);
    assert_eq!(
        query_gid_entry(Ctx::new(&fake, &st), 1, 3, 0, &mut entry),
        Err(Errno(libc::ENODATA))
    );
}

#[test]
fn gid_table_over_ioctl_and_limits() {
    let st = CmdState::new(RXE, true);
    let mut entries = vec![0u8; 32 * 4];
    let fake = Fake::new([Reply::IoctlOk(vec![
        (
            UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
            Out::Bytes(vec![1; 64]),
        ),
        (
            UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
            Out::Bytes(2u64.to_ne_bytes().to_vec()),
        ),
    ])]);
    assert_eq!(
        query_gid_table(Ctx::new(&fake, &st), 0, 32, Some(&mut entries)),
        Ok((GidVia::Kernel, 2))
    );
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id),
        (0, UVERBS_METHOD_QUERY_GID_TABLE)
    );
    let a: Vec<_> = p.attrs.iter().map(|a| (a.id, a.len, a.data)).collect();
    assert_eq!(a[0], (UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 8, 32));
    assert_eq!(a[1], (UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 4, 0));
    assert_eq!(
        a[2],
        (
            UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
            128,
            entries.as_ptr() as u64
        )
    );
    assert_eq!(
        (a[3].0, a[3].1),
        (UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, 8)
    );
    // Tables over 64 KiB (or an overflowing size) cannot be encoded: EINVAL, nothing sent.
    let fake = Fake::new([]);
    let mut big = vec![0u8; 32 * 2048];
    assert_eq!(
        query_gid_table(Ctx::new(&fake, &st), 0, 32, Some(&mut big)),
        Err(Errno::EINVAL)
    );
    assert_eq!(
        query_gid_table(Ctx::new(&fake, &st), 0, 32, None),
        Err(Errno::EINVAL)
    );
    // ENOTTY: sysfs (flags: EOPNOTSUPP).
    let fake = Fake::new([Reply::IoctlErr(libc::ENOTTY)]);
    assert_eq!(
        query_gid_table(Ctx::new(&fake, &st), 0, 32, Some(&mut entries)),
        Ok((GidVia::Sysfs, 0))
    );
    assert_eq!(
        query_gid_table(Ctx::new(&fake, &st), 2, 32, Some(&mut entries)),
        Err(Errno::EOPNOTSUPP)
    );
}

#[test]
fn query_port_speed_is_one_ioctl() {
    let fake = Fake::new([Reply::IoctlOk(vec![(
        UVERBS_ATTR_QUERY_PORT_SPEED_RESP,
        Out::Bytes(25_000u64.to_ne_bytes().to_vec()),
    )])]);
    let st = CmdState::new(RXE, true);
    assert_eq!(query_port_speed(Ctx::new(&fake, &st), 1), Ok(25_000));
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id, p.num_attrs),
        (0, UVERBS_METHOD_QUERY_PORT_SPEED, 2)
    );
    let port = p
        .attrs
        .iter()
        .find(|a| a.id == UVERBS_ATTR_QUERY_PORT_SPEED_PORT_NUM)
        .unwrap();
    assert_eq!(port.data, 1);
    // No write fallback: a kernel without the method is an error.
    let fake = Fake::new([Reply::IoctlErr(libc::EOPNOTSUPP)]);
    assert_eq!(
        query_port_speed(Ctx::new(&fake, &st), 1),
        Err(Errno::EOPNOTSUPP)
    );
}
