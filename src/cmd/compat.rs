//! The legacy entry points' request and response buffers (rdma-core: `cmd_write.h`:
//! `DECLARE_CMD_BUFFER_COMPAT` / `_LINK_COMPAT`, `DECLARE_LEGACY_UHW_BUFS(_EX)`,
//! `execute_write_bufs(_ex)`; `cmd_fallback.c`: `_write_get_req(_ex)`, `_write_get_resp(_ex)`).
//!
//! A provider hands `ibv_cmd_X(…, cmd, cmd_size, resp, resp_size)` its whole request struct
//! (header and core request, then driver data) and its whole response (core, then driver
//! space). The ioctl path sends only the driver parts, as UHW attributes; the write fallback
//! builds the write command in the provider's buffer right before its driver data (or, without
//! driver data, in a fresh buffer), which may be a different (legacy vs. extended) command than
//! the provider's struct describes.
#![forbid(unsafe_code)]

use super::Ctx;
use super::ioctl::IoctlCmd;
use super::write::{CMD_HDR_SIZE, EX_HDR_SIZE, execute_cmd_write, execute_cmd_write_ex};
use crate::abi::kern_abi::KernCmd;
use crate::errno::{Errno, Result};
use crate::sys::pod::{self, Pod};

/// A provider's request and response of a legacy entry point.
#[derive(Debug)]
pub struct Compat<'a> {
    req: &'a mut [u8],
    req_core: usize,
    resp: &'a mut [u8],
    resp_core: usize,
}

/// A buffer that is either part of the provider's memory or our own.
enum Buf<'a> {
    Theirs(&'a mut [u8]),
    Ours(Vec<u8>),
}

impl Buf<'_> {
    fn get(&mut self) -> &mut [u8] {
        match self {
            Buf::Theirs(b) => b,
            Buf::Ours(v) => v,
        }
    }
}

impl<'a> Compat<'a> {
    /// `req`: the provider's `cmd` (`cmd_size` bytes) whose header and core part is
    /// `req_core` bytes (`sizeof(*cmd)`); `resp`: its response (`resp_size` bytes), core part
    /// `resp_core` bytes (`sizeof(*resp)`). A buffer no longer than its core part (rxe passes
    /// `NULL, 0` for the request of `ibv_cmd_create_cq`) carries no driver data: nothing goes
    /// out as UHW, and a write fallback builds its command in a buffer of ours.
    pub fn new(
        req: &'a mut [u8],
        req_core: usize,
        resp: &'a mut [u8],
        resp_core: usize,
    ) -> Result<Self> {
        Ok(Compat {
            req,
            req_core,
            resp,
            resp_core,
        })
    }

    /// The compat link (`_write_set_uhw`) appended to `cmd`: UHW_IN for the driver request
    /// data, UHW_OUT for the driver response space, each only if present.
    // Always inlined: bench rows mlx5 (emulated) ibv_create_cq and ibv_create_qp (RC) (as a
    // plain hint: 3,387 -> 3,402 and 11,329 -> 11,340 instructions).
    #[inline(always)]
    pub fn link<'b>(&'b mut self, cmd: &mut IoctlCmd<'b>) {
        let req_drv = self.req.get(self.req_core..).unwrap_or_default();
        let resp_drv = self.resp.get_mut(self.resp_core..).unwrap_or_default();
        cmd.push_compat(req_drv, resp_drv);
    }

    /// Where a write command of `size` bytes (header and core) goes, or where its core
    /// response of `size` bytes lands: in the provider's buffer right before its driver data
    /// (`base` = the provider struct's core size), or, without driver data, a fresh zeroed
    /// buffer.
    fn place(buf: &mut [u8], base: usize, size: usize) -> Result<Buf<'_>> {
        if buf.len() > base {
            let start = base.checked_sub(size).ok_or(Errno::EINVAL)?;
            Ok(Buf::Theirs(buf.get_mut(start..).ok_or(Errno::EINVAL)?))
        } else {
            Ok(Buf::Ours(vec![0; size]))
        }
    }

    /// The request and response buffers of write command `C`, the core request zeroed and
    /// handed to `core` (which starts `hdr` bytes in) to fill.
    fn bufs<C: KernCmd>(
        &mut self,
        hdr: usize,
        core: impl FnOnce(&mut [u8]) -> Result<()>,
    ) -> Result<(Buf<'_>, Buf<'_>)> {
        let mut q = Self::place(self.req, self.req_core, size_of::<C>())?;
        let r = Self::place(self.resp, self.resp_core, size_of::<C::Resp>())?;
        let c = q.get().get_mut(hdr..size_of::<C>()).ok_or(Errno::EINVAL)?;
        c.fill(0);
        core(c)?;
        Ok((q, r))
    }

    /// `DECLARE_LEGACY_UHW_BUFS` + `execute_write_bufs` for legacy command `C`: `core`
    /// fills the core request (zeroed, after the command header); returns the core response.
    pub fn write<C: KernCmd>(
        &mut self,
        ctx: Ctx<'_>,
        core: impl FnOnce(&mut [u8]) -> Result<()>,
    ) -> Result<C::Resp>
    where
        C::Resp: Pod,
    {
        let (mut q, mut r) = self.bufs::<C>(CMD_HDR_SIZE, core)?;
        execute_cmd_write::<C>(ctx, q.get(), r.get())?;
        Ok(pod::read(r.get()))
    }

    /// `DECLARE_LEGACY_UHW_BUFS_EX` + `execute_write_bufs_ex` for extended command `C`:
    /// `core` fills the core request (zeroed, after `ex_hdr`); returns the core response.
    pub fn write_ex<C: KernCmd>(
        &mut self,
        ctx: Ctx<'_>,
        core: impl FnOnce(&mut [u8]) -> Result<()>,
    ) -> Result<C::Resp>
    where
        C::Resp: Pod,
    {
        let (mut q, mut r) = self.bufs::<C>(EX_HDR_SIZE, core)?;
        execute_cmd_write_ex::<C>(ctx, q.get(), Some(r.get()))?;
        Ok(pod::read(r.get()))
    }
}
