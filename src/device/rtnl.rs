//! The NETLINK_ROUTE wire format behind `ibv_resolve_eth_l2_from_gid`: the route, link, address
//! and neighbour requests, and decoding of their replies and of neighbour notifications. Pure byte
//! handling, no I/O; tested with replies captured from a real kernel.
//!
//! Answers to the libnl-3 route objects rdma-core's `libibverbs/neigh.c` works with
//! (`rtnl_route_parse`, `rtnl_link` with its VLAN info, `rtnl_neigh_parse`) and to the address
//! list glibc's `getifaddrs` builds. Numbers are the kernel's, from `linux/rtnetlink.h`,
//! `linux/if_link.h`, `linux/neighbour.h` and `linux/if_addr.h`. Header fields are host byte
//! order; addresses are kept as the network-order bytes the kernel sends.
#![forbid(unsafe_code)]

use super::netlink::{
    CodecError, NLA_HDRLEN, NLA_TYPE_MASK, NLM_F_DUMP, NLMSG_DONE, NLMSG_ERROR, NLMSG_NOOP,
    NLMSG_OVERRUN, Request, align4, done_status, error_code, split_datagram,
};

/// `RTM_NEWLINK`: a link message (the reply to `RTM_GETLINK`).
pub const RTM_NEWLINK: u16 = 16;
/// `RTM_GETLINK`.
pub const RTM_GETLINK: u16 = 18;
/// `RTM_NEWADDR`: an address message.
pub const RTM_NEWADDR: u16 = 20;
/// `RTM_GETADDR`.
pub const RTM_GETADDR: u16 = 22;
/// `RTM_NEWROUTE`: a route message (the reply to `RTM_GETROUTE`).
pub const RTM_NEWROUTE: u16 = 24;
/// `RTM_GETROUTE`.
pub const RTM_GETROUTE: u16 = 26;
/// `RTM_NEWNEIGH`: a neighbour entry, dumped or notified.
pub const RTM_NEWNEIGH: u16 = 28;
/// `RTM_DELNEIGH`: a neighbour entry going away (notified).
pub const RTM_DELNEIGH: u16 = 29;
/// `RTM_GETNEIGH`.
pub const RTM_GETNEIGH: u16 = 30;
/// `RTNLGRP_NEIGH`: the multicast group of neighbour notifications.
pub const RTNLGRP_NEIGH: u32 = 3;

/// `AF_UNSPEC`.
pub const AF_UNSPEC: u8 = 0;
/// `AF_INET`.
pub const AF_INET: u8 = 2;
/// `AF_INET6`.
pub const AF_INET6: u8 = 10;

/// `RTA_DST`: the destination address.
pub const RTA_DST: u16 = 1;
/// `RTA_IIF` (u32).
pub const RTA_IIF: u16 = 3;
/// `RTA_OIF` (u32): the output interface.
pub const RTA_OIF: u16 = 4;
/// `RTA_GATEWAY`: the next hop's address.
pub const RTA_GATEWAY: u16 = 5;
/// `RTA_PRIORITY` (u32).
pub const RTA_PRIORITY: u16 = 6;
/// `RTA_PREFSRC`: the preferred source address.
pub const RTA_PREFSRC: u16 = 7;
/// `RTA_FLOW` (u32).
pub const RTA_FLOW: u16 = 11;
/// `RTA_TABLE` (u32).
pub const RTA_TABLE: u16 = 15;

/// `RTN_UNICAST`.
pub const RTN_UNICAST: u8 = 1;
/// `RTN_LOCAL`: the destination is one of this host's addresses.
pub const RTN_LOCAL: u8 = 2;
/// `RTN_MULTICAST`.
pub const RTN_MULTICAST: u8 = 5;
/// `RTN_BLACKHOLE`.
pub const RTN_BLACKHOLE: u8 = 6;
/// `RTN_UNREACHABLE`.
pub const RTN_UNREACHABLE: u8 = 7;
/// `RTN_PROHIBIT`.
pub const RTN_PROHIBIT: u8 = 8;
/// `RTN_THROW`.
pub const RTN_THROW: u8 = 9;

/// `IFLA_ADDRESS`: the link-layer address.
pub const IFLA_ADDRESS: u16 = 1;
/// `IFLA_IFNAME`.
pub const IFLA_IFNAME: u16 = 3;
/// `IFLA_LINKINFO` (nested).
pub const IFLA_LINKINFO: u16 = 18;
/// `IFLA_INFO_KIND` (string) inside `IFLA_LINKINFO`.
pub const IFLA_INFO_KIND: u16 = 1;
/// `IFLA_INFO_DATA` (nested) inside `IFLA_LINKINFO`.
pub const IFLA_INFO_DATA: u16 = 2;
/// `IFLA_VLAN_ID` (u16) inside the `IFLA_INFO_DATA` of a "vlan" link.
pub const IFLA_VLAN_ID: u16 = 1;

/// `NDA_DST`: the neighbour's network address.
pub const NDA_DST: u16 = 1;
/// `NDA_LLADDR`: the neighbour's link-layer address (present only in a valid state).
pub const NDA_LLADDR: u16 = 2;

/// `IFA_ADDRESS`.
pub const IFA_ADDRESS: u16 = 1;
/// `IFA_LOCAL`: the local address of a point-to-point address (then `IFA_ADDRESS` is the peer).
pub const IFA_LOCAL: u16 = 2;

/// `sizeof(struct rtmsg)`.
pub const RTMSG_LEN: usize = 12;
/// `sizeof(struct ifinfomsg)`.
pub const IFINFOMSG_LEN: usize = 16;
/// `sizeof(struct ndmsg)`.
pub const NDMSG_LEN: usize = 12;
/// `sizeof(struct ifaddrmsg)`.
pub const IFADDRMSG_LEN: usize = 8;

/// An IPv4 or IPv6 address, network byte order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IpAddr {
    V4([u8; 4]),
    V6([u8; 16]),
}

impl IpAddr {
    /// `AF_INET` or `AF_INET6`.
    pub fn family(&self) -> u8 {
        match self {
            IpAddr::V4(_) => AF_INET,
            IpAddr::V6(_) => AF_INET6,
        }
    }

    /// The address bytes.
    pub fn octets(&self) -> &[u8] {
        match self {
            IpAddr::V4(a) => a,
            IpAddr::V6(a) => a,
        }
    }

    /// An address of `family` from exactly 4 or 16 bytes.
    pub fn from_family_bytes(family: u8, b: &[u8]) -> Option<IpAddr> {
        match family {
            AF_INET => b.try_into().ok().map(IpAddr::V4),
            AF_INET6 => b.try_into().ok().map(IpAddr::V6),
            _ => None,
        }
    }
}

/// The attributes of one message (or one nested attribute), in order. Like `nla_parse`, a
/// trailing fragment shorter than an attribute header or running past the end is ignored.
pub fn attrs(payload: &[u8]) -> Vec<(u16, &[u8])> {
    let mut out = Vec::new();
    let mut off = 0;
    while payload.len() - off >= NLA_HDRLEN {
        let len = u16::from_ne_bytes([payload[off], payload[off + 1]]) as usize;
        let ty = u16::from_ne_bytes([payload[off + 2], payload[off + 3]]) & NLA_TYPE_MASK;
        if len < NLA_HDRLEN || len > payload.len() - off {
            break;
        }
        out.push((ty, &payload[off + NLA_HDRLEN..off + len]));
        off += align4(len).min(payload.len() - off);
    }
    out
}

/// The last attribute of type `ty` (a later duplicate wins, as in `nla_parse`).
fn last<'a>(a: &[(u16, &'a [u8])], ty: u16) -> Option<&'a [u8]> {
    a.iter().rev().find(|(t, _)| *t == ty).map(|(_, d)| *d)
}

fn u32_of(d: &[u8]) -> u32 {
    u32::from_ne_bytes([d[0], d[1], d[2], d[3]])
}

/// libnl's `NLA_U32` policy: at least four bytes.
fn check_u32(a: &[(u16, &[u8])], types: &[u16], what: &str) -> Result<(), CodecError> {
    for (t, d) in a {
        if types.contains(t) && d.len() < 4 {
            return Err(CodecError(format!(
                "{what} attribute {t} has {} bytes, needs 4",
                d.len()
            )));
        }
    }
    Ok(())
}

fn family_header(payload: &[u8], len: usize, what: &str) -> Result<(), CodecError> {
    if payload.len() < len {
        return Err(CodecError(format!(
            "{what} message of {} bytes",
            payload.len()
        )));
    }
    Ok(())
}

/// `RTM_GETROUTE` for one destination (`rtm_dst_len` the full address length) leaving through
/// `oif` (omitted when 0): the kernel answers with the route a packet would take.
pub fn get_route_request(seq: u32, dst: &IpAddr, oif: u32) -> Vec<u8> {
    let mut rtm = [0u8; RTMSG_LEN];
    rtm[0] = dst.family();
    rtm[1] = (dst.octets().len() * 8) as u8;
    let mut r = Request::new(RTM_GETROUTE, 0, seq);
    r.raw(&rtm).put(RTA_DST, dst.octets());
    if oif > 0 {
        r.put_u32(RTA_OIF, oif);
    }
    r.finish()
}

/// `RTM_GETLINK` for one interface index.
pub fn get_link_request(seq: u32, ifindex: u32) -> Vec<u8> {
    let mut ifi = [0u8; IFINFOMSG_LEN];
    ifi[4..8].copy_from_slice(&ifindex.to_ne_bytes());
    Request::new(RTM_GETLINK, 0, seq).raw(&ifi).finish()
}

/// The address dump of one family (`RTM_GETADDR` with `NLM_F_DUMP`).
pub fn dump_addr_request(seq: u32, family: u8) -> Vec<u8> {
    let mut ifa = [0u8; IFADDRMSG_LEN];
    ifa[0] = family;
    Request::new(RTM_GETADDR, NLM_F_DUMP, seq)
        .raw(&ifa)
        .finish()
}

/// The neighbour table dump of one family (`RTM_GETNEIGH` with `NLM_F_DUMP`).
pub fn dump_neigh_request(seq: u32, family: u8) -> Vec<u8> {
    let mut ndm = [0u8; NDMSG_LEN];
    ndm[0] = family;
    Request::new(RTM_GETNEIGH, NLM_F_DUMP, seq)
        .raw(&ndm)
        .finish()
}

/// What rdma-core reads of a route (`rtnl_route_get_type`, the first next hop's gateway and
/// interface, `rtnl_route_get_pref_src`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub family: u8,
    /// `rtm_type` (`RTN_*`).
    pub rtype: u8,
    /// `RTA_OIF`.
    pub oif: Option<u32>,
    /// `RTA_GATEWAY`, as sent.
    pub gateway: Option<Vec<u8>>,
    /// `RTA_PREFSRC`, as sent.
    pub prefsrc: Option<Vec<u8>>,
}

/// Decode an `RTM_NEWROUTE` payload (`rtmsg` and attributes).
pub fn decode_route(payload: &[u8]) -> Result<Route, CodecError> {
    family_header(payload, RTMSG_LEN, "route")?;
    let a = attrs(&payload[RTMSG_LEN..]);
    check_u32(
        &a,
        &[RTA_IIF, RTA_OIF, RTA_PRIORITY, RTA_FLOW, RTA_TABLE],
        "route",
    )?;
    Ok(Route {
        family: payload[0],
        rtype: payload[7],
        oif: last(&a, RTA_OIF).map(u32_of),
        gateway: last(&a, RTA_GATEWAY).map(<[u8]>::to_vec),
        prefsrc: last(&a, RTA_PREFSRC).map(<[u8]>::to_vec),
    })
}

/// What rdma-core reads of a link: its address and, for a VLAN device, the VLAN id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub ifindex: i32,
    /// `IFLA_ADDRESS`.
    pub address: Option<Vec<u8>>,
    /// `IFLA_INFO_KIND`, e.g. "vlan".
    pub kind: Option<String>,
    /// `IFLA_VLAN_ID` of a "vlan" link's `IFLA_INFO_DATA`.
    pub vlan_id: Option<u16>,
}

/// Decode an `RTM_NEWLINK` payload (`ifinfomsg` and attributes).
pub fn decode_link(payload: &[u8]) -> Result<Link, CodecError> {
    family_header(payload, IFINFOMSG_LEN, "link")?;
    let ifindex = i32::from_ne_bytes([payload[4], payload[5], payload[6], payload[7]]);
    let a = attrs(&payload[IFINFOMSG_LEN..]);
    let mut link = Link {
        ifindex,
        address: last(&a, IFLA_ADDRESS).map(<[u8]>::to_vec),
        kind: None,
        vlan_id: None,
    };
    if let Some(info) = last(&a, IFLA_LINKINFO) {
        let li = attrs(info);
        if let Some(k) = last(&li, IFLA_INFO_KIND) {
            let end = k.iter().position(|&c| c == 0).unwrap_or(k.len());
            link.kind = Some(String::from_utf8_lossy(&k[..end]).into_owned());
        }
        if link.kind.as_deref() == Some("vlan") {
            if let Some(data) = last(&li, IFLA_INFO_DATA) {
                link.vlan_id = last(&attrs(data), IFLA_VLAN_ID)
                    .filter(|d| d.len() >= 2)
                    .map(|d| u16::from_ne_bytes([d[0], d[1]]));
            }
        }
    }
    Ok(link)
}

/// One neighbour entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neigh {
    /// `ndm_family`.
    pub family: u8,
    /// `ndm_ifindex`.
    pub ifindex: i32,
    /// `ndm_state` (`NUD_*`).
    pub state: u16,
    /// `NDA_DST`, as sent.
    pub dst: Option<Vec<u8>>,
    /// `NDA_LLADDR`, as sent (the kernel includes it only for a valid entry).
    pub lladdr: Option<Vec<u8>>,
}

impl Neigh {
    /// The entry for `dst` on interface `ifindex`, as `rtnl_neigh_get` and rdma-core's neighbour
    /// filter compare it: same interface, same family, same address bytes.
    pub fn is_for(&self, ifindex: i32, dst: &IpAddr) -> bool {
        self.ifindex == ifindex
            && self.family == dst.family()
            && self.dst.as_deref() == Some(dst.octets())
    }
}

/// Decode a neighbour message payload (`ndmsg` and attributes).
pub fn decode_neigh(payload: &[u8]) -> Result<Neigh, CodecError> {
    family_header(payload, NDMSG_LEN, "neighbour")?;
    let a = attrs(&payload[NDMSG_LEN..]);
    Ok(Neigh {
        family: payload[0],
        ifindex: i32::from_ne_bytes([payload[4], payload[5], payload[6], payload[7]]),
        state: u16::from_ne_bytes([payload[8], payload[9]]),
        dst: last(&a, NDA_DST).map(<[u8]>::to_vec),
        lladdr: last(&a, NDA_LLADDR).map(<[u8]>::to_vec),
    })
}

/// One interface address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IfAddr {
    pub family: u8,
    /// `ifa_index`.
    pub ifindex: u32,
    /// `IFA_ADDRESS`.
    pub address: Option<Vec<u8>>,
    /// `IFA_LOCAL`.
    pub local: Option<Vec<u8>>,
}

impl IfAddr {
    /// The address `getifaddrs` reports as `ifa_addr`: `IFA_LOCAL` when present (then
    /// `IFA_ADDRESS` is a point-to-point peer), else `IFA_ADDRESS`.
    pub fn addr(&self) -> Option<&[u8]> {
        self.local.as_deref().or(self.address.as_deref())
    }
}

/// Decode an `RTM_NEWADDR` payload (`ifaddrmsg` and attributes).
pub fn decode_addr(payload: &[u8]) -> Result<IfAddr, CodecError> {
    family_header(payload, IFADDRMSG_LEN, "address")?;
    let a = attrs(&payload[IFADDRMSG_LEN..]);
    Ok(IfAddr {
        family: payload[0],
        ifindex: u32_of(&payload[4..8]),
        address: last(&a, IFA_ADDRESS).map(<[u8]>::to_vec),
        local: last(&a, IFA_LOCAL).map(<[u8]>::to_vec),
    })
}

/// The interface holding `addr`: the first address of the dump with the same family and bytes
/// (rdma-core walks `getifaddrs` and takes the first match).
pub fn ifindex_of(addrs: &[IfAddr], addr: &IpAddr) -> Option<u32> {
    addrs
        .iter()
        .find(|a| a.family == addr.family() && a.addr() == Some(addr.octets()))
        .map(|a| a.ifindex)
}

/// The answer to one request, gathered from the datagrams that carry its sequence number.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// Type and payload of each data message, in order.
    pub msgs: Vec<(u16, Vec<u8>)>,
    /// The negative errno of an `NLMSG_ERROR`, or of an `NLMSG_DONE` that ends a dump early.
    pub error: Option<i32>,
}

/// Collects the reply to a request with sequence number `seq`. A plain request is answered by
/// one data message or an `NLMSG_ERROR`; a dump by data messages up to `NLMSG_DONE`. Messages
/// with another sequence number (left over from an earlier request) are passed over.
pub struct Collector {
    seq: u32,
    dump: bool,
    reply: Reply,
    done: bool,
}

impl Collector {
    pub fn new(seq: u32, dump: bool) -> Collector {
        Collector {
            seq,
            dump,
            reply: Reply::default(),
            done: false,
        }
    }

    /// Take in one received datagram; true once the reply is complete.
    pub fn feed(&mut self, datagram: &[u8]) -> Result<bool, CodecError> {
        for m in split_datagram(datagram)? {
            if self.done || m.hdr.seq != self.seq {
                continue;
            }
            match m.hdr.ty {
                NLMSG_NOOP => {}
                NLMSG_OVERRUN => return Err(CodecError("NLMSG_OVERRUN".to_string())),
                NLMSG_ERROR => {
                    let e = error_code(m.payload)?;
                    if e != 0 {
                        self.reply.error = Some(e);
                        self.done = true;
                    }
                }
                NLMSG_DONE => {
                    let s = done_status(m.payload);
                    if s < 0 {
                        self.reply.error = Some(s);
                    }
                    self.done = true;
                }
                ty => {
                    self.reply.msgs.push((ty, m.payload.to_vec()));
                    if !self.dump {
                        self.done = true;
                    }
                }
            }
        }
        Ok(self.done)
    }

    /// The reply gathered so far.
    pub fn into_reply(self) -> Reply {
        self.reply
    }
}
