//! The two system calls of the uverbs command channel: `ioctl(RDMA_VERBS_IOCTL)` and `write(2)`
//! on a context's `cmd_fd` (rdma-core: the `ioctl()` in `cmd_ioctl.c`, the `write()`s in
//! `cmd_fallback.c`).
//!
//! [`Uverbs`] is the seam the command layer ([`crate::cmd`]) talks through; [`CmdFd`] is the real
//! one. Tests substitute a fake that records the bytes and plays the kernel.

use core::ffi::c_int;
use core::mem::MaybeUninit;

use crate::abi::uapi::RDMA_VERBS_IOCTL;
use crate::errno::Errno;

/// One `struct ib_uverbs_attr` as it sits in an ioctl buffer (the `attr_data` and `data`
/// unions as raw integers; the command layer gives them meaning: [`crate::cmd::attr`]).
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

// The two are records of integers without padding (checked here), so they are plain data.
const _: () =
    assert!(size_of::<Attr>() == 16 && size_of::<IoctlHdr>() == 24 && align_of::<Attr>() == 8);
// SAFETY: repr(C), integer fields only, no padding (sizes asserted above: the fields fill them).
unsafe impl super::pod::Pod for Attr {}
// SAFETY: repr(C), integer fields only, no padding (its size, 24, asserted above).
unsafe impl super::pod::Pod for IoctlHdr {}

/// Attributes a command holds in place before it moves them to the heap: more than any command
/// of the library sends (rdma-core's largest, create-QP, has 15 of its own, then the two of the
/// write-compat link); a provider's long driver chain spills.
pub const INLINE_ATTRS: usize = 18;

/// Slots of header room at the front of a spilled command's heap array: the 24-byte header sits
/// in their last 24 bytes, right before the first attribute.
const HEAP_ROOM: usize = 2;
const _: () = assert!(HEAP_ROOM * size_of::<Attr>() >= size_of::<IoctlHdr>());

/// The memory one [`IoctlCmd`] is sent from while its attributes fit inline, the ioctl's
/// argument: the header directly followed by [`INLINE_ATTRS`] attribute slots, as in a C
/// `ibv_command_buffer`. Nothing in it is zeroed or kept: building a command costs only what it
/// writes.
///
/// It is a local of its own, beside the command that borrows it (`let mut arg =
/// IoctlArg::new(); let mut cmd = IoctlCmd::new(&mut arg, ..)`): its address goes to the
/// kernel, and what the command keeps (count, output mask, flags, heap array) then is not in
/// memory whose address escaped, so a compiler keeps it in registers.
#[repr(C)]
pub struct IoctlArg {
    hdr: MaybeUninit<IoctlHdr>,
    inline: [MaybeUninit<Attr>; INLINE_ATTRS],
}

// The inline slots start where the header ends.
const _: () = assert!(
    core::mem::offset_of!(IoctlArg, hdr) == 0
        && core::mem::offset_of!(IoctlArg, inline) == size_of::<IoctlHdr>()
);

impl IoctlArg {
    /// Room for one command.
    #[inline]
    pub const fn new() -> Self {
        IoctlArg {
            hdr: MaybeUninit::uninit(),
            inline: [const { MaybeUninit::uninit() }; INLINE_ATTRS],
        }
    }
}

impl Default for IoctlArg {
    fn default() -> Self {
        Self::new()
    }
}

/// Make room in `heap`, a command's heap array, for `total` attributes (header room included
/// once they spill), without aborting on a failed allocation (ENOMEM).
fn reserve(heap: &mut Vec<Attr>, total: usize) -> Result<(), Errno> {
    if total <= INLINE_ATTRS {
        return Ok(());
    }
    let want = total.checked_add(HEAP_ROOM).ok_or(Errno::ENOMEM)?;
    let more = want.saturating_sub(heap.len());
    heap.try_reserve_exact(more).map_err(|_| Errno::ENOMEM)
}

/// Append `a` as attribute `len`, past the inline room, to `heap`, a command's heap array (the
/// first time, the `inline` slots move there first, after the header room). Taken and given
/// back by value, with false when the array could not grow (ENOMEM; nothing added): a command
/// whose field had its address taken by a call that is not inlined would stay in memory on
/// every path.
#[cold]
#[inline(never)]
fn push_heap(
    mut heap: Vec<Attr>,
    inline: &[MaybeUninit<Attr>; INLINE_ATTRS],
    len: usize,
    a: Attr,
) -> (Vec<Attr>, bool) {
    if reserve(&mut heap, len + 1).is_err() {
        return (heap, false);
    }
    if len == INLINE_ATTRS {
        // SAFETY: `IoctlCmd::push` wrote every inline slot (`len` is the room);
        // MaybeUninit<Attr> has Attr's layout.
        let held = unsafe { core::slice::from_raw_parts(inline.as_ptr().cast::<Attr>(), len) };
        heap.clear();
        heap.resize(HEAP_ROOM, Attr::default());
        heap.extend_from_slice(held);
    }
    heap.push(a);
    (heap, true)
}

/// One `RDMA_VERBS_IOCTL` command (rdma-core: a `struct ibv_command_buffer` with its links):
/// object and method, the attribute array in wire order, and the flags rdma-core keeps per
/// buffer. The command layer's `fill_attr_*` builders and its execution are methods of this type
/// too, in the command layer ([`cmd::ioctl`](crate::cmd::ioctl)); here is what touches the memory.
///
/// The attributes sit where they are sent from, in the [`IoctlArg`] the command borrows, the
/// header directly before them: up to [`INLINE_ATTRS`] in its slots, past that in one heap
/// array (reserved fallibly: a failure is remembered and reported as ENOMEM when the command is
/// sent).
///
/// `'a` is the lifetime of its [`IoctlArg`] and of the Rust buffers whose addresses the
/// command's attributes carry: they stay borrowed until the command is dropped, so the kernel
/// writes into live memory only.
pub struct IoctlCmd<'a> {
    /// Where the command is sent from while it fits inline.
    arg: &'a mut IoctlArg,
    /// The heap array: empty until reserved, or until the command spills (then it holds the
    /// header room and every attribute). Kept here, not in the [`IoctlArg`]: an empty one then
    /// costs nothing to make or drop.
    heap: Vec<Attr>,
    /// Attributes held: the first `len` slots of the inline ones while `len` ≤
    /// [`INLINE_ATTRS`], else the heap array's from `HEAP_ROOM` on (then it is `HEAP_ROOM + len`
    /// long).
    len: usize,
    /// Bit `i`: attribute `i` may be written through by the kernel (an output, or one taken
    /// over from C); after the ioctl only these are looked at, or all once the array spilled.
    outs: u32,
    /// The object the command is addressed to.
    object_id: u16,
    /// The method of `object_id` it runs.
    method_id: u16,
    /// The command cannot be sent: an attribute could not be encoded (a length over 16 bits:
    /// EINVAL, rdma-core's `buffer_error`) or, with [`Self::no_memory`], a heap array could not
    /// be had (ENOMEM).
    pub buffer_error: bool,
    /// See [`Self::buffer_error`].
    pub no_memory: bool,
    /// If the kernel lacks the ioctl, the write fallback must be the extended command.
    pub fallback_require_ex: bool,
    /// If the kernel lacks the ioctl, there is no write fallback (EOPNOTSUPP).
    pub fallback_ioctl_only: bool,
    /// A linked buffer holds a mandatory attribute other than UHW_IN/UHW_OUT: no write
    /// fallback (rdma-core's `_check_legacy`).
    pub link_mandatory: bool,
    /// Index of the `UVERBS_ATTR_UHW_IN` attribute in the array (C: 0xff = none).
    pub uhw_in_idx: Option<u8>,
}

impl<'a> IoctlCmd<'a> {
    /// An empty command for `method_id` of `object_id` (`DECLARE_COMMAND_BUFFER`), built and
    /// sent in `arg`.
    #[inline]
    pub fn new(arg: &'a mut IoctlArg, object_id: u16, method_id: u16) -> Self {
        IoctlCmd {
            arg,
            heap: Vec::new(),
            len: 0,
            outs: 0,
            object_id,
            method_id,
            buffer_error: false,
            no_memory: false,
            fallback_require_ex: false,
            fallback_ioctl_only: false,
            link_mandatory: false,
            uhw_in_idx: None,
        }
    }
}

impl IoctlCmd<'_> {
    /// The object the command is addressed to.
    #[inline]
    pub fn object_id(&self) -> u16 {
        self.object_id
    }

    /// The method of [`Self::object_id`] it runs.
    #[inline]
    pub fn method_id(&self) -> u16 {
        self.method_id
    }

    /// Attributes held.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when it holds none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Append `a`, an attribute the kernel may write through when `out`; returns its index.
    /// Past the inline room the array moves to the heap; if that fails nothing is added and the
    /// command cannot be sent ([`Self::no_memory`]).
    #[inline]
    pub fn push(&mut self, a: Attr, out: bool) -> usize {
        let i = self.len;
        if let Some(slot) = self.arg.inline.get_mut(i) {
            slot.write(a);
            self.outs |= u32::from(out) << i;
        } else {
            let pushed;
            (self.heap, pushed) =
                push_heap(core::mem::take(&mut self.heap), &self.arg.inline, i, a);
            if !pushed {
                self.buffer_error = true;
                self.no_memory = true;
                return i;
            }
        }
        self.len = i + 1;
        i
    }

    /// Make room for `more` attributes without aborting on a failed allocation (ENOMEM): that
    /// many pushes cannot fail afterwards.
    #[inline]
    pub fn try_reserve(&mut self, more: usize) -> Result<(), Errno> {
        let total = self.len.checked_add(more).ok_or(Errno::ENOMEM)?;
        reserve(&mut self.heap, total)
    }

    /// The attributes, in wire order (after sending: as the kernel left them).
    #[inline]
    pub fn attrs(&self) -> &[Attr] {
        if self.len <= INLINE_ATTRS {
            // SAFETY: `push` wrote the first `len` inline slots (the only way `len` grows while
            // it is at most INLINE_ATTRS); MaybeUninit<Attr> has Attr's layout.
            unsafe {
                core::slice::from_raw_parts(self.arg.inline.as_ptr().cast::<Attr>(), self.len)
            }
        } else {
            self.heap.get(HEAP_ROOM..).unwrap_or_default()
        }
    }

    /// The attributes, writable.
    #[inline]
    pub fn attrs_mut(&mut self) -> &mut [Attr] {
        if self.len <= INLINE_ATTRS {
            let inline = self.arg.inline.as_mut_ptr().cast::<Attr>();
            // SAFETY: as for `attrs`; the borrow is exclusive.
            unsafe { core::slice::from_raw_parts_mut(inline, self.len) }
        } else {
            self.heap.get_mut(HEAP_ROOM..).unwrap_or_default()
        }
    }

    /// Run `send` on the ioctl argument: the header (object and method, `length`, `num_attrs`,
    /// `driver_id` and zeroed reserved fields) written right before the attributes, then the
    /// bytes of both (the attributes may be updated in place). Beside its result: the
    /// attributes as sent (as `send` left them), and the bit mask of those the kernel may have
    /// written through (see `push`), None once the array spilled to the heap (then any may have
    /// been).
    // Always inlined: bench rows mlx5 (emulated) ibv_alloc_pd, ibv_reg_mr 4 KiB, ibv_create_cq,
    // ibv_query_device_ex, ibv_create_qp (RC) (with `cmd::execute_ioctl`, which says by how
    // much).
    #[inline(always)]
    pub fn send<R>(
        &mut self,
        driver_id: u32,
        send: impl FnOnce(&mut [u8]) -> R,
    ) -> (R, &mut [Attr], Option<u32>) {
        let len = self.len;
        let bytes = size_of::<IoctlHdr>() + size_of::<Attr>() * len;
        let hdr = IoctlHdr {
            length: bytes as u16,
            object_id: self.object_id,
            method_id: self.method_id,
            num_attrs: len as u16,
            reserved1: 0,
            driver_id,
            reserved2: 0,
        };
        if len > INLINE_ATTRS {
            let heap = &mut self.heap;
            if heap.len() < HEAP_ROOM + len {
                // Not reached: a spilled command's array holds them all.
                return (send(&mut []), &mut [], None);
            }
            let room = HEAP_ROOM * size_of::<Attr>() - size_of::<IoctlHdr>();
            let base = heap.as_mut_ptr().cast::<u8>().wrapping_add(room);
            // SAFETY: the heap array holds HEAP_ROOM + len initialised attributes (checked);
            // `base` is inside its header room, 8-aligned (Attr's alignment, plus 8), and the
            // header's 24 bytes end where the first attribute starts.
            unsafe { base.cast::<IoctlHdr>().write(hdr) };
            // SAFETY: from `base`: the header just written, then the `len` attributes, all
            // inside the array, which the slice borrows exclusively (through `self`) for the
            // call; any bytes written leave valid attribute values.
            let r = send(unsafe { core::slice::from_raw_parts_mut(base, bytes) });
            return (r, heap.get_mut(HEAP_ROOM..).unwrap_or_default(), None);
        }
        let outs = self.outs;
        self.arg.hdr.write(hdr);
        let base = (&raw mut *self.arg).cast::<u8>();
        // SAFETY: repr(C): the header at offset 0 (24 bytes, no padding, just written) is
        // directly followed by the inline slots, of which `push` wrote the first `len`: the
        // `bytes` bytes from `base` on are initialised. The slice borrows the argument
        // exclusively (through `self`) for the call; any bytes written into it leave valid
        // header and attribute values (integers only).
        let r = send(unsafe { core::slice::from_raw_parts_mut(base, bytes) });
        let first = base.wrapping_add(size_of::<IoctlHdr>()).cast::<Attr>();
        // SAFETY: the first `len` inline slots, initialised before `send` (which writes only
        // integers), borrowed exclusively through `self` for the returned lifetime.
        let sent = unsafe { core::slice::from_raw_parts_mut(first, len) };
        (r, sent, Some(outs))
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
