//! One ioctl attribute, the ioctl header, and one segment of a command buffer chain
//! (rdma-core: `libibverbs/cmd_ioctl.h`, the `struct ibv_command_buffer` and the `fill_attr_*`
//! helpers).
//!
//! [`Attr`] and [`IoctlHdr`] are `#[repr(C)]` records with the kernel's layout (defined in
//! `sys::uverbs`, where their byte views live); the unions of `ib_uverbs_attr` are raw integers.
//! A buffer's attributes ([`Attrs`]) stay in place up to [`INLINE_ATTRS`], behind room for the
//! header, so the usual command is sent from where it was built without a heap allocation.
#![forbid(unsafe_code)]

use core::mem::offset_of;

use crate::abi::uapi::{UVERBS_ATTR_F_MANDATORY, ib_uverbs_attr, ib_uverbs_ioctl_hdr};
use crate::errno::Errno;

/// `sizeof(struct ib_uverbs_attr)`.
pub const ATTR_SIZE: usize = size_of::<ib_uverbs_attr>();
/// `sizeof(struct ib_uverbs_ioctl_hdr)`.
pub const HDR_SIZE: usize = size_of::<ib_uverbs_ioctl_hdr>();

// The byte order of the fields below is fixed by the uapi; check it against our mirror.
const _: () = assert!(
    offset_of!(ib_uverbs_attr, attr_id) == 0
        && offset_of!(ib_uverbs_attr, len) == 2
        && offset_of!(ib_uverbs_attr, flags) == 4
        && offset_of!(ib_uverbs_attr, attr_data) == 6
        && offset_of!(ib_uverbs_attr, anon_1) == 8
        && ATTR_SIZE == 16
);
const _: () = assert!(
    offset_of!(ib_uverbs_ioctl_hdr, length) == 0
        && offset_of!(ib_uverbs_ioctl_hdr, object_id) == 2
        && offset_of!(ib_uverbs_ioctl_hdr, method_id) == 4
        && offset_of!(ib_uverbs_ioctl_hdr, num_attrs) == 6
        && offset_of!(ib_uverbs_ioctl_hdr, reserved1) == 8
        && offset_of!(ib_uverbs_ioctl_hdr, driver_id) == 16
        && offset_of!(ib_uverbs_ioctl_hdr, reserved2) == 20
        && HDR_SIZE == 24
);

pub use crate::sys::uverbs::{Attr, AttrBuf, AttrWire, IoctlBuf, IoctlHdr, WireList};

// Our mirrors are the uapi's layout.
const _: () = assert!(
    offset_of!(Attr, attr_id) == offset_of!(ib_uverbs_attr, attr_id)
        && offset_of!(Attr, len) == offset_of!(ib_uverbs_attr, len)
        && offset_of!(Attr, flags) == offset_of!(ib_uverbs_attr, flags)
        && offset_of!(Attr, attr_data) == offset_of!(ib_uverbs_attr, attr_data)
        && offset_of!(Attr, data) == offset_of!(ib_uverbs_attr, anon_1)
        && size_of::<Attr>() == ATTR_SIZE
);
const _: () = assert!(
    offset_of!(IoctlHdr, length) == offset_of!(ib_uverbs_ioctl_hdr, length)
        && offset_of!(IoctlHdr, object_id) == offset_of!(ib_uverbs_ioctl_hdr, object_id)
        && offset_of!(IoctlHdr, method_id) == offset_of!(ib_uverbs_ioctl_hdr, method_id)
        && offset_of!(IoctlHdr, num_attrs) == offset_of!(ib_uverbs_ioctl_hdr, num_attrs)
        && offset_of!(IoctlHdr, reserved1) == offset_of!(ib_uverbs_ioctl_hdr, reserved1)
        && offset_of!(IoctlHdr, driver_id) == offset_of!(ib_uverbs_ioctl_hdr, driver_id)
        && offset_of!(IoctlHdr, reserved2) == offset_of!(ib_uverbs_ioctl_hdr, reserved2)
        && size_of::<IoctlHdr>() == HDR_SIZE
);

impl Attr {
    /// An all-zero attribute (an unused slot).
    pub const ZERO: Attr = Attr {
        attr_id: 0,
        len: 0,
        flags: 0,
        attr_data: 0,
        data: 0,
    };

    /// A fresh attribute as `_ioctl_next_attr` makes it: mandatory, everything else zero.
    pub const fn new(attr_id: u16) -> Attr {
        Attr {
            attr_id,
            len: 0,
            flags: UVERBS_ATTR_F_MANDATORY,
            attr_data: 0,
            data: 0,
        }
    }

    /// `fill_attr_in`: up to 8 bytes inline in `data`, longer data by address (`addr`); true
    /// beside it when the length does not fit the 16-bit field.
    #[inline]
    pub fn data_in(attr_id: u16, bytes: &[u8], addr: u64) -> (Attr, bool) {
        if let Ok(d) = <[u8; 8]>::try_from(bytes) {
            Self::sized(attr_id, 8, u64::from_ne_bytes(d))
        } else if bytes.len() < 8 {
            // Byte by byte: a copy of a variable length would call memcpy for a few bytes.
            let mut d = [0u8; 8];
            for (x, b) in d.iter_mut().zip(bytes) {
                *x = *b;
            }
            Self::sized(attr_id, bytes.len(), u64::from_ne_bytes(d))
        } else {
            Self::sized(attr_id, bytes.len(), addr)
        }
    }

    /// `fill_attr_out`: `len` bytes at user address `addr`; true beside it as for
    /// [`Self::data_in`].
    #[inline]
    pub fn data_out(attr_id: u16, addr: u64, len: usize) -> (Attr, bool) {
        Self::sized(attr_id, len, addr)
    }

    /// A mandatory attribute of `len` bytes with `data`; true beside it when the length does not
    /// fit the 16-bit field.
    #[inline]
    pub fn sized(attr_id: u16, len: usize, data: u64) -> (Attr, bool) {
        let a = Attr {
            attr_id,
            len: len as u16,
            flags: UVERBS_ATTR_F_MANDATORY,
            attr_data: 0,
            data,
        };
        (a, len > u16::MAX as usize)
    }

    /// The attribute's 16 bytes as the kernel reads them.
    pub fn to_bytes(&self) -> [u8; ATTR_SIZE] {
        let mut b = [0u8; ATTR_SIZE];
        self.write_to(&mut b);
        b
    }

    /// Store the attribute's 16 bytes into `out`.
    #[inline]
    pub fn write_to(&self, out: &mut [u8; ATTR_SIZE]) {
        let (id, rest) = out.split_at_mut(2);
        let (len, rest) = rest.split_at_mut(2);
        let (flags, rest) = rest.split_at_mut(2);
        let (attr_data, data) = rest.split_at_mut(2);
        id.copy_from_slice(&self.attr_id.to_ne_bytes());
        len.copy_from_slice(&self.len.to_ne_bytes());
        flags.copy_from_slice(&self.flags.to_ne_bytes());
        attr_data.copy_from_slice(&self.attr_data.to_ne_bytes());
        data.copy_from_slice(&self.data.to_ne_bytes());
    }

    /// An attribute from its 16 bytes.
    #[inline]
    pub fn from_bytes(b: &[u8; ATTR_SIZE]) -> Attr {
        let [
            i0,
            i1,
            l0,
            l1,
            f0,
            f1,
            a0,
            a1,
            d0,
            d1,
            d2,
            d3,
            d4,
            d5,
            d6,
            d7,
        ] = *b;
        Attr {
            attr_id: u16::from_ne_bytes([i0, i1]),
            len: u16::from_ne_bytes([l0, l1]),
            flags: u16::from_ne_bytes([f0, f1]),
            attr_data: u16::from_ne_bytes([a0, a1]),
            data: u64::from_ne_bytes([d0, d1, d2, d3, d4, d5, d6, d7]),
        }
    }

    /// `attr_data.enum_data.elem_id`.
    pub fn elem_id(&self) -> u8 {
        let [elem_id, _] = self.attr_data.to_ne_bytes();
        elem_id
    }
}

impl IoctlHdr {
    /// The header's 24 bytes.
    pub fn to_bytes(&self) -> [u8; HDR_SIZE] {
        let mut b = [0u8; HDR_SIZE];
        self.write_to(&mut b);
        b
    }

    /// Store the header's 24 bytes into `out`.
    #[inline]
    pub fn write_to(&self, out: &mut [u8; HDR_SIZE]) {
        let (length, rest) = out.split_at_mut(2);
        let (object_id, rest) = rest.split_at_mut(2);
        let (method_id, rest) = rest.split_at_mut(2);
        let (num_attrs, rest) = rest.split_at_mut(2);
        let (reserved1, rest) = rest.split_at_mut(8);
        let (driver_id, reserved2) = rest.split_at_mut(4);
        length.copy_from_slice(&self.length.to_ne_bytes());
        object_id.copy_from_slice(&self.object_id.to_ne_bytes());
        method_id.copy_from_slice(&self.method_id.to_ne_bytes());
        num_attrs.copy_from_slice(&self.num_attrs.to_ne_bytes());
        reserved1.copy_from_slice(&self.reserved1.to_ne_bytes());
        driver_id.copy_from_slice(&self.driver_id.to_ne_bytes());
        reserved2.copy_from_slice(&self.reserved2.to_ne_bytes());
    }
}

/// The kernel's ioctl buffer: the header, then the attributes.
pub fn encode(hdr: &IoctlHdr, attrs: &[Attr]) -> Vec<u8> {
    let mut buf = vec![0u8; HDR_SIZE + ATTR_SIZE * attrs.len()];
    let (h, rest) = buf.split_at_mut(HDR_SIZE);
    if let Ok(h) = <&mut [u8; HDR_SIZE]>::try_from(h) {
        hdr.write_to(h);
    }
    for (c, a) in rest.chunks_exact_mut(ATTR_SIZE).zip(attrs) {
        if let Ok(c) = <&mut [u8; ATTR_SIZE]>::try_from(c) {
            a.write_to(c);
        }
    }
    buf
}

/// The attributes of an ioctl buffer, as the kernel left them.
pub fn decode_attrs(buf: &[u8]) -> Vec<Attr> {
    buf.get(HDR_SIZE..)
        .unwrap_or_default()
        .chunks_exact(ATTR_SIZE)
        .filter_map(|c| <&[u8; ATTR_SIZE]>::try_from(c).ok().map(Attr::from_bytes))
        .collect()
}

/// Attributes one buffer keeps without a heap allocation: more than any command of ours sends
/// (rdma-core's largest, create-QP, declares 15, plus the two of a compat link).
pub const INLINE_ATTRS: usize = 18;

/// The attribute list of one command buffer: up to [`INLINE_ATTRS`] kept in place, more on the
/// heap (a provider's long driver chain). Reads as a slice of [`Attr`].
///
/// In place, the list sits in an [`IoctlBuf`] behind room for the header, as a C
/// `ibv_command_buffer` does, so a command whose attributes all fit there is sent from it as it
/// stands ([`Attrs::wire`]).
#[derive(Clone)]
pub struct Attrs(Store);

// The in-place variant is the point: boxing it would bring back the allocation it avoids.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Store {
    Inline(AttrBuf<INLINE_ATTRS>),
    Heap(Vec<Attr>),
}

impl Default for Attrs {
    #[inline]
    fn default() -> Self {
        Attrs(Store::Inline(AttrBuf::default()))
    }
}

impl core::ops::Deref for Attrs {
    type Target = [Attr];
    #[inline]
    fn deref(&self) -> &[Attr] {
        match &self.0 {
            Store::Inline(w) => w.as_slice(),
            Store::Heap(v) => v,
        }
    }
}

impl core::ops::DerefMut for Attrs {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Attr] {
        match &mut self.0 {
            Store::Inline(w) => w.as_mut_slice(),
            Store::Heap(v) => v,
        }
    }
}

impl PartialEq for Attrs {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}
impl Eq for Attrs {}

impl core::fmt::Debug for Attrs {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<Attr>> for Attrs {
    fn from(v: Vec<Attr>) -> Self {
        Attrs(Store::Heap(v))
    }
}

impl Attrs {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Append `a`; past the inline room the list moves to the heap. Returns its index.
    #[inline]
    pub fn push(&mut self, a: Attr) -> usize {
        if let Store::Inline(w) = &mut self.0 {
            if let Some(i) = w.push(a) {
                return i;
            }
        }
        self.push_slow(a)
    }

    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, a: Attr) -> usize {
        match &mut self.0 {
            Store::Inline(w) => {
                let mut v = Vec::with_capacity(2 * INLINE_ATTRS);
                v.extend_from_slice(w.as_slice());
                v.push(a);
                let i = v.len() - 1;
                self.0 = Store::Heap(v);
                i
            }
            Store::Heap(v) => {
                v.push(a);
                v.len() - 1
            }
        }
    }

    /// Make room for `more` attributes without aborting on a failed allocation (lists sized
    /// by a C caller).
    pub fn try_reserve(&mut self, more: usize) -> Result<(), Errno> {
        match &mut self.0 {
            Store::Inline(w) => {
                if w.len().saturating_add(more) <= INLINE_ATTRS {
                    return Ok(());
                }
                let mut v = Vec::new();
                v.try_reserve_exact(w.len().saturating_add(more))
                    .map_err(|_| Errno::ENOMEM)?;
                v.extend_from_slice(w.as_slice());
                self.0 = Store::Heap(v);
                Ok(())
            }
            Store::Heap(v) => v.try_reserve(more).map_err(|_| Errno::ENOMEM),
        }
    }

    /// The in-place buffer (header room, then the attributes), or None for a list on the heap.
    #[inline]
    pub fn wire(&mut self) -> Option<&mut AttrBuf<INLINE_ATTRS>> {
        match &mut self.0 {
            Store::Inline(w) => Some(w),
            Store::Heap(_) => None,
        }
    }
}

/// One `struct ibv_command_buffer` of a chain: its attributes (`hdr.attrs` up to `next_attr`)
/// and bookkeeping. The head's object and method live in [`super::IoctlCmd`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CmdBuf {
    pub attrs: Attrs,
    /// Index of the `UVERBS_ATTR_UHW_IN` attribute of the write-compat path (C: 0xff = none).
    pub uhw_in_idx: Option<u8>,
    /// Index of the `UVERBS_ATTR_UHW_OUT` attribute (C: 0xff = none).
    pub uhw_out_idx: Option<u8>,
    /// Bytes before the driver's request data that hold the write header and core request, / 4.
    pub uhw_in_headroom_dwords: u8,
    /// Bytes before the driver's response data that hold the core response, / 4.
    pub uhw_out_headroom_dwords: u8,
    /// An attribute could not be encoded (length over 64 KiB): executing fails with EINVAL.
    pub buffer_error: bool,
    /// If the kernel lacks the ioctl, the write fallback must be the extended command.
    pub fallback_require_ex: bool,
    /// If the kernel lacks the ioctl, there is no write fallback (EOPNOTSUPP).
    pub fallback_ioctl_only: bool,
}

impl CmdBuf {
    /// Append a fresh mandatory attribute; returns its index.
    pub fn next_attr(&mut self, attr_id: u16) -> usize {
        self.attrs.push(Attr::new(attr_id))
    }

    /// Append a mandatory attribute of `len` bytes with `data`; a length over 16 bits marks the
    /// buffer as unencodable. Returns its index.
    #[inline]
    fn add(&mut self, attr_id: u16, len: usize, data: u64) -> usize {
        self.push(Attr::sized(attr_id, len, data))
    }

    #[inline]
    fn push(&mut self, (a, too_long): (Attr, bool)) -> usize {
        self.buffer_error |= too_long;
        self.attrs.push(a)
    }

    /// `fill_attr_in_uint64` / `fill_attr_const_in`: an 8-byte inline value.
    pub fn in_u64(&mut self, attr_id: u16, v: u64) -> usize {
        self.add(attr_id, 8, v)
    }

    /// `fill_attr_in_uint32`: a 4-byte inline value (in the first 4 bytes of `data`).
    pub fn in_u32(&mut self, attr_id: u16, v: u32) -> usize {
        let [a, b, c, d] = v.to_ne_bytes();
        self.add(attr_id, 4, u64::from_ne_bytes([a, b, c, d, 0, 0, 0, 0]))
    }

    /// `fill_attr_in` for data the kernel only reads: up to 8 bytes are copied inline into
    /// `data`, longer data is passed by address (`addr`, valid until the command is sent).
    pub fn in_data(&mut self, attr_id: u16, bytes: &[u8], addr: u64) -> usize {
        self.push(Attr::data_in(attr_id, bytes, addr))
    }

    /// `fill_attr_out`: `len` bytes at user address `addr` for the kernel to write.
    pub fn out_addr(&mut self, attr_id: u16, addr: u64, len: usize) -> usize {
        self.add(attr_id, len, addr)
    }

    /// `fill_attr_in_obj`: an object handle (IDR number) in `data`.
    pub fn in_obj(&mut self, attr_id: u16, handle: u32) -> usize {
        self.add(attr_id, 0, u64::from(handle))
    }

    /// `fill_attr_out_obj`: a new object; the kernel writes its handle into `data`.
    pub fn out_obj(&mut self, attr_id: u16) -> usize {
        self.in_obj(attr_id, 0)
    }

    /// `fill_attr_in_fd`: an fd in `data`; -1 adds nothing (and returns None).
    pub fn in_fd(&mut self, attr_id: u16, fd: i32) -> Option<usize> {
        if fd == -1 {
            return None;
        }
        Some(self.add(attr_id, 0, fd as i64 as u64))
    }

    /// `fill_attr_out_fd`: the kernel writes a new fd into `data`.
    pub fn out_fd(&mut self, attr_id: u16) -> usize {
        self.add(attr_id, 0, 0)
    }

    /// `attr_optional`: clear the mandatory flag of attribute `idx`.
    pub fn optional(&mut self, idx: usize) {
        if let Some(a) = self.attrs.get_mut(idx) {
            a.flags &= !UVERBS_ATTR_F_MANDATORY;
        }
    }

    /// `fill_attr_in_enum`: as [`Self::in_data`], with `attr_data.enum_data.elem_id` set.
    pub fn in_enum(&mut self, attr_id: u16, elem_id: u8, bytes: &[u8], addr: u64) -> usize {
        let i = self.in_data(attr_id, bytes, addr);
        if let Some(a) = self.attrs.get_mut(i) {
            a.attr_data = u16::from_ne_bytes([elem_id, 0]);
        }
        i
    }
}
