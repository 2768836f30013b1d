//! The RDMA netlink (`RDMA_NL_NLDEV`) wire format: building the two requests device enumeration
//! sends and decoding the replies. Pure byte handling, no I/O; tested with captured replies.
//!
//! Answers to the libnl-3 message handling that rdma-core's `util/rdma_nl.c` and
//! `libibverbs/ibdev_nl.c` rely on (`nlmsg_alloc_simple`, `NLA_PUT_*`, `nlmsg_parse` with
//! `rdmanl_policy`, `nla_get_*`). Numbers are the kernel's, from `linux/netlink.h` and
//! `rdma/rdma_netlink.h`. RDMA netlink messages carry no family header: attributes follow the
//! `nlmsghdr` directly. Everything is host byte order.
#![forbid(unsafe_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

/// Size of `struct nlmsghdr`.
pub const NLMSG_HDRLEN: usize = 16;
/// Size of `struct nlattr`.
pub const NLA_HDRLEN: usize = 4;
/// `NLMSG_NOOP`.
pub const NLMSG_NOOP: u16 = 1;
/// `NLMSG_ERROR`: payload is `struct nlmsgerr` (negative errno, then the offending header).
pub const NLMSG_ERROR: u16 = 2;
/// `NLMSG_DONE`: end of a dump; payload is an `int` status.
pub const NLMSG_DONE: u16 = 3;
/// `NLMSG_OVERRUN`.
pub const NLMSG_OVERRUN: u16 = 4;
/// `NLM_F_REQUEST`.
pub const NLM_F_REQUEST: u16 = 0x1;
/// `NLM_F_MULTI`: part of a multi-message reply.
pub const NLM_F_MULTI: u16 = 0x2;
/// `NLM_F_ACK`.
pub const NLM_F_ACK: u16 = 0x4;
/// `NLM_F_DUMP` (`NLM_F_ROOT | NLM_F_MATCH`).
pub const NLM_F_DUMP: u16 = 0x300;
/// `NLA_F_NESTED`.
pub const NLA_F_NESTED: u16 = 0x8000;
/// `NLA_F_NET_BYTEORDER`.
pub const NLA_F_NET_BYTEORDER: u16 = 0x4000;
/// `NLA_TYPE_MASK`: the attribute type without the two flag bits.
pub const NLA_TYPE_MASK: u16 = !(NLA_F_NESTED | NLA_F_NET_BYTEORDER);

/// `RDMA_NL_NLDEV`: the RDMA device interface client.
pub const RDMA_NL_NLDEV: u16 = 5;
/// `RDMA_NLDEV_CMD_GET` (dumpable).
pub const RDMA_NLDEV_CMD_GET: u16 = 1;
/// `RDMA_NLDEV_CMD_GET_CHARDEV`.
pub const RDMA_NLDEV_CMD_GET_CHARDEV: u16 = 15;

/// `RDMA_NLDEV_ATTR_DEV_INDEX` (u32).
pub const RDMA_NLDEV_ATTR_DEV_INDEX: u16 = 1;
/// `RDMA_NLDEV_ATTR_DEV_NAME` (NUL-terminated string).
pub const RDMA_NLDEV_ATTR_DEV_NAME: u16 = 2;
/// `RDMA_NLDEV_ATTR_PORT_INDEX` (u32; in a device reply: the number of ports).
pub const RDMA_NLDEV_ATTR_PORT_INDEX: u16 = 3;
/// `RDMA_NLDEV_ATTR_NODE_GUID` (u64, host order).
pub const RDMA_NLDEV_ATTR_NODE_GUID: u16 = 6;
/// `RDMA_NLDEV_ATTR_DEV_NODE_TYPE` (u8, `RDMA_NODE_*`).
pub const RDMA_NLDEV_ATTR_DEV_NODE_TYPE: u16 = 14;
/// `RDMA_NLDEV_ATTR_DEV_PROTOCOL` (string).
pub const RDMA_NLDEV_ATTR_DEV_PROTOCOL: u16 = 67;
/// `RDMA_NLDEV_ATTR_CHARDEV_TYPE` (string, e.g. "uverbs").
pub const RDMA_NLDEV_ATTR_CHARDEV_TYPE: u16 = 69;
/// `RDMA_NLDEV_ATTR_CHARDEV_NAME` (string, e.g. "uverbs0").
pub const RDMA_NLDEV_ATTR_CHARDEV_NAME: u16 = 70;
/// `RDMA_NLDEV_ATTR_CHARDEV_ABI` (u64; the top 32 bits are reserved).
pub const RDMA_NLDEV_ATTR_CHARDEV_ABI: u16 = 71;
/// `RDMA_NLDEV_ATTR_CHARDEV` (u64, `huge_encode_dev` of the dev_t).
pub const RDMA_NLDEV_ATTR_CHARDEV: u16 = 72;
/// `RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID` (u32, `enum rdma_driver_id`).
pub const RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID: u16 = 73;
/// `RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK` (u8).
pub const RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK: u16 = 93;
/// Attribute types at or above this are ignored (`RDMA_NLDEV_ATTR_MAX` of rdma-core's copy of
/// the header is larger than every type we read; the exact value does not matter here).
pub const ATTR_TABLE_LEN: usize = 128;

/// `RDMA_NL_GET_TYPE(client, op)`: the `nlmsg_type` of an RDMA netlink request.
pub const fn rdma_nl_get_type(client: u16, op: u16) -> u16 {
    (client << 10) + op
}

/// `NLMSG_ALIGN` / `NLA_ALIGN`: round up to 4 bytes.
pub const fn align4(n: usize) -> usize {
    (n + 3) & !3
}

/// A decoding failure: the reply is not well-formed netlink (rdma-core's parse errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodecError(pub String);

impl std::fmt::Display for CodecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "malformed netlink reply: {}", self.0)
    }
}

/// A `struct nlmsghdr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NlMsgHdr {
    pub len: u32,
    pub ty: u16,
    pub flags: u16,
    pub seq: u32,
    pub pid: u32,
}

/// One message of a datagram: header and payload (`len - 16` bytes).
#[derive(Clone, Copy, Debug)]
pub struct NlMsg<'a> {
    pub hdr: NlMsgHdr,
    pub payload: &'a [u8],
}

/// Split a received datagram into its messages. A header whose length is short or runs past the
/// datagram is an error (libnl would silently stop there; a partial reply is not trusted).
pub fn split_datagram(buf: &[u8]) -> Result<Vec<NlMsg<'_>>, CodecError> {
    let mut out = Vec::new();
    let mut off = 0;
    while buf.len() - off >= NLMSG_HDRLEN {
        let b = &buf[off..];
        let hdr = NlMsgHdr {
            len: u32_at(b, 0),
            ty: u16_at(b, 4),
            flags: u16_at(b, 6),
            seq: u32_at(b, 8),
            pid: u32_at(b, 12),
        };
        let len = hdr.len as usize;
        if len < NLMSG_HDRLEN || len > b.len() {
            return Err(CodecError(format!(
                "message length {len} at offset {off} of a {}-byte datagram",
                buf.len()
            )));
        }
        out.push(NlMsg {
            hdr,
            payload: &b[NLMSG_HDRLEN..len],
        });
        off += align4(len).min(b.len());
    }
    if off != buf.len() {
        return Err(CodecError(format!(
            "{} stray bytes after the last message",
            buf.len() - off
        )));
    }
    Ok(out)
}

/// The `error` of an `NLMSG_ERROR` payload: 0 for an acknowledgement, else a negative errno.
pub fn error_code(payload: &[u8]) -> Result<i32, CodecError> {
    if payload.len() < 4 + NLMSG_HDRLEN {
        return Err(CodecError(format!(
            "NLMSG_ERROR payload of {} bytes",
            payload.len()
        )));
    }
    Ok(u32_at(payload, 0) as i32)
}

/// The status of an `NLMSG_DONE` payload (0 when absent; negative when the dump was cut short).
pub fn done_status(payload: &[u8]) -> i32 {
    if payload.len() >= 4 {
        u32_at(payload, 0) as i32
    } else {
        0
    }
}

/// A request under construction: header first, attributes appended.
pub struct Request {
    buf: Vec<u8>,
}

impl Request {
    /// A request of type `ty` with `NLM_F_REQUEST | flags` and sequence number `seq`.
    pub fn new(ty: u16, flags: u16, seq: u32) -> Request {
        let mut buf = Vec::with_capacity(64);
        buf.extend_from_slice(&0u32.to_ne_bytes());
        buf.extend_from_slice(&ty.to_ne_bytes());
        buf.extend_from_slice(&(NLM_F_REQUEST | flags).to_ne_bytes());
        buf.extend_from_slice(&seq.to_ne_bytes());
        buf.extend_from_slice(&0u32.to_ne_bytes()); // port id: the kernel fills in the sender's
        Request { buf }
    }

    /// Append bytes as they are, padded to 4 (the family header of a NETLINK_ROUTE request,
    /// which comes before the attributes).
    pub fn raw(&mut self, data: &[u8]) -> &mut Request {
        self.buf.extend_from_slice(data);
        self.buf.resize(align4(self.buf.len()), 0);
        self
    }

    /// Append an attribute with raw payload, padded to 4 bytes.
    pub fn put(&mut self, ty: u16, data: &[u8]) -> &mut Request {
        let len = NLA_HDRLEN + data.len();
        self.buf.extend_from_slice(&(len as u16).to_ne_bytes());
        self.buf.extend_from_slice(&ty.to_ne_bytes());
        self.buf.extend_from_slice(data);
        self.buf.resize(align4(self.buf.len()), 0);
        self
    }

    /// `NLA_PUT_U32`.
    pub fn put_u32(&mut self, ty: u16, v: u32) -> &mut Request {
        self.put(ty, &v.to_ne_bytes())
    }

    /// `NLA_PUT_STRING`: the string and its terminating NUL.
    pub fn put_str(&mut self, ty: u16, s: &str) -> &mut Request {
        let mut d = Vec::with_capacity(s.len() + 1);
        d.extend_from_slice(s.as_bytes());
        d.push(0);
        self.put(ty, &d)
    }

    /// The finished message with its length filled in.
    pub fn finish(&mut self) -> Vec<u8> {
        let len = self.buf.len() as u32;
        self.buf[0..4].copy_from_slice(&len.to_ne_bytes());
        std::mem::take(&mut self.buf)
    }
}

/// The device dump request: `RDMA_NLDEV_CMD_GET` with `NLM_F_DUMP`, no attributes.
pub fn get_devices_request(seq: u32) -> Vec<u8> {
    Request::new(
        rdma_nl_get_type(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET),
        NLM_F_DUMP,
        seq,
    )
    .finish()
}

/// `RDMA_NLDEV_CMD_GET_CHARDEV` for one device index (omitted when `None`) and a char device
/// type such as "uverbs".
pub fn get_chardev_request(seq: u32, ibdev_idx: Option<u32>, chardev_type: &str) -> Vec<u8> {
    let mut r = Request::new(
        rdma_nl_get_type(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET_CHARDEV),
        0,
        seq,
    );
    if let Some(idx) = ibdev_idx {
        r.put_u32(RDMA_NLDEV_ATTR_DEV_INDEX, idx);
    }
    r.put_str(RDMA_NLDEV_ATTR_CHARDEV_TYPE, chardev_type);
    r.finish()
}

/// The attributes of one message, indexed by type, checked against rdma-core's policy.
pub struct Attrs<'a> {
    tb: Vec<Option<&'a [u8]>>,
}

/// The minimum payload length rdma-core's `rdmanl_policy` demands of an attribute type, and
/// whether it must be a NUL-terminated string.
fn policy(ty: u16) -> (usize, bool) {
    match ty {
        RDMA_NLDEV_ATTR_CHARDEV | RDMA_NLDEV_ATTR_CHARDEV_ABI | RDMA_NLDEV_ATTR_NODE_GUID => {
            (8, false)
        }
        RDMA_NLDEV_ATTR_DEV_INDEX
        | RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID
        | RDMA_NLDEV_ATTR_PORT_INDEX => (4, false),
        RDMA_NLDEV_ATTR_DEV_NODE_TYPE | RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK => (1, false),
        RDMA_NLDEV_ATTR_CHARDEV_NAME | RDMA_NLDEV_ATTR_DEV_NAME | RDMA_NLDEV_ATTR_DEV_PROTOCOL => {
            (1, true)
        }
        _ => (0, false),
    }
}

impl<'a> Attrs<'a> {
    /// `nlmsg_parse(hdr, 0, tb, …, rdmanl_policy)`: walk the attributes of `payload`. A later
    /// duplicate wins; unknown types are kept unchecked; a trailing fragment shorter than an
    /// attribute header is ignored. An attribute shorter than its policy, or a string without its
    /// NUL, fails the whole message.
    pub fn parse(payload: &'a [u8]) -> Result<Attrs<'a>, CodecError> {
        let mut tb = vec![None; ATTR_TABLE_LEN];
        let mut off = 0;
        while payload.len() - off >= NLA_HDRLEN {
            let len = u16_at(payload, off) as usize;
            let ty = u16_at(payload, off + 2) & NLA_TYPE_MASK;
            if len < NLA_HDRLEN || len > payload.len() - off {
                break;
            }
            let data = &payload[off + NLA_HDRLEN..off + len];
            let (min, string) = policy(ty);
            if data.len() < min {
                return Err(CodecError(format!(
                    "attribute {ty} has {} bytes, needs {min}",
                    data.len()
                )));
            }
            if string && !data.contains(&0) {
                return Err(CodecError(format!(
                    "string attribute {ty} is not NUL-terminated"
                )));
            }
            if let Some(slot) = tb.get_mut(ty as usize) {
                *slot = Some(data);
            }
            off += align4(len).min(payload.len() - off);
        }
        Ok(Attrs { tb })
    }

    /// The raw payload of attribute `ty`.
    pub fn get(&self, ty: u16) -> Option<&'a [u8]> {
        self.tb.get(ty as usize).copied().flatten()
    }

    /// `nla_get_u8`.
    pub fn u8(&self, ty: u16) -> Option<u8> {
        self.get(ty).and_then(|d| d.first().copied())
    }

    /// `nla_get_u32`.
    pub fn u32(&self, ty: u16) -> Option<u32> {
        self.get(ty).filter(|d| d.len() >= 4).map(|d| u32_at(d, 0))
    }

    /// `nla_get_u64`.
    pub fn u64(&self, ty: u16) -> Option<u64> {
        self.get(ty)
            .filter(|d| d.len() >= 8)
            .map(|d| u64::from_ne_bytes(d[..8].try_into().unwrap_or([0; 8])))
    }

    /// `nla_get_string` as C reads it: the bytes up to the first NUL; `None` if absent.
    pub fn cstr(&self, ty: u16) -> Option<&'a [u8]> {
        let d = self.get(ty)?;
        let end = d.iter().position(|&c| c == 0).unwrap_or(d.len());
        d.get(..end)
    }
}

/// What a device message of the `RDMA_NLDEV_CMD_GET` dump says about one device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DevInfo {
    pub index: u32,
    /// `RDMA_NLDEV_ATTR_DEV_NAME`: bytes up to the first NUL.
    pub name: OsString,
    pub node_type: u8,
    /// Host order.
    pub node_guid: u64,
    /// `RDMA_NLDEV_ATTR_PORT_INDEX`, which the device reply uses for its port count.
    pub num_ports: u32,
}

/// Decode one dump message. `Ok(Err(missing))` when one of the five attributes rdma-core
/// requires is absent (that device is passed over); `Err` when the message is malformed.
pub fn decode_dev(payload: &[u8]) -> Result<Result<DevInfo, String>, CodecError> {
    let a = Attrs::parse(payload)?;
    let missing: Vec<&str> = [
        (RDMA_NLDEV_ATTR_DEV_NAME, "DEV_NAME"),
        (RDMA_NLDEV_ATTR_DEV_NODE_TYPE, "DEV_NODE_TYPE"),
        (RDMA_NLDEV_ATTR_DEV_INDEX, "DEV_INDEX"),
        (RDMA_NLDEV_ATTR_NODE_GUID, "NODE_GUID"),
        (RDMA_NLDEV_ATTR_PORT_INDEX, "PORT_INDEX"),
    ]
    .iter()
    .filter(|(t, _)| a.get(*t).is_none())
    .map(|(_, n)| *n)
    .collect();
    if !missing.is_empty() {
        return Ok(Err(format!("device message lacks {}", missing.join(", "))));
    }
    let name = a.cstr(RDMA_NLDEV_ATTR_DEV_NAME).unwrap_or_default();
    Ok(Ok(DevInfo {
        index: a.u32(RDMA_NLDEV_ATTR_DEV_INDEX).unwrap_or(0),
        name: OsStr::from_bytes(name).to_owned(),
        node_type: a.u8(RDMA_NLDEV_ATTR_DEV_NODE_TYPE).unwrap_or(0),
        node_guid: a.u64(RDMA_NLDEV_ATTR_NODE_GUID).unwrap_or(0),
        num_ports: a.u32(RDMA_NLDEV_ATTR_PORT_INDEX).unwrap_or(0),
    }))
}

/// What a `GET_CHARDEV` reply says about a device's uverbs node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChardevInfo {
    /// `RDMA_NLDEV_ATTR_CHARDEV_NAME`, e.g. "uverbs0": bytes up to the first NUL.
    pub name: OsString,
    /// `RDMA_NLDEV_ATTR_CHARDEV`: the kernel's `huge_encode_dev` form.
    pub dev_huge: u64,
    /// `RDMA_NLDEV_ATTR_CHARDEV_ABI`.
    pub abi: u64,
    /// `RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID`, absent on older kernels.
    pub driver_id: Option<u32>,
}

/// Decode a `GET_CHARDEV` reply. `Ok(Err(missing))` when CHARDEV, CHARDEV_ABI or CHARDEV_NAME
/// is absent (rdma-core then looks in sysfs); `Err` when the message is malformed.
pub fn decode_chardev(payload: &[u8]) -> Result<Result<ChardevInfo, String>, CodecError> {
    let a = Attrs::parse(payload)?;
    let (Some(dev_huge), Some(abi), true) = (
        a.u64(RDMA_NLDEV_ATTR_CHARDEV),
        a.u64(RDMA_NLDEV_ATTR_CHARDEV_ABI),
        a.get(RDMA_NLDEV_ATTR_CHARDEV_NAME).is_some(),
    ) else {
        return Ok(Err(
            "chardev reply lacks CHARDEV, CHARDEV_ABI or CHARDEV_NAME".to_string(),
        ));
    };
    let name = a.cstr(RDMA_NLDEV_ATTR_CHARDEV_NAME).unwrap_or_default();
    Ok(Ok(ChardevInfo {
        name: OsStr::from_bytes(name).to_owned(),
        dev_huge,
        abi,
        driver_id: a.u32(RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID),
    }))
}

fn u16_at(b: &[u8], off: usize) -> u16 {
    u16::from_ne_bytes([b[off], b[off + 1]])
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_ne_bytes([b[off], b[off + 1], b[off + 2], b[off + 3]])
}
