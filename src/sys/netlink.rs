//! The netlink socket system calls behind device enumeration.
//!
//! Answers to the socket half of rdma-core's `util/rdma_nl.c` (which goes through libnl-3): open a
//! `NETLINK_RDMA` socket, send one request datagram to the kernel, receive reply datagrams. The
//! message encoding and the request/reply logic are pure Rust in [`crate::device::netlink`].
use core::ffi::c_int;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use crate::errno::Errno;

/// The netlink protocol number of the RDMA subsystem (`NETLINK_RDMA` in `linux/netlink.h`).
pub const NETLINK_RDMA: c_int = 20;

/// The routing netlink protocol (`NETLINK_ROUTE`): routes, links, addresses, neighbours.
pub const NETLINK_ROUTE: c_int = 0;

/// `SOL_NETLINK`, the socket option level of netlink sockets.
const SOL_NETLINK: c_int = 270;
/// `NETLINK_ADD_MEMBERSHIP`: join a multicast group (the option value is the group number).
const NETLINK_ADD_MEMBERSHIP: c_int = 1;

/// Largest reply datagram we accept. The kernel sizes dump datagrams to the receiver's buffer, at
/// most 32 KiB, so this is never the limit in practice; a longer datagram is an `EMSGSIZE` error.
pub const RECV_BUF_LEN: usize = 64 * 1024;

/// How long one receive may block before it fails with `EAGAIN` (the kernel answers every request
/// at once; this only guards against a hang).
const RECV_TIMEOUT_SECS: libc::time_t = 10;

fn last_errno() -> Errno {
    Errno(super::errno())
}

/// A bound netlink socket of one protocol; closed on drop.
#[derive(Debug)]
pub struct NlSocket {
    fd: OwnedFd,
}

impl NlSocket {
    /// `socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol)`, bound with a kernel-chosen port id.
    ///
    /// Fails with the kernel's errno, e.g. `EPROTONOSUPPORT` when the RDMA core is not loaded.
    pub fn open(protocol: c_int) -> Result<NlSocket, Errno> {
        // SAFETY: plain system call with integer arguments; the result is checked below.
        let fd = unsafe {
            libc::socket(
                libc::AF_NETLINK,
                libc::SOCK_RAW | libc::SOCK_CLOEXEC,
                protocol,
            )
        };
        if fd < 0 {
            return Err(last_errno());
        }
        // SAFETY: `fd` is a fresh descriptor that nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };

        let addr = kernel_addr();
        // SAFETY: `addr` is a valid sockaddr_nl and the length passed is its size.
        let rc = unsafe {
            libc::bind(
                fd.as_raw_fd(),
                (&addr as *const libc::sockaddr_nl).cast::<libc::sockaddr>(),
                size_of::<libc::sockaddr_nl>() as libc::socklen_t,
            )
        };
        if rc != 0 {
            return Err(last_errno());
        }

        let tv = libc::timeval {
            tv_sec: RECV_TIMEOUT_SECS,
            tv_usec: 0,
        };
        // SAFETY: `tv` is a valid timeval and the length passed is its size.
        let rc = unsafe {
            libc::setsockopt(
                fd.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_RCVTIMEO,
                (&tv as *const libc::timeval).cast::<libc::c_void>(),
                size_of::<libc::timeval>() as libc::socklen_t,
            )
        };
        if rc != 0 {
            return Err(last_errno());
        }
        Ok(NlSocket { fd })
    }

    /// The port id the kernel bound this socket to (replies carry it in `nlmsg_pid`).
    pub fn port_id(&self) -> Result<u32, Errno> {
        let mut addr = kernel_addr();
        let mut len = size_of::<libc::sockaddr_nl>() as libc::socklen_t;
        // SAFETY: `addr`/`len` describe a writable sockaddr_nl of the stated size.
        let rc = unsafe {
            libc::getsockname(
                self.fd.as_raw_fd(),
                (&mut addr as *mut libc::sockaddr_nl).cast::<libc::sockaddr>(),
                &mut len,
            )
        };
        if rc != 0 {
            return Err(last_errno());
        }
        Ok(addr.nl_pid)
    }

    /// Join multicast group `group` (e.g. `RTNLGRP_NEIGH`): the kernel's notifications of that
    /// group arrive on this socket from then on.
    pub fn add_membership(&self, group: u32) -> Result<(), Errno> {
        // SAFETY: the option value is a u32 and the length passed is its size.
        let rc = unsafe {
            libc::setsockopt(
                self.fd.as_raw_fd(),
                SOL_NETLINK,
                NETLINK_ADD_MEMBERSHIP,
                (&group as *const u32).cast::<libc::c_void>(),
                size_of::<u32>() as libc::socklen_t,
            )
        };
        if rc != 0 {
            return Err(last_errno());
        }
        Ok(())
    }

    /// Wait up to `timeout` for a datagram: true when one is ready. A signal ends the wait with
    /// `EINTR` (the caller decides whether that is an error).
    pub fn wait_readable(&self, timeout: std::time::Duration) -> Result<bool, Errno> {
        let mut pfd = libc::pollfd {
            fd: self.fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ts = libc::timespec {
            tv_sec: timeout.as_secs().min(i32::MAX as u64) as libc::time_t,
            tv_nsec: timeout.subsec_nanos() as libc::c_long,
        };
        // SAFETY: one valid pollfd, a valid timespec, no signal mask.
        let n = unsafe { libc::ppoll(&mut pfd, 1, &ts, core::ptr::null()) };
        if n < 0 {
            return Err(last_errno());
        }
        Ok(n > 0)
    }

    /// Send one complete netlink message (or batch) to the kernel.
    pub fn send(&self, msg: &[u8]) -> Result<(), Errno> {
        let addr = kernel_addr();
        loop {
            // SAFETY: `msg` is a readable buffer of `msg.len()` bytes; `addr` is a valid
            // sockaddr_nl of the stated size.
            let n = unsafe {
                libc::sendto(
                    self.fd.as_raw_fd(),
                    msg.as_ptr().cast::<libc::c_void>(),
                    msg.len(),
                    0,
                    (&addr as *const libc::sockaddr_nl).cast::<libc::sockaddr>(),
                    size_of::<libc::sockaddr_nl>() as libc::socklen_t,
                )
            };
            if n < 0 {
                let e = last_errno();
                if e.0 == libc::EINTR {
                    continue;
                }
                return Err(e);
            }
            if n as usize != msg.len() {
                return Err(Errno(libc::EMSGSIZE));
            }
            return Ok(());
        }
    }

    /// Receive one datagram into `buf`'s storage, returning its bytes. A datagram longer than
    /// the buffer is `EMSGSIZE` (never silently truncated).
    pub fn recv<'b>(&self, buf: &'b mut RecvBuf) -> Result<&'b [u8], Errno> {
        let v = &mut buf.0;
        v.clear();
        let cap = v.capacity();
        loop {
            // SAFETY: `v` owns `cap` bytes of storage the kernel may write (uninitialised memory
            // is fine for a write-only destination). MSG_TRUNC makes the return value the
            // datagram's full length, which we compare with the buffer below.
            let n = unsafe {
                libc::recv(
                    self.fd.as_raw_fd(),
                    v.as_mut_ptr().cast::<libc::c_void>(),
                    cap,
                    libc::MSG_TRUNC,
                )
            };
            if n < 0 {
                let e = last_errno();
                if e.0 == libc::EINTR {
                    continue;
                }
                return Err(e);
            }
            let n = n as usize;
            if n > cap {
                return Err(Errno(libc::EMSGSIZE));
            }
            // SAFETY: the kernel wrote the datagram's `n <= cap` bytes at the start of the
            // storage, so they are initialised.
            unsafe { v.set_len(n) };
            return Ok(v.as_slice());
        }
    }
}

/// The storage one received datagram lands in: `RECV_BUF_LEN` bytes, reused from one receive to
/// the next and never zeroed (the kernel writes what is read back; zeroing 64 KiB cost more
/// than the rest of a device list's netlink work).
#[derive(Debug)]
pub struct RecvBuf(Vec<u8>);

impl RecvBuf {
    /// An empty buffer with room for the largest datagram we accept.
    pub fn new() -> RecvBuf {
        RecvBuf(Vec::with_capacity(RECV_BUF_LEN))
    }
}

impl Default for RecvBuf {
    fn default() -> RecvBuf {
        RecvBuf::new()
    }
}

/// The netlink address of the kernel (port id 0, no groups); also used to bind with an
/// automatically chosen port id.
fn kernel_addr() -> libc::sockaddr_nl {
    // SAFETY: sockaddr_nl is plain integers, for which all-zero is a valid value.
    let mut addr: libc::sockaddr_nl = unsafe { core::mem::zeroed() };
    addr.nl_family = libc::AF_NETLINK as libc::sa_family_t;
    addr
}
