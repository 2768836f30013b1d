//! The NETLINK_ROUTE codec of `ibv_resolve_eth_l2_from_gid` against replies captured from a real
//! kernel: the rdma-vm guest (Debian bookworm kernel, dummy0 = ifindex 2 at 10.99.0.1/24 with
//! ARP switched on, static neighbours 10.99.0.78 (permanent) and 10.99.0.79 (stale), an
//! unanswered 10.99.0.77, 192.0.2.0/24 via 10.99.0.78). Requests had sequence numbers 101..=112;
//! the kernel accepted byte-for-byte the requests our encoder builds (checked below).
#![cfg(target_endian = "little")] // the captured fixtures are little-endian

use ibverbs::device::neigh::{self, NO_VLAN};
use ibverbs::device::rtnl::*;

fn hex(s: &str) -> Vec<u8> {
    let s = s.trim();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn fixture(name: &str) -> Vec<u8> {
    let p = format!(
        "{}/tests/fixtures/rtnl/{name}.hex",
        env!("CARGO_MANIFEST_DIR")
    );
    hex(&std::fs::read_to_string(p).expect("fixture"))
}

/// The whole reply to the request with sequence number `seq`.
fn reply(name: &str, seq: u32, dump: bool) -> Reply {
    let mut c = Collector::new(seq, dump);
    assert!(
        c.feed(&fixture(name)).expect("well-formed"),
        "{name}: reply incomplete"
    );
    c.into_reply()
}

fn one(name: &str, seq: u32, ty: u16) -> Vec<u8> {
    let r = reply(name, seq, false);
    assert_eq!(r.error, None);
    assert_eq!(r.msgs.len(), 1);
    assert_eq!(r.msgs[0].0, ty);
    r.msgs[0].1.clone()
}

const DUMMY0_MAC: [u8; 6] = [0x0e, 0x83, 0xa5, 0x24, 0x80, 0x0d];

#[test]
fn requests_are_the_bytes_the_kernel_answered() {
    let v4 = IpAddr::V4([10, 99, 0, 77]);
    assert_eq!(
        get_route_request(101, &v4, 2),
        hex(
            "2c0000001a0001006500000000000000022000000000000000000000080001000a63004d0800040002000000"
        )
    );
    let v6 = IpAddr::V6([
        0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
    ]);
    assert_eq!(
        get_route_request(103, &v6, 2),
        hex(
            "380000001a00010067000000000000000a800000000000000000000014000100fe80000000000000021122fffe3344550800040002000000"
        )
    );
    assert_eq!(
        get_link_request(108, 2),
        hex("20000000120001006c0000000000000000000000020000000000000000000000")
    );
    assert_eq!(
        dump_addr_request(110, AF_INET),
        hex("18000000160001036e000000000000000200000000000000")
    );
    assert_eq!(
        dump_neigh_request(112, AF_INET),
        hex("1c0000001e0001037000000000000000020000000000000000000000")
    );
    // Without an interface the attribute is left out.
    assert_eq!(get_route_request(1, &v4, 0).len(), 0x2c - 8);
}

#[test]
fn route_on_link() {
    let r = decode_route(&one("route_v4_onlink", 101, RTM_NEWROUTE)).unwrap();
    assert_eq!(r.family, AF_INET);
    assert_eq!(r.rtype, RTN_UNICAST);
    assert_eq!(r.oif, Some(2));
    assert_eq!(r.gateway, None);
    assert_eq!(r.prefsrc, Some(vec![10, 99, 0, 1]));
}

#[test]
fn route_to_an_own_address_is_local_through_lo() {
    let r = decode_route(&one("route_v4_local", 102, RTM_NEWROUTE)).unwrap();
    assert_eq!(r.rtype, RTN_LOCAL);
    assert_eq!(r.oif, Some(1));
}

#[test]
fn route_ipv6_link_local_and_multicast() {
    let r = decode_route(&one("route_v6_linklocal", 103, RTM_NEWROUTE)).unwrap();
    assert_eq!(
        (r.family, r.rtype, r.oif, r.gateway),
        (AF_INET6, RTN_UNICAST, Some(2), None)
    );
    let r = decode_route(&one("route_v4_mcast", 105, RTM_NEWROUTE)).unwrap();
    assert_eq!(
        (r.family, r.rtype, r.oif),
        (AF_INET, RTN_MULTICAST, Some(2))
    );
}

#[test]
fn route_through_a_gateway() {
    let r = decode_route(&one("route_v4_gateway", 106, RTM_NEWROUTE)).unwrap();
    assert_eq!(r.rtype, RTN_UNICAST);
    assert_eq!(r.gateway, Some(vec![10, 99, 0, 78]));
}

#[test]
fn refused_routes_are_errors() {
    assert_eq!(
        reply("route_v6_noroute", 104, false),
        Reply {
            msgs: vec![],
            error: Some(-libc::ENETUNREACH)
        }
    );
    assert_eq!(
        reply("route_v6_blackhole", 107, false).error,
        Some(-libc::EINVAL)
    );
}

#[test]
fn link_address_and_kind() {
    let l = decode_link(&one("link_dummy0", 108, RTM_NEWLINK)).unwrap();
    assert_eq!(l.ifindex, 2);
    assert_eq!(l.address.as_deref(), Some(&DUMMY0_MAC[..]));
    assert_eq!(l.kind.as_deref(), Some("dummy"));
    assert_eq!(l.vlan_id, None);
    assert_eq!(neigh::vlan_of(&l), NO_VLAN);
    assert_eq!(reply("link_none", 109, false).error, Some(-libc::ENODEV));
}

/// An `RTM_NEWLINK` payload with `IFLA_LINKINFO { KIND kind, DATA { VLAN_ID id } }`.
fn link_msg(kind: &str, id: Option<u16>) -> Vec<u8> {
    fn attr(t: u16, d: &[u8]) -> Vec<u8> {
        let mut b = ((4 + d.len()) as u16).to_ne_bytes().to_vec();
        b.extend_from_slice(&t.to_ne_bytes());
        b.extend_from_slice(d);
        b.resize(b.len().div_ceil(4) * 4, 0);
        b
    }
    let mut p = vec![0u8; IFINFOMSG_LEN];
    p[4..8].copy_from_slice(&7i32.to_ne_bytes());
    p.extend(attr(IFLA_IFNAME, b"eth0.5\0"));
    p.extend(attr(IFLA_ADDRESS, &[2, 0, 0, 0, 0, 7]));
    let mut info = attr(IFLA_INFO_KIND, format!("{kind}\0").as_bytes());
    if let Some(id) = id {
        info.extend(attr(
            IFLA_INFO_DATA | 0x8000,
            &attr(IFLA_VLAN_ID, &id.to_ne_bytes()),
        ));
    }
    p.extend(attr(IFLA_LINKINFO | 0x8000, &info));
    p
}

#[test]
fn vlan_ids() {
    let l = decode_link(&link_msg("vlan", Some(5))).unwrap();
    assert_eq!(
        (l.ifindex, l.kind.as_deref(), l.vlan_id),
        (7, Some("vlan"), Some(5))
    );
    assert_eq!(neigh::vlan_of(&l), 5);
    assert_eq!(
        neigh::vlan_of(&decode_link(&link_msg("vlan", Some(4095))).unwrap()),
        4095
    );
    assert_eq!(
        neigh::vlan_of(&decode_link(&link_msg("vlan", Some(5000))).unwrap()),
        NO_VLAN
    );
    // A VLAN device without an id reads as 0 (libnl's rtnl_link_vlan_get_id).
    assert_eq!(
        neigh::vlan_of(&decode_link(&link_msg("vlan", None)).unwrap()),
        0
    );
    // Only the "vlan" kind counts.
    assert_eq!(
        neigh::vlan_of(&decode_link(&link_msg("macvlan", Some(5))).unwrap()),
        NO_VLAN
    );
}

#[test]
fn addresses_give_the_interface() {
    let v4: Vec<IfAddr> = reply("addr_v4", 110, true)
        .msgs
        .iter()
        .map(|(t, p)| {
            assert_eq!(*t, RTM_NEWADDR);
            decode_addr(p).unwrap()
        })
        .collect();
    assert_eq!(v4.len(), 2);
    assert_eq!(ifindex_of(&v4, &IpAddr::V4([10, 99, 0, 1])), Some(2));
    assert_eq!(ifindex_of(&v4, &IpAddr::V4([127, 0, 0, 1])), Some(1));
    assert_eq!(ifindex_of(&v4, &IpAddr::V4([10, 99, 0, 2])), None);
    let v6: Vec<IfAddr> = reply("addr_v6", 111, true)
        .msgs
        .iter()
        .map(|(_, p)| decode_addr(p).unwrap())
        .collect();
    let ll = IpAddr::V6([
        0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x0c, 0x83, 0xa5, 0xff, 0xfe, 0x24, 0x80, 0x0d,
    ]);
    assert_eq!(ifindex_of(&v6, &ll), Some(2));
    let mut lo = [0u8; 16];
    lo[15] = 1;
    assert_eq!(ifindex_of(&v6, &IpAddr::V6(lo)), Some(1));
    // The family must match too: 10.99.0.1's bytes are no IPv6 address.
    assert_eq!(ifindex_of(&v6, &IpAddr::V4([10, 99, 0, 1])), None);
}

#[test]
fn point_to_point_addresses_use_the_local_side() {
    let a = IfAddr {
        family: AF_INET,
        ifindex: 9,
        address: Some(vec![10, 0, 0, 2]),
        local: Some(vec![10, 0, 0, 1]),
    };
    assert_eq!(a.addr(), Some(&[10, 0, 0, 1][..]));
    assert_eq!(
        ifindex_of(std::slice::from_ref(&a), &IpAddr::V4([10, 0, 0, 1])),
        Some(9)
    );
    assert_eq!(ifindex_of(&[a], &IpAddr::V4([10, 0, 0, 2])), None);
}

#[test]
fn neighbour_table() {
    let table: Vec<Neigh> = reply("neigh_v4", 112, true)
        .msgs
        .iter()
        .map(|(t, p)| {
            assert_eq!(*t, RTM_NEWNEIGH);
            decode_neigh(p).unwrap()
        })
        .collect();
    assert_eq!(table.len(), 3);
    let get = |last: u8| {
        table
            .iter()
            .find(|n| n.is_for(2, &IpAddr::V4([10, 99, 0, last])))
    };
    let unanswered = get(77).unwrap();
    assert_eq!((unanswered.state, &unanswered.lladdr), (0x01, &None)); // NUD_INCOMPLETE
    let perm = get(78).unwrap();
    assert_eq!(
        (perm.state, perm.lladdr.as_deref()),
        (0x80, Some(&[2, 0, 0, 0, 0, 0x78][..]))
    );
    let stale = get(79).unwrap();
    assert_eq!(
        (stale.state, stale.lladdr.as_deref()),
        (0x04, Some(&[2, 0, 0, 0, 0, 0x79][..]))
    );
    assert!(get(80).is_none());
    // Another interface, or the same bytes as another family, is another entry.
    assert!(!perm.is_for(3, &IpAddr::V4([10, 99, 0, 78])));
}

#[test]
fn neighbour_notification() {
    let d = fixture("notify_v4");
    let msgs = ibverbs::device::netlink::split_datagram(&d).unwrap();
    assert_eq!(msgs.len(), 1);
    assert_eq!(msgs[0].hdr.ty, RTM_NEWNEIGH);
    assert_eq!(msgs[0].hdr.seq, 0);
    let n = decode_neigh(msgs[0].payload).unwrap();
    assert!(n.is_for(2, &IpAddr::V4([10, 99, 0, 80])));
    assert_eq!(
        (n.state, n.lladdr.as_deref()),
        (0x02, Some(&[2, 0, 0, 0, 0, 0x80][..]))
    );
}

#[test]
fn collector_skips_other_sequence_numbers_and_rejects_garbage() {
    let mut c = Collector::new(999, false);
    assert!(!c.feed(&fixture("route_v4_onlink")).unwrap());
    assert!(c.into_reply().msgs.is_empty());
    let mut c = Collector::new(101, false);
    let mut d = fixture("route_v4_onlink");
    d[0] = 0xff; // a length running past the datagram
    assert!(c.feed(&d).is_err());
    // Too short for its family header.
    assert!(decode_route(&[2, 32]).is_err());
    assert!(decode_neigh(&[0; 8]).is_err());
    assert!(decode_link(&[0; 12]).is_err());
    assert!(decode_addr(&[0; 4]).is_err());
    // An RTA_OIF too short for a u32 fails libnl's policy.
    let mut p = vec![2u8, 32, 0, 0, 254, 0, 0, 1, 0, 0, 0, 0];
    p.extend_from_slice(&[6, 0, 4, 0, 2, 0, 0, 0]);
    assert!(decode_route(&p).is_err());
}
