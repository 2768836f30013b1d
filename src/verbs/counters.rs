//! Completion counters (rdma-core v65: verbs.c `_ibv_query_comp_cntr_caps`,
//! `ibv_create_comp_cntr`, ...; cmd_comp_cntr.c and cmd_device.c for the provider's commands).
//!
//! rdma-core hands every public verb to a context op that only provider ABI 65 has: an ABI-65
//! provider's op (efa's, over the commands below) is called as is; without one (every ABI-34
//! provider) each answers as rdma-core's default op does: EOPNOTSUPP (NULL with errno for
//! `create`; the positive value, errno untouched, for the others). The provider's commands go to
//! [`cmd::counters`](crate::cmd::counters) on the context's command channel. Called by
//! [`capi::counters`](crate::capi::counters).
use core::ffi::c_int;

use crate::abi::verbs::{
    ibv_comp_cntr, ibv_comp_cntr_caps, ibv_comp_cntr_init_attr, ibv_qp_attach_comp_cntr_attr,
};
use crate::errno::{Errno, Result};
use crate::verbs::cmdbuf::Chain;
use crate::verbs::disassoc::allow_disassociate;
use crate::verbs::handle::{CompCntr, Ctx, Ptr, Qp, Region, set};

/// `_ibv_query_comp_cntr_caps`: `caps` (its first `caps_size` bytes) zeroed, then the provider's
/// `query_comp_cntr_caps` (ABI 65), else EOPNOTSUPP.
pub(crate) fn query_caps(ctx: Ctx, caps: Region<ibv_comp_cntr_caps>) -> c_int {
    caps.zero();
    match ctx.ops().query_comp_cntr_caps {
        // SAFETY: the provider's op on its own open context; the caller's buffer of that size.
        Some(f) => unsafe { f(ctx.raw(), caps.ptr(), caps.len()) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_create_comp_cntr`: a counter from the provider's `create_comp_cntr` (ABI 65), `attr` handed
/// over as given; EOPNOTSUPP without the op.
pub(crate) fn create(ctx: Ctx, attr: *mut ibv_comp_cntr_init_attr) -> Result<*mut ibv_comp_cntr> {
    let op = ctx.ops().create_comp_cntr.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own open context; `attr` is the caller's.
    let c = unsafe { op(ctx.raw(), attr) };
    if c.is_null() {
        return Err(Errno(crate::sys::errno()));
    }
    Ok(c)
}

/// `ibv_destroy_comp_cntr`: the provider's `destroy_comp_cntr` (ABI 65), its status as it is;
/// EOPNOTSUPP without the op (errno untouched).
pub(crate) fn destroy(c: CompCntr) -> c_int {
    match c.ops().destroy_comp_cntr {
        // SAFETY: the provider's op on its own counter.
        Some(f) => unsafe { f(c.raw()) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_set_comp_cntr`: the provider's `set_comp_cntr` (ABI 65), its status as it is; EOPNOTSUPP
/// without the op (errno untouched).
pub(crate) fn set(c: CompCntr, value: u64) -> c_int {
    match c.ops().set_comp_cntr {
        // SAFETY: the provider's op on its own counter.
        Some(f) => unsafe { f(c.raw(), value) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_set_err_comp_cntr`: the provider's `set_err_comp_cntr` (ABI 65), its status as it is;
/// EOPNOTSUPP without the op (errno untouched).
pub(crate) fn set_err(c: CompCntr, value: u64) -> c_int {
    match c.ops().set_err_comp_cntr {
        // SAFETY: the provider's op on its own counter.
        Some(f) => unsafe { f(c.raw(), value) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_inc_comp_cntr`: the provider's `inc_comp_cntr` (ABI 65), its status as it is; EOPNOTSUPP
/// without the op (errno untouched).
pub(crate) fn inc(c: CompCntr, amount: u64) -> c_int {
    match c.ops().inc_comp_cntr {
        // SAFETY: the provider's op on its own counter.
        Some(f) => unsafe { f(c.raw(), amount) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_inc_err_comp_cntr`: the provider's `inc_err_comp_cntr` (ABI 65), its status as it is;
/// EOPNOTSUPP without the op (errno untouched).
pub(crate) fn inc_err(c: CompCntr, amount: u64) -> c_int {
    match c.ops().inc_err_comp_cntr {
        // SAFETY: the provider's op on its own counter.
        Some(f) => unsafe { f(c.raw(), amount) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_read_comp_cntr`: the provider's `read_comp_cntr` (ABI 65), its status as it is, `value`
/// handed over as given; EOPNOTSUPP without the op (errno untouched), `*value` untouched.
pub(crate) fn read(c: CompCntr, value: *mut u64) -> c_int {
    match c.ops().read_comp_cntr {
        // SAFETY: the provider's op on its own counter; `value` is the caller's.
        Some(f) => unsafe { f(c.raw(), value) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_read_err_comp_cntr`: the provider's `read_err_comp_cntr` (ABI 65), its status as it is,
/// `value` handed over as given; EOPNOTSUPP without the op (errno untouched), `*value` untouched.
pub(crate) fn read_err(c: CompCntr, value: *mut u64) -> c_int {
    match c.ops().read_err_comp_cntr {
        // SAFETY: the provider's op on its own counter; `value` is the caller's.
        Some(f) => unsafe { f(c.raw(), value) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_qp_attach_comp_cntr`: the provider's `qp_attach_comp_cntr` (ABI 65), its status as it is
/// (counter and attributes handed over as given); EOPNOTSUPP without the op (errno untouched).
pub(crate) fn qp_attach(
    qp: Qp,
    c: *mut ibv_comp_cntr,
    attr: *mut ibv_qp_attach_comp_cntr_attr,
) -> c_int {
    match qp.ops().qp_attach_comp_cntr {
        // SAFETY: the provider's op on its own QP; counter and attributes are the caller's.
        Some(f) => unsafe { f(qp.raw(), c, attr) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_cmd_create_comp_cntr`: sets the counter's context first (as rdma-core, whatever the
/// outcome), then COMP_CNTR_CREATE (ioctl only:
/// [`cmd::counters::create_comp_cntr`](crate::cmd::counters::create_comp_cntr)) with the provider's
/// `link` chain; on success sets the handle.
pub(crate) fn cmd_create(ctx: Ctx, cntr: Ptr<ibv_comp_cntr>, mut link: Chain) -> Result<()> {
    set!(cntr.context = ctx.raw());
    let h = crate::cmd::counters::create_comp_cntr(ctx.channel().cmd(), &mut link)?;
    set!(cntr.handle = h);
    Ok(())
}

/// `ibv_cmd_destroy_comp_cntr`: the counter destroyed by handle (COMP_CNTR_DESTROY:
/// [`cmd::counters::destroy_comp_cntr`](crate::cmd::counters::destroy_comp_cntr)); EIO counts as
/// done on a disassociated device when allowed
/// ([`allow_disassociate`]: `RDMAV_ALLOW_DISASSOC_DESTROY` set).
pub(crate) fn cmd_destroy(c: CompCntr) -> Result<()> {
    // SAFETY: the provider's live counter (the handle's contract).
    let h = unsafe { (*c.raw()).handle };
    let x = c.ctx().channel();
    crate::cmd::counters::destroy_comp_cntr(x.cmd(), h, allow_disassociate())
}

/// `ibv_cmd_set_comp_cntr`, `ibv_cmd_set_err_comp_cntr`, `ibv_cmd_inc_comp_cntr`,
/// `ibv_cmd_inc_err_comp_cntr`: COMP_CNTR_MODIFY
/// ([`cmd::counters::modify_comp_cntr`](crate::cmd::counters::modify_comp_cntr)) of one entry
/// (`IB_UVERBS_COMP_CNTR_ENTRY_*`: COMP or ERR) by one operation
/// (`IB_UVERBS_COMP_CNTR_MODIFY_OP_*`: SET or INC).
pub(crate) fn cmd_modify(c: CompCntr, entry: u32, op: u32, value: u64) -> Result<()> {
    // SAFETY: the provider's live counter (the handle's contract).
    let h = unsafe { (*c.raw()).handle };
    let x = c.ctx().channel();
    crate::cmd::counters::modify_comp_cntr(x.cmd(), h, entry as u8, op as u8, value)
}

/// `ibv_cmd_read_comp_cntr`, `ibv_cmd_read_err_comp_cntr`: COMP_CNTR_READ
/// ([`cmd::counters::read_comp_cntr`](crate::cmd::counters::read_comp_cntr)) of one entry (COMP or
/// ERR) into `*value`.
pub(crate) fn cmd_read(c: CompCntr, entry: u32, value: Ptr<u64>) -> Result<()> {
    // SAFETY: the provider's live counter (the handle's contract).
    let h = unsafe { (*c.raw()).handle };
    let x = c.ctx().channel();
    let v = crate::cmd::counters::read_comp_cntr(x.cmd(), h, entry as u8)?;
    value.write(v);
    Ok(())
}

/// `ibv_cmd_qp_attach_comp_cntr`: QP_ATTACH_COMP_CNTR (ioctl only:
/// [`cmd::counters::qp_attach_comp_cntr`](crate::cmd::counters::qp_attach_comp_cntr)) of the QP's
/// operations in `attr->op_mask` (`IBV_QP_ATTACH_COMP_CNTR_OP_*`; unknown bits are not sent) on the
/// counter.
pub(crate) fn cmd_qp_attach(
    qp: Qp,
    cntr: Ptr<ibv_comp_cntr>,
    attr: Ptr<ibv_qp_attach_comp_cntr_attr>,
) -> Result<()> {
    // SAFETY: a live QP (the handle's contract).
    let qh = unsafe { (*qp.raw()).handle };
    // SAFETY: the provider's counter (`Ptr`).
    let ch = unsafe { (*cntr.as_ptr()).handle };
    let mask = attr.read().op_mask;
    let c = qp.ctx().channel();
    crate::cmd::counters::qp_attach_comp_cntr(c.cmd(), qh, ch, mask)
}

/// `ibv_cmd_query_comp_cntr_caps`' first check: a `caps_size` below the whole struct is EINVAL
/// (rdma-core returns it with errno untouched: the export makes it quiet).
pub(crate) fn check_caps_size(caps_size: usize) -> Result<()> {
    if caps_size < size_of::<ibv_comp_cntr_caps>() {
        return Err(Errno::EINVAL);
    }
    Ok(())
}

/// `ibv_cmd_query_comp_cntr_caps`: after the size check ([`check_caps_size`]), QUERY_COMP_CNTR_CAPS
/// ([`cmd::counters::query_comp_cntr_caps`](crate::cmd::counters::query_comp_cntr_caps)) into
/// `caps`: the maximum number of counters, their maximum value and the
/// `IBV_QP_ATTACH_COMP_CNTR_OP_*` a QP can count. Divergence: NULL `caps` or context gives EINVAL.
pub(crate) fn cmd_query_caps(
    ctx: Option<Ctx>,
    caps: Option<Ptr<ibv_comp_cntr_caps>>,
) -> Result<()> {
    let caps = caps.ok_or(Errno::EINVAL)?;
    let ctx = ctx.ok_or(Errno::EINVAL)?;
    let r = crate::cmd::counters::query_comp_cntr_caps(ctx.channel().cmd())?;
    // SAFETY: the caller's caps (`Ptr`), a whole struct (checked by check_caps_size).
    let c = unsafe { &mut *caps.as_ptr() };
    c.max_counters = r.max_counters;
    c.max_value = r.max_value;
    c.supported_qp_attach_ops = r.supported_qp_attach_ops;
    Ok(())
}
