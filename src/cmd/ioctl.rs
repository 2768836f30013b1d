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
//! of at most [`INLINE_ATTRS`] head attributes.
#![forbid(unsafe_code)]

use core::marker::PhantomData;

use super::attr::{ATTR_SIZE, Attr, CmdBuf, HDR_SIZE, INLINE_ATTRS, IoctlHdr};
use super::wire::addr;
use super::Ctx;
use crate::abi::uapi::{UVERBS_ATTR_F_VALID_OUTPUT, UVERBS_ATTR_UHW_IN, UVERBS_ATTR_UHW_OUT};
use crate::errno::{Errno, Result};
use crate::sys::pod::{Pod, bytes_mut};

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
    pub fn new(object_id: u16, method_id: u16) -> Self {
        Self::from_chain(object_id, method_id, CmdBuf::default(), Vec::new())
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
            link.push(Attr::data_in(UVERBS_ATTR_UHW_IN, req_driver, addr(req_driver)));
        }
        if !resp_driver.is_empty() {
            link.push(Attr::data_out(UVERBS_ATTR_UHW_OUT, addr(resp_driver), resp_driver.len()));
        }
        self.compat = link;
    }

    /// Total attributes of the chain (`__ioctl_final_num_attrs` of the head's count and links).
    pub fn num_attrs(&self) -> usize {
        self.head.attrs.len() + self.compat.attrs().len() + self.links.iter().map(|l| l.attrs.len()).sum::<usize>()
    }

    /// The linear attribute array (head, compat link, links): before [`execute_ioctl`] what it
    /// would send, after it what the kernel left (or what was sent, if it failed).
    pub fn linear(&self) -> impl Iterator<Item = &Attr> {
        let links = self.links.iter().flat_map(|l| l.attrs.iter());
        self.head.attrs.iter().chain(self.compat.attrs()).chain(links)
    }

    fn for_each_attr(&self, mut f: impl FnMut(&Attr)) {
        self.head.attrs.iter().for_each(&mut f);
        self.compat.attrs().iter().for_each(&mut f);
        for l in &self.links {
            l.attrs.iter().for_each(&mut f);
        }
    }

    fn for_each_attr_mut(&mut self, mut f: impl FnMut(&mut Attr)) {
        self.head.attrs.iter_mut().for_each(&mut f);
        self.compat.attrs_mut().iter_mut().for_each(&mut f);
        for l in &mut self.links {
            l.attrs.iter_mut().for_each(&mut f);
        }
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

/// `__ioctl_final_num_attrs`: `num_attrs` plus the attributes of every linked buffer.
pub fn final_num_attrs(num_attrs: u32, link_lens: impl IntoIterator<Item = usize>) -> u32 {
    link_lens.into_iter().fold(num_attrs, |n, l| n.wrapping_add(l as u32))
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
    // The buffer lives on the stack, in one of a few sizes (zeroing is part of the cost).
    const fn room(attrs: usize) -> usize {
        HDR_SIZE + ATTR_SIZE * attrs
    }
    let len = room(n);
    if n <= 4 {
        send_in(ctx, cmd, &mut [0u8; room(4)], len)
    } else if n <= 8 {
        send_in(ctx, cmd, &mut [0u8; room(8)], len)
    } else if n <= INLINE_ATTRS + 2 {
        send_in(ctx, cmd, &mut [0u8; room(INLINE_ATTRS + 2)], len)
    } else if n <= 32 {
        send_in(ctx, cmd, &mut [0u8; room(32)], len)
    } else {
        let mut v = Vec::new();
        v.try_reserve_exact(len).map_err(|_| Errno::ENOMEM)?;
        v.resize(len, 0);
        send_in(ctx, cmd, &mut v, len)
    }
}

/// Encode `cmd` (header already set) into the first `len` bytes of `buf`, send it, and copy the
/// attributes back.
#[inline]
fn send_in(ctx: Ctx<'_>, cmd: &mut IoctlCmd<'_>, buf: &mut [u8], len: usize) -> Result<()> {
    let buf = buf.get_mut(..len).ok_or(Errno::EINVAL)?;
    let (hdr, attrs) = buf.split_at_mut_checked(HDR_SIZE).ok_or(Errno::EINVAL)?;
    if let Ok(h) = <&mut [u8; HDR_SIZE]>::try_from(hdr) {
        cmd.hdr.write_to(h);
    }
    let mut out = attrs.chunks_exact_mut(ATTR_SIZE);
    cmd.for_each_attr(|a| {
        if let Some(Ok(slot)) = out.next().map(<&mut [u8; ATTR_SIZE]>::try_from) {
            a.write_to(slot);
        }
    });

    ctx.fd.ioctl(buf)?;

    let mut back = buf.get(HDR_SIZE..).unwrap_or_default().chunks_exact(ATTR_SIZE);
    cmd.for_each_attr_mut(|a| {
        if let Some(Ok(slot)) = back.next().map(<&[u8; ATTR_SIZE]>::try_from) {
            *a = Attr::from_bytes(slot);
            // What the kernel wrote, for memcheck (rdma-core's finalize_attr).
            if a.flags & UVERBS_ATTR_F_VALID_OUTPUT != 0 {
                crate::sys::valgrind::mark_defined(a.data as usize, usize::from(a.len));
            }
        }
    });
    Ok(())
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
        self.attrs.get_mut(..usize::from(self.len)).unwrap_or_default()
    }
}

/// Is `a` one of the two driver-data attributes the write fallback can carry?
pub(crate) fn is_uhw(a: &Attr) -> bool {
    a.attr_id == UVERBS_ATTR_UHW_IN || a.attr_id == UVERBS_ATTR_UHW_OUT
}
