//! One ioctl attribute and the ioctl header (rdma-core: `libibverbs/cmd_ioctl.h`, the attribute
//! encodings of the `fill_attr_*` helpers).
//!
//! [`Attr`] and [`IoctlHdr`] are `#[repr(C)]` records with the kernel's layout (defined in
//! [`sys::uverbs`](crate::sys::uverbs), where their byte views live); the unions of
//! `ib_uverbs_attr` are raw integers.
#![forbid(unsafe_code)]

use core::mem::offset_of;

use crate::abi::uapi::{UVERBS_ATTR_F_MANDATORY, ib_uverbs_attr, ib_uverbs_ioctl_hdr};

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

pub use crate::sys::uverbs::{Attr, INLINE_ATTRS, IoctlHdr};

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
