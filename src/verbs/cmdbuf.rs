//! C `struct ibv_command_buffer` chains (built by providers with rdma-core's cmd_ioctl.h macros)
//! and the command layer's [`IoctlCmd`] (rdma-core: cmd_ioctl.c `execute_ioctl`,
//! `prepare_attrs`/`finalize_attrs`): a provider's chain linked after a command's own
//! attributes ([`Chain`], a [`Driver`]), and the provider-facing `execute_ioctl` of a whole C
//! command ([`execute_c`]).
use crate::abi::kern_abi::{_UHW_NO_INDEX, ibv_command_buffer};
use crate::abi::uapi::{ib_uverbs_attr, ib_uverbs_ioctl_hdr};
use crate::cmd::attr::ATTR_SIZE;
use crate::cmd::{Attr, Driver, IoctlArg, IoctlCmd};
use crate::errno::{Errno, Result};

/// The first attribute slot of a buffer (`hdr.attrs`).
fn attrs_base(b: *mut ibv_command_buffer) -> *mut ib_uverbs_attr {
    // SAFETY: only an address computation inside the buffer.
    unsafe { (&raw mut (*b).hdr.attrs).cast::<ib_uverbs_attr>() }
}

/// Most attributes a command may carry: the kernel's header counts them in 16 bits. More in a
/// buffer or a chain is the caller's garbage (rdma-core would copy that many and crash).
const MAX_ATTRS: usize = u16::MAX as usize;

/// Filled attributes and room of one C buffer: EINVAL unless `next_attr` and `last_attr` are
/// whole attributes into the buffer's array, in order, with at most [`MAX_ATTRS`] filled.
///
/// # Safety
/// `b` is a live command buffer.
unsafe fn counts(b: *mut ibv_command_buffer) -> Result<(usize, usize)> {
    let base = attrs_base(b) as usize;
    // SAFETY: the caller's contract (a live buffer); the pointer is only read, as an address.
    let next = unsafe { (*b).next_attr } as usize;
    // SAFETY: the caller's contract (a live buffer): `last_attr` is only read, as an address.
    let last = unsafe { (*b).last_attr } as usize;
    let slots = |p: usize| {
        let off = p.checked_sub(base)?;
        (off % size_of::<ib_uverbs_attr>() == 0).then_some(off / size_of::<ib_uverbs_attr>())
    };
    match (slots(next), slots(last)) {
        (Some(f), Some(r)) if f <= r && f <= MAX_ATTRS => Ok((f, r)),
        _ => Err(Errno::EINVAL),
    }
}

/// The attributes the C buffer `b` holds (its first `filled`), read one by one.
///
/// # Safety
/// `b` is a live command buffer with at least `filled` attributes written ([`counts`]).
unsafe fn read_attrs(b: *mut ibv_command_buffer, filled: usize) -> impl Iterator<Item = Attr> {
    let base = attrs_base(b).cast::<[u8; ATTR_SIZE]>();
    (0..filled).map(move |i| {
        // SAFETY: the caller's contract: attribute `i` < `filled` is written in the array.
        Attr::from_bytes(unsafe { &*base.wrapping_add(i) })
    })
}

/// The `uhw_in_idx` of a C buffer (0xff: none).
fn uhw_idx(v: u8) -> Option<u8> {
    (v != _UHW_NO_INDEX).then_some(v)
}

/// Write attributes back into a C buffer's array (at most `max`).
///
/// # Safety
/// As for [`counts`]; `max` is at most the array's room.
unsafe fn store_attrs(b: *mut ibv_command_buffer, attrs: &[Attr], max: usize) {
    let base = attrs_base(b).cast::<[u8; ATTR_SIZE]>();
    for (i, a) in attrs.iter().take(max).enumerate() {
        let slot = base.wrapping_add(i);
        // SAFETY: i < max ≤ the array's room: `slot` is inside the live buffer.
        unsafe { slot.write(a.to_bytes()) };
    }
}

/// A provider's chain of command buffers handed to an `ibv_cmd_*` export (NULL for none), for
/// one call: a [`Driver`] whose buffers are linked after the command's own attributes and get
/// the kernel's answers back, as rdma-core's commands link and update the provider's buffers.
#[derive(Clone, Copy)]
pub struct Chain(*mut ibv_command_buffer);

impl Chain {
    /// No chain (a command form without driver attributes).
    pub(crate) const NONE: Chain = Chain(core::ptr::null_mut());

    /// `__ioctl_final_num_attrs`: `num_attrs` plus the attributes filled so far in every buffer
    /// of the chain (wrapping, as rdma-core's unsigned sum; no error channel).
    pub(crate) fn final_num_attrs(self, num_attrs: u32) -> u32 {
        let mut total = num_attrs;
        let mut b = self.0;
        while !b.is_null() {
            let first = attrs_base(b);
            // SAFETY: from_raw's contract: a live buffer set up by DECLARE_COMMAND_BUFFER*,
            // whose `next_attr` points into its own `hdr.attrs` array.
            let next = unsafe { (*b).next_attr };
            total = total.wrapping_add(
                (next as usize).wrapping_sub(first as usize) as u32
                    / size_of::<ib_uverbs_attr>() as u32,
            );
            // SAFETY: from_raw's contract: `b` is a live buffer of the chain; its `next` is the rest (or NULL).
            b = unsafe { (*b).next };
        }
        total
    }

    /// # Safety
    /// `b` is NULL or heads a chain of live command buffers that stay live, and are the
    /// caller's alone, for the call the value is made for.
    #[inline]
    pub(crate) unsafe fn from_raw(b: *mut ibv_command_buffer) -> Chain {
        Chain(b)
    }
}

impl Driver for Chain {
    /// Every buffer of the chain, in order. EINVAL when a buffer's counts are not whole
    /// attributes of its array ([`counts`]), when the chain holds more than [`MAX_ATTRS`]
    /// attributes, or more buffers than that (a chain that loops back on itself: rdma-core
    /// would walk it forever); ENOMEM when the attributes do not fit in memory.
    fn link(&mut self, cmd: &mut IoctlCmd<'_>) -> Result<()> {
        let (mut b, mut total, mut buffers) = (self.0, 0usize, 0usize);
        while !b.is_null() {
            // SAFETY: from_raw's contract: every buffer of the chain is live.
            let (filled, _) = unsafe { counts(b) }?;
            total += filled;
            buffers += 1;
            if total > MAX_ATTRS || buffers > MAX_ATTRS {
                return Err(Errno::EINVAL);
            }
            cmd.try_reserve(filled)?;
            // SAFETY: from_raw's contract: `b` is a live buffer of the chain, only read while this borrow lives.
            let c = unsafe { &*b };
            // SAFETY: `b` is live (from_raw's contract); `filled` attributes of it are written ([`counts`]).
            let attrs = unsafe { read_attrs(b, filled) };
            cmd.push_link(
                attrs,
                uhw_idx(c.uhw_in_idx),
                c.fallback_require_ex(),
                c.fallback_ioctl_only(),
            );
            b = c.next;
        }
        Ok(())
    }

    /// Each buffer's attributes, as the kernel left them, back into it (at most its filled
    /// count each).
    fn store(&mut self, attrs: &[Attr]) {
        let (mut b, mut rest) = (self.0, attrs);
        while !b.is_null() && !rest.is_empty() {
            // SAFETY: from_raw's contract: every buffer of the chain is live.
            let (filled, _) = unsafe { counts(b) }.unwrap_or((0, 0));
            let (mine, tail) = rest.split_at(filled.min(rest.len()));
            // SAFETY: `b` is live and the caller's alone (from_raw's contract); at most its filled count is written.
            unsafe { store_attrs(b, mine, filled) };
            rest = tail;
            // SAFETY: from_raw's contract: `b` is a live buffer of the chain; its `next` is the rest (or NULL).
            b = unsafe { (*b).next };
        }
    }
}

/// `execute_ioctl`: sends a provider-built ioctl command chain (links linearised into the head,
/// driver id in the header) on the context's command channel ([`execute_c`]) and copies the
/// kernel's answers back into each buffer. EINVAL for a buffer error or a chain longer than the
/// head's room, else the ioctl's errno. The C caller's contract: `cmd` heads a live chain.
pub(crate) fn execute(
    ctx: crate::verbs::handle::Ctx,
    cmd: crate::verbs::handle::Ptr<ibv_command_buffer>,
) -> Result<()> {
    // SAFETY: the C caller's contract: `cmd` heads a live chain; an open context (Ctx).
    unsafe { execute_c(ctx.channel().cmd(), cmd.as_ptr()) }
}

/// The provider-facing `execute_ioctl(context, cmd)`: run a C chain (links linearised into the
/// head, driver id in the header) and leave the C buffers as rdma-core does (the head holds the
/// header and the whole linear array; each link its own attributes, the kernel's answers copied
/// back, on success). EINVAL for a buffer error or a chain longer than the head's room, else the
/// ioctl's errno.
///
/// # Safety
/// `cmd` heads a live chain; `ctx` is a context of this library.
pub(crate) unsafe fn execute_c(
    ctx: crate::cmd::Ctx<'_>,
    cmd: *mut ibv_command_buffer,
) -> Result<()> {
    // SAFETY: the caller's contract: `cmd` heads a live chain.
    let head = unsafe { &*cmd };
    if head.next.is_null() {
        // SAFETY: the caller's contract: `cmd` is live, and has no links (tested just above).
        return unsafe { execute_in_place(ctx, cmd) };
    }
    // SAFETY: the caller's contract: `cmd` is a live buffer.
    let (filled, room) = unsafe { counts(cmd) }?;
    let mut arg = IoctlArg::new();
    let mut ic = IoctlCmd::new(&mut arg, head.hdr.object_id, head.hdr.method_id);
    ic.try_reserve(filled)?;
    // SAFETY: the caller's contract: `cmd` is live; `filled` attributes of it are written ([`counts`]).
    for a in unsafe { read_attrs(cmd, filled) } {
        ic.push(a, true);
    }
    ic.buffer_error = head.buffer_error();
    ic.fallback_require_ex = head.fallback_require_ex();
    ic.fallback_ioctl_only = head.fallback_ioctl_only();
    ic.uhw_in_idx = uhw_idx(head.uhw_in_idx);
    // SAFETY: the caller's contract: `head.next`, the rest of the chain, is live and the caller's for the call.
    let mut links = unsafe { Chain::from_raw(head.next) };
    links.link(&mut ic)?;
    if ic.len() > room {
        return Err(Errno::EINVAL);
    }
    let r = crate::cmd::execute_ioctl(ctx, &mut ic);
    // Past its checks (whatever the kernel answered), the head holds what was sent.
    if !ic.buffer_error {
        let h = ic.header(ctx.state.driver_id());
        let hdr = ib_uverbs_ioctl_hdr {
            length: h.length,
            object_id: h.object_id,
            method_id: h.method_id,
            num_attrs: h.num_attrs,
            reserved1: h.reserved1,
            driver_id: h.driver_id,
            reserved2: h.reserved2,
            attrs: [],
        };
        // SAFETY: the caller's contract: `cmd` is live and exclusively the caller's for this call; the
        // header is a plain field of it.
        unsafe { (*cmd).hdr = hdr };
        // SAFETY: `cmd` is live and the caller's (its contract); at most `room`, its array size, are written.
        unsafe { store_attrs(cmd, ic.attrs(), room) };
        // SAFETY: the caller's contract: `uhw_in_idx` is a plain field of the live head.
        unsafe { (*cmd).uhw_in_idx = ic.uhw_in_idx.unwrap_or(_UHW_NO_INDEX) };
        if r.is_ok() {
            links.store(ic.attrs().get(filled..).unwrap_or_default());
        }
    }
    r
}

/// [`execute_c`] for a buffer without links (what a provider's own method builds): its header and
/// attribute array already are the ioctl's argument, as in rdma-core, so it is sent from where it
/// is: header completed, a UHW_IN of at most 8 bytes inlined (`prepare_attrs`), and afterwards
/// memcheck told what the kernel wrote (`finalize_attrs`). Nothing is copied.
///
/// # Safety
/// `cmd` is a live command buffer without links; `ctx` is a context of this library.
unsafe fn execute_in_place(ctx: crate::cmd::Ctx<'_>, cmd: *mut ibv_command_buffer) -> Result<()> {
    // SAFETY: the caller's contract: a live buffer.
    let (filled, _) = unsafe { counts(cmd) }?;
    // SAFETY: the caller's contract: `cmd` is live; its flags are a plain field of it.
    if unsafe { (*cmd).buffer_error() } {
        return Err(Errno::EINVAL);
    }
    // The flat mirror of `ib_uverbs_attr` (same layout: tests/abi_layout_kern).
    let base = attrs_base(cmd).cast::<Attr>();
    // SAFETY: the caller's contract: `cmd` is live; `uhw_in_idx` is a plain field of it.
    let uhw = usize::from(unsafe { (*cmd).uhw_in_idx });
    if uhw != usize::from(_UHW_NO_INDEX) && uhw < filled {
        // SAFETY: `uhw` < `filled`: an initialised attribute of the buffer's array.
        let a = unsafe { &mut *base.wrapping_add(uhw) };
        if usize::from(a.len) <= size_of::<u64>() && a.data != 0 {
            let mut inline = [0u8; 8];
            // SAFETY: the provider's UHW_IN points at `len` (≤ 8) readable bytes.
            unsafe {
                core::ptr::copy_nonoverlapping(
                    a.data as *const u8,
                    inline.as_mut_ptr(),
                    usize::from(a.len),
                )
            };
            a.data = u64::from_ne_bytes(inline);
        }
    }
    let len = crate::cmd::attr::HDR_SIZE + ATTR_SIZE * filled;
    // SAFETY: the caller's contract: the header is a plain field of the live buffer, the caller's alone.
    let h = unsafe { &mut (*cmd).hdr };
    h.length = len as u16;
    h.num_attrs = filled as u16;
    h.reserved1 = 0;
    h.reserved2 = 0;
    h.driver_id = ctx.state.driver_id();
    // SAFETY: only an address computation inside the live buffer.
    let start = unsafe { (&raw mut (*cmd).hdr).cast::<u8>() };
    // SAFETY: the header and the `filled` attributes behind it are contiguous in the live buffer
    // (its array follows `hdr`), exclusively the caller's for this call.
    let wire = unsafe { core::slice::from_raw_parts_mut(start, len) };
    // A failing ioctl left its errno in `errno` already (`execute` sends on the context's real
    // `cmd_fd`): returned as is, not set again, as rdma-core's `return errno` (bench row mlx5
    // (emulated) ibv_query_device_ex, whose DEVX query fails on the emulator). `execute`
    // returns this straight to the export, where a quiet error ends.
    ctx.ioctl(wire).map_err(Errno::quiet)?;
    for i in 0..filled {
        // SAFETY: i < `filled`: an attribute the kernel may have updated in place.
        let a = unsafe { &*base.wrapping_add(i) };
        if a.flags & crate::abi::uapi::UVERBS_ATTR_F_VALID_OUTPUT != 0 {
            crate::sys::valgrind::mark_defined(a.data as usize, usize::from(a.len));
        }
    }
    Ok(())
}
