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

/// `f` with a provider's chain as the command layer's buffers, whose attributes (as the kernel
/// left them) are then copied back into the C chain, whatever `f` returned. EINVAL for a chain
/// [`chain_from_c`] refuses, before `f` runs.
pub(crate) fn with_chain<T>(
    chain: crate::verbs::handle::Chain,
    f: impl FnOnce(&mut Vec<CmdBuf>) -> Result<T>,
) -> Result<T> {
    // SAFETY: `Chain`'s contract: NULL or a live chain for the call.
    let mut links = unsafe { chain_from_c(chain.raw()) }?;
    let r = f(&mut links);
    // SAFETY: as above; `links` came from this chain.
    unsafe { chain_to_c(chain.raw(), &links) };
    r
}
