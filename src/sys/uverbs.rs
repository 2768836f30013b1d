//! The two system calls of the uverbs command channel: `ioctl(RDMA_VERBS_IOCTL)` and `write(2)`
//! on a context's `cmd_fd` (rdma-core: the `ioctl()` in `cmd_ioctl.c`, the `write()`s in
//! `cmd_fallback.c`).
//!
//! [`Uverbs`] is the seam the command layer (`crate::cmd`) talks through; [`CmdFd`] is the real
//! one. Tests substitute a fake that records the bytes and plays the kernel.

use core::borrow::BorrowMut;
use core::ffi::c_int;
use core::mem::MaybeUninit;

use crate::abi::uapi::RDMA_VERBS_IOCTL;
use crate::errno::Errno;

/// One `struct ib_uverbs_attr` as it sits in an ioctl buffer (the `attr_data` and `data`
/// unions as raw integers; the command layer gives them meaning: `crate::cmd::attr`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Attr {
    pub attr_id: u16,
    pub len: u16,
    pub flags: u16,
    /// The 16-bit `attr_data` union as it sits in memory (`enum_data.elem_id` is its first byte).
    pub attr_data: u16,
    /// The 64-bit `data` union: inline value, user address, object handle or fd.
    pub data: u64,
}

/// The `struct ib_uverbs_ioctl_hdr` that starts an ioctl buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IoctlHdr {
    pub length: u16,
    pub object_id: u16,
    pub method_id: u16,
    pub num_attrs: u16,
    pub reserved1: u64,
    pub driver_id: u32,
    pub reserved2: u32,
}

/// An ioctl buffer with room for `N` attributes (the first `num_attrs` are sent).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct IoctlBuf<const N: usize> {
    pub hdr: IoctlHdr,
    pub attrs: [Attr; N],
}

// The three are records of integers without padding (checked here), so they are plain data.
const _: () = assert!(
    size_of::<Attr>() == 16
        && size_of::<IoctlHdr>() == 24
        && size_of::<IoctlBuf<3>>() == 24 + 48
        && align_of::<Attr>() == 8
        && core::mem::offset_of!(AttrWire<3>, attrs) == 24
);
// SAFETY: repr(C), integer fields only, no padding (sizes asserted above: the fields fill them).
unsafe impl super::pod::Pod for Attr {}
// SAFETY: as above.
unsafe impl super::pod::Pod for IoctlHdr {}
// SAFETY: as above: a header of 24 bytes (a multiple of the 8-byte alignment) then the array.
unsafe impl<const N: usize> super::pod::Pod for IoctlBuf<N> {}

/// Room for an ioctl header and `N` attributes, nothing written yet: where a command is built
/// and sent from, as a C `ibv_command_buffer` holds it (nothing is zeroed: building a command
/// costs only what it writes). [`WireList`] and [`AttrBuf`] fill it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct AttrWire<const N: usize> {
    hdr: MaybeUninit<IoctlHdr>,
    attrs: [MaybeUninit<Attr>; N],
}

impl<const N: usize> Default for AttrWire<N> {
    #[inline]
    fn default() -> Self {
        AttrWire {
            hdr: MaybeUninit::uninit(),
            attrs: [const { MaybeUninit::uninit() }; N],
        }
    }
}

impl<const N: usize> AttrWire<N> {
    /// Store `a` in slot `i`; None (nothing written) past the room.
    #[inline]
    fn put(&mut self, i: usize, a: Attr) -> Option<()> {
        self.attrs.get_mut(i)?.write(a);
        Some(())
    }

    /// The first `n` slots (at most `N`).
    ///
    /// # Safety
    /// The first `n` slots were written ([`Self::put`]).
    #[inline]
    unsafe fn prefix(&self, n: usize) -> &[Attr] {
        // SAFETY: the caller's promise; MaybeUninit<Attr> has Attr's layout.
        unsafe { core::slice::from_raw_parts(self.attrs.as_ptr().cast::<Attr>(), n.min(N)) }
    }

    /// [`Self::prefix`], writable.
    ///
    /// # Safety
    /// As for [`Self::prefix`].
    #[inline]
    unsafe fn prefix_mut(&mut self, n: usize) -> &mut [Attr] {
        // SAFETY: as for `prefix`; the borrow is exclusive.
        unsafe { core::slice::from_raw_parts_mut(self.attrs.as_mut_ptr().cast::<Attr>(), n.min(N)) }
    }

    /// Header `hdr` in place, then run `send` on the bytes of the header and the first `n`
    /// slots (which `send` may update in place).
    ///
    /// # Safety
    /// As for [`Self::prefix`].
    #[inline]
    unsafe fn send<R>(&mut self, hdr: IoctlHdr, n: usize, send: impl FnOnce(&mut [u8]) -> R) -> R {
        self.hdr.write(hdr);
        let bytes = size_of::<IoctlHdr>() + size_of::<Attr>() * n.min(N);
        // SAFETY: repr(C): the 24-byte header (no padding; a multiple of Attr's alignment), just
        // written, is directly followed by the slot array, whose first `n` slots the caller
        // promises written, so the first `bytes` bytes of `self` are initialised; the slice
        // borrows `self` exclusively, and any bytes written into it leave valid header and
        // attribute values.
        let wire =
            unsafe { core::slice::from_raw_parts_mut((self as *mut Self).cast::<u8>(), bytes) };
        send(wire)
    }
}

/// Attributes being built in an [`AttrWire`], and how many: the wire held as `W`, either
/// borrowed ([`WireList`]) or owned ([`AttrBuf`]). Only the first `len` slots are initialised.
#[derive(Clone, Copy)]
pub struct AttrList<W, const N: usize> {
    wire: W,
    /// The first `len` slots of `wire` are written.
    len: usize,
}

/// The attributes of one command being built in an [`AttrWire`] the caller owns. The count
/// lives in the list, apart from the bytes that are sent, so that a compiler keeps it in a
/// register while the attributes are stored (with the count beside the slots, each store
/// through a computed index makes it reload the count).
pub type WireList<'w, const N: usize> = AttrList<&'w mut AttrWire<N>, N>;

/// Attributes built where they will be sent from, the count beside them: a list that owns its
/// room, for lists kept in a longer-lived record.
pub type AttrBuf<const N: usize> = AttrList<AttrWire<N>, N>;

impl<'w, const N: usize> WireList<'w, N> {
    /// An empty list in `wire`.
    #[inline]
    pub fn new(wire: &'w mut AttrWire<N>) -> Self {
        AttrList { wire, len: 0 }
    }
}

impl<const N: usize> Default for AttrBuf<N> {
    #[inline]
    fn default() -> Self {
        AttrList {
            wire: AttrWire::default(),
            len: 0,
        }
    }
}

impl<W: BorrowMut<AttrWire<N>>, const N: usize> AttrList<W, N> {
    /// Attributes held.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when none is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Append `a`; None (and nothing changed) when the room is full. Returns its index.
    #[inline]
    pub fn push(&mut self, a: Attr) -> Option<usize> {
        let i = self.len;
        self.wire.borrow_mut().put(i, a)?;
        self.len = i + 1;
        Some(i)
    }

    /// The attributes held.
    #[inline]
    pub fn as_slice(&self) -> &[Attr] {
        // SAFETY: `push` (the only way `len` grows) wrote the first `len` slots.
        unsafe { self.wire.borrow().prefix(self.len) }
    }

    /// The attributes held, writable.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Attr] {
        // SAFETY: as for `as_slice`.
        unsafe { self.wire.borrow_mut().prefix_mut(self.len) }
    }

    /// Run `send` on the ioctl buffer this makes: header `hdr`, then the attributes held (which
    /// `send` may update in place).
    #[inline]
    pub fn send<R>(&mut self, hdr: IoctlHdr, send: impl FnOnce(&mut [u8]) -> R) -> R {
        // SAFETY: as for `as_slice`.
        unsafe { self.wire.borrow_mut().send(hdr, self.len, send) }
    }

    /// Run `send` on the ioctl buffer this makes: header `hdr`, the attributes held, then
    /// `extra` (the rest of a chain) behind them; afterwards `extra` holds what was left in its
    /// slots (the attributes held are updated in place). None, and nothing sent, when `extra`
    /// does not fit. The attributes held stay as many as before.
    #[inline]
    pub fn send_in_place<R>(
        &mut self,
        hdr: IoctlHdr,
        extra: &mut [Attr],
        send: impl FnOnce(&mut [u8]) -> R,
    ) -> Option<R> {
        let total = self.len.checked_add(extra.len()).filter(|&t| t <= N)?;
        let wire = self.wire.borrow_mut();
        for (i, e) in (self.len..total).zip(extra.iter()) {
            wire.put(i, *e)?;
        }
        // SAFETY: `push` wrote the first `len` slots, the loop above the rest up to `total`.
        let r = unsafe { wire.send(hdr, total, send) };
        // SAFETY: as above (the kernel writes only whole attributes into them).
        let sent = unsafe { wire.prefix(total) };
        for (e, slot) in extra.iter_mut().zip(sent.get(self.len..)?) {
            *e = *slot;
        }
        Some(r)
    }
}

/// A uverbs command channel.
pub trait Uverbs {
    /// `ioctl(fd, RDMA_VERBS_IOCTL, buf)`: `buf` is an `ib_uverbs_ioctl_hdr` followed by its
    /// attributes; the kernel may update the attributes in place.
    fn ioctl(&self, buf: &mut [u8]) -> Result<(), Errno>;
    /// `write(fd, buf)`: one whole write command; returns the byte count the kernel accepted.
    fn write(&self, buf: &[u8]) -> Result<usize, Errno>;
}

/// A borrowed `/dev/infiniband/uverbsN` descriptor (the context's `cmd_fd`); never closed here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CmdFd(pub c_int);

#[cold]
fn last_errno() -> Errno {
    Errno(super::errno())
}

impl Uverbs for CmdFd {
    #[inline]
    fn ioctl(&self, buf: &mut [u8]) -> Result<(), Errno> {
        // SAFETY: buf is a live, exclusively borrowed buffer for the whole call; the kernel reads
        // `buf.len()` bytes at most (hdr.length, set by the caller to buf.len()) and writes back
        // only inside the attribute array. Addresses carried inside the attributes are the
        // command layer's responsibility (see crate::cmd).
        let rc = unsafe { libc::ioctl(self.0, RDMA_VERBS_IOCTL as _, buf.as_mut_ptr()) };
        if rc == 0 { Ok(()) } else { Err(last_errno()) }
    }

    #[inline]
    fn write(&self, buf: &[u8]) -> Result<usize, Errno> {
        // SAFETY: buf is a live buffer of buf.len() readable bytes.
        let n = unsafe { libc::write(self.0, buf.as_ptr().cast(), buf.len()) };
        usize::try_from(n).map_err(|_| last_errno())
    }
}
