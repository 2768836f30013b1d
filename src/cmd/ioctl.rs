//! Building and sending one `RDMA_VERBS_IOCTL` command (rdma-core: `libibverbs/cmd_ioctl.c`:
//! `execute_ioctl`, `__ioctl_final_num_attrs`, `_write_set_uhw`).
//!
//! A chain of C `ibv_command_buffer`s becomes one [`IoctlCmd`]: the head's attributes and
//! bookkeeping in `head`, each linked buffer's (in `next` order) in `links`. Executing it
//! linearises the chain (head first), fills in the header, sends it, and on success copies the
//! kernel-updated attributes back into `head` and `links`; `linear` and `hdr` keep what was sent,
//! which is what a C head buffer's memory holds afterwards.
#![forbid(unsafe_code)]

use core::marker::PhantomData;

use super::attr::{ATTR_SIZE, Attr, CmdBuf, HDR_SIZE, IoctlHdr, decode_attrs, encode};
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
    pub links: Vec<CmdBuf>,
    /// After [`execute_ioctl`]: the attribute array as sent and as the kernel left it.
    pub linear: Vec<Attr>,
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
            links,
            linear: Vec::new(),
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
        let mut link = CmdBuf::default();
        if !req_driver.is_empty() {
            let i = link.in_data(UVERBS_ATTR_UHW_IN, req_driver, addr(req_driver));
            link.uhw_in_idx = Some(i as u8);
            link.uhw_in_headroom_dwords = (core_req_size / 4) as u8;
        }
        if !resp_driver.is_empty() {
            let i = link.out_addr(UVERBS_ATTR_UHW_OUT, addr(resp_driver), resp_driver.len());
            link.uhw_out_idx = Some(i as u8);
            link.uhw_out_headroom_dwords = (core_resp_size / 4) as u8;
        }
        self.links.push(link);
    }

    /// Total attributes of the chain (`__ioctl_final_num_attrs` of the head's count and links).
    pub fn num_attrs(&self) -> usize {
        self.head.attrs.len() + self.links.iter().map(|l| l.attrs.len()).sum::<usize>()
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
/// chain is linearised (head attributes first, then each link's), and a link's UHW_IN index is
/// carried over into the head's; the header gets `length`, `num_attrs`, the context's
/// `driver_id` and zeroed reserved fields. A failing ioctl returns its errno as is (ENOTTY: no
/// ioctl interface; EPROTONOSUPPORT: unknown method or mandatory attribute). On success the
/// kernel-updated attributes are copied back into `head` and each link.
pub fn execute_ioctl(ctx: Ctx<'_>, cmd: &mut IoctlCmd<'_>) -> Result<()> {
    if cmd.head.buffer_error {
        return Err(Errno::EINVAL);
    }

    let mut linear = cmd.head.attrs.clone();
    for link in &cmd.links {
        if let Some(i) = link.uhw_in_idx {
            cmd.head.uhw_in_idx = Some(i.wrapping_add(linear.len() as u8));
        }
        linear.extend_from_slice(&link.attrs);
    }
    let n = linear.len();
    cmd.hdr = IoctlHdr {
        length: (HDR_SIZE + ATTR_SIZE * n) as u16,
        object_id: cmd.object_id,
        method_id: cmd.method_id,
        num_attrs: n as u16,
        reserved1: 0,
        driver_id: ctx.state.driver_id(),
        reserved2: 0,
    };
    let mut buf = encode(&cmd.hdr, &linear);
    cmd.linear = linear;

    ctx.fd.ioctl(&mut buf)?;

    cmd.linear = decode_attrs(&buf);
    // What the kernel wrote, for memcheck (rdma-core's finalize_attr).
    for a in &cmd.linear {
        if a.flags & UVERBS_ATTR_F_VALID_OUTPUT != 0 {
            crate::sys::valgrind::mark_defined(a.data as usize, usize::from(a.len));
        }
    }
    let mut rest = cmd.linear.as_slice();
    for seg in core::iter::once(&mut cmd.head).chain(cmd.links.iter_mut()) {
        let (mine, tail) = rest.split_at(seg.attrs.len().min(rest.len()));
        for (dst, src) in seg.attrs.iter_mut().zip(mine) {
            *dst = *src;
        }
        rest = tail;
    }
    Ok(())
}

/// Is `a` one of the two driver-data attributes the write fallback can carry?
pub(crate) fn is_uhw(a: &Attr) -> bool {
    a.attr_id == UVERBS_ATTR_UHW_IN || a.attr_id == UVERBS_ATTR_UHW_OUT
}
