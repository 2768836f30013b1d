//! The UDP datagram `ibv_resolve_eth_l2_from_gid` sends to make the kernel resolve a neighbour
//! (rdma-core: `libibverbs/neigh.c`, `create_socket` and `try_send_to`).
use core::ffi::c_int;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use crate::errno::Errno;

/// An IPv4 or IPv6 socket address; addresses in network byte order, port in host order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InetAddr {
    V4 {
        addr: [u8; 4],
        port: u16,
    },
    V6 {
        addr: [u8; 16],
        port: u16,
        scope_id: u32,
    },
}

/// A C `sockaddr_in` or `sockaddr_in6` with its length.
enum RawAddr {
    V4(libc::sockaddr_in),
    V6(libc::sockaddr_in6),
}

impl RawAddr {
    fn of(a: &InetAddr) -> RawAddr {
        match *a {
            InetAddr::V4 { addr, port } => {
                // SAFETY: sockaddr_in is plain integers; all-zero is valid.
                let mut s: libc::sockaddr_in = unsafe { core::mem::zeroed() };
                s.sin_family = libc::AF_INET as libc::sa_family_t;
                s.sin_port = port.to_be();
                s.sin_addr.s_addr = u32::from_ne_bytes(addr);
                RawAddr::V4(s)
            }
            InetAddr::V6 {
                addr,
                port,
                scope_id,
            } => {
                // SAFETY: sockaddr_in6 is plain integers; all-zero is valid.
                let mut s: libc::sockaddr_in6 = unsafe { core::mem::zeroed() };
                s.sin6_family = libc::AF_INET6 as libc::sa_family_t;
                s.sin6_port = port.to_be();
                s.sin6_addr.s6_addr = addr;
                s.sin6_scope_id = scope_id;
                RawAddr::V6(s)
            }
        }
    }

    fn ptr_len(&self) -> (*const libc::sockaddr, libc::socklen_t) {
        match self {
            RawAddr::V4(s) => (
                (s as *const libc::sockaddr_in).cast(),
                size_of::<libc::sockaddr_in>() as libc::socklen_t,
            ),
            RawAddr::V6(s) => (
                (s as *const libc::sockaddr_in6).cast(),
                size_of::<libc::sockaddr_in6>() as libc::socklen_t,
            ),
        }
    }
}

fn last_errno() -> Errno {
    Errno(super::errno())
}

/// A datagram socket; closed on drop.
#[derive(Debug)]
pub struct UdpSocket {
    fd: OwnedFd,
}

impl UdpSocket {
    /// `socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0)`.
    pub fn open(family: c_int) -> Result<UdpSocket, Errno> {
        // SAFETY: plain system call with integer arguments; the result is checked.
        let fd = unsafe { libc::socket(family, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) };
        if fd < 0 {
            return Err(last_errno());
        }
        Ok(UdpSocket {
            // SAFETY: a fresh descriptor nothing else owns.
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
        })
    }

    /// `bind(2)` to `addr`, whose family may differ from the socket's (the kernel then refuses).
    pub fn bind(&self, addr: &InetAddr) -> Result<(), Errno> {
        let raw = RawAddr::of(addr);
        let (p, len) = raw.ptr_len();
        // SAFETY: `p` points to a sockaddr of `len` bytes that lives across the call.
        if unsafe { libc::bind(self.fd.as_raw_fd(), p, len) } != 0 {
            return Err(last_errno());
        }
        Ok(())
    }

    /// One `sendto(2)` of `data` to `addr` (no retry on EINTR: each call is one attempt).
    pub fn send_to(&self, data: &[u8], addr: &InetAddr) -> Result<(), Errno> {
        let raw = RawAddr::of(addr);
        let (p, len) = raw.ptr_len();
        // SAFETY: `data` is readable for its length; `p` points to a sockaddr of `len` bytes.
        let n = unsafe {
            libc::sendto(
                self.fd.as_raw_fd(),
                data.as_ptr().cast(),
                data.len(),
                0,
                p,
                len,
            )
        };
        if n < 0 {
            return Err(last_errno());
        }
        Ok(())
    }
}
