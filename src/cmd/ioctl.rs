//! Building and sending one `RDMA_VERBS_IOCTL` command (rdma-core: `libibverbs/cmd_ioctl.h`:
//! the `fill_attr_*` helpers; `cmd_ioctl.c`: `execute_ioctl`, `__ioctl_final_num_attrs`,
//! `_write_set_uhw`).
//!
//! Every ioctl the library builds or forwards is one [`IoctlCmd`] over an [`IoctlArg`] (the
//! types and their memory are [`sys::uverbs`](crate::sys::uverbs)'s; the builders are here): the
//! command's own attributes first, then the write-compat link of a legacy entry point
//! ([`IoctlCmd::push_compat`]), then a provider's linked buffers in `next` order ([`Driver`], [`IoctlCmd::push_link`]), which is the order in
//! which rdma-core linearises a chain. The array is sent from where it was built, the header
//! written right before it; the kernel updates the attributes in place, and a provider's linked
//! buffers get theirs back afterwards ([`Driver::store`]).
#![forbid(unsafe_code)]

use super::Ctx;
use super::attr::{ATTR_SIZE, Attr, HDR_SIZE, IoctlHdr};
use super::wire::addr;
use crate::abi::uapi::{
    UVERBS_ATTR_F_MANDATORY, UVERBS_ATTR_F_VALID_OUTPUT, UVERBS_ATTR_UHW_IN, UVERBS_ATTR_UHW_OUT,
};
use crate::errno::{Errno, Result};
use crate::sys::pod::{Pod, bytes_mut};

pub use crate::sys::uverbs::{IoctlArg, IoctlCmd};

impl<'a> IoctlCmd<'a> {
    /// Append `a` (true beside it: its length does not fit the 16-bit field, which makes the
    /// command unencodable: `buffer_error`).
    #[inline]
    fn put(&mut self, (a, too_long): (Attr, bool), out: bool) -> usize {
        self.buffer_error |= too_long;
        self.push(a, out)
    }

    /// `fill_attr_in_uint64` / `fill_attr_const_in`: an 8-byte inline value.
    #[inline]
    pub fn in_u64(&mut self, attr_id: u16, v: u64) -> usize {
        self.put(Attr::sized(attr_id, 8, v), false)
    }

    /// `fill_attr_in_uint32`: a 4-byte inline value (in the first 4 bytes of `data`).
    #[inline]
    pub fn in_u32(&mut self, attr_id: u16, v: u32) -> usize {
        let [a, b, c, d] = v.to_ne_bytes();
        let v = u64::from_ne_bytes([a, b, c, d, 0, 0, 0, 0]);
        self.put(Attr::sized(attr_id, 4, v), false)
    }

    /// `fill_attr_in`: up to 8 bytes copied inline into `data`, longer data by address.
    #[inline]
    pub fn in_bytes(&mut self, attr_id: u16, data: &'a [u8]) -> usize {
        self.put(Attr::data_in(attr_id, data, addr(data)), false)
    }

    /// `fill_attr_in_enum`: as [`Self::in_bytes`], with `attr_data.enum_data.elem_id` set.
    pub fn in_enum(&mut self, attr_id: u16, elem_id: u8, data: &'a [u8]) -> usize {
        let (mut a, too_long) = Attr::data_in(attr_id, data, addr(data));
        a.attr_data = u16::from_ne_bytes([elem_id, 0]);
        self.put((a, too_long), false)
    }

    /// `fill_attr_out`: the kernel writes up to `buf.len()` bytes into `buf`.
    #[inline]
    pub fn out(&mut self, attr_id: u16, buf: &'a mut [u8]) -> usize {
        self.put(Attr::data_out(attr_id, addr(buf), buf.len()), true)
    }

    /// `fill_attr_out_ptr`: [`Self::out`] over a whole record.
    #[inline]
    pub fn out_pod<T: Pod>(&mut self, attr_id: u16, t: &'a mut T) -> usize {
        self.out(attr_id, bytes_mut(t))
    }

    /// `fill_attr_out` of `len` bytes at user address `addr` that is no Rust buffer of ours (a
    /// C caller's, under its contract; or none at all, which the kernel refuses).
    pub fn out_addr(&mut self, attr_id: u16, addr: u64, len: usize) -> usize {
        self.put(Attr::data_out(attr_id, addr, len), true)
    }

    /// `fill_attr_in_obj`: an object handle (IDR number) in `data`.
    #[inline]
    pub fn in_obj(&mut self, attr_id: u16, handle: u32) -> usize {
        self.put(Attr::sized(attr_id, 0, u64::from(handle)), false)
    }

    /// `fill_attr_out_obj`: a new object; the kernel writes its handle into `data`.
    #[inline]
    pub fn out_obj(&mut self, attr_id: u16) -> usize {
        self.in_obj(attr_id, 0)
    }

    /// `fill_attr_in_fd`: an fd in `data`; -1 adds nothing (and gives None).
    #[inline]
    pub fn in_fd(&mut self, attr_id: u16, fd: i32) -> Option<usize> {
        if fd == -1 {
            return None;
        }
        Some(self.put(Attr::sized(attr_id, 0, fd as i64 as u64), false))
    }

    /// `fill_attr_out_fd`: the kernel writes a new fd into `data`.
    pub fn out_fd(&mut self, attr_id: u16) -> usize {
        self.put(Attr::sized(attr_id, 0, 0), false)
    }

    /// `attr_optional`: clear the mandatory flag of attribute `idx`.
    #[inline]
    pub fn optional(&mut self, idx: usize) {
        if let Some(a) = self.attrs_mut().get_mut(idx) {
            a.flags &= !UVERBS_ATTR_F_MANDATORY;
        }
    }

    /// The write-compat link of a legacy `ibv_cmd_*` entry point (`DECLARE_CMD_BUFFER_COMPAT` +
    /// `_write_set_uhw`), after the command's own attributes: the provider's driver request
    /// data (what follows its header and core request) as `UVERBS_ATTR_UHW_IN`, its driver
    /// response space (after the core response) as `UVERBS_ATTR_UHW_OUT`; an empty part adds
    /// nothing.
    ///
    /// Up to 8 bytes of driver request are inlined here rather than just before sending, as
    /// rdma-core does: our write fallback takes the provider's buffers directly, not from the
    /// attribute, so the bytes sent are the same.
    // Always inlined: bench rows mlx5 (emulated) ibv_create_qp (RC) and ibv_create_cq (as a
    // plain hint: 11,210 -> 11,270 and 3,419 -> 3,437 instructions).
    #[inline(always)]
    pub fn push_compat(&mut self, req_driver: &'a [u8], resp_driver: &'a mut [u8]) {
        if !req_driver.is_empty() {
            let i = self.in_bytes(UVERBS_ATTR_UHW_IN, req_driver);
            self.uhw_in_idx = Some(i as u8);
        }
        if !resp_driver.is_empty() {
            self.out(UVERBS_ATTR_UHW_OUT, resp_driver);
        }
    }

    /// Append one linked buffer of a provider's chain (rdma-core: a `next` buffer, linearised
    /// after what comes before it): its attributes, each of which the kernel may write through,
    /// its `uhw_in_idx` (which becomes the command's, counted from the front), and its fallback
    /// flags, which join the command's. A mandatory attribute other than UHW_IN/UHW_OUT in it
    /// rules out the write fallback ([`super::fallback::check_legacy`]). Its `buffer_error` is
    /// not the command's: rdma-core looks at the head's only.
    pub fn push_link(
        &mut self,
        attrs: impl IntoIterator<Item = Attr>,
        uhw_in_idx: Option<u8>,
        fallback_require_ex: bool,
        fallback_ioctl_only: bool,
    ) {
        if let Some(i) = uhw_in_idx {
            self.uhw_in_idx = Some(i.wrapping_add(self.len() as u8));
        }
        for a in attrs {
            self.link_mandatory |= !is_uhw(&a) && a.flags & UVERBS_ATTR_F_MANDATORY != 0;
            self.push(a, true);
        }
        self.fallback_require_ex |= fallback_require_ex;
        self.fallback_ioctl_only |= fallback_ioctl_only;
    }

    /// Attribute `idx` (after execution: as the kernel left it).
    #[inline]
    pub fn attr(&self, idx: usize) -> Option<&Attr> {
        self.attrs().get(idx)
    }

    /// The header the command is sent with: its length and attribute count, object and method,
    /// the context's `driver_id`, reserved fields zero (as `execute_ioctl` fills it in).
    pub fn header(&self, driver_id: u32) -> IoctlHdr {
        let n = self.len();
        IoctlHdr {
            length: (HDR_SIZE + ATTR_SIZE * n) as u16,
            object_id: self.object_id(),
            method_id: self.method_id(),
            num_attrs: n as u16,
            reserved1: 0,
            driver_id,
            reserved2: 0,
        }
    }
}

/// The driver attributes a provider links after a command's own (rdma-core: the `next` chain of
/// `ibv_command_buffer`s an `ibv_cmd_*` entry point takes; `verbs::cmdbuf::Chain` is a C chain).
pub trait Driver {
    /// Append each linked buffer, in `next` order ([`IoctlCmd::push_link`]); an error (a chain
    /// that cannot be read, no memory) before anything is sent.
    fn link(&mut self, cmd: &mut IoctlCmd<'_>) -> Result<()>;
    /// After the command ran: `attrs` are the linked buffers' attributes as the kernel left
    /// them, back to back in `next` order; each buffer takes its own back (`finalize_attrs`).
    fn store(&mut self, attrs: &[Attr]);
}

/// No driver chain: nothing linked, nothing to give back.
impl Driver for () {
    fn link(&mut self, _: &mut IoctlCmd<'_>) -> Result<()> {
        Ok(())
    }
    fn store(&mut self, _: &[Attr]) {}
}

/// `__ioctl_final_num_attrs`: `num_attrs` plus the attributes of every linked buffer.
pub fn final_num_attrs(num_attrs: u32, link_lens: impl IntoIterator<Item = usize>) -> u32 {
    link_lens
        .into_iter()
        .fold(num_attrs, |n, l| n.wrapping_add(l as u32))
}

/// `execute_ioctl`: send `cmd` on the context's command fd.
///
/// An unencodable attribute (`buffer_error`) fails with EINVAL before anything is sent (a heap
/// array that could not be had, with ENOMEM); the header gets `length`, `num_attrs`, the
/// context's `driver_id` and zeroed reserved fields. A failing ioctl returns its errno as is
/// (ENOTTY: no ioctl interface; EPROTONOSUPPORT: unknown method or mandatory attribute). On
/// success memcheck learns what the kernel wrote (`finalize_attrs`); the attributes hold what
/// the kernel left in them.
// Always inlined, as are `IoctlCmd::send`, `mark_outs` and `mark_out`: bench rows mlx5
// (emulated) ibv_alloc_pd, ibv_reg_mr 4 KiB, ibv_create_cq, ibv_query_device_ex, ibv_create_qp
// (RC) (the four as plain hints: 609 -> 647, 601 -> 638, 3,419 -> 3,440, 2,907 -> 2,943,
// 11,210 -> 11,252 instructions).
#[inline(always)]
pub fn execute_ioctl(ctx: Ctx<'_>, cmd: &mut IoctlCmd<'_>) -> Result<()> {
    if cmd.buffer_error {
        return Err(refused(cmd.no_memory));
    }
    let (r, sent, outs) = cmd.send(ctx.state.driver_id(), |b| ctx.ioctl(b));
    r?;
    match outs {
        Some(outs) => mark_outs(sent, outs),
        None => sent.iter().for_each(mark_out),
    }
    Ok(())
}

/// Why a command with `buffer_error` set cannot be sent (`no_memory`: its heap array could not
/// be had). Takes the flag, not the command: a command whose address went to a function that is
/// not inlined would be kept in memory on every path.
#[cold]
fn refused(no_memory: bool) -> Errno {
    if no_memory {
        Errno::ENOMEM
    } else {
        Errno::EINVAL
    }
}

/// [`execute_ioctl`] with `driver`'s buffers linked after `cmd`'s attributes; on success they
/// take the kernel's answers back.
pub fn execute_linked(ctx: Ctx<'_>, cmd: &mut IoctlCmd<'_>, driver: &mut dyn Driver) -> Result<()> {
    let at = cmd.len();
    driver.link(cmd)?;
    let r = execute_ioctl(ctx, cmd);
    if r.is_ok() {
        driver.store(cmd.attrs().get(at..).unwrap_or_default());
    }
    r
}

/// Tell memcheck what the kernel wrote through the attributes of bit mask `outs` (those that
/// may be written through; the kernel marks the pointer-out attributes it copied to with
/// `UVERBS_ATTR_F_VALID_OUTPUT`).
// Always inlined: see execute_ioctl.
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

/// Tell memcheck what the kernel wrote through `a`, if it says it did (`finalize_attr`).
// Always inlined: see execute_ioctl.
#[inline(always)]
fn mark_out(a: &Attr) {
    if a.flags & UVERBS_ATTR_F_VALID_OUTPUT != 0 {
        crate::sys::valgrind::mark_defined(a.data as usize, usize::from(a.len));
    }
}

/// Is `a` one of the two driver-data attributes the write fallback can carry?
pub(crate) fn is_uhw(a: &Attr) -> bool {
    a.attr_id == UVERBS_ATTR_UHW_IN || a.attr_id == UVERBS_ATTR_UHW_OUT
}
