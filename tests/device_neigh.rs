//! The flow of `ibv_resolve_eth_l2_from_gid` (rdma-core's verbs.c and neigh.c) over a scripted
//! `RouteIo` with a simulated clock: return values, errno, MAC, VLAN id, and the probe/wait
//! schedule (first probe, then a table re-read and a re-sent probe every 272 ms, 11 ticks).
use std::time::Duration;

use ibverbs::device::neigh::{self, NO_VLAN, Outcome, RouteAnswer, RouteIo};
use ibverbs::device::rtnl::*;
use ibverbs::errno::Errno;

const OIF: u32 = 2;
const OWN_MAC: [u8; 6] = [0x0e, 0x83, 0xa5, 0x24, 0x80, 0x0d];
const PERIOD: Duration = Duration::from_millis(272);

fn v4gid(a: [u8; 4]) -> [u8; 16] {
    let mut g = [0u8; 16];
    g[10] = 0xff;
    g[11] = 0xff;
    g[12..].copy_from_slice(&a);
    g
}

fn gid(s: &str) -> [u8; 16] {
    let a: std::net::Ipv6Addr = s.parse().unwrap();
    a.octets()
}

fn neigh(dst: [u8; 4], lladdr: Option<[u8; 6]>) -> Neigh {
    Neigh {
        family: AF_INET,
        ifindex: OIF as i32,
        state: 0,
        dst: Some(dst.to_vec()),
        lladdr: lladdr.map(|m| m.to_vec()),
    }
}

fn route(rtype: u8, gateway: Option<Vec<u8>>) -> RouteAnswer {
    RouteAnswer::Route(Route {
        family: AF_INET,
        rtype,
        oif: Some(OIF),
        gateway,
        prefsrc: None,
    })
}

/// The scripted system: dummy0 (ifindex 2) holds 10.99.0.1 and fe80::c83:a5ff:fe24:800d.
struct Fake {
    clock: Duration,
    route: Result<RouteAnswer, Errno>,
    link: Option<Link>,
    table: Vec<Neigh>,
    /// From this time on, the table has this entry and a notification for it is pending.
    answer_at: Option<(Duration, Neigh)>,
    /// Also send the notification (false: only the table changes).
    notify: bool,
    /// The results of the next sends (`Errno(0)`: sent); then every send succeeds.
    probe_errors: Vec<Errno>,
    open_error: Option<Errno>,
    /// What reading the neighbour table fails with.
    table_error: Option<Errno>,
    /// How many times the neighbour table was read.
    table_reads: u32,
    probes: Vec<Duration>,
    routed: Vec<IpAddr>,
    notified: bool,
}

impl Fake {
    fn new(route: RouteAnswer) -> Fake {
        Fake {
            clock: Duration::from_secs(100),
            route: Ok(route),
            link: Some(Link {
                ifindex: OIF as i32,
                address: Some(OWN_MAC.to_vec()),
                kind: Some("dummy".into()),
                vlan_id: None,
            }),
            table: vec![],
            answer_at: None,
            notify: true,
            probe_errors: vec![],
            open_error: None,
            table_error: None,
            table_reads: 0,
            probes: vec![],
            routed: vec![],
            notified: false,
        }
    }

    fn answered(&self) -> bool {
        self.answer_at
            .as_ref()
            .is_some_and(|(t, _)| self.clock >= *t)
    }
}

impl RouteIo for Fake {
    fn addresses(&mut self, family: u8) -> Result<Vec<IfAddr>, Errno> {
        let a = |f: u8, i: u32, b: &[u8]| IfAddr {
            family: f,
            ifindex: i,
            address: Some(b.to_vec()),
            local: None,
        };
        Ok(match family {
            AF_INET => vec![
                a(AF_INET, 1, &[127, 0, 0, 1]),
                a(AF_INET, OIF, &[10, 99, 0, 1]),
            ],
            _ => vec![a(AF_INET6, OIF, &gid("fe80::c83:a5ff:fe24:800d"))],
        })
    }
    fn route(&mut self, dst: &IpAddr, oif: u32) -> Result<RouteAnswer, Errno> {
        assert_eq!(oif, OIF);
        self.routed.push(*dst);
        self.route.clone()
    }
    fn link(&mut self, ifindex: u32) -> Result<Option<Link>, Errno> {
        assert_eq!(ifindex, OIF);
        Ok(self.link.clone())
    }
    fn neighbours(&mut self, family: u8) -> Result<Vec<Neigh>, Errno> {
        // rdma-core's AF_UNSPEC cache, filled at setup and refilled
        assert_eq!(family, AF_UNSPEC);
        self.table_reads += 1;
        if let Some(e) = self.table_error {
            return Err(e);
        }
        let mut t = self.table.clone();
        if self.answered() {
            t.insert(0, self.answer_at.clone().unwrap().1);
        }
        Ok(t)
    }
    fn subscribe(&mut self) -> Result<(), Errno> {
        Ok(())
    }
    fn open_probe(&mut self, src: &IpAddr, dst: &IpAddr) -> Result<(), Errno> {
        assert_eq!((src.family(), dst.family()), (AF_INET, AF_INET));
        self.open_error.map_or(Ok(()), Err)
    }
    fn send_probe(&mut self, _dst: &IpAddr, oif: u32) -> Result<(), Errno> {
        assert_eq!(oif, OIF);
        self.probes.push(self.clock);
        match self.probe_errors.is_empty() {
            true => Ok(()),
            false => match self.probe_errors.remove(0) {
                Errno(0) => Ok(()),
                e => Err(e),
            },
        }
    }
    fn wait(&mut self, timeout: Duration) -> Result<bool, Errno> {
        if let Some((t, _)) = &self.answer_at {
            if self.notify && !self.notified && *t <= self.clock + timeout {
                self.clock = self.clock.max(*t);
                return Ok(true);
            }
        }
        self.clock += timeout;
        Ok(false)
    }
    fn notifications(&mut self) -> Result<Vec<Neigh>, Errno> {
        self.notified = true;
        let mut n = self.answer_at.clone().unwrap().1;
        // Another neighbour's news first: not the one asked for.
        let other = neigh([10, 99, 0, 200], Some([9; 6]));
        n.state = 0x02;
        Ok(vec![other, n])
    }
    fn now(&mut self) -> Duration {
        self.clock
    }
}

fn ok(mac: &[u8], vid: Option<u16>, errno: i32) -> Outcome {
    Outcome {
        ret: 0,
        errno,
        mac: Some(mac.to_vec()),
        vid,
    }
}

fn fail(ret: i32, errno: i32) -> Outcome {
    Outcome {
        ret,
        errno,
        mac: None,
        vid: None,
    }
}

const SRC4: [u8; 4] = [10, 99, 0, 1];
const PEER: [u8; 4] = [10, 99, 0, 77];

#[test]
fn gid_classification() {
    assert!(neigh::is_v4_mapped(&v4gid(PEER)));
    assert!(neigh::is_v4_mapped(&gid("ff0e::ffff:224.0.1.1")));
    assert!(!neigh::is_v4_mapped(&gid("ff02::ffff:224.0.1.1")));
    assert!(!neigh::is_v4_mapped(&gid("::1:ffff:10.0.0.1")));
    assert!(!neigh::is_v4_mapped(&gid("fe80::1")));
    assert_eq!(
        neigh::addr_of_gid(&gid("ff0e::ffff:10.1.2.3")),
        IpAddr::V4([10, 1, 2, 3])
    );
    assert_eq!(
        neigh::addr_of_gid(&gid("fe80::1")),
        IpAddr::V6(gid("fe80::1"))
    );
}

#[test]
fn macs_encoded_in_addresses() {
    let m = |s: &str| neigh::encoded_mac(&neigh::addr_of_gid(&gid(s)));
    assert_eq!(m("::ffff:224.0.1.1"), Some(vec![1, 0, 0x5e, 0, 1, 1]));
    assert_eq!(
        m("::ffff:239.255.128.9"),
        Some(vec![1, 0, 0x5e, 0x7f, 0x80, 9])
    );
    assert_eq!(m("::ffff:240.0.0.1"), None);
    assert_eq!(
        m("ff02::1:ff33:4455"),
        Some(vec![0x33, 0x33, 0xff, 0x33, 0x44, 0x55])
    );
    assert_eq!(
        m("fe80::211:22ff:fe33:4455"),
        Some(vec![0, 0x11, 0x22, 0x33, 0x44, 0x55])
    );
    // Only fe80::/64: fe80:0:0:1::/64 is not link-local by rdma-core's test.
    assert_eq!(m("fe80:0:0:1:211:22ff:fe33:4455"), None);
    assert_eq!(m("2001:db8::1"), None);
    assert_eq!(m("::ffff:10.99.0.77"), None);
}

#[test]
fn source_address_must_be_on_an_interface() {
    let mut io = Fake::new(route(RTN_UNICAST, None));
    assert_eq!(
        neigh::resolve(&mut io, &[0; 16], &v4gid(PEER), true, 61),
        fail(-libc::EINVAL, 61)
    );
    assert_eq!(
        neigh::resolve(&mut io, &v4gid([10, 99, 0, 2]), &v4gid(PEER), true, 0),
        fail(-libc::EINVAL, 0)
    );
    assert!(io.routed.is_empty());
}

/// rdma-core's setup reads the neighbour table before anything else (qemu-user refuses the
/// RTM_GETNEIGH dump with EOPNOTSUPP): -ENOMEM, errno as the failing call left it, whether or not
/// an interface holds the source address.
#[test]
fn neighbour_table_unreadable_at_setup() {
    let mut io = Fake::new(route(RTN_UNICAST, None));
    io.table_error = Some(Errno(libc::EOPNOTSUPP));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid([10, 99, 0, 2]), &v4gid(PEER), true, 0),
        fail(-libc::ENOMEM, libc::EOPNOTSUPP)
    );
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), false, 5),
        fail(-libc::ENOMEM, libc::EOPNOTSUPP)
    );
    assert!(io.routed.is_empty() && io.probes.is_empty());
    assert_eq!(io.table_reads, 2);
}

/// The table is read at setup even when the MAC needs no neighbour, and its first lookup is in
/// that snapshot (one read when the neighbour is known).
#[test]
fn neighbour_table_read_once_at_setup() {
    let mut io = Fake::new(route(RTN_MULTICAST, None));
    let r = neigh::resolve(&mut io, &v4gid(SRC4), &v4gid([224, 0, 1, 1]), false, 0);
    assert_eq!(r.ret, 0);
    assert_eq!(io.table_reads, 1);
    let mut io = Fake::new(route(RTN_UNICAST, None));
    io.table = vec![neigh(PEER, Some([1, 2, 3, 4, 5, 6]))];
    let r = neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), false, 0);
    assert_eq!(r, ok(&[1, 2, 3, 4, 5, 6], None, 0));
    assert_eq!(io.table_reads, 1);
}

#[test]
fn local_destination_gives_the_interface_mac() {
    let mut io = Fake::new(route(RTN_LOCAL, None));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(SRC4), true, 0),
        ok(&OWN_MAC, Some(NO_VLAN), 0)
    );
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(SRC4), false, 0),
        ok(&OWN_MAC, None, 0)
    );
    io.link = None;
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(SRC4), true, 0),
        fail(-libc::EHOSTUNREACH, libc::EINVAL)
    );
    // An IPoIB-sized address does not fit: the VLAN id is stored all the same.
    io.link = Some(Link {
        ifindex: 2,
        address: Some(vec![0; 20]),
        kind: None,
        vlan_id: None,
    });
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(SRC4), true, 0),
        Outcome {
            ret: -libc::EHOSTUNREACH,
            errno: 0,
            mac: None,
            vid: Some(NO_VLAN)
        }
    );
}

#[test]
fn route_failures() {
    let mut io = Fake::new(RouteAnswer::Refused(-libc::ENETUNREACH));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 0),
        fail(-libc::EHOSTUNREACH, 0)
    );
    let mut io = Fake::new(RouteAnswer::Malformed);
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 0),
        fail(-libc::EHOSTUNREACH, libc::ENOMSG)
    );
    for t in [RTN_BLACKHOLE, RTN_UNREACHABLE, RTN_PROHIBIT, RTN_THROW] {
        let mut io = Fake::new(route(t, None));
        assert_eq!(
            neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 0),
            fail(-libc::EHOSTUNREACH, libc::EINVAL)
        );
    }
    let mut io = Fake::new(route(RTN_UNICAST, None));
    io.route = Err(Errno(libc::ENOBUFS));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 0),
        fail(-libc::EHOSTUNREACH, libc::ENOBUFS)
    );
}

#[test]
fn multicast_and_link_local_need_no_neighbour() {
    let mut io = Fake::new(route(RTN_MULTICAST, None));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &gid("ff0e::ffff:224.0.1.1"), true, 0),
        ok(&[1, 0, 0x5e, 0, 1, 1], Some(NO_VLAN), 0)
    );
    assert_eq!(io.routed, vec![IpAddr::V4([224, 0, 1, 1])]);
    let ll = gid("fe80::c83:a5ff:fe24:800d");
    let mut io = Fake::new(route(RTN_UNICAST, None));
    assert_eq!(
        neigh::resolve(&mut io, &ll, &gid("fe80::211:22ff:fe33:4455"), true, 0),
        ok(&[0, 0x11, 0x22, 0x33, 0x44, 0x55], Some(NO_VLAN), 0)
    );
    assert!(io.probes.is_empty());
}

#[test]
fn gateway_replaces_the_destination() {
    let mut io = Fake::new(route(RTN_UNICAST, Some(vec![10, 99, 0, 78])));
    io.table = vec![
        neigh(PEER, Some([7; 6])),
        neigh([10, 99, 0, 78], Some([2, 0, 0, 0, 0, 0x78])),
    ];
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid([192, 0, 2, 1]), true, 0),
        ok(&[2, 0, 0, 0, 0, 0x78], Some(NO_VLAN), 0)
    );
    // A gateway that is itself an IPv4 multicast address is taken apart like one.
    let mut io = Fake::new(route(RTN_UNICAST, Some(vec![224, 0, 0, 9])));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid([192, 0, 2, 1]), false, 0),
        ok(&[1, 0, 0x5e, 0, 0, 9], None, 0)
    );
}

#[test]
fn neighbour_already_known() {
    let mut io = Fake::new(route(RTN_UNICAST, None));
    io.table = vec![
        neigh([10, 99, 0, 78], Some([1; 6])),
        neigh(PEER, Some([2, 0, 0, 0, 0, 0x77])),
    ];
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 0),
        ok(&[2, 0, 0, 0, 0, 0x77], Some(NO_VLAN), 0)
    );
    assert!(io.probes.is_empty());
}

#[test]
fn neighbour_answers_while_waiting() {
    let mut io = Fake::new(route(RTN_UNICAST, None));
    io.table = vec![neigh(PEER, None)]; // incomplete: no link-layer address yet
    io.answer_at = Some((
        Duration::from_secs(100) + Duration::from_millis(1000),
        neigh(PEER, Some([5; 6])),
    ));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 0),
        ok(&[5; 6], Some(NO_VLAN), 0)
    );
    // The first probe, then one per tick before the answer (at 272, 544 and 816 ms).
    let t0 = Duration::from_secs(100);
    assert_eq!(
        io.probes,
        vec![t0, t0 + PERIOD, t0 + PERIOD * 2, t0 + PERIOD * 3]
    );
}

#[test]
fn table_reread_finds_a_silent_answer() {
    let mut io = Fake::new(route(RTN_UNICAST, None));
    io.notify = false;
    io.answer_at = Some((
        Duration::from_secs(100) + Duration::from_millis(600),
        neigh(PEER, Some([6; 6])),
    ));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), false, 0),
        ok(&[6; 6], None, 0)
    );
    // Found at the third tick's re-read, which comes before that tick's probe.
    assert_eq!(io.probes.len(), 3);
    assert_eq!(io.clock, Duration::from_secs(100) + PERIOD * 3);
}

#[test]
fn timeout_after_eleven_ticks() {
    let mut io = Fake::new(route(RTN_UNICAST, None));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 0),
        fail(-libc::EHOSTUNREACH, libc::EDESTADDRREQ)
    );
    assert_eq!(io.probes.len(), 11);
    assert_eq!(io.clock, Duration::from_secs(100) + PERIOD * 11);
    // A caller's errno is kept.
    let mut io = Fake::new(route(RTN_UNICAST, None));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 5),
        fail(-libc::EHOSTUNREACH, 5)
    );
    // So is the errno of a failed re-sent probe.
    let mut io = Fake::new(route(RTN_UNICAST, None));
    io.probe_errors = vec![Errno(0), Errno(0), Errno(libc::ENOBUFS)];
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 0),
        fail(-libc::EHOSTUNREACH, libc::ENOBUFS)
    );
    assert_eq!(io.probes.len(), 11);
}

#[test]
fn probe_failures() {
    // An unroutable source: the first send fails, nothing is waited for.
    let mut io = Fake::new(route(RTN_UNICAST, None));
    io.probe_errors = vec![Errno(libc::ENETUNREACH)];
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 0),
        fail(-libc::EHOSTUNREACH, libc::ENETUNREACH)
    );
    assert_eq!(io.clock, Duration::from_secs(100));
    // EADDRNOTAVAIL is retried at once (the address may still be tentative), and stays in errno.
    let mut io = Fake::new(route(RTN_UNICAST, None));
    io.probe_errors = vec![Errno(libc::EADDRNOTAVAIL); 3];
    io.answer_at = Some((Duration::from_millis(100_001), neigh(PEER, Some([4; 6]))));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), false, 0),
        ok(&[4; 6], None, libc::EADDRNOTAVAIL)
    );
    assert_eq!(io.probes.len(), 4);
    // The socket cannot be bound to the source (an IPv6 source for an IPv4 destination).
    let mut io = Fake::new(route(RTN_UNICAST, None));
    io.open_error = Some(Errno(libc::EAFNOSUPPORT));
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(PEER), true, 0),
        fail(-libc::EHOSTUNREACH, libc::EAFNOSUPPORT)
    );
}

#[test]
fn vlan_id_of_the_source_interface() {
    let mut io = Fake::new(route(RTN_LOCAL, None));
    io.link = Some(Link {
        ifindex: 2,
        address: Some(OWN_MAC.to_vec()),
        kind: Some("vlan".into()),
        vlan_id: Some(5),
    });
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid(SRC4), true, 0),
        ok(&OWN_MAC, Some(5), 0)
    );
    // The interface vanished after the route was found: 0xffff and EINVAL, but success.
    let mut io = Fake::new(route(RTN_MULTICAST, None));
    io.link = None;
    assert_eq!(
        neigh::resolve(&mut io, &v4gid(SRC4), &v4gid([224, 0, 0, 1]), true, 0),
        ok(&[1, 0, 0x5e, 0, 0, 1], Some(NO_VLAN), libc::EINVAL)
    );
}
