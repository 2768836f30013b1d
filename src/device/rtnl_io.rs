//! The kernel side of [`RouteIo`]: NETLINK_ROUTE sockets and the UDP probe.
//!
//! One socket carries the requests (each answered in full before the next is sent); a second one,
//! opened on [`RouteIo::subscribe`], only receives neighbour notifications. rdma-core uses one
//! libnl socket for both; keeping them apart changes nothing the caller can see.
#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use super::neigh::{PORT_DISCARD, PROBE_PAYLOAD, RouteAnswer, RouteIo};
use super::netlink::split_datagram;
use super::rtnl::{
    self, Collector, IfAddr, IpAddr, Link, Neigh, RTM_DELNEIGH, RTM_GETNEIGH, RTM_NEWADDR,
    RTM_NEWLINK, RTM_NEWNEIGH, RTM_NEWROUTE, RTNLGRP_NEIGH, Reply,
};
use crate::errno::Errno;
use crate::sys::netlink::{NETLINK_ROUTE, NlSocket, RecvBuf};
use crate::sys::udp::{InetAddr, UdpSocket};

/// [`RouteIo`] against the running kernel.
pub struct KernelRouteIo {
    req: NlSocket,
    notify: Option<NlSocket>,
    probe: Option<UdpSocket>,
    seq: u32,
    epoch: Instant,
    buf: RecvBuf,
}

impl KernelRouteIo {
    /// Open the request socket (rdma-core opens its libnl socket first thing).
    pub fn open() -> Result<KernelRouteIo, Errno> {
        Ok(KernelRouteIo {
            req: NlSocket::open(NETLINK_ROUTE)?,
            notify: None,
            probe: None,
            seq: 1,
            epoch: Instant::now(),
            buf: RecvBuf::new(),
        })
    }

    fn next_seq(&mut self) -> u32 {
        self.seq = self.seq.wrapping_add(1);
        self.seq
    }

    /// Send `msg` (built with sequence number `seq`) and gather its reply; `None` when the reply
    /// is not well-formed netlink.
    fn transact(&mut self, msg: &[u8], seq: u32, dump: bool) -> Result<Option<Reply>, Errno> {
        self.req.send(msg)?;
        let mut c = Collector::new(seq, dump);
        loop {
            match c.feed(self.req.recv(&mut self.buf)?) {
                Ok(true) => return Ok(Some(c.into_reply())),
                Ok(false) => {}
                Err(_) => return Ok(None),
            }
        }
    }

    /// A dump's data messages of type `ty`; a kernel error is the call's error.
    fn dump(&mut self, msg: Vec<u8>, seq: u32, ty: u16) -> Result<Vec<Vec<u8>>, Errno> {
        match self.transact(&msg, seq, true)? {
            Some(Reply { error: Some(e), .. }) => Err(Errno(-e)),
            Some(r) => Ok(r
                .msgs
                .into_iter()
                .filter(|(t, _)| *t == ty)
                .map(|(_, p)| p)
                .collect()),
            None => Err(Errno(libc::EBADMSG)),
        }
    }
}

fn inet(a: &IpAddr, port: u16, scope_id: u32) -> InetAddr {
    match *a {
        IpAddr::V4(addr) => InetAddr::V4 { addr, port },
        IpAddr::V6(addr) => InetAddr::V6 {
            addr,
            port,
            scope_id,
        },
    }
}

fn af(a: &IpAddr) -> i32 {
    match a {
        IpAddr::V4(_) => libc::AF_INET,
        IpAddr::V6(_) => libc::AF_INET6,
    }
}

impl RouteIo for KernelRouteIo {
    fn addresses(&mut self, family: u8) -> Result<Vec<IfAddr>, Errno> {
        let seq = self.next_seq();
        let msgs = self.dump(rtnl::dump_addr_request(seq, family), seq, RTM_NEWADDR)?;
        Ok(msgs
            .iter()
            .filter_map(|p| rtnl::decode_addr(p).ok())
            .collect())
    }

    fn route(&mut self, dst: &IpAddr, oif: u32) -> Result<RouteAnswer, Errno> {
        let seq = self.next_seq();
        let reply = match self.transact(&rtnl::get_route_request(seq, dst, oif), seq, false)? {
            Some(r) => r,
            None => return Ok(RouteAnswer::Malformed),
        };
        if let Some(e) = reply.error {
            return Ok(RouteAnswer::Refused(e));
        }
        Ok(match reply.msgs.iter().find(|(t, _)| *t == RTM_NEWROUTE) {
            Some((_, p)) => {
                rtnl::decode_route(p).map_or(RouteAnswer::Malformed, RouteAnswer::Route)
            }
            None => RouteAnswer::Malformed,
        })
    }

    fn link(&mut self, ifindex: u32) -> Result<Option<Link>, Errno> {
        let seq = self.next_seq();
        let reply = match self.transact(&rtnl::get_link_request(seq, ifindex), seq, false)? {
            Some(r) => r,
            None => return Ok(None),
        };
        Ok(reply
            .msgs
            .iter()
            .find(|(t, _)| *t == RTM_NEWLINK)
            .and_then(|(_, p)| rtnl::decode_link(p).ok())
            .filter(|l| l.ifindex as u32 == ifindex))
    }

    fn neighbours(&mut self, family: u8) -> Result<Vec<Neigh>, Errno> {
        let seq = self.next_seq();
        let msgs = self.dump(rtnl::dump_neigh_request(seq, family), seq, RTM_NEWNEIGH)?;
        Ok(msgs
            .iter()
            .filter_map(|p| rtnl::decode_neigh(p).ok())
            .collect())
    }

    fn subscribe(&mut self) -> Result<(), Errno> {
        let s = NlSocket::open(NETLINK_ROUTE)?;
        s.add_membership(RTNLGRP_NEIGH)?;
        self.notify = Some(s);
        Ok(())
    }

    fn open_probe(&mut self, src: &IpAddr, dst: &IpAddr) -> Result<(), Errno> {
        let s = UdpSocket::open(af(dst))?;
        s.bind(&inet(src, 0, 0))?;
        self.probe = Some(s);
        Ok(())
    }

    fn send_probe(&mut self, dst: &IpAddr, oif: u32) -> Result<(), Errno> {
        let s = self.probe.as_ref().ok_or(Errno(libc::EBADF))?;
        s.send_to(PROBE_PAYLOAD, &inet(dst, PORT_DISCARD, oif))
    }

    fn wait(&mut self, timeout: Duration) -> Result<bool, Errno> {
        match &self.notify {
            Some(s) => s.wait_readable(timeout),
            None => Err(Errno(libc::EBADF)),
        }
    }

    fn notifications(&mut self) -> Result<Vec<Neigh>, Errno> {
        let s = self.notify.as_ref().ok_or(Errno(libc::EBADF))?;
        let Ok(msgs) = split_datagram(s.recv(&mut self.buf)?) else {
            return Ok(Vec::new());
        };
        Ok(msgs
            .iter()
            .filter(|m| matches!(m.hdr.ty, RTM_NEWNEIGH | RTM_DELNEIGH | RTM_GETNEIGH))
            .filter_map(|m| rtnl::decode_neigh(m.payload).ok())
            .collect())
    }

    fn now(&mut self) -> Duration {
        self.epoch.elapsed()
    }
}
