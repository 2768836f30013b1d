//! Sending write commands (rdma-core: `libibverbs/cmd_fallback.c`: `_execute_cmd_write`,
//! `_execute_cmd_write_ex`, `ioctl_write`; `cmd_write.h`: the `execute_cmd_write*` macros and,
//! for the compat paths, `DECLARE_LEGACY_UHW_BUFS` + `execute_write_bufs`).
//!
//! A request is one byte buffer: the header (`ib_uverbs_cmd_hdr`, or `ex_hdr` for extended
//! commands), the core request, then the provider's driver data; the response buffer is the
//! core response then driver response space. Sizes follow rdma-core exactly:
//! - legacy: `in_words` = whole request / 4 (header included), `out_words` = whole response / 4;
//! - extended: `in_words` = core request (without `ex_hdr`) / 8, `out_words` = core response / 8,
//!   `provider_in_words` / `provider_out_words` = driver parts / 8, `response` = the response
//!   address, `cmd_hdr_reserved` = 0, and the response is zeroed before the write;
//! - if the context's `use_ioctl_write` is set, the same command goes out as a
//!   `UVERBS_METHOD_INVOKE_WRITE` ioctl instead (WRITE_CMD, CORE_IN, CORE_OUT, UHW_IN, UHW_OUT).
//!
//! Word counts are truncated to their u16 fields like the C assignments; rdma-core's
//! divisibility asserts are compiled out of release builds, so division truncates too.
#![forbid(unsafe_code)]

use core::mem::offset_of;

use super::Ctx;
use super::attr::Attr;
use super::ioctl::{IoctlArg, IoctlCmd, execute_ioctl};
use super::methods;
use super::wire::{addr, put};
use crate::abi::kern_abi::{KernCmd, ex_hdr};
use crate::abi::uapi::{
    IB_USER_VERBS_CMD_FLAG_EXTENDED, UVERBS_ATTR_CORE_IN, UVERBS_ATTR_CORE_OUT, UVERBS_ATTR_UHW_IN,
    UVERBS_ATTR_UHW_OUT, UVERBS_ATTR_WRITE_CMD, ib_uverbs_cmd_hdr, ib_uverbs_ex_cmd_hdr,
};
use crate::errno::{Errno, Result};

/// `sizeof(struct ib_uverbs_cmd_hdr)`.
pub const CMD_HDR_SIZE: usize = size_of::<ib_uverbs_cmd_hdr>();
/// `sizeof(struct ex_hdr)`.
pub const EX_HDR_SIZE: usize = size_of::<ex_hdr>();
/// Where a legacy request keeps its response address: every kernel request with a response
/// starts with `__aligned_u64 response`, right after the header.
pub const RESPONSE_OFFSET: usize = CMD_HDR_SIZE;

const H_COMMAND: usize = offset_of!(ib_uverbs_cmd_hdr, command);
const H_IN: usize = offset_of!(ib_uverbs_cmd_hdr, in_words);
const H_OUT: usize = offset_of!(ib_uverbs_cmd_hdr, out_words);
const X: usize = offset_of!(ex_hdr, ex_hdr);
const X_RESPONSE: usize = X + offset_of!(ib_uverbs_ex_cmd_hdr, response);
const X_PIN: usize = X + offset_of!(ib_uverbs_ex_cmd_hdr, provider_in_words);
const X_POUT: usize = X + offset_of!(ib_uverbs_ex_cmd_hdr, provider_out_words);
const X_RSVD: usize = X + offset_of!(ib_uverbs_ex_cmd_hdr, cmd_hdr_reserved);

/// The longest data an attribute's 16-bit length can give.
const MAX_ATTR_LEN: usize = u16::MAX as usize;

/// Split `resp` at `core`, or fail if it is shorter.
fn split_resp(resp: &mut [u8], core: usize) -> Result<(&mut [u8], &mut [u8])> {
    if core > resp.len() {
        return Err(Errno::EINVAL);
    }
    Ok(resp.split_at_mut(core))
}

/// `ioctl_write`: a write command as `UVERBS_METHOD_INVOKE_WRITE`. `payload` is the request
/// after its header, of which the first `core_in` bytes are the core request; `resp` the whole
/// response, of which the first `core_out` bytes are the core response. Inlined into its two
/// callers, which do little else (one frame per write command, not two).
#[inline(always)]
pub fn ioctl_write(
    ctx: Ctx<'_>,
    write_method: u32,
    payload: &[u8],
    core_in: usize,
    resp: &mut [u8],
    core_out: usize,
) -> Result<()> {
    let (req_core, req_drv) = payload.split_at_checked(core_in).ok_or(Errno::EINVAL)?;
    let resp_len = resp.len();
    let (resp_core, resp_drv) = split_resp(resp, core_out)?;
    // An attribute's length is 16 bits: a longer part makes the command unencodable (EINVAL,
    // nothing sent: rdma-core's buffer_error). Two buffers that fit leave no part that can be
    // too long, so one comparison decides the common case; otherwise each part is looked at.
    // Every attribute below is then known to fit: pushed as made, without a mark of its own.
    let parts = || {
        [
            req_core.len(),
            req_drv.len(),
            resp_core.len(),
            resp_drv.len(),
        ]
    };
    if (payload.len() | resp_len) > MAX_ATTR_LEN && parts().iter().any(|&l| l > MAX_ATTR_LEN) {
        return Err(Errno::EINVAL);
    }
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::INVOKE_WRITE);
    let data_in = |id, part: &[u8]| Attr::data_in(id, part, addr(part)).0;
    let data_out = |id, part: &mut [u8]| Attr::data_out(id, addr(part), part.len()).0;
    cmd.push(
        Attr::sized(UVERBS_ATTR_WRITE_CMD, 8, u64::from(write_method)).0,
        false,
    );
    if !req_core.is_empty() {
        cmd.push(data_in(UVERBS_ATTR_CORE_IN, req_core), false);
    }
    if !resp_core.is_empty() {
        cmd.push(data_out(UVERBS_ATTR_CORE_OUT, resp_core), true);
    }
    if !req_drv.is_empty() {
        cmd.push(data_in(UVERBS_ATTR_UHW_IN, req_drv), false);
    }
    if !resp_drv.is_empty() {
        cmd.push(data_out(UVERBS_ATTR_UHW_OUT, resp_drv), true);
    }
    execute_ioctl(ctx, &mut cmd)
}

/// Send a whole request with write(2); a short write is an error.
fn send(ctx: Ctx<'_>, req: &[u8]) -> Result<()> {
    match ctx.write(req)? {
        // Divergence: rdma-core returns whatever errno holds after a short write; the kernel
        // never writes short, so we call it EIO.
        n if n != req.len() => Err(Errno::EIO),
        _ => Ok(()),
    }
}

/// `_execute_cmd_write`: legacy command `write_method`. `req` is the whole request (header,
/// core, driver data), `core_req_size` its header plus core part; `resp` the whole response
/// (None: the command has none), `core_resp_size` its core part. The caller has stored the
/// response address in the request if the command has one (see [`execute_cmd_write`]).
pub fn cmd_write(
    ctx: Ctx<'_>,
    write_method: u32,
    req: &mut [u8],
    core_req_size: usize,
    resp: Option<&mut [u8]>,
    core_resp_size: usize,
) -> Result<()> {
    if core_req_size < CMD_HDR_SIZE || core_req_size > req.len() {
        return Err(Errno::EINVAL);
    }
    let mut none: [u8; 0] = [];
    let resp = resp.unwrap_or(&mut none);
    if ctx.state.use_ioctl_write() {
        let payload = req.get(CMD_HDR_SIZE..).ok_or(Errno::EINVAL)?;
        return ioctl_write(
            ctx,
            write_method,
            payload,
            core_req_size - CMD_HDR_SIZE,
            resp,
            core_resp_size,
        );
    }
    put(req, H_COMMAND, write_method)?;
    put(req, H_IN, (req.len() / 4) as u16)?;
    put(req, H_OUT, (resp.len() / 4) as u16)?;
    send(ctx, req)?;
    // The kernel wrote the response: say so to memcheck (rdma-core does).
    crate::sys::valgrind::mark_buf_defined(resp);
    Ok(())
}

/// `_execute_cmd_write_ex`: extended command `write_method` (without the flag). `req` is the
/// whole request starting with `ex_hdr`, `core_req_size` the `ex_hdr` plus core part; `resp`
/// and `core_resp_size` as for [`cmd_write`].
pub fn cmd_write_ex(
    ctx: Ctx<'_>,
    write_method: u32,
    req: &mut [u8],
    core_req_size: usize,
    resp: Option<&mut [u8]>,
    core_resp_size: usize,
) -> Result<()> {
    if core_req_size < EX_HDR_SIZE || core_req_size > req.len() {
        return Err(Errno::EINVAL);
    }
    let mut none: [u8; 0] = [];
    let resp = resp.unwrap_or(&mut none);
    if core_resp_size > resp.len() {
        return Err(Errno::EINVAL);
    }
    let method = IB_USER_VERBS_CMD_FLAG_EXTENDED | write_method;
    if ctx.state.use_ioctl_write() {
        let payload = req.get(EX_HDR_SIZE..).ok_or(Errno::EINVAL)?;
        return ioctl_write(
            ctx,
            method,
            payload,
            core_req_size - EX_HDR_SIZE,
            resp,
            core_resp_size,
        );
    }
    let req_len = req.len();
    put(req, H_COMMAND, method)?;
    put(req, H_IN, ((core_req_size - EX_HDR_SIZE) / 8) as u16)?;
    put(req, H_OUT, (core_resp_size / 8) as u16)?;
    put(req, X_PIN, ((req_len - core_req_size) / 8) as u16)?;
    put(req, X_POUT, ((resp.len() - core_resp_size) / 8) as u16)?;
    put(
        req,
        X_RESPONSE,
        if resp.is_empty() { 0 } else { addr(resp) },
    )?;
    put(req, X_RSVD, 0u32)?;
    // The response as the caller left it, as rdma-core sends it: the kernel writes the core
    // part (and clears what it does not fill), the driver its own part.
    send(ctx, req)?;
    crate::sys::valgrind::mark_buf_defined(resp);
    Ok(())
}

/// `execute_cmd_write`: legacy command `C` with a response. `req` is the provider's whole
/// request struct (`cmd`, `cmd_size` bytes), `resp` its whole response (`resp_size` bytes); the
/// core sizes are those of `C` and `C::Resp`. Stores the response address in the request.
pub fn execute_cmd_write<C: KernCmd>(ctx: Ctx<'_>, req: &mut [u8], resp: &mut [u8]) -> Result<()> {
    put(req, RESPONSE_OFFSET, addr(resp))?;
    cmd_write(
        ctx,
        C::CMD,
        req,
        size_of::<C>(),
        Some(resp),
        size_of::<C::Resp>(),
    )
}

/// `execute_cmd_write_req`: legacy command `C` without a response.
pub fn execute_cmd_write_req<C: KernCmd>(ctx: Ctx<'_>, req: &mut [u8]) -> Result<()> {
    cmd_write(ctx, C::CMD, req, size_of::<C>(), None, 0)
}

/// `execute_cmd_write_no_uhw`: legacy command `C` whose core request and response are the whole
/// buffers (core structs ending in a flexible array).
pub fn execute_cmd_write_no_uhw<C: KernCmd>(
    ctx: Ctx<'_>,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<()> {
    put(req, RESPONSE_OFFSET, addr(resp))?;
    let (core_req, core_resp) = (req.len(), resp.len());
    cmd_write(ctx, C::CMD, req, core_req, Some(resp), core_resp)
}

/// `execute_cmd_write_ex`: extended command `C` with a response (None: rdma-core's NULL).
pub fn execute_cmd_write_ex<C: KernCmd>(
    ctx: Ctx<'_>,
    req: &mut [u8],
    resp: Option<&mut [u8]>,
) -> Result<()> {
    cmd_write_ex(ctx, C::CMD, req, size_of::<C>(), resp, size_of::<C::Resp>())
}

/// `execute_cmd_write_ex_full`: extended command `C` with explicit core sizes.
pub fn execute_cmd_write_ex_full<C: KernCmd>(
    ctx: Ctx<'_>,
    req: &mut [u8],
    core_req_size: usize,
    resp: Option<&mut [u8]>,
    core_resp_size: usize,
) -> Result<()> {
    cmd_write_ex(ctx, C::CMD, req, core_req_size, resp, core_resp_size)
}

/// `execute_cmd_write_ex_req`: extended command `C` without a response.
pub fn execute_cmd_write_ex_req<C: KernCmd>(ctx: Ctx<'_>, req: &mut [u8]) -> Result<()> {
    cmd_write_ex(ctx, C::CMD, req, size_of::<C>(), None, 0)
}
