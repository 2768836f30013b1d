//! Building and sending one `RDMA_VERBS_IOCTL` command (rdma-core: `libibverbs/cmd_ioctl.c`:
//! `execute_ioctl`, `__ioctl_final_num_attrs`, `_write_set_uhw`).
//!
//! A chain of C `ibv_command_buffer`s becomes one [`IoctlCmd`]: the head's attributes and
//! bookkeeping in `head`, the write-compat driver data of a legacy entry point in its own small
//! link, each linked buffer's (in `next` order) in `links`. Executing it linearises the chain
//! (head first, then the compat link, then `links`) into one buffer on the stack (on the heap only
//! past 32 attributes), fills in the header, sends it, and on success copies the kernel-updated
//! attributes back; `hdr` keeps the header sent and [`IoctlCmd::linear`] the attribute array,
//! which is what a C head buffer's memory holds afterwards. Nothing is allocated for a command
//! of at most [`INLINE_ATTRS`](super::attr::INLINE_ATTRS) attributes (head and compat link).
//!
//! A command the library builds itself and that has no links is a [`SmallCmd`] instead: its
//! attributes are written once, behind room for the header, and sent from where they are (no
//! linearising, no copy back, nothing to drop); the same bytes reach the kernel.
#![forbid(unsafe_code)]

use core::marker::PhantomData;

use super::Ctx;
use super::attr::{ATTR_SIZE, Attr, CmdBuf, HDR_SIZE, IoctlHdr};
use super::wire::addr;
use crate::abi::uapi::{
    UVERBS_ATTR_F_MANDATORY, UVERBS_ATTR_F_VALID_OUTPUT, UVERBS_ATTR_UHW_IN, UVERBS_ATTR_UHW_OUT,
};
use crate::errno::{Errno, Result};
use crate::sys::pod::{self, Pod, bytes, bytes_mut};
use crate::sys::uverbs::{AttrWire, IoctlBuf, WireList};

/// One ioctl command: object, method and the attribute chain.
///
/// `'a` is the lifetime of the Rust buffers whose addresses the command's own attributes carry
/// ([`Self::out`], [`Self::in_bytes`], [`Self::push_compat`]): they stay borrowed until the
/// command is dropped, so the kernel writes into live memory only. Attributes taken over from C
/// (`head`/`links` built by the capi glue) carry the C caller's addresses under its contract.
#[derive(Debug)]
pub struct IoctlCmd<'a> {
    pub object_id: u16,
    pub method_id: u16,
    pub head: CmdBuf,
    /// The write-compat link ([`Self::push_compat`]), sent right after the head.
    compat: UhwLink,
    pub links: Vec<CmdBuf>,
    /// After [`execute_ioctl`]: the header as sent.
    pub hdr: IoctlHdr,
    borrows: PhantomData<&'a mut [u8]>,
}

impl<'a> IoctlCmd<'a> {
    /// An empty command (`DECLARE_COMMAND_BUFFER`).
    #[inline]
    pub fn new(object_id: u16, method_id: u16) -> Self {
        IoctlCmd {
            object_id,
            method_id,
            head: CmdBuf::default(),
            compat: UhwLink::default(),
            links: Vec::new(),
            hdr: IoctlHdr::default(),
            borrows: PhantomData,
        }
    }

    /// A command from a converted C chain: the head buffer and its links in `next` order.
    pub fn from_chain(object_id: u16, method_id: u16, head: CmdBuf, links: Vec<CmdBuf>) -> Self {
        IoctlCmd {
            object_id,
            method_id,
            head,
            compat: UhwLink::default(),
            links,
            hdr: IoctlHdr::default(),
            borrows: PhantomData,
        }
    }

    /// `fill_attr_in_uint64` / `fill_attr_const_in` on the head.
    pub fn in_u64(&mut self, attr_id: u16, v: u64) -> usize {
        self.head.in_u64(attr_id, v)
    }

    /// `fill_attr_in_uint32` on the head.
    pub fn in_u32(&mut self, attr_id: u16, v: u32) -> usize {
        self.head.in_u32(attr_id, v)
    }

    /// `fill_attr_in` on the head: inline up to 8 bytes, else by address.
    pub fn in_bytes(&mut self, attr_id: u16, data: &'a [u8]) -> usize {
        self.head.in_data(attr_id, data, addr(data))
    }

    /// `fill_attr_out` on the head: the kernel writes up to `buf.len()` bytes into `buf`.
    pub fn out(&mut self, attr_id: u16, buf: &'a mut [u8]) -> usize {
        self.head.out_addr(attr_id, addr(buf), buf.len())
    }

    /// `fill_attr_out_ptr`: [`Self::out`] over a whole record.
    pub fn out_pod<T: Pod>(&mut self, attr_id: u16, t: &'a mut T) -> usize {
        self.out(attr_id, bytes_mut(t))
    }

    /// `fill_attr_in_obj` on the head.
    pub fn in_obj(&mut self, attr_id: u16, handle: u32) -> usize {
        self.head.in_obj(attr_id, handle)
    }

    /// `fill_attr_out_obj` on the head.
    pub fn out_obj(&mut self, attr_id: u16) -> usize {
        self.head.out_obj(attr_id)
    }

    /// `fill_attr_in_fd` on the head (nothing for -1).
    pub fn in_fd(&mut self, attr_id: u16, fd: i32) -> Option<usize> {
        self.head.in_fd(attr_id, fd)
    }

    /// `fill_attr_out_fd` on the head.
    pub fn out_fd(&mut self, attr_id: u16) -> usize {
        self.head.out_fd(attr_id)
    }

    /// `attr_optional` on a head attribute.
    pub fn optional(&mut self, idx: usize) {
        self.head.optional(idx)
    }

    /// Append the write-compat link of a legacy `ibv_cmd_*` entry point
    /// (`DECLARE_CMD_BUFFER_COMPAT` + `_write_set_uhw`): the provider's driver request data
    /// (what follows the `core_req_size` bytes of header and core request) as
    /// `UVERBS_ATTR_UHW_IN`, and its driver response space (after `core_resp_size` bytes) as
    /// `UVERBS_ATTR_UHW_OUT`; empty parts add no attribute.
    ///
    /// Up to 8 bytes of driver request are inlined here rather than just before sending, as
    /// rdma-core does: our write fallback takes the provider's buffers directly, not from the
    /// attribute, so the bytes sent are the same.
    pub fn push_compat(
        &mut self,
        req_driver: &'a [u8],
        core_req_size: usize,
        resp_driver: &'a mut [u8],
        core_resp_size: usize,
    ) {
        // The headroom a C link would record (`core_*_size / 4`) is only read back by C code;
        // this link never goes back to C.
        let _ = (core_req_size, core_resp_size);
        let mut link = UhwLink::default();
        if !req_driver.is_empty() {
            link.uhw_in_idx = Some(link.len);
            link.push(Attr::data_in(
                UVERBS_ATTR_UHW_IN,
                req_driver,
                addr(req_driver),
            ));
        }
        if !resp_driver.is_empty() {
            link.push(Attr::data_out(
                UVERBS_ATTR_UHW_OUT,
                addr(resp_driver),
                resp_driver.len(),
            ));
        }
        self.compat = link;
    }

    /// Total attributes of the chain (`__ioctl_final_num_attrs` of the head's count and links).
    pub fn num_attrs(&self) -> usize {
        self.head.attrs.len()
            + self.compat.attrs().len()
            + self.links.iter().map(|l| l.attrs.len()).sum::<usize>()
    }

    /// The linear attribute array (head, compat link, links): before [`execute_ioctl`] what it
    /// would send, after it what the kernel left (or what was sent, if it failed).
    pub fn linear(&self) -> impl Iterator<Item = &Attr> {
        self.segments().flatten()
    }

    /// Copy the linear array into `dst` (exactly [`Self::num_attrs`] long).
    fn store_linear(&self, dst: &mut [Attr]) {
        let mut rest = dst;
        for seg in self.segments() {
            let (mine, tail) = rest.split_at_mut(seg.len().min(rest.len()));
            mine.copy_from_slice(seg.get(..mine.len()).unwrap_or_default());
            rest = tail;
        }
    }

    /// Copy the array the kernel left back into the segments, telling memcheck what the kernel
    /// wrote (rdma-core's finalize_attr).
    fn load_linear(&mut self, src: &[Attr]) {
        mark_written(src);
        let mut rest = src;
        let links = self.links.iter_mut().map(|l| &mut *l.attrs);
        for seg in [&mut *self.head.attrs, self.compat.attrs_mut()]
            .into_iter()
            .chain(links)
        {
            let (mine, tail) = rest.split_at(seg.len().min(rest.len()));
            if let Some(dst) = seg.get_mut(..mine.len()) {
                dst.copy_from_slice(mine);
            }
            rest = tail;
        }
    }

    /// The attribute segments in wire order: head, compat link, links.
    fn segments(&self) -> impl Iterator<Item = &[Attr]> {
        let links = self.links.iter().map(|l| &*l.attrs);
        [&*self.head.attrs, self.compat.attrs()]
            .into_iter()
            .chain(links)
    }

    /// Head attribute `idx` (after execution: as the kernel left it).
    pub fn attr(&self, idx: usize) -> Option<&Attr> {
        self.head.attrs.get(idx)
    }

    /// Did [`execute_ioctl`] get past its checks (so a C head buffer now holds `hdr` and
    /// `linear`, whatever the kernel answered)?
    pub fn was_prepared(&self) -> bool {
        self.hdr.length != 0
    }

    /// Remove and return the links from position `from` on (the caller's driver chain).
    pub fn take_links(&mut self, from: usize) -> Vec<CmdBuf> {
        if from >= self.links.len() {
            return Vec::new();
        }
        self.links.split_off(from)
    }
}

/// A command the command layer builds itself, of at most `N` attributes (`N` ≤ 32) and no
/// chain of links: built where it is sent from, in an [`AttrWire`] the caller declares on its
/// stack, and sent without linearising. Same bytes on the wire as the [`IoctlCmd`] with the same
/// attributes (a compat link's UHW attributes are pushed last: [`Self::push_compat`]). `'a` as
/// for [`IoctlCmd`], and the borrow of the wire.
pub struct SmallCmd<'a, const N: usize> {
    list: WireList<'a, N>,
    /// Bit `i`: attribute `i` is one the kernel may write through (`fill_attr_out`): after
    /// the ioctl, only these are looked at for memcheck.
    outs: u32,
    object_id: u16,
    method_id: u16,
    /// An attribute could not be encoded (length over 64 KiB, or more than `N`): EINVAL.
    buffer_error: bool,
    /// As [`CmdBuf::fallback_require_ex`].
    pub fallback_require_ex: bool,
    /// As [`CmdBuf::fallback_ioctl_only`].
    pub fallback_ioctl_only: bool,
    borrows: PhantomData<&'a mut [u8]>,
}

impl<'a, const N: usize> SmallCmd<'a, N> {
    /// An empty command, built in `wire`.
    #[inline]
    pub fn new(wire: &'a mut AttrWire<N>, object_id: u16, method_id: u16) -> Self {
        const { assert!(N <= 32, "one bit of `outs` per attribute") };
        SmallCmd {
            list: WireList::new(wire),
            outs: 0,
            object_id,
            method_id,
            buffer_error: false,
            fallback_require_ex: false,
            fallback_ioctl_only: false,
            borrows: PhantomData,
        }
    }

    #[inline]
    fn push(&mut self, (a, too_long): (Attr, bool)) -> usize {
        self.buffer_error |= too_long;
        match self.list.push(a) {
            Some(i) => i,
            None => {
                self.buffer_error = true;
                N
            }
        }
    }

    /// As [`IoctlCmd::in_u64`].
    #[inline]
    pub fn in_u64(&mut self, attr_id: u16, v: u64) -> usize {
        self.push(Attr::sized(attr_id, 8, v))
    }

    /// As [`IoctlCmd::in_u32`].
    #[inline]
    pub fn in_u32(&mut self, attr_id: u16, v: u32) -> usize {
        let [a, b, c, d] = v.to_ne_bytes();
        self.push(Attr::sized(
            attr_id,
            4,
            u64::from_ne_bytes([a, b, c, d, 0, 0, 0, 0]),
        ))
    }

    /// As [`IoctlCmd::in_bytes`].
    #[inline]
    pub fn in_bytes(&mut self, attr_id: u16, data: &'a [u8]) -> usize {
        self.push(Attr::data_in(attr_id, data, addr(data)))
    }

    /// As [`IoctlCmd::out`].
    #[inline]
    pub fn out(&mut self, attr_id: u16, buf: &'a mut [u8]) -> usize {
        let i = self.push(Attr::data_out(attr_id, addr(buf), buf.len()));
        self.outs |= 1u32.checked_shl(i as u32).unwrap_or(0);
        i
    }

    /// As [`IoctlCmd::out_pod`].
    #[inline]
    pub fn out_pod<T: Pod>(&mut self, attr_id: u16, t: &'a mut T) -> usize {
        self.out(attr_id, bytes_mut(t))
    }

    /// As [`IoctlCmd::in_obj`].
    #[inline]
    pub fn in_obj(&mut self, attr_id: u16, handle: u32) -> usize {
        self.push(Attr::sized(attr_id, 0, u64::from(handle)))
    }

    /// As [`IoctlCmd::out_obj`].
    #[inline]
    pub fn out_obj(&mut self, attr_id: u16) -> usize {
        self.in_obj(attr_id, 0)
    }

    /// As [`IoctlCmd::in_fd`].
    #[inline]
    pub fn in_fd(&mut self, attr_id: u16, fd: i32) -> Option<usize> {
        if fd == -1 {
            return None;
        }
        Some(self.push(Attr::sized(attr_id, 0, fd as i64 as u64)))
    }

    /// As [`IoctlCmd::optional`].
    #[inline]
    pub fn optional(&mut self, idx: usize) {
        if let Some(a) = self.list.as_mut_slice().get_mut(idx) {
            a.flags &= !UVERBS_ATTR_F_MANDATORY;
        }
    }

    /// As [`IoctlCmd::push_compat`], after every other attribute: the driver request data as
    /// UHW_IN, the driver response space as UHW_OUT, each only when not empty.
    #[inline]
    pub fn push_compat(&mut self, req_driver: &'a [u8], resp_driver: &'a mut [u8]) {
        if !req_driver.is_empty() {
            self.in_bytes(UVERBS_ATTR_UHW_IN, req_driver);
        }
        if !resp_driver.is_empty() {
            self.out(UVERBS_ATTR_UHW_OUT, resp_driver);
        }
    }

    /// Attribute `idx` (after execution: as the kernel left it).
    pub fn attr(&self, idx: usize) -> Option<&Attr> {
        self.list.as_slice().get(idx)
    }

    /// [`execute_ioctl`] for this command: EINVAL for an unencodable attribute, else the header
    /// (length, object, method, count, the context's driver id, zeroed reserved fields) and the
    /// ioctl; on success memcheck learns what the kernel wrote.
    #[inline]
    pub fn execute(&mut self, ctx: Ctx<'_>) -> Result<()> {
        if self.buffer_error {
            return Err(Errno::EINVAL);
        }
        send_ioctl(
            ctx,
            self.object_id,
            self.method_id,
            &mut self.list,
            self.outs,
        )
    }
}

/// Send the attributes of `list` as command `object_id`/`method_id` (the header is filled in
/// here), then tell memcheck what the kernel wrote through the attributes of bit mask `outs`.
#[inline(always)]
pub(crate) fn send_ioctl<const N: usize>(
    ctx: Ctx<'_>,
    object_id: u16,
    method_id: u16,
    list: &mut WireList<'_, N>,
    outs: u32,
) -> Result<()> {
    let n = list.len();
    let hdr = IoctlHdr {
        length: (HDR_SIZE + ATTR_SIZE * n) as u16,
        object_id,
        method_id,
        num_attrs: n as u16,
        reserved1: 0,
        driver_id: ctx.state.driver_id(),
        reserved2: 0,
    };
    list.send(hdr, |b| ctx.ioctl(b))?;
    mark_outs(list.as_slice(), outs);
    Ok(())
}

/// `__ioctl_final_num_attrs`: `num_attrs` plus the attributes of every linked buffer.
pub fn final_num_attrs(num_attrs: u32, link_lens: impl IntoIterator<Item = usize>) -> u32 {
    link_lens
        .into_iter()
        .fold(num_attrs, |n, l| n.wrapping_add(l as u32))
}

/// `execute_ioctl`: send `cmd` on the context's command fd.
///
/// Order as rdma-core: a head `buffer_error` fails with EINVAL before anything is sent; the
/// chain is linearised (head attributes first, then the compat link's, then each link's), and a
/// link's UHW_IN index is carried over into the head's; the header gets `length`, `num_attrs`,
/// the context's `driver_id` and zeroed reserved fields. A failing ioctl returns its errno as is
/// (ENOTTY: no ioctl interface; EPROTONOSUPPORT: unknown method or mandatory attribute). On
/// success the kernel-updated attributes are copied back into `head`, the compat link and each
/// link.
pub fn execute_ioctl(ctx: Ctx<'_>, cmd: &mut IoctlCmd<'_>) -> Result<()> {
    if cmd.head.buffer_error || cmd.compat.buffer_error {
        return Err(Errno::EINVAL);
    }

    let mut n = cmd.head.attrs.len();
    if let Some(i) = cmd.compat.uhw_in_idx {
        cmd.head.uhw_in_idx = Some(i.wrapping_add(n as u8));
    }
    n += cmd.compat.attrs().len();
    for link in &cmd.links {
        if let Some(i) = link.uhw_in_idx {
            cmd.head.uhw_in_idx = Some(i.wrapping_add(n as u8));
        }
        n += link.attrs.len();
    }
    cmd.hdr = IoctlHdr {
        length: (HDR_SIZE + ATTR_SIZE * n) as u16,
        object_id: cmd.object_id,
        method_id: cmd.method_id,
        num_attrs: n as u16,
        reserved1: 0,
        driver_id: ctx.state.driver_id(),
        reserved2: 0,
    };
    // Most commands: everything fits behind the head's own attributes; send from there.
    if cmd.links.is_empty() {
        let hdr = cmd.hdr;
        let extra = cmd.compat.attrs_mut();
        if let Some(w) = cmd.head.attrs.wire() {
            if let Some(r) = w.send_in_place(hdr, extra, |b| ctx.ioctl(b)) {
                r?;
                mark_written(w.as_slice());
                mark_written(extra);
                return Ok(());
            }
        }
    }
    // Otherwise a buffer on the stack, in one of a few sizes (zeroing it is part of the cost).
    if n <= 4 {
        send::<4>(ctx, cmd, n)
    } else if n <= 8 {
        send::<8>(ctx, cmd, n)
    } else if n <= 16 {
        send::<16>(ctx, cmd, n)
    } else if n <= 32 {
        send::<32>(ctx, cmd, n)
    } else {
        send_heap(ctx, cmd, n)
    }
}

/// Send `cmd` (header set, `n` attributes) from an [`IoctlBuf`] of room `N` ≥ `n`.
#[inline]
fn send<const N: usize>(ctx: Ctx<'_>, cmd: &mut IoctlCmd<'_>, n: usize) -> Result<()> {
    let mut w = IoctlBuf {
        hdr: cmd.hdr,
        attrs: [Attr::ZERO; N],
    };
    let sent = w.attrs.get_mut(..n).ok_or(Errno::EINVAL)?;
    cmd.store_linear(sent);
    let len = HDR_SIZE + ATTR_SIZE * n;
    ctx.ioctl(bytes_mut(&mut w).get_mut(..len).ok_or(Errno::EINVAL)?)?;
    cmd.load_linear(w.attrs.get(..n).unwrap_or_default());
    Ok(())
}

/// Send `cmd` (header set, `n` attributes, more than any stack buffer holds) from the heap.
#[cold]
fn send_heap(ctx: Ctx<'_>, cmd: &mut IoctlCmd<'_>, n: usize) -> Result<()> {
    let mut attrs = Vec::new();
    attrs.try_reserve_exact(n).map_err(|_| Errno::ENOMEM)?;
    attrs.resize(n, Attr::ZERO);
    cmd.store_linear(&mut attrs);
    let mut buf = Vec::new();
    buf.try_reserve_exact(HDR_SIZE + ATTR_SIZE * n)
        .map_err(|_| Errno::ENOMEM)?;
    buf.extend_from_slice(bytes(&cmd.hdr));
    for a in &attrs {
        buf.extend_from_slice(bytes(a));
    }
    ctx.ioctl(&mut buf)?;
    for (a, b) in attrs.iter_mut().zip(
        buf.get(HDR_SIZE..)
            .unwrap_or_default()
            .chunks_exact(ATTR_SIZE),
    ) {
        *a = pod::read(b);
    }
    cmd.load_linear(&attrs);
    Ok(())
}

/// Tell memcheck what the kernel wrote through the attributes it marked (rdma-core's
/// finalize_attr).
#[inline(always)]
fn mark_written(attrs: &[Attr]) {
    for a in attrs {
        mark_out(a);
    }
}

/// [`mark_written`] for the attributes of bit mask `outs` only: those built to be written
/// through, the only ones the kernel marks (`UVERBS_ATTR_F_VALID_OUTPUT` is set on a
/// pointer-out attribute it copied to).
#[inline(always)]
fn mark_outs(attrs: &[Attr], mut outs: u32) {
    while outs != 0 {
        let i = outs.trailing_zeros() as usize;
        outs &= outs - 1;
        if let Some(a) = attrs.get(i) {
            mark_out(a);
        }
    }
}

/// Tell memcheck what the kernel wrote through `a`, if it says it did.
#[inline(always)]
fn mark_out(a: &Attr) {
    if a.flags & UVERBS_ATTR_F_VALID_OUTPUT != 0 {
        crate::sys::valgrind::mark_defined(a.data as usize, usize::from(a.len));
    }
}

/// The write-compat link of a legacy entry point: at most UHW_IN and UHW_OUT.
#[derive(Clone, Copy, Debug, Default)]
struct UhwLink {
    attrs: [Attr; 2],
    len: u8,
    uhw_in_idx: Option<u8>,
    buffer_error: bool,
}

impl UhwLink {
    fn push(&mut self, (a, too_long): (Attr, bool)) {
        self.buffer_error |= too_long;
        if let Some(slot) = self.attrs.get_mut(usize::from(self.len)) {
            *slot = a;
            self.len += 1;
        }
    }

    fn attrs(&self) -> &[Attr] {
        self.attrs.get(..usize::from(self.len)).unwrap_or_default()
    }

    fn attrs_mut(&mut self) -> &mut [Attr] {
        self.attrs
            .get_mut(..usize::from(self.len))
            .unwrap_or_default()
    }
}

/// Is `a` one of the two driver-data attributes the write fallback can carry?
pub(crate) fn is_uhw(a: &Attr) -> bool {
    a.attr_id == UVERBS_ATTR_UHW_IN || a.attr_id == UVERBS_ATTR_UHW_OUT
}
