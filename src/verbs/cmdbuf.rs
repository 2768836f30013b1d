//! Between C `struct ibv_command_buffer` chains (built by providers with rdma-core's
//! cmd_ioctl.h macros) and the command layer's [`CmdBuf`]s (rdma-core: cmd_ioctl.c
//! `prepare_attrs`/`finalize_attrs`).
//!
//! Called by the `ibv_cmd_*` exports that take a provider's command chain.
use crate::abi::kern_abi::{_UHW_NO_INDEX, ibv_command_buffer};
use crate::abi::uapi::{ib_uverbs_attr, ib_uverbs_ioctl_hdr};
use crate::cmd::attr::{ATTR_SIZE, Attrs};
use crate::cmd::{Attr, CmdBuf, IoctlCmd};
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
    // SAFETY: as above.
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

/// One C buffer as a [`CmdBuf`].
///
/// # Safety
/// As for [`counts`].
pub(crate) unsafe fn from_c(b: *mut ibv_command_buffer) -> Result<CmdBuf> {
    // SAFETY: the caller's contract.
    let (filled, _) = unsafe { counts(b) }?;
    let base = attrs_base(b).cast::<[u8; ATTR_SIZE]>();
    let mut attrs = Attrs::new();
    attrs.try_reserve(filled)?;
    for i in 0..filled {
        let slot = base.wrapping_add(i);
        // SAFETY: `filled` attributes are initialised in the buffer's array, `slot` among them.
        attrs.push(Attr::from_bytes(unsafe { &*slot }));
    }
    let idx = |v: u8| (v != _UHW_NO_INDEX).then_some(v);
    // SAFETY: the caller's contract.
    let c = unsafe { &*b };
    Ok(CmdBuf {
        attrs,
        uhw_in_idx: idx(c.uhw_in_idx),
        uhw_out_idx: idx(c.uhw_out_idx),
        uhw_in_headroom_dwords: c.uhw_in_headroom_dwords,
        uhw_out_headroom_dwords: c.uhw_out_headroom_dwords,
        buffer_error: c.buffer_error(),
        fallback_require_ex: c.fallback_require_ex(),
        fallback_ioctl_only: c.fallback_ioctl_only(),
    })
}

/// Every buffer of a `next` chain starting at `b` (may be NULL), in order. EINVAL when the
/// chain holds more than [`MAX_ATTRS`] attributes, or more buffers than that (a chain that loops
/// back on itself: rdma-core would walk it forever).
///
/// # Safety
/// As for [`counts`], for every buffer of the chain.
pub(crate) unsafe fn chain_from_c(mut b: *mut ibv_command_buffer) -> Result<Vec<CmdBuf>> {
    let mut v: Vec<CmdBuf> = Vec::new();
    let mut total = 0usize;
    while !b.is_null() {
        // SAFETY: the caller's contract: every buffer of the chain is live.
        let c = unsafe { from_c(b) }?;
        total += c.attrs.len();
        if total > MAX_ATTRS || v.len() >= MAX_ATTRS {
            return Err(Errno::EINVAL);
        }
        v.try_reserve(1).map_err(|_| Errno::ENOMEM)?;
        v.push(c);
        // SAFETY: as above: `b` is live; its `next` is the rest of the chain (or NULL).
        b = unsafe { (*b).next };
    }
    Ok(v)
}

/// Write attributes back into a C buffer's array (at most its filled count).
///
/// # Safety
/// As for [`counts`].
unsafe fn store_attrs<'a>(
    b: *mut ibv_command_buffer,
    attrs: impl IntoIterator<Item = &'a Attr>,
    max: usize,
) {
    let base = attrs_base(b).cast::<[u8; ATTR_SIZE]>();
    for (i, a) in attrs.into_iter().take(max).enumerate() {
        let slot = base.wrapping_add(i);
        // SAFETY: i < max ≤ the array's room: `slot` is inside the live buffer.
        unsafe { slot.write(a.to_bytes()) };
    }
}

/// Copy each link's attributes, as the kernel left them, back into the C chain at `b`.
///
/// # Safety
/// As for [`chain_from_c`]; `links` came from that chain.
pub(crate) unsafe fn chain_to_c(mut b: *mut ibv_command_buffer, links: &[CmdBuf]) {
    for l in links {
        if b.is_null() {
            return;
        }
        // SAFETY: the caller's contract: every buffer of the chain is live.
        let (filled, _) = unsafe { counts(b) }.unwrap_or((0, 0));
        // SAFETY: as above; at most the buffer's filled count is written.
        unsafe { store_attrs(b, l.attrs.iter(), filled) };
        // SAFETY: as above: `b` is live; its `next` is the rest of the chain (or NULL).
        b = unsafe { (*b).next };
    }
}

/// A provider's chain of command buffers handed to an `ibv_cmd_*` export (NULL for none), for
/// one call: read into [`CmdBuf`]s before the command ([`Chain::links`]) and written back after
/// it ([`Chain::store`]), as rdma-core's commands link and update the provider's buffers.
#[derive(Clone, Copy)]
pub struct Chain(*mut ibv_command_buffer);

impl Chain {
    /// No chain (a command form without driver attributes).
    pub(crate) const NONE: Chain = Chain(core::ptr::null_mut());

    /// Its head (NULL for none).
    #[inline(always)]
    pub(crate) fn raw(self) -> *mut ibv_command_buffer {
        self.0
    }

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
            // SAFETY: as above: `b` is live; its `next` is the rest of the chain (or NULL).
            b = unsafe { (*b).next };
        }
        total
    }

    /// # Safety
    /// `b` is NULL or heads a chain of live command buffers that stay live, and are the
    /// caller's alone, for the call the value is made for.
    #[inline(always)]
    pub(crate) unsafe fn from_raw(b: *mut ibv_command_buffer) -> Chain {
        Chain(b)
    }

    /// Its buffers, in order (EINVAL for a malformed or looping chain: [`chain_from_c`]).
    pub(crate) fn links(self) -> Result<Vec<CmdBuf>> {
        // SAFETY: from_raw's contract: NULL or a chain of live buffers.
        unsafe { chain_from_c(self.0) }
    }

    /// The attributes of `links` (from [`Chain::links`]), as the kernel left them, back into
    /// its buffers.
    pub(crate) fn store(self, links: &[CmdBuf]) {
        // SAFETY: from_raw's contract; `links` came from this chain.
        unsafe { chain_to_c(self.0, links) }
    }
}

/// `execute_ioctl(context, cmd)` of a provider: [`execute_c`] on the context's command channel.
/// The C caller's contract: `cmd` heads a live chain.
pub(crate) fn execute(
    ctx: crate::verbs::handle::Ctx,
    cmd: crate::verbs::handle::Ptr<ibv_command_buffer>,
) -> Result<()> {
    // SAFETY: the C caller's contract: `cmd` heads a live chain; an open context (Ctx).
    unsafe { execute_c(ctx.channel().cmd(), cmd.as_ptr()) }
}

/// The provider-facing `execute_ioctl(context, cmd)`: run a C chain and leave the C buffers as
/// rdma-core does (the head holds the linearised array and header; each link its own attributes).
///
/// # Safety
/// `cmd` heads a live chain; `ctx` is a context of this library.
pub(crate) unsafe fn execute_c(
    ctx: crate::cmd::Ctx<'_>,
    cmd: *mut ibv_command_buffer,
) -> Result<()> {
    // SAFETY: the caller's contract: `cmd` heads a live chain.
    if unsafe { (*cmd).next }.is_null() {
        // SAFETY: as above.
        return unsafe { execute_in_place(ctx, cmd) };
    }
    // SAFETY: the caller's contract: `cmd` heads a live chain.
    let head = unsafe { from_c(cmd) }?;
    // SAFETY: as above: `cmd` is live; its `next` starts the rest of the live chain.
    let next = unsafe { (*cmd).next };
    // SAFETY: as above.
    let links = unsafe { chain_from_c(next) }?;
    // SAFETY: as above.
    let (_, room) = unsafe { counts(cmd) }?;
    // SAFETY: as above: `cmd` is live and its header initialised (by the provider's macros).
    let h = unsafe { &(*cmd).hdr };
    let (object_id, method_id) = (h.object_id, h.method_id);
    let mut ic = IoctlCmd::from_chain(object_id, method_id, head, links);
    if ic.num_attrs() > room {
        return Err(Errno::EINVAL);
    }
    let r = crate::cmd::execute_ioctl(ctx, &mut ic);
    if ic.was_prepared() {
        let h = &ic.hdr;
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
        // SAFETY: as above: `cmd` is live and exclusively the caller's for this call; the
        // header is a plain field of it.
        unsafe { (*cmd).hdr = hdr };
        // SAFETY: as above; at most `room` attributes, the head's array size, are written.
        unsafe { store_attrs(cmd, ic.linear(), room) };
        // SAFETY: as above: a plain field of the live head.
        unsafe { (*cmd).uhw_in_idx = ic.head.uhw_in_idx.unwrap_or(_UHW_NO_INDEX) };
        // SAFETY: as above: the links came from this chain (`chain_from_c` of `next`).
        unsafe { chain_to_c(next, &ic.links) };
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
    // SAFETY: as above; the flags are a plain field of it.
    if unsafe { (*cmd).buffer_error() } {
        return Err(Errno::EINVAL);
    }
    // The flat mirror of `ib_uverbs_attr` (same layout: tests/abi_layout_kern).
    let base = attrs_base(cmd).cast::<Attr>();
    // SAFETY: as above; a plain field.
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
    // SAFETY: as above: the header is a plain field of the live buffer.
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
    ctx.ioctl(wire)?;
    for i in 0..filled {
        // SAFETY: i < `filled`: an attribute the kernel may have updated in place.
        let a = unsafe { &*base.wrapping_add(i) };
        if a.flags & crate::abi::uapi::UVERBS_ATTR_F_VALID_OUTPUT != 0 {
            crate::sys::valgrind::mark_defined(a.data as usize, usize::from(a.len));
        }
    }
    Ok(())
}

/// `f` with a provider's chain as the command layer's buffers, whose attributes (as the kernel
/// left them) are then copied back into the C chain, whatever `f` returned. EINVAL for a chain
/// [`chain_from_c`] refuses, before `f` runs.
pub(crate) fn with_chain<T>(
    chain: Chain,
    f: impl FnOnce(&mut Vec<CmdBuf>) -> Result<T>,
) -> Result<T> {
    // SAFETY: `Chain`'s contract: NULL or a live chain for the call.
    let mut links = unsafe { chain_from_c(chain.raw()) }?;
    let r = f(&mut links);
    // SAFETY: as above; `links` came from this chain.
    unsafe { chain_to_c(chain.raw(), &links) };
    r
}
