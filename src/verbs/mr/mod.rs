//! Memory regions, memory windows and library-allocated buffers (rdma-core: verbs.c
//! `ibv_reg_mr_iova2`, `ibv_reg_dmabuf_mr`, `ibv_reg_mr_ex`, `ibv_rereg_mr`, `ibv_dereg_mr`,
//! `ibv_import_mr`, `ibv_alloc_buf`, ...; dummy_ops.c for the defaults of a provider without
//! `reg_mr_ex`/`alloc_buf`; cmd_mr.c, cmd_mw.c, cmd.c for the provider's commands).
//!
//! Registration keeps the pages of an MR out of forked children ([`crate::fork`]: rdma-core's
//! `ibv_dontfork_range`, undone with `ibv_dofork_range` when the registration fails and after
//! deregistration); on-demand (ODP) and dma-buf MRs pin nothing and skip it.
//!
//! Ops that provider ABI 34 lacks (`reg_mr_ex`, `alloc_buf`, `free_buf`) behave as rdma-core's
//! defaults for a provider without them: a `reg_mr_ex` request translates to the provider's
//! `reg_mr` or `reg_dmabuf_mr`, and buffers are plain page-aligned heap memory. The provider's
//! commands (`cmd`) go to [`crate::cmd::mr`] on the context's command channel and store what the
//! kernel answered in the provider's `verbs_mr`; `buf` holds the library-allocated buffers.
//! Called by [`capi::mr`](crate::capi::mr) (and the 1.0 twins) and [`verbs::dm`](crate::verbs::dm).
use core::ffi::{c_int, c_uint, c_void};

pub(crate) mod buf;
pub(crate) mod cmd;

use crate::abi::driver::ibv_mr_type::IBV_MR_TYPE_MR;
use crate::abi::driver::verbs_mr;
use crate::abi::uapi::ib_uverbs_core_support::IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
use crate::abi::verbs::ibv_access_flags::IBV_ACCESS_ON_DEMAND;
use crate::abi::verbs::ibv_mr_init_attr_mask as mask;
use crate::abi::verbs::ibv_rereg_mr_err_code::{self, *};
use crate::abi::verbs::ibv_rereg_mr_flags::{self, *};
use crate::abi::verbs::{IBV_ACCESS_OPTIONAL_RANGE, ibv_buf, ibv_mr, ibv_mr_init_attr, ibv_pd};
use crate::errno::{Errno, Result};
use crate::fork::{ForkAdvice, fork_range};
use crate::verbs::handle::{Ctx, Mr, Pd, Ptr};
use buf::attr_from_buf;

const ODP: c_int = IBV_ACCESS_ON_DEMAND as c_int;
const IOVA: u64 = mask::IBV_REG_MR_MASK_IOVA as u64;
const ADDR: u64 = mask::IBV_REG_MR_MASK_ADDR as u64;
const FD: u64 = mask::IBV_REG_MR_MASK_FD as u64;
const FD_OFFSET: u64 = mask::IBV_REG_MR_MASK_FD_OFFSET as u64;
const DMAH: u64 = mask::IBV_REG_MR_MASK_DMAH as u64;
const BUF: u64 = mask::IBV_REG_MR_MASK_BUF as u64;

/// `MADV_DONTFORK` bookkeeping for a range about to be pinned (`ibv_dontfork_range`).
fn dontfork(addr: *mut c_void, len: usize) -> Result<()> {
    fork_range(addr as usize, len, ForkAdvice::DontFork)
}

/// Release a range's `MADV_DONTFORK` (`ibv_dofork_range`).
fn dofork(addr: *mut c_void, len: usize) -> Result<()> {
    fork_range(addr as usize, len, ForkAdvice::DoFork)
}

/// [`dofork`] on a path whose result is not reported: `errno` stays what it was.
fn dofork_quiet(addr: *mut c_void, len: usize) {
    if !crate::fork::tracking() {
        // Untracked: no system call can change errno (the common case costs two atomics).
        let _ = dofork(addr, len);
        return;
    }
    let e = crate::sys::errno();
    let _ = dofork(addr, len);
    crate::sys::set_errno(e);
}

/// The failure of a provider op that returned NULL: the errno it left.
fn provider_errno() -> Errno {
    Errno(crate::sys::errno())
}

/// `access` without the optional-access bits unless the kernel accepts them (rdma-core checks
/// the device's `core_support`).
fn device_access(ctx: Ctx, access: c_int) -> c_int {
    // SAFETY: an open context (the handle's contract).
    let dev = unsafe { (*ctx.raw()).device };
    let v = crate::verbs::devlist::vdev_of(dev).0;
    let support = if v.is_null() {
        0
    } else {
        // SAFETY: not NULL: the verbs_device of an open context of this library.
        unsafe { (*v).core_support }
    };
    if support & IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS as u64 == 0 {
        access & !(IBV_ACCESS_OPTIONAL_RANGE as c_int)
    } else {
        access
    }
}

/// The common fields rdma-core's registration verbs fill in on a new MR.
fn fill(mr: *mut ibv_mr, pd: Pd, addr: *mut c_void, length: usize) {
    // SAFETY: the MR the provider just made (not NULL), nobody else's yet.
    let m = unsafe { &mut *mr };
    m.context = pd.context();
    m.pd = pd.raw();
    m.addr = addr;
    m.length = length;
}

/// `ibv_reg_mr_iova2`, `ibv_reg_mr`, `ibv_reg_mr_iova`: the provider's `reg_mr` of `length`
/// bytes at `addr` seen at `iova`, the optional-access bits dropped unless the kernel takes them;
/// unless on-demand, the range is marked don't-fork first (its failure: that errno) and released if
/// the provider fails (its errno kept). On success the MR's context, pd, addr and length are set.
#[inline(always)] // the `ibv_reg_mr` rows of `make bench-vm` (the export is this body)
pub(crate) fn reg(
    pd: Pd,
    addr: *mut c_void,
    length: usize,
    iova: u64,
    access: c_uint,
) -> Result<*mut ibv_mr> {
    let op = pd.ops().reg_mr.ok_or(Errno::EOPNOTSUPP)?;
    let access = device_access(pd.ctx(), access as c_int);
    // The on-demand bit is not an optional one: `device_access` keeps it.
    let odp = access & ODP != 0;
    if !odp {
        dontfork(addr, length)?;
    }
    // SAFETY: the provider's op on its own PD.
    let mr = unsafe { op(pd.raw(), addr, length, iova, access) };
    if mr.is_null() {
        return Err(reg_failed(addr, length, odp));
    }
    fill(mr, pd, addr, length);
    Ok(mr)
}

/// [`reg`] after the provider failed: its errno, the range released from fork protection
/// (unless on-demand). Out of line: the success path keeps its registers.
#[cold]
#[inline(never)]
fn reg_failed(addr: *mut c_void, length: usize, odp: bool) -> Errno {
    let e = provider_errno();
    crate::verbs::explain::memlock_hint("ibv_reg_mr", Some(length));
    if !odp {
        let _ = dofork(addr, length);
    }
    e
}

/// `ibv_reg_dmabuf_mr`: the provider's `reg_dmabuf_mr` (nothing of this process is pinned: no fork
/// protection); on success the MR's context, pd and length are set, and `addr` to `offset`.
pub(crate) fn reg_dmabuf(
    pd: Pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
) -> Result<*mut ibv_mr> {
    let op = pd.ops().reg_dmabuf_mr.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own PD.
    let mr = unsafe { op(pd.raw(), offset, length, iova, fd, access) };
    if mr.is_null() {
        return Err(provider_errno());
    }
    fill(mr, pd, offset as usize as *mut c_void, length);
    Ok(mr)
}

/// `ibv_dereg_mr`: the provider's `dereg_mr` status (errno as it left it; a missing op answers
/// EOPNOTSUPP, errno untouched); after success an address-registered, non-ODP MR's range is
/// released from fork protection.
#[inline(always)] // the `ibv_dereg_mr` rows of `make bench-vm` (the export is this body)
pub(crate) fn dereg(mr: Mr) -> c_int {
    let vmr = mr.raw().cast::<verbs_mr>();
    let (addr, length, mr_type, access) = {
        // SAFETY: a live MR of this library's provider: the `ibv_mr` of a `verbs_mr`, read
        // before the provider frees it.
        let v = unsafe { &*vmr };
        (v.ibv_mr.addr, v.ibv_mr.length, v.mr_type, v.access)
    };
    let ret = match mr.ops().dereg_mr {
        // SAFETY: the provider's op on its own MR.
        Some(op) => unsafe { op(vmr) },
        None => libc::EOPNOTSUPP,
    };
    if ret == 0 && mr_type.raw() == IBV_MR_TYPE_MR as u32 && access & ODP == 0 {
        dofork_quiet(addr, length);
    }
    ret
}

/// `ibv_rereg_mr`: changes an MR's translation (`addr`, `length`), PD and/or access through the
/// provider's `rereg_mr`. `IBV_REREG_MR_ERR_INPUT` (-1) with EINVAL: an MR not
/// registered by address, unknown flags, a translation change with no address or length, access
/// bits without CHANGE_ACCESS, CHANGE_PD with a NULL `pd` (a divergence: rdma-core crashes). The
/// other results are 0 or a negative `enum ibv_rereg_mr_err_code`, errno set (here, or by
/// the provider for `_CMD`): `_DONT_FORK_NEW` (-2)
/// when the new range cannot be marked don't-fork; `_CMD` (-4) when the provider fails (without a
/// `rereg_mr`: EOPNOTSUPP), `_CMD_AND_DO_FORK_NEW` (-5) if the new range's mark could not be undone
/// then; `_DO_FORK_OLD` (-3) when the old range's mark cannot be released after success. On success
/// updates `pd` and, with a new translation, `addr` and `length`.
pub(crate) fn rereg(
    mr: Mr,
    flags: c_int,
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> Result<c_int> {
    let m = mr.raw();
    let vmr = m.cast::<verbs_mr>();
    let (mr_type, old_addr, old_len) = {
        // SAFETY: a live MR of this library's provider: the `ibv_mr` of a `verbs_mr`.
        let v = unsafe { &*vmr };
        (v.mr_type, v.ibv_mr.addr, v.ibv_mr.length)
    };
    let f = |bit: ibv_rereg_mr_flags| flags & bit as c_int != 0;
    if mr_type.raw() != IBV_MR_TYPE_MR as u32
        || flags & !(IBV_REREG_MR_FLAGS_SUPPORTED as c_int) != 0
        || (f(IBV_REREG_MR_CHANGE_TRANSLATION) && (length == 0 || addr.is_null()))
        || (access != 0 && !f(IBV_REREG_MR_CHANGE_ACCESS))
        || (f(IBV_REREG_MR_CHANGE_PD) && pd.is_null())
    {
        return Err(Errno::EINVAL);
    }
    let failed = |code: ibv_rereg_mr_err_code, e: Errno| {
        crate::sys::set_errno(e.0);
        Ok(code as c_int)
    };
    let translate = f(IBV_REREG_MR_CHANGE_TRANSLATION);
    if translate {
        if let Err(e) = dontfork(addr, length) {
            return failed(IBV_REREG_MR_ERR_DONT_FORK_NEW, e);
        }
    }
    let err = match mr.ops().rereg_mr {
        // SAFETY: the provider's op on its own MR; `pd` is the caller's.
        Some(op) => unsafe { op(vmr, flags, pd, addr, length, access) },
        None => {
            crate::sys::set_errno(libc::EOPNOTSUPP);
            IBV_REREG_MR_ERR_INPUT as c_int
        }
    };
    if err == 0 {
        // SAFETY: `m` is the live MR's `ibv_mr` (the handle's); the provider's op has
        // returned, so nobody else holds it for the rest of the call.
        let m = unsafe { &mut *m };
        if f(IBV_REREG_MR_CHANGE_PD) {
            m.pd = pd;
        }
        if translate {
            m.addr = addr;
            m.length = length;
            if let Err(e) = dofork(old_addr, old_len) {
                return failed(IBV_REREG_MR_ERR_DO_FORK_OLD, e);
            }
        }
        return Ok(0);
    }
    if translate {
        if let Err(e) = dofork(addr, length) {
            return failed(IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW, e);
        }
    }
    Ok(IBV_REREG_MR_ERR_CMD as c_int)
}

/// `ibv_import_mr`: the MR `handle` of another process sharing the command fd, from the provider's
/// `import_mr`; EOPNOTSUPP when the provider cannot import, else its errno.
pub(crate) fn import(pd: Pd, handle: u32) -> Result<*mut ibv_mr> {
    let op = pd.ops().import_mr.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own PD.
    let mr = unsafe { op(pd.raw(), handle) };
    if mr.is_null() {
        return Err(provider_errno());
    }
    Ok(mr)
}

/// `ibv_unimport_mr`: the provider forgets an imported MR (its `unimport_mr`) without destroying
/// the kernel object.
pub(crate) fn unimport(mr: Mr) {
    if let Some(op) = mr.ops().unimport_mr {
        // SAFETY: the provider's op on its own MR.
        unsafe { op(mr.raw()) }
    }
}

/// `ibv_reg_mr_ex`: registers the memory `mr_init_attr` describes (read only; its `comp_mask` says
/// which of iova, addr, fd, fd_offset, dmah and buf are given, and only those are read): a `buf`
/// from `ibv_alloc_buf` is checked to belong to `pd` and to contain the range (BUF with a NULL
/// `buf` is EINVAL, a divergence: rdma-core crashes); address-based, non-ODP ranges get fork
/// protection as in `ibv_reg_mr_iova2`; then the provider's `reg_mr_ex` (ABI 65), or without one
/// (every ABI-34 provider), as in rdma-core, its `reg_mr` or `reg_dmabuf_mr` (a DMA handle is
/// EOPNOTSUPP). On success sets the MR's context, pd, length, and addr (the address, or
/// `fd_offset` for a dma-buf).
pub(crate) fn reg_ex(pd: Pd, attr: Ptr<ibv_mr_init_attr>) -> Result<*mut ibv_mr> {
    // SAFETY: the caller's attributes (`Ptr`); only the members `comp_mask` names are read.
    let src = unsafe { &*attr.as_ptr() };
    let m = src.comp_mask;
    let has = |bit: u64| m & bit != 0;
    let mut a = empty_attr();
    a.length = src.length;
    a.access = src.access;
    a.comp_mask = m;
    if has(IOVA) {
        a.iova = src.iova;
    }
    if has(ADDR) {
        a.addr = src.addr;
    }
    if has(FD) {
        a.fd = src.fd;
    }
    if has(FD_OFFSET) {
        a.fd_offset = src.fd_offset;
    }
    if has(DMAH) {
        a.dmah = src.dmah;
    }
    if has(BUF) {
        a.buf = src.buf;
    }
    reg_attr(pd, a)
}

/// `ibv_reg_buf_mr`: [`ibv_reg_mr_ex`](reg_attr) of `length` bytes at `addr` inside `buf` (BUF and
/// ADDR given): EINVAL unless `buf` belongs to `pd` and holds the whole range.
pub(crate) fn reg_buf(
    pd: Pd,
    buf: *mut ibv_buf,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> Result<*mut ibv_mr> {
    let mut a = empty_attr();
    a.length = length;
    a.access = access;
    a.comp_mask = BUF | ADDR;
    a.addr = addr;
    a.buf = buf;
    reg_attr(pd, a)
}

/// Attributes with nothing given (NULL pointers, zeros).
fn empty_attr() -> ibv_mr_init_attr {
    ibv_mr_init_attr {
        length: 0,
        access: 0,
        comp_mask: 0,
        iova: 0,
        addr: core::ptr::null_mut(),
        fd: 0,
        fd_offset: 0,
        dmah: core::ptr::null_mut(),
        buf: core::ptr::null_mut(),
    }
}

/// Registration from attributes: a `buf` (EINVAL when NULL) checked to belong to `pd` and to hold
/// the range; address-based, non-ODP ranges protected from fork as in [`reg`]; then the
/// provider's `reg_mr_ex`, or without one (every ABI-34 provider) [`default_reg_mr_ex`]. On
/// success the MR's context, pd, length and addr (the address, or `fd_offset` for a dma-buf).
fn reg_attr(pd: Pd, mut a: ibv_mr_init_attr) -> Result<*mut ibv_mr> {
    if a.comp_mask & BUF != 0 {
        if a.buf.is_null() {
            return Err(Errno::EINVAL);
        }
        attr_from_buf(pd, &mut a)?;
    }
    let need_fork = a.access & ODP == 0 && a.comp_mask & FD == 0;
    if need_fork {
        dontfork(a.addr, a.length)?;
    }
    a.access = device_access(pd.ctx(), a.access);
    let r = match pd.ops().reg_mr_ex {
        // SAFETY: the provider's op on its own PD, with attributes of ours.
        Some(f) => match unsafe { f(pd.raw(), &mut a) } {
            mr if mr.is_null() => Err(provider_errno()),
            mr => Ok(mr),
        },
        None => default_reg_mr_ex(pd, &a),
    };
    match r {
        Ok(mr) => {
            let addr = if a.comp_mask & ADDR != 0 {
                a.addr
            } else {
                a.fd_offset as usize as *mut c_void
            };
            fill(mr, pd, addr, a.length);
            Ok(mr)
        }
        Err(e) => {
            if need_fork {
                let _ = dofork(a.addr, a.length);
            }
            Err(e)
        }
    }
}

/// rdma-core's default `reg_mr_ex` for a provider without one (every provider at ABI 34): an
/// fd-based request (FD with FD_OFFSET and IOVA, no ADDR) goes to `reg_dmabuf_mr`, an
/// address-based one (ADDR, no FD_OFFSET) to `reg_mr` with IOVA or the address; other masks
/// are EINVAL, masks beyond IOVA/ADDR/FD/FD_OFFSET EOPNOTSUPP.
fn default_reg_mr_ex(pd: Pd, a: &ibv_mr_init_attr) -> Result<*mut ibv_mr> {
    let m = a.comp_mask;
    let has = |bit: u64| m & bit != 0;
    if m & !(IOVA | ADDR | FD | FD_OFFSET) != 0 {
        return Err(Errno::EOPNOTSUPP);
    }
    let ops = pd.ops();
    let mr = if has(FD) {
        if has(ADDR) || !has(FD_OFFSET) || !has(IOVA) {
            return Err(Errno::EINVAL);
        }
        let op = ops.reg_dmabuf_mr.ok_or(Errno::EOPNOTSUPP)?;
        // SAFETY: the provider's op on its own PD.
        unsafe { op(pd.raw(), a.fd_offset, a.length, a.iova, a.fd, a.access) }
    } else {
        if !has(ADDR) || has(FD_OFFSET) {
            return Err(Errno::EINVAL);
        }
        let iova = if has(IOVA) {
            a.iova
        } else {
            a.addr as usize as u64
        };
        let op = ops.reg_mr.ok_or(Errno::EOPNOTSUPP)?;
        // SAFETY: the provider's op on its own PD; address and length are the caller's region.
        unsafe { op(pd.raw(), a.addr, a.length, iova, a.access) }
    };
    if mr.is_null() {
        return Err(provider_errno());
    }
    Ok(mr)
}
