//! A fake uverbs command channel for the command-layer tests: it records every ioctl and
//! write buffer byte for byte and answers from a script, writing the scripted output bytes to
//! the user addresses the command carries, as the kernel would.
#![allow(dead_code)]

use std::cell::RefCell;
use std::collections::VecDeque;

use ibverbs::errno::Errno;
use ibverbs::sys::uverbs::Uverbs;

/// One recorded system call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    Ioctl(Vec<u8>),
    Write(Vec<u8>),
}

/// What the fake kernel writes for one ioctl attribute.
#[derive(Clone, Debug)]
pub enum Out {
    /// Bytes to the attribute's address (PTR_OUT); sets UVERBS_ATTR_F_VALID_OUTPUT.
    Bytes(Vec<u8>),
    /// A new `data` value (IDR or fd attributes).
    Data(u64),
}

/// One scripted answer.
#[derive(Clone, Debug)]
pub enum Reply {
    /// ioctl: fail with this errno.
    IoctlErr(i32),
    /// ioctl: succeed, writing these outputs (by attribute id).
    IoctlOk(Vec<(u16, Out)>),
    /// write: fail with this errno.
    WriteErr(i32),
    /// write: succeed, writing these bytes at the request's response address (offset 8 of the
    /// request for legacy and extended commands alike).
    WriteOk(Vec<u8>),
    /// write: accept only this many bytes.
    WriteShort(usize),
}

#[derive(Default)]
pub struct Fake {
    pub calls: RefCell<Vec<Call>>,
    replies: RefCell<VecDeque<Reply>>,
}

pub fn u16_at(b: &[u8], off: usize) -> u16 {
    u16::from_ne_bytes(b[off..off + 2].try_into().unwrap())
}
pub fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_ne_bytes(b[off..off + 4].try_into().unwrap())
}
pub fn u64_at(b: &[u8], off: usize) -> u64 {
    u64::from_ne_bytes(b[off..off + 8].try_into().unwrap())
}

/// Write `bytes` to user address `addr` as the kernel does.
///
/// # Safety
/// `addr` must point to `bytes.len()` writable bytes that the code under test lent to the
/// command for the duration of the call.
unsafe fn poke(addr: u64, bytes: &[u8]) {
    let p = std::ptr::with_exposed_provenance_mut::<u8>(addr as usize);
    // SAFETY: per the function contract.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len()) };
}

/// A parsed ioctl attribute (parsed here independently of the library's own decoder).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct A {
    pub id: u16,
    pub len: u16,
    pub flags: u16,
    pub attr_data: u16,
    pub data: u64,
}

impl A {
    /// The value the kernel reads from an inline attribute (`len` of 1 to 7 bytes): the first
    /// `len` bytes of `data` in memory, in native order (rdma-core's `fill_attr_in_uint32`
    /// copies 4 bytes to the start of `data`, so on a big-endian host the u64 reads value << 32).
    /// Other attributes (`len` 0 or 8: handles, fds, enums, `fill_attr_in_uint64`) carry `data`.
    pub fn value(&self) -> u64 {
        let n = self.len as usize;
        if n == 0 || n >= 8 {
            return self.data;
        }
        let b = self.data.to_ne_bytes();
        match n {
            1 => b[0] as u64,
            2 => u16_at(&b, 0) as u64,
            4 => u32_at(&b, 0) as u64,
            _ => panic!("inline attribute of {n} bytes"),
        }
    }
}

/// The `data` word of an inline attribute of `len` bytes holding `value` (see [`A::value`]),
/// for expectations written from native values.
pub fn inline(len: usize, value: u64) -> u64 {
    let mut b = [0u8; 8];
    match len {
        1 => b[0] = value as u8,
        2 => b[..2].copy_from_slice(&(value as u16).to_ne_bytes()),
        4 => b[..4].copy_from_slice(&(value as u32).to_ne_bytes()),
        8 => b = value.to_ne_bytes(),
        _ => panic!("inline attribute of {len} bytes"),
    }
    u64::from_ne_bytes(b)
}

/// `u32` words in native order, as the kernel writes a reply's fields.
pub fn ne32(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_ne_bytes()).collect()
}

/// The header fields and attributes of an ioctl buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub length: u16,
    pub object_id: u16,
    pub method_id: u16,
    pub num_attrs: u16,
    pub reserved1: u64,
    pub driver_id: u32,
    pub reserved2: u32,
    pub attrs: Vec<A>,
}

pub fn parse_ioctl(b: &[u8]) -> Parsed {
    let n = u16_at(b, 6) as usize;
    assert_eq!(b.len(), 24 + 16 * n, "buffer length vs num_attrs");
    Parsed {
        length: u16_at(b, 0),
        object_id: u16_at(b, 2),
        method_id: u16_at(b, 4),
        num_attrs: u16_at(b, 6),
        reserved1: u64_at(b, 8),
        driver_id: u32_at(b, 16),
        reserved2: u32_at(b, 20),
        attrs: (0..n)
            .map(|i| {
                let a = &b[24 + 16 * i..40 + 16 * i];
                A {
                    id: u16_at(a, 0),
                    len: u16_at(a, 2),
                    flags: u16_at(a, 4),
                    attr_data: u16_at(a, 6),
                    data: u64_at(a, 8),
                }
            })
            .collect(),
    }
}

impl Fake {
    pub fn new(replies: impl IntoIterator<Item = Reply>) -> Self {
        Fake {
            calls: RefCell::new(Vec::new()),
            replies: RefCell::new(replies.into_iter().collect()),
        }
    }

    pub fn calls(&self) -> Vec<Call> {
        self.calls.borrow().clone()
    }

    pub fn ioctls(&self) -> Vec<Parsed> {
        self.calls
            .borrow()
            .iter()
            .filter_map(|c| match c {
                Call::Ioctl(b) => Some(parse_ioctl(b)),
                Call::Write(_) => None,
            })
            .collect()
    }

    pub fn writes(&self) -> Vec<Vec<u8>> {
        self.calls
            .borrow()
            .iter()
            .filter_map(|c| match c {
                Call::Write(b) => Some(b.clone()),
                Call::Ioctl(_) => None,
            })
            .collect()
    }

    pub fn unused_replies(&self) -> usize {
        self.replies.borrow().len()
    }

    fn next(&self) -> Reply {
        self.replies
            .borrow_mut()
            .pop_front()
            .expect("fake uverbs: no reply scripted for this call")
    }
}

impl Uverbs for Fake {
    fn ioctl(&self, buf: &mut [u8]) -> Result<(), Errno> {
        self.calls.borrow_mut().push(Call::Ioctl(buf.to_vec()));
        match self.next() {
            Reply::IoctlErr(e) => Err(Errno(e)),
            Reply::IoctlOk(outs) => {
                let p = parse_ioctl(buf);
                for (id, out) in outs {
                    let i = p
                        .attrs
                        .iter()
                        .position(|a| a.id == id)
                        .expect("scripted attr not sent");
                    let at = 24 + 16 * i;
                    match out {
                        Out::Bytes(bytes) => {
                            assert!(
                                bytes.len() <= p.attrs[i].len as usize,
                                "output longer than attr"
                            );
                            // SAFETY: the attribute's address and length come from the command
                            // under test, which lends that buffer for the call.
                            unsafe { poke(p.attrs[i].data, &bytes) };
                            let flags = p.attrs[i].flags | 2;
                            buf[at + 4..at + 6].copy_from_slice(&flags.to_ne_bytes());
                        }
                        Out::Data(d) => buf[at + 8..at + 16].copy_from_slice(&d.to_ne_bytes()),
                    }
                }
                Ok(())
            }
            r => panic!("fake uverbs: ioctl got {r:?}"),
        }
    }

    fn write(&self, buf: &[u8]) -> Result<usize, Errno> {
        self.calls.borrow_mut().push(Call::Write(buf.to_vec()));
        match self.next() {
            Reply::WriteErr(e) => Err(Errno(e)),
            Reply::WriteShort(n) => Ok(n),
            Reply::WriteOk(resp) => {
                if !resp.is_empty() {
                    // SAFETY: the response address is the one the command under test stored in
                    // its request, for a buffer it lends for the call.
                    unsafe { poke(u64_at(buf, 8), &resp) };
                }
                Ok(buf.len())
            }
            r => panic!("fake uverbs: write got {r:?}"),
        }
    }
}

/// One buffer of a provider's driver chain, held in Rust (what `verbs::cmdbuf::Chain` reads
/// from a C `ibv_command_buffer`): its attributes and the flags it carries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Link {
    pub attrs: Vec<ibverbs::cmd::Attr>,
    pub uhw_in_idx: Option<u8>,
    pub fallback_require_ex: bool,
    pub fallback_ioctl_only: bool,
}

impl Link {
    /// A buffer holding `attrs`, no flags.
    pub fn of(attrs: impl IntoIterator<Item = ibverbs::cmd::Attr>) -> Self {
        Link {
            attrs: attrs.into_iter().collect(),
            ..Link::default()
        }
    }
}

/// A mandatory attribute of `len` bytes with `data` (`fill_attr_in_uint64` is `attr(id, 8, v)`,
/// `fill_attr_out_obj` and `fill_attr_out_fd` are `attr(id, 0, 0)`).
pub fn attr(id: u16, len: usize, data: u64) -> ibverbs::cmd::Attr {
    ibverbs::cmd::Attr::sized(id, len, data).0
}

/// A driver chain of [`Link`]s, given the kernel's answers back as a C chain is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Links(pub Vec<Link>);

impl ibverbs::cmd::Driver for Links {
    fn link(&mut self, cmd: &mut ibverbs::cmd::IoctlCmd<'_>) -> Result<(), Errno> {
        for l in &self.0 {
            cmd.push_link(
                l.attrs.iter().copied(),
                l.uhw_in_idx,
                l.fallback_require_ex,
                l.fallback_ioctl_only,
            );
        }
        Ok(())
    }

    fn store(&mut self, attrs: &[ibverbs::cmd::Attr]) {
        let mut rest = attrs;
        for l in &mut self.0 {
            let (mine, tail) = rest.split_at(l.attrs.len().min(rest.len()));
            l.attrs[..mine.len()].copy_from_slice(mine);
            rest = tail;
        }
    }
}
