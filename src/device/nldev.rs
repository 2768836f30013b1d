//! Device enumeration over RDMA netlink, the path rdma-core prefers.
//!
//! Answers to rdma-core's `libibverbs/ibdev_nl.c` (`find_sysfs_devs_nl`, `find_uverbs_nl`,
//! `find_uverbs_sysfs`) and the request/reply loops of `util/rdma_nl.c` (`rdmanl_get_devices`,
//! `rdmanl_get_chardev`), speaking netlink directly instead of through libnl.
//!
//! Flow: one `RDMA_NLDEV_CMD_GET` dump lists the devices (index, name, node type, node GUID,
//! port count). For each, `RDMA_NLDEV_CMD_GET_CHARDEV` with the index and chardev type
//! "uverbs" gives the uverbs node's name, `dev_t`, ABI and driver id. When that fails (an
//! `NLMSG_ERROR` such as `EOPNOTSUPP` from a kernel without the command, or a reply without the
//! three required attributes) the node is taken from `<ibdev_path>/device/infiniband_verbs`.
//! A device is dropped when both fail or `/dev/infiniband/<uverbsN>` cannot be `stat`ed.
//!
//! Failure of the dump as a whole (send/receive error, `NLMSG_ERROR`, malformed reply, a dump
//! ended with a negative `NLMSG_DONE` status) is `Err` and the caller walks sysfs instead.
//! Where this is stricter or plainer than rdma-core under libnl:
//! - a dump message lacking one of the five required attributes skips that device and the dump
//!   goes on (libnl's handling of rdma-core's positive "parse error" return makes the outcome
//!   depend on the libnl version; the kernel always sends all five);
//! - replies with another sequence number are ignored (rdma-core disables libnl's check);
//! - a negative `NLMSG_DONE` status (a dump the kernel cut short) fails the dump.
#![forbid(unsafe_code)]

use std::path::Path;

use super::netlink::{
    NLM_F_MULTI, NLMSG_DONE, NLMSG_ERROR, NLMSG_NOOP, NLMSG_OVERRUN, decode_chardev, decode_dev,
    done_status, error_code, get_chardev_request, get_devices_request, split_datagram,
};
use super::node::decode_knode_type;
use super::{
    Enumeration, FoundBy, IBV_SYSFS_NAME_MAX, NETLINK_UVERBS_ABI_VERSION, Source, SysfsDev,
    VSYSFS_READ_NODE_GUID,
};
use super::{errno_text, scan, sysfs};
use crate::errno::Errno;
use crate::sys::netlink::{NETLINK_RDMA, NlSocket, RecvBuf};

/// A way to exchange netlink datagrams with the kernel (a real socket, or canned replies).
pub trait NlTransport {
    /// Send one request datagram.
    fn send(&mut self, msg: &[u8]) -> Result<(), Errno>;
    /// Receive one reply datagram (blocking).
    fn recv(&mut self) -> Result<Vec<u8>, Errno>;
}

/// A real `NETLINK_RDMA` socket.
pub struct KernelTransport {
    sock: NlSocket,
    buf: RecvBuf,
}

impl KernelTransport {
    /// Open and bind the socket (`rdmanl_socket_alloc`).
    pub fn open() -> Result<KernelTransport, Errno> {
        Ok(KernelTransport {
            sock: NlSocket::open(NETLINK_RDMA)?,
            buf: RecvBuf::new(),
        })
    }
}

impl NlTransport for KernelTransport {
    fn send(&mut self, msg: &[u8]) -> Result<(), Errno> {
        self.sock.send(msg)
    }

    fn recv(&mut self) -> Result<Vec<u8>, Errno> {
        Ok(self.sock.recv(&mut self.buf)?.to_vec())
    }
}

/// Send `req` (sequence `seq`) and feed every data message of the reply to `on_msg`, until the
/// reply is complete: `NLMSG_DONE` for a dump, the end of a datagram without `NLM_F_MULTI`
/// otherwise. An `NLMSG_ERROR` with a non-zero code makes the whole exchange fail (after the
/// reply has been read to its end, as rdma-core's error callback does).
pub fn transact(
    t: &mut dyn NlTransport,
    req: &[u8],
    seq: u32,
    on_msg: &mut dyn FnMut(&[u8]) -> Result<(), String>,
) -> Result<(), String> {
    t.send(req)
        .map_err(|e| format!("netlink send failed: {}", errno_text(e)))?;
    let mut failed: Option<i32> = None;
    loop {
        let d = t
            .recv()
            .map_err(|e| format!("netlink receive failed: {}", errno_text(e)))?;
        let msgs = split_datagram(&d).map_err(|e| e.to_string())?;
        let (mut ours, mut multipart, mut done) = (false, false, false);
        for m in msgs {
            if m.hdr.seq != seq {
                continue;
            }
            ours = true;
            if m.hdr.flags & NLM_F_MULTI != 0 {
                multipart = true;
            }
            match m.hdr.ty {
                NLMSG_DONE => {
                    let st = done_status(m.payload);
                    if st < 0 {
                        failed.get_or_insert(-st);
                    }
                    done = true;
                    break;
                }
                NLMSG_NOOP => {}
                NLMSG_OVERRUN => return Err("netlink reply overrun".to_string()),
                NLMSG_ERROR => {
                    let code = error_code(m.payload).map_err(|e| e.to_string())?;
                    if code != 0 {
                        failed.get_or_insert(code.wrapping_neg());
                    }
                }
                _ => on_msg(m.payload)?,
            }
        }
        if done || (ours && !multipart) {
            break;
        }
    }
    match failed {
        Some(e) => Err(format!("kernel answered: {}", errno_text(Errno(e)))),
        None => Ok(()),
    }
}

/// `find_sysfs_devs_nl`: the netlink enumeration. `Err` (with the reason) means "fall back to
/// the sysfs walk"; `Ok` is final, also with no devices.
pub fn find_sysfs_devs_nl(
    root: &Path,
    cdev_dir: &Path,
    t: &mut dyn NlTransport,
) -> Result<Enumeration, String> {
    let mut en = Enumeration::new(Source::Netlink);
    let mut found: Vec<SysfsDev> = Vec::new();
    let mut seq: u32 = 1;

    transact(t, &get_devices_request(seq), seq, &mut |payload| {
        let info = match decode_dev(payload).map_err(|e| e.to_string())? {
            Ok(info) => info,
            Err(missing) => {
                en.skip("?", missing);
                return Ok(());
            }
        };
        if info.name.len() >= IBV_SYSFS_NAME_MAX {
            en.skip(
                &info.name,
                format!("device name longer than {} bytes", IBV_SYSFS_NAME_MAX - 1),
            );
            return Ok(());
        }
        let path = match sysfs::ibdev_path(root, &info.name) {
            Ok(p) => p,
            Err(reason) => {
                en.skip(&info.name, reason);
                return Ok(());
            }
        };
        let mut dev = sysfs::empty_dev(info.name, path, FoundBy::Netlink);
        dev.ibdev_idx = Some(info.index);
        dev.num_ports = info.num_ports;
        dev.node_guid = Some(info.node_guid);
        dev.flags |= VSYSFS_READ_NODE_GUID;
        dev.node_type_raw = Some(info.node_type as u32);
        dev.node_type = decode_knode_type(info.node_type as u32);
        found.push(dev);
        Ok(())
    })
    .map_err(|e| format!("RDMA_NLDEV_CMD_GET dump: {e}"))?;

    for mut dev in found {
        seq = seq.wrapping_add(1);
        let name = dev.ibdev_name.clone();
        if let Err(nl_reason) = find_uverbs_nl(t, seq, &mut dev, &mut en) {
            if let Err(sysfs_reason) = sysfs::find_uverbs_sysfs(&mut dev, &mut en) {
                en.skip(
                    &name,
                    format!("no uverbs device: netlink: {nl_reason}; sysfs: {sysfs_reason}"),
                );
                continue;
            }
            dev.found_by = FoundBy::NetlinkThenSysfs;
        }
        match sysfs::finish_dev(root, cdev_dir, &mut dev) {
            Ok(()) => en.devices.push(dev),
            Err(reason) => en.skip(&name, reason),
        }
    }
    Ok(en)
}

/// `find_uverbs_nl`: ask for the "uverbs" char device of `dev.ibdev_idx` and fill name,
/// `dev_t`, ABI and driver id. Succeeds only when the exchange did and a name arrived.
fn find_uverbs_nl(
    t: &mut dyn NlTransport,
    seq: u32,
    dev: &mut SysfsDev,
    en: &mut Enumeration,
) -> Result<(), String> {
    let req = get_chardev_request(seq, dev.ibdev_idx, "uverbs");
    let mut note: Option<String> = None;
    transact(t, &req, seq, &mut |payload| {
        match decode_chardev(payload).map_err(|e| e.to_string())? {
            Ok(c) => {
                // A kernel that answers this request for "uverbs" implies global ABI 6.
                en.kernel_abi_ver = Some(NETLINK_UVERBS_ABI_VERSION);
                // The upper 32 bits are reserved (zero today); the C field is 32-bit.
                dev.abi_ver = c.abi as u32;
                dev.driver_id = c.driver_id;
                let (major, minor) = scan::huge_decode_dev(c.dev_huge);
                dev.sysfs_cdev = scan::makedev(major, minor);
                if c.name.len() >= IBV_SYSFS_NAME_MAX {
                    note = Some(format!(
                        "chardev name longer than {} bytes",
                        IBV_SYSFS_NAME_MAX - 1
                    ));
                } else {
                    dev.sysfs_name = c.name;
                }
            }
            Err(missing) => note = Some(missing),
        }
        Ok(())
    })?;
    if dev.sysfs_name.is_empty() {
        return Err(note.unwrap_or_else(|| "no chardev reply".to_string()));
    }
    Ok(())
}
