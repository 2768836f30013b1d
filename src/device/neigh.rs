//! Layer-2 resolution of a RoCE destination GID, behind `ibv_resolve_eth_l2_from_gid`.
//!
//! Answers to rdma-core's `libibverbs/verbs.c` (`ibv_resolve_eth_l2_from_gid`,
//! `ipv6_addr_v4mapped`, `create_peer_from_gid`) and `libibverbs/neigh.c` (identical in v44 and
//! v65). rdma-core goes through libnl-3's caches; we speak NETLINK_ROUTE directly through the
//! [`RouteIo`] seam, and the flow below is pure logic, tested with a scripted `RouteIo`.
//!
//! The flow, given the source GID (already read from the GID table) and the destination GID:
//! 0. The neighbour table (every family), as rdma-core's setup (`neigh_init_resources`) reads it
//!    before anything else: failing to is `-ENOMEM`, errno as the failing call left it (qemu-user,
//!    which does not translate `RTM_GETNEIGH`, answers EOPNOTSUPP). The first lookup of step 4 is
//!    in this snapshot. (The setup's link and route dumps before it are not made: they are failed
//!    by neither a kernel nor qemu-user, and a route dump may be large.)
//! 1. Both GIDs become IP addresses: IPv4 when IPv4-mapped (`::ffff:a.b.c.d`, or the multicast
//!    form `ff0e::ffff:a.b.c.d`), else the 16 bytes as IPv6.
//! 2. The output interface is the first interface holding the source address (`getifaddrs`
//!    order). None: `-EINVAL`.
//! 3. The kernel's route to the destination through that interface (`RTM_GETROUTE` with
//!    `RTA_OIF`). From here every failure is `-EHOSTUNREACH`. A gateway replaces the destination;
//!    blackhole, unreachable, prohibit and throw routes fail.
//! 4. The MAC: a local route gives the interface's own address; IPv4 multicast gives
//!    `01:00:5e` + the low 23 bits, IPv6 multicast `33:33` + the last four bytes, an IPv6
//!    link-local `fe80::/64` address the MAC inside its EUI-64 interface id. Otherwise the
//!    neighbour table (entry for the destination on the interface, with a link-layer address);
//!    when that has none yet, a UDP datagram to the discard port (9) from the source address
//!    starts ARP/ND, and the neighbour notifications are watched for up to 3 s: the table is
//!    re-read and the datagram re-sent every 3000/11 ms, giving up after the 11th tick.
//! 5. The VLAN id (when asked for): the interface's, if it is a VLAN device, else `0xffff`.
//! 6. The MAC must be 1 to 6 bytes long.
//!
//! `errno` is part of the observable behaviour: rdma-core leaves the caller's value alone except
//! where it (or a failing system call on its path) sets one; [`Outcome::errno`] carries the
//! value to leave behind.
#![forbid(unsafe_code)]

use std::time::Duration;

pub use super::rtnl::IpAddr;
use super::rtnl::{
    AF_INET, AF_INET6, AF_UNSPEC, Link, Neigh, RTN_BLACKHOLE, RTN_LOCAL, RTN_PROHIBIT, RTN_THROW,
    RTN_UNREACHABLE, Route,
};
use crate::errno::Errno;

/// rdma-core's `NEIGH_GET_DEFAULT_TIMEOUT_MS`: how long to wait for a neighbour to resolve.
pub const NEIGH_GET_DEFAULT_TIMEOUT_MS: u64 = 3000;
/// rdma-core's `NUM_OF_RETRIES`: how many times the probe datagram is re-sent.
pub const NUM_OF_RETRIES: u32 = 10;
/// rdma-core's `NUM_OF_TRIES`: timer ticks before giving up.
pub const NUM_OF_TRIES: u32 = NUM_OF_RETRIES + 1;
/// rdma-core's `UDP_SOCKET_MAX_SENDTO`: sends retried while the source address is not ready.
pub const UDP_SOCKET_MAX_SENDTO: u64 = 100_000;
/// The discard port the probe datagram goes to.
pub const PORT_DISCARD: u16 = 9;
/// The probe datagram: "H" and its NUL.
pub const PROBE_PAYLOAD: &[u8] = b"H\0";
/// The VLAN id reported for an interface that is not a VLAN device.
pub const NO_VLAN: u16 = 0xffff;
/// The longest MAC the caller's buffer takes (`ETHERNET_LL_SIZE`).
pub const ETHERNET_LL_SIZE: usize = 6;

/// rdma-core's `ipv6_addr_v4mapped`: `::ffff:a.b.c.d`, or the IPv4 multicast form
/// `ff0e::ffff:a.b.c.d`.
pub fn is_v4_mapped(gid: &[u8; 16]) -> bool {
    let mapped_tail = gid[4..12] == [0, 0, 0, 0, 0, 0, 0xff, 0xff];
    mapped_tail && (gid[..4] == [0; 4] || gid[..4] == [0xff, 0x0e, 0, 0])
}

/// The IP address a GID stands for: its last four bytes when IPv4-mapped, else all 16.
pub fn addr_of_gid(gid: &[u8; 16]) -> IpAddr {
    if is_v4_mapped(gid) {
        IpAddr::V4([gid[12], gid[13], gid[14], gid[15]])
    } else {
        IpAddr::V6(*gid)
    }
}

/// The MAC encoded in the destination address itself (rdma-core's `handle_encoded_mac`), checked
/// in its order: IPv4 multicast `224.0.0.0/4`, IPv6 multicast `ff00::/8`, IPv6 link-local
/// `fe80::/64`.
pub fn encoded_mac(dst: &IpAddr) -> Option<Vec<u8>> {
    match dst {
        IpAddr::V4(a) if a[0] & 0xf0 == 0xe0 => {
            Some(vec![0x01, 0x00, 0x5e, a[1] & 0x7f, a[2], a[3]])
        }
        IpAddr::V6(a) if a[0] == 0xff => Some(vec![0x33, 0x33, a[12], a[13], a[14], a[15]]),
        IpAddr::V6(a) if a[..8] == [0xfe, 0x80, 0, 0, 0, 0, 0, 0] => {
            Some(vec![a[8] ^ 2, a[9], a[10], a[13], a[14], a[15]])
        }
        _ => None,
    }
}

/// The VLAN id of an interface (rdma-core's `neigh_get_vlan_id_from_dev`): a VLAN device's id
/// (0 if the kernel sent none), `0xffff` for anything else or an id above 4095.
pub fn vlan_of(link: &Link) -> u16 {
    if link.kind.as_deref() != Some("vlan") {
        return NO_VLAN;
    }
    match link.vlan_id.unwrap_or(0) {
        v @ 0..=0xfff => v,
        _ => NO_VLAN,
    }
}

/// The kernel's answer to a route request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RouteAnswer {
    Route(Route),
    /// `NLMSG_ERROR` with this (negative) errno, e.g. `-ENETUNREACH`.
    Refused(i32),
    /// A reply rdma-core's parser would reject.
    Malformed,
}

/// The system side of the resolution: NETLINK_ROUTE requests, the neighbour notification
/// socket, the UDP probe and the clock. Errors are the failing system call's errno.
pub trait RouteIo {
    /// Every interface address of `family`, in the kernel's (and `getifaddrs`') order.
    fn addresses(&mut self, family: u8) -> Result<Vec<super::rtnl::IfAddr>, Errno>;
    /// `RTM_GETROUTE` to `dst` through `oif`.
    fn route(&mut self, dst: &IpAddr, oif: u32) -> Result<RouteAnswer, Errno>;
    /// `RTM_GETLINK` of one interface; `None` when there is no such interface.
    fn link(&mut self, ifindex: u32) -> Result<Option<Link>, Errno>;
    /// The neighbour table of `family`.
    fn neighbours(&mut self, family: u8) -> Result<Vec<Neigh>, Errno>;
    /// Join the neighbour notification group.
    fn subscribe(&mut self) -> Result<(), Errno>;
    /// A UDP socket of `dst`'s family bound to `src` (port 0).
    fn open_probe(&mut self, src: &IpAddr, dst: &IpAddr) -> Result<(), Errno>;
    /// Send [`PROBE_PAYLOAD`] to `dst` port 9 (`scope_id` = `oif` for IPv6).
    fn send_probe(&mut self, dst: &IpAddr, oif: u32) -> Result<(), Errno>;
    /// Wait up to `timeout` for a notification; true when one is ready to read.
    fn wait(&mut self, timeout: Duration) -> Result<bool, Errno>;
    /// Read one notification datagram's neighbour messages.
    fn notifications(&mut self) -> Result<Vec<Neigh>, Errno>;
    /// Monotonic time since an arbitrary fixed point.
    fn now(&mut self) -> Duration;
}

/// What the export does with the caller's buffers and what it returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// 0, or a negative errno.
    pub ret: i32,
    /// The `errno` to leave behind.
    pub errno: i32,
    /// Bytes to copy to the start of `eth_mac`.
    pub mac: Option<Vec<u8>>,
    /// Value to store in `*vid` (only when the caller passed `vid`).
    pub vid: Option<u16>,
}

/// The resolution state carried through the steps (rdma-core's `get_neigh_handler`).
struct Run<'a> {
    io: &'a mut dyn RouteIo,
    errno: i32,
    oif: u32,
    src: IpAddr,
    dst: IpAddr,
    /// The setup's neighbour table, until the first lookup takes it.
    table: Option<Vec<Neigh>>,
}

/// A step gave up: the call returns `-EHOSTUNREACH` (errno as the step left it).
enum Fail {
    Unreachable,
}

/// Resolve `dgid` seen from the interface holding `sgid` (the GID at the caller's source
/// index). `errno` is the caller's errno on entry; `want_vid` whether `vid` was passed.
pub fn resolve(
    io: &mut dyn RouteIo,
    sgid: &[u8; 16],
    dgid: &[u8; 16],
    want_vid: bool,
    errno: i32,
) -> Outcome {
    let mut out = Outcome {
        ret: -libc::EINVAL,
        errno,
        mac: None,
        vid: None,
    };
    // The setup's neighbour table (step 0).
    let table = match io.neighbours(AF_UNSPEC) {
        Ok(t) => t,
        Err(e) => {
            out.ret = -libc::ENOMEM;
            out.errno = e.0;
            return out;
        }
    };
    let dst = addr_of_gid(dgid);
    let src = addr_of_gid(sgid);

    // The interface holding the source address.
    let oif = match io.addresses(src.family()) {
        Ok(list) => super::rtnl::ifindex_of(&list, &src),
        Err(e) => {
            out.errno = e.0;
            None
        }
    };
    let Some(oif) = oif.filter(|&i| i > 0 && i <= i32::MAX as u32) else {
        return out;
    };

    let mut run = Run {
        io,
        errno: out.errno,
        oif,
        src,
        dst,
        table: Some(table),
    };
    out.ret = -libc::EHOSTUNREACH;
    let found = run.route_and_mac();
    out.errno = run.errno;
    let Ok(mac) = found else {
        return out;
    };

    if want_vid {
        let vid = match run.io.link(oif) {
            Ok(Some(link)) => vlan_of(&link),
            _ => {
                run.errno = libc::EINVAL;
                NO_VLAN
            }
        };
        out.vid = Some(vid);
        out.errno = run.errno;
    }
    if mac.is_empty() || mac.len() > ETHERNET_LL_SIZE {
        return out;
    }
    out.mac = Some(mac);
    out.ret = 0;
    out
}

impl Run<'_> {
    /// Steps 3 and 4: the route, then the MAC.
    fn route_and_mac(&mut self) -> Result<Vec<u8>, Fail> {
        let route = match self.io.route(&self.dst, self.oif) {
            Ok(RouteAnswer::Route(r)) => r,
            Ok(RouteAnswer::Refused(_)) => return Err(Fail::Unreachable),
            Ok(RouteAnswer::Malformed) => return self.fail(libc::ENOMSG),
            Err(e) => return self.fail(e.0),
        };
        if let Some(gw) = &route.gateway {
            match IpAddr::from_family_bytes(route.family, gw) {
                Some(g) => self.dst = g,
                None => return self.fail(libc::ENOMSG),
            }
        }
        // rdma-core forgets the source after these, and its route callback then sets EINVAL.
        if matches!(
            route.rtype,
            RTN_BLACKHOLE | RTN_UNREACHABLE | RTN_PROHIBIT | RTN_THROW
        ) {
            return self.fail(libc::EINVAL);
        }
        if route.rtype == RTN_LOCAL {
            return match self.io.link(self.oif) {
                Ok(Some(Link {
                    address: Some(a), ..
                })) => Ok(a),
                _ => self.fail(libc::EINVAL),
            };
        }
        if let Some(mac) = encoded_mac(&self.dst) {
            return Ok(mac);
        }
        self.neighbour_mac()
    }

    fn fail<T>(&mut self, errno: i32) -> Result<T, Fail> {
        self.errno = errno;
        Err(Fail::Unreachable)
    }

    /// The table entry for the destination on the interface: `Some(lladdr)` when it has one.
    fn lookup(&self, table: &[Neigh]) -> Option<Vec<u8>> {
        table
            .iter()
            .find(|n| n.is_for(self.oif as i32, &self.dst))?
            .lladdr
            .clone()
    }

    /// rdma-core's `process_get_neigh_mac`: the table, else probe and wait.
    fn neighbour_mac(&mut self) -> Result<Vec<u8>, Fail> {
        debug_assert!(matches!(self.dst.family(), AF_INET | AF_INET6));
        // The setup's snapshot (step 0), as rdma-core's first rtnl_neigh_get looks in its cache.
        let table = self.table.take().unwrap_or_default();
        if let Some(mac) = self.lookup(&table) {
            return Ok(mac);
        }
        if let Err(e) = self.io.subscribe() {
            return self.fail(e.0);
        }
        if let Err(e) = self.io.open_probe(&self.src, &self.dst) {
            return self.fail(e.0);
        }
        self.probe()?;

        let period = Duration::from_millis(NEIGH_GET_DEFAULT_TIMEOUT_MS / u64::from(NUM_OF_TRIES));
        let start = self.io.now();
        let mut next_tick = start + period;
        let mut retries = 0u32;
        loop {
            let now = self.io.now();
            let readable = match self.io.wait(next_tick.saturating_sub(now)) {
                Ok(r) => r,
                Err(e) => return self.fail(e.0),
            };
            let now = self.io.now();
            let tick = now >= next_tick;
            if !readable && !tick {
                continue;
            }
            if readable {
                match self.io.notifications() {
                    Ok(list) => {
                        let hit = list
                            .iter()
                            .find(|n| n.is_for(self.oif as i32, &self.dst) && n.lladdr.is_some());
                        if let Some(n) = hit {
                            return Ok(n.lladdr.clone().unwrap_or_default());
                        }
                    }
                    Err(e) => self.errno = e.0,
                }
            } else {
                // Only the timer: re-read the table, and re-send the probe.
                // nl_cache_refill of the AF_UNSPEC cache
                if let Ok(table) = self.io.neighbours(AF_UNSPEC) {
                    if let Some(mac) = self.lookup(&table) {
                        return Ok(mac);
                    }
                }
                if tick && retries < NUM_OF_RETRIES {
                    let _ = self.probe();
                }
            }
            if tick {
                // One read of the timer, however many periods went by; the next expiry is the
                // next multiple of the period.
                let periods = (now - start).as_nanos() / period.as_nanos();
                next_tick = start + period * (periods as u32 + 1);
                retries += 1;
                if retries >= NUM_OF_TRIES {
                    if self.errno == 0 {
                        self.errno = libc::EDESTADDRREQ;
                    }
                    return Err(Fail::Unreachable);
                }
            }
        }
    }

    /// rdma-core's `try_send_to`: send, retrying while the address is not available yet.
    fn probe(&mut self) -> Result<(), Fail> {
        let mut left = UDP_SOCKET_MAX_SENDTO;
        loop {
            match self.io.send_probe(&self.dst, self.oif) {
                Ok(()) => return Ok(()),
                Err(e) => {
                    self.errno = e.0;
                    left -= 1;
                    if e.0 != libc::EADDRNOTAVAIL || left == 0 {
                        return Err(Fail::Unreachable);
                    }
                }
            }
        }
    }
}
