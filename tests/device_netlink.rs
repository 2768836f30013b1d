//! The RDMA netlink codec against replies captured from a real kernel (rxe0 under rdma-vm), and
//! the netlink enumeration flow with a scripted transport over the fake sysfs trees.
#![cfg(target_endian = "little")] // the captured fixtures are little-endian

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use ibverbs::device::netlink::*;
use ibverbs::device::nldev::{self, NlTransport};
use ibverbs::device::scan::makedev;
use ibverbs::device::{self, FoundBy, NodeType, Source, VSYSFS_READ_NODE_GUID, sysfs};
use ibverbs::errno::Errno;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

// Captured in the rdma-vm guest (Debian bookworm kernel, rxe0 on dummy0), requests sent with
// sequence numbers 1..=4 from a socket bound to port 0x80.
const DUMP_RXE0: &str = "6c000000011402000100000080000000080001000000000009000200727865300000000008000300010000000c000400763c2201000000000c000600e534f5fefff9c9d80c000700e534f5fefff9c9d805000e0001000000050054000000000009004300726f636500000000";
const DUMP_DONE: &str = "1400000003000200010000008000000000000000";
const CHARDEV_RXE0: &str = "3c0000000f1400000200000080000000080049000e0000000c004800c0e70000000000000c00470002000000000000000c0046007576657262733000";
const CHARDEV_BAD_IDX: &str = "38000000020000000300000080000000eaffffff240000000f140100030000000000000008000100630000000b0045007576657262730000";
const CHARDEV_BAD_TYPE: &str = "38000000020000000400000080000000a1ffffff240000000f140100040000000000000008000100000000000b0045006e6f737563680000";

/// One reply message built by hand: header plus (type, payload) attributes.
fn msg(ty: u16, flags: u16, seq: u32, attrs: &[(u16, Vec<u8>)]) -> Vec<u8> {
    let mut b = vec![0u8; 16];
    for (t, d) in attrs {
        b.extend_from_slice(&((4 + d.len()) as u16).to_le_bytes());
        b.extend_from_slice(&t.to_le_bytes());
        b.extend_from_slice(d);
        while b.len() % 4 != 0 {
            b.push(0);
        }
    }
    let len = b.len() as u32;
    b[0..4].copy_from_slice(&len.to_le_bytes());
    b[4..6].copy_from_slice(&ty.to_le_bytes());
    b[6..8].copy_from_slice(&flags.to_le_bytes());
    b[8..12].copy_from_slice(&seq.to_le_bytes());
    b
}

fn s(v: &str) -> Vec<u8> {
    let mut d = v.as_bytes().to_vec();
    d.push(0);
    d
}

const GET: u16 = (5 << 10) + 1;
const GET_CHARDEV: u16 = (5 << 10) + 15;

fn dev_msg(seq: u32, idx: u32, name: &str, guid: u64, ports: u32) -> Vec<u8> {
    msg(
        GET,
        NLM_F_MULTI,
        seq,
        &[
            (1, idx.to_le_bytes().to_vec()),
            (2, s(name)),
            (3, ports.to_le_bytes().to_vec()),
            (6, guid.to_le_bytes().to_vec()),
            (14, vec![1]),
        ],
    )
}

fn done(seq: u32, status: i32) -> Vec<u8> {
    msg(NLMSG_DONE, NLM_F_MULTI, seq, &[])
        .into_iter()
        .chain(status.to_le_bytes())
        .collect::<Vec<u8>>()
        .fix_len()
}

fn error(seq: u32, errno: i32) -> Vec<u8> {
    let mut p = (-errno).to_le_bytes().to_vec();
    p.extend_from_slice(&[0u8; 16]); // the echoed request header
    let mut m = msg(NLMSG_ERROR, 0, seq, &[]);
    m.extend_from_slice(&p);
    m.fix_len()
}

fn chardev_msg(
    seq: u32,
    name: &str,
    major: u64,
    minor: u64,
    abi: u64,
    driver_id: Option<u32>,
) -> Vec<u8> {
    let huge = (minor & 0xff) | (major << 8) | ((minor & !0xff) << 12);
    let mut attrs = vec![
        (72, huge.to_le_bytes().to_vec()),
        (71, abi.to_le_bytes().to_vec()),
        (70, s(name)),
    ];
    if let Some(d) = driver_id {
        attrs.insert(0, (73, d.to_le_bytes().to_vec()));
    }
    msg(GET_CHARDEV, 0, seq, &attrs)
}

trait FixLen {
    fn fix_len(self) -> Self;
}
impl FixLen for Vec<u8> {
    fn fix_len(mut self) -> Self {
        let len = self.len() as u32;
        self[0..4].copy_from_slice(&len.to_le_bytes());
        self
    }
}

/// A transport that answers each request with the next scripted batch of datagrams, and
/// records what was sent.
#[derive(Default)]
struct Script {
    answers: VecDeque<Vec<Vec<u8>>>,
    pending: VecDeque<Vec<u8>>,
    sent: Vec<Vec<u8>>,
}

impl Script {
    fn new(answers: Vec<Vec<Vec<u8>>>) -> Script {
        Script {
            answers: answers.into(),
            ..Default::default()
        }
    }
}

impl NlTransport for Script {
    fn send(&mut self, m: &[u8]) -> Result<(), Errno> {
        self.sent.push(m.to_vec());
        let a = self.answers.pop_front().ok_or(Errno::EIO)?;
        self.pending.extend(a);
        Ok(())
    }
    fn recv(&mut self) -> Result<Vec<u8>, Errno> {
        self.pending.pop_front().ok_or(Errno::EAGAIN)
    }
}

fn tree(name: &str) -> (PathBuf, PathBuf) {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake-sysfs")
        .join(name);
    (base.join("sys"), base.join("dev/infiniband"))
}

#[test]
fn requests_match_the_wire_format() {
    assert_eq!(
        get_devices_request(1),
        hex("10000000011401030100000000000000")
    );
    // The kernel echoes a failed request in its NLMSG_ERROR: ours must be byte-identical.
    assert_eq!(
        get_chardev_request(3, Some(99), "uverbs"),
        hex(&CHARDEV_BAD_IDX[40..])
    );
    assert_eq!(
        get_chardev_request(4, Some(0), "nosuch"),
        hex(&CHARDEV_BAD_TYPE[40..])
    );
    let no_idx = get_chardev_request(7, None, "uverbs");
    assert_eq!(no_idx.len(), 28);
    assert_eq!(
        rdma_nl_get_type(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET_CHARDEV),
        0x140f
    );
}

#[test]
fn decode_captured_replies() {
    let d = hex(DUMP_RXE0);
    let msgs = split_datagram(&d).unwrap();
    assert_eq!(msgs.len(), 1);
    assert_eq!(
        (msgs[0].hdr.ty, msgs[0].hdr.flags, msgs[0].hdr.seq),
        (GET, NLM_F_MULTI, 1)
    );
    let info = decode_dev(msgs[0].payload).unwrap().unwrap();
    assert_eq!(
        info,
        DevInfo {
            index: 0,
            name: "rxe0".into(),
            node_type: 1,
            node_guid: 0xd8c9_f9ff_fef5_34e5,
            num_ports: 1
        }
    );
    let a = Attrs::parse(msgs[0].payload).unwrap();
    assert_eq!(a.cstr(RDMA_NLDEV_ATTR_DEV_PROTOCOL), Some(&b"roce"[..]));

    let d = hex(DUMP_DONE);
    let m = split_datagram(&d).unwrap();
    assert_eq!((m[0].hdr.ty, done_status(m[0].payload)), (NLMSG_DONE, 0));

    let d = hex(CHARDEV_RXE0);
    let m = split_datagram(&d).unwrap();
    let c = decode_chardev(m[0].payload).unwrap().unwrap();
    assert_eq!(
        c,
        ChardevInfo {
            name: "uverbs0".into(),
            dev_huge: 0xe7c0,
            abi: 2,
            driver_id: Some(14)
        }
    );
    assert_eq!(
        ibverbs::device::scan::huge_decode_dev(c.dev_huge),
        (231, 192)
    ); // ls -l: 231, 192

    for (f, e) in [
        (CHARDEV_BAD_IDX, libc::EINVAL),
        (CHARDEV_BAD_TYPE, libc::EOPNOTSUPP),
    ] {
        let d = hex(f);
        let m = split_datagram(&d).unwrap();
        assert_eq!(
            (m[0].hdr.ty, error_code(m[0].payload).unwrap()),
            (NLMSG_ERROR, -e)
        );
    }
}

#[test]
fn codec_rejects_malformed_input() {
    let mut d = hex(DUMP_RXE0);
    d[0] = 0xff; // length past the datagram
    assert!(split_datagram(&d).is_err());
    assert!(split_datagram(&hex(DUMP_RXE0)[..50]).is_err());
    // A u32 attribute of 2 bytes fails the message, as libnl's policy check does.
    let bad = msg(GET, 0, 1, &[(1, vec![0, 0])]);
    assert!(decode_dev(&bad[16..]).is_err());
    // A string without its NUL likewise.
    let bad = msg(GET, 0, 1, &[(2, b"rxe0".to_vec())]);
    assert!(Attrs::parse(&bad[16..]).is_err());
    // Missing required attributes: the device is passed over, not an error.
    let partial = msg(
        GET,
        0,
        1,
        &[(1, 0u32.to_le_bytes().to_vec()), (2, s("rxe0"))],
    );
    let r = decode_dev(&partial[16..]).unwrap();
    assert!(
        r.unwrap_err()
            .contains("DEV_NODE_TYPE, NODE_GUID, PORT_INDEX")
    );
    // Unknown and flagged types are fine; the flag bits are masked off.
    let flagged = msg(
        GET,
        0,
        1,
        &[
            (100, vec![1, 2, 3]),
            (1 | NLA_F_NET_BYTEORDER, 5u32.to_le_bytes().to_vec()),
        ],
    );
    assert_eq!(Attrs::parse(&flagged[16..]).unwrap().u32(1), Some(5));
}

#[test]
fn captured_rxe0_session_end_to_end() {
    // Replay exactly what the kernel said: dump (two datagrams), then the chardev reply.
    let (root, cdev) = tree("two-devices");
    let mut t = Script::new(vec![
        vec![hex(DUMP_RXE0), hex(DUMP_DONE)],
        vec![hex(CHARDEV_RXE0)],
    ]);
    let e = device::enumerate_with(&root, &cdev, Some(&mut t)).unwrap();
    assert_eq!(e.source, Source::Netlink);
    assert_eq!(e.netlink_error, None);
    assert_eq!(e.kernel_abi_ver, Some(6));
    assert!(e.skipped.is_empty(), "{:?}", e.skipped);
    assert_eq!(e.devices.len(), 1);
    let d = &e.devices[0];
    assert_eq!(
        (
            d.sysfs_name.to_str().unwrap(),
            d.ibdev_name.to_str().unwrap()
        ),
        ("uverbs0", "rxe0")
    );
    assert_eq!(d.ibdev_idx, Some(0));
    assert_eq!(d.num_ports, 1);
    assert_eq!(d.node_guid, Some(0xd8c9_f9ff_fef5_34e5));
    assert_eq!(d.node_type, NodeType::Ca);
    assert_eq!(d.sysfs_cdev, makedev(231, 192));
    assert_eq!(d.abi_ver, 2);
    assert_eq!(d.driver_id, Some(14));
    // The GUID came with the dump; the modalias is left for a provider match that needs it.
    assert_eq!(d.flags, VSYSFS_READ_NODE_GUID);
    assert_eq!(d.modalias, None);
    assert_eq!(d.found_by, FoundBy::Netlink);
    assert_eq!(d.time_created, Default::default());
    assert_eq!(d.sysfs_path, root.join("class/infiniband_verbs/uverbs0"));
    // What we sent: the dump request, then GET_CHARDEV for index 0.
    assert_eq!(
        t.sent,
        vec![
            get_devices_request(1),
            get_chardev_request(2, Some(0), "uverbs")
        ]
    );
}

#[test]
fn chardev_failure_falls_back_to_sysfs_per_device() {
    let (root, cdev) = tree("two-devices");
    let mut t = Script::new(vec![
        vec![
            [
                dev_msg(1, 0, "rxe0", 1, 1),
                dev_msg(1, 1, "mlx5_0", 0x0c42_a103_0065_8f2e, 2),
            ]
            .concat(),
            done(1, 0),
        ],
        vec![chardev_msg(2, "uverbs0", 231, 192, 2, Some(14))],
        vec![error(3, libc::EOPNOTSUPP)],
    ]);
    let e = device::enumerate_with(&root, &cdev, Some(&mut t)).unwrap();
    assert_eq!(e.source, Source::Netlink);
    assert!(e.skipped.is_empty(), "{:?}", e.skipped);
    let names: Vec<_> = e
        .devices
        .iter()
        .map(|d| {
            (
                d.ibdev_name.to_str().unwrap(),
                d.sysfs_name.to_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(names, [("rxe0", "uverbs0"), ("mlx5_0", "uverbs1")]);
    let m = &e.devices[1];
    assert_eq!(m.found_by, FoundBy::NetlinkThenSysfs);
    assert_eq!(m.ibdev_idx, Some(1));
    assert_eq!(m.num_ports, 2);
    assert_eq!(m.driver_id, None);
    assert_eq!(m.abi_ver, 1); // from sysfs
    assert_eq!(m.sysfs_cdev, makedev(231, 193));
    assert_ne!(m.time_created, Default::default());
    assert_eq!(m.modalias, None);
    assert!(
        sysfs::read_modalias(m.ibdev_path.as_os_str().as_encoded_bytes())
            .unwrap()
            .starts_with(b"pci:v000015B3d0000101B")
    );
}

#[test]
fn device_without_any_uverbs_is_skipped() {
    // rxe0 has no parent device, so there is no sysfs fallback for it.
    let (root, cdev) = tree("two-devices");
    let mut t = Script::new(vec![
        vec![dev_msg(1, 0, "rxe0", 1, 1), done(1, 0)],
        vec![msg(GET_CHARDEV, 0, 2, &[(70, s("uverbs0"))])], // lacks CHARDEV and CHARDEV_ABI
    ]);
    let e = device::enumerate_with(&root, &cdev, Some(&mut t)).unwrap();
    assert!(e.devices.is_empty());
    let r = &e.skipped[0];
    assert_eq!(r.name, "rxe0");
    assert!(
        r.message.contains("lacks CHARDEV") && r.message.contains("device/infiniband_verbs"),
        "{}",
        r.message
    );
}

#[test]
fn dump_failure_falls_back_to_the_sysfs_walk() {
    let (root, cdev) = tree("two-devices");
    for answer in [
        vec![error(1, libc::EOPNOTSUPP)],
        vec![error(1, libc::EINVAL)],
        vec![msg(GET, NLM_F_MULTI, 1, &[(1, vec![0, 0])]), done(1, 0)], // malformed attribute
        vec![dev_msg(1, 0, "rxe0", 1, 1), done(1, -libc::EMSGSIZE)],    // dump cut short
        vec![hex(DUMP_RXE0)],                                           // no DONE: receive fails
    ] {
        let mut t = Script::new(vec![answer]);
        let e = device::enumerate_with(&root, &cdev, Some(&mut t)).unwrap();
        assert_eq!(e.source, Source::Sysfs);
        assert_eq!(e.devices.len(), 2);
        assert!(
            e.netlink_error
                .as_deref()
                .unwrap()
                .starts_with("RDMA_NLDEV_CMD_GET dump: "),
            "{:?}",
            e.netlink_error
        );
    }
    let mut t = Script::new(vec![vec![error(1, libc::EOPNOTSUPP)]]);
    let e = device::enumerate_with(&root, &cdev, Some(&mut t)).unwrap();
    assert!(e.netlink_error.unwrap().contains("Operation not supported"));
    // And with no sysfs either, the fallback's ENOSYS is the answer.
    let (root, cdev) = tree("empty");
    let mut t = Script::new(vec![vec![error(1, libc::EOPNOTSUPP)]]);
    assert_eq!(
        device::enumerate_with(&root, &cdev, Some(&mut t)),
        Err(Errno::ENOSYS)
    );
}

#[test]
fn empty_dump_is_final() {
    // Netlink works and reports no devices: no sysfs walk, so no ENOSYS on an empty tree.
    let (root, cdev) = tree("empty");
    let mut t = Script::new(vec![vec![done(1, 0)]]);
    let e = device::enumerate_with(&root, &cdev, Some(&mut t)).unwrap();
    assert_eq!(e.source, Source::Netlink);
    assert!(e.devices.is_empty() && e.skipped.is_empty());
    assert_eq!(e.kernel_abi_ver, None);
}

#[test]
fn incomplete_device_message_skips_only_that_device() {
    let (root, cdev) = tree("two-devices");
    let partial = msg(
        GET,
        NLM_F_MULTI,
        1,
        &[(1, 5u32.to_le_bytes().to_vec()), (2, s("odd0"))],
    );
    let mut t = Script::new(vec![
        vec![partial, dev_msg(1, 0, "rxe0", 1, 1), done(1, 0)],
        vec![chardev_msg(2, "uverbs0", 231, 192, 2, None)],
    ]);
    let e = device::enumerate_with(&root, &cdev, Some(&mut t)).unwrap();
    assert_eq!(e.devices.len(), 1);
    assert_eq!(e.devices[0].driver_id, None);
    assert_eq!(e.skipped.len(), 1);
    assert!(e.skipped[0].message.contains("lacks DEV_NODE_TYPE"));
}

#[test]
fn foreign_sequence_numbers_are_ignored() {
    let (root, cdev) = tree("two-devices");
    let mut t = Script::new(vec![
        vec![
            [dev_msg(9, 7, "stale0", 1, 1), dev_msg(1, 0, "rxe0", 1, 1)].concat(),
            done(1, 0),
        ],
        vec![
            [
                chardev_msg(8, "uverbs9", 1, 1, 1, None),
                chardev_msg(2, "uverbs0", 231, 192, 2, None),
            ]
            .concat(),
        ],
    ]);
    let e = device::enumerate_with(&root, &cdev, Some(&mut t)).unwrap();
    assert_eq!(e.devices.len(), 1);
    assert_eq!(e.devices[0].sysfs_name, "uverbs0");
}

#[test]
fn missing_dev_node_skips_netlink_device() {
    let (root, _) = tree("two-devices");
    let mut t = Script::new(vec![
        vec![dev_msg(1, 0, "rxe0", 1, 1), done(1, 0)],
        vec![chardev_msg(2, "uverbs0", 231, 192, 2, None)],
    ]);
    let e =
        device::enumerate_with(&root, Path::new("/nonexistent/infiniband"), Some(&mut t)).unwrap();
    assert!(e.devices.is_empty());
    assert!(
        e.skipped[0]
            .message
            .contains("cannot access /nonexistent/infiniband/uverbs0")
    );
}

#[test]
fn real_socket_or_fallback() {
    // Whatever this host offers: with NETLINK_RDMA we get a netlink answer (perhaps no
    // devices); without it, the sysfs walk of the fake tree and the reason netlink was not used.
    let (root, _) = tree("two-devices");
    let e = device::enumerate(&root, true).unwrap();
    match nldev::KernelTransport::open() {
        Ok(_) => assert_eq!(e.source, Source::Netlink),
        Err(err) => {
            assert_eq!(e.source, Source::Sysfs);
            // Kept as the errno: only the debug log words it.
            assert_eq!(e.netlink_socket_error, Some(err));
            assert_eq!(e.netlink_error, None);
        }
    }
}
