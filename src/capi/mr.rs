//! Memory regions and library-allocated buffers (rdma-core: verbs.c, dummy_ops.c).
//!
//! Registration keeps the pages of an MR out of forked children (`crate::fork`: rdma-core's
//! `ibv_dontfork_range`, undone with `ibv_dofork_range` when the registration fails and after
//! deregistration); on-demand (ODP) and dma-buf MRs pin nothing and skip it.
//!
//! Ops that provider ABI 34 lacks (`reg_mr_ex`, `alloc_buf`, `free_buf`) behave as rdma-core's
//! defaults for a provider without them: `ibv_reg_mr_ex` translates to the provider's `reg_mr` or
//! `reg_dmabuf_mr`, and buffers are plain page-aligned heap memory.
//!
//! Divergence throughout: a NULL object, or a NULL `context` inside one, gives EINVAL (or is
//! ignored where there is no return value) where rdma-core would crash.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::{c_int, c_uint, c_void};

use crate::abi::driver::ibv_mr_type::IBV_MR_TYPE_MR;
use crate::abi::driver::verbs_mr;
use crate::abi::uapi::ib_uverbs_core_support::IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
use crate::abi::verbs::ibv_access_flags::IBV_ACCESS_ON_DEMAND;
use crate::abi::verbs::ibv_mr_init_attr_mask as mask;
use crate::abi::verbs::ibv_rereg_mr_err_code::*;
use crate::abi::verbs::ibv_rereg_mr_flags::{self, *};
use crate::abi::verbs::{
    IBV_ACCESS_OPTIONAL_RANGE, ibv_buf, ibv_context, ibv_mr, ibv_mr_init_attr, ibv_pd,
};
use crate::cret::CRet;
use crate::cret::quiet;
use crate::errno::{Errno, Result};
use crate::fork::{ForkAdvice, fork_range};
use crate::verbs::ctxpriv::ops_of;

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

/// [`dofork`] on a path whose result is not reported: `errno` stays what the failure before it
/// left.
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

/// `access` without the optional-access bits unless the kernel accepts them (rdma-core checks
/// the device's `core_support`).
///
/// # Safety
/// `ctx` is an open context of this library.
unsafe fn device_access(ctx: *mut ibv_context, access: c_int) -> c_int {
    // SAFETY: the caller's contract; the device of an open context is one of ours.
    let v = unsafe { crate::verbs::devlist::vdev_of((*ctx).device).0 };
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

/// The context of a PD, or EINVAL for a NULL PD or context.
///
/// # Safety
/// A non-NULL `pd` is a live PD.
unsafe fn pd_ctx(pd: *mut ibv_pd) -> Result<*mut ibv_context> {
    // SAFETY: the caller's contract.
    match unsafe { pd.as_ref() } {
        Some(p) if !p.context.is_null() => Ok(p.context),
        _ => Err(Errno::EINVAL),
    }
}

/// The context of an MR, or EINVAL for a NULL MR or context.
///
/// # Safety
/// A non-NULL `mr` is a live MR.
unsafe fn mr_ctx(mr: *mut ibv_mr) -> Result<*mut ibv_context> {
    // SAFETY: the caller's contract.
    match unsafe { mr.as_ref() } {
        Some(m) if !m.context.is_null() => Ok(m.context),
        _ => Err(Errno::EINVAL),
    }
}

/// The common fields rdma-core's registration verbs fill in on a new MR.
///
/// # Safety
/// `mr` is NULL or a live MR.
unsafe fn fill_mr(
    mr: *mut ibv_mr,
    pd: *mut ibv_pd,
    ctx: *mut ibv_context,
    addr: *mut c_void,
    length: usize,
) {
    // SAFETY: the caller's contract.
    if let Some(m) = unsafe { mr.as_mut() } {
        m.context = ctx;
        m.pd = pd;
        m.addr = addr;
        m.length = length;
    }
}

/// The body of [`ibv_reg_mr`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_reg_mr`].
#[inline(always)]
pub(crate) unsafe fn reg_mr_edge(
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> *mut ibv_mr {
    // SAFETY: the caller's contract.
    unsafe { reg_mr_iova2_edge(pd, addr, length, addr as usize as u64, access as c_uint) }
}

/// `struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)`
///
/// [`ibv_reg_mr_iova2`] with the I/O virtual address equal to `addr`.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_reg_mr(
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> Raw<*mut ibv_mr> {
    // SAFETY: the export's C contract is the body's.
    unsafe { reg_mr_edge(pd, addr, length, access) }
}

/// `struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, int access)`
///
/// [`ibv_reg_mr_iova2`] with a signed `access`.
#[export("IBVERBS_1.7")]
fn ibv_reg_mr_iova(
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    iova: u64,
    access: c_int,
) -> Raw<*mut ibv_mr> {
    // SAFETY: the caller's contract.
    unsafe { reg_mr_iova2_edge(pd, addr, length, iova, access as c_uint) }
}

/// The body of [`ibv_reg_mr_iova2`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_reg_mr_iova2`].
#[inline(always)]
pub(crate) unsafe fn reg_mr_iova2_edge(
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    iova: u64,
    access: c_uint,
) -> *mut ibv_mr {
    // SAFETY: the caller's PD (checked); an open context of this library.
    unsafe {
        let ctx = match pd_ctx(pd) {
            Ok(c) => c,
            Err(e) => return Err(e).ret_null(),
        };
        let Some(op) = ops_of(ctx).reg_mr else {
            return Err(Errno::EOPNOTSUPP).ret_null();
        };
        let odp = access as c_int & ODP != 0;
        let access = device_access(ctx, access as c_int);
        if !odp && let Err(e) = dontfork(addr, length) {
            return Err(e).ret_null();
        }
        let mr = op(pd, addr, length, iova, access);
        if !mr.is_null() {
            fill_mr(mr, pd, ctx, addr, length);
        } else if !odp {
            dofork_quiet(addr, length);
        }
        mr
    }
}

/// `struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access)`
///
/// Registers `length` bytes at `addr`, seen by the device at `iova`, through the provider's
/// `reg_mr`. The optional-access bits are dropped unless the kernel supports them. Unless the MR
/// is on-demand, its pages are first marked don't-fork (failure: NULL with that errno) and
/// released again if the provider fails. On success the MR's context, pd, addr and length are
/// set. NULL with errno on failure.
#[export("IBVERBS_1.8")]
fn ibv_reg_mr_iova2(
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    iova: u64,
    access: c_uint,
) -> Raw<*mut ibv_mr> {
    // SAFETY: the export's C contract is the body's.
    unsafe { reg_mr_iova2_edge(pd, addr, length, iova, access) }
}

/// `struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access)`
///
/// Registers `length` bytes at `offset` of dma-buf `fd` through the provider's `reg_dmabuf_mr`
/// (no fork protection: nothing in this process is pinned). On success the MR's context, pd,
/// `addr = offset` and length are set. NULL with errno on failure.
#[export("IBVERBS_1.12")]
fn ibv_reg_dmabuf_mr(
    pd: *mut ibv_pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
) -> Raw<*mut ibv_mr> {
    // SAFETY: the caller's PD (checked); an open context of this library.
    unsafe {
        let ctx = match pd_ctx(pd) {
            Ok(c) => c,
            Err(e) => return Err(e).ret_null(),
        };
        let Some(op) = ops_of(ctx).reg_dmabuf_mr else {
            return Err(Errno::EOPNOTSUPP).ret_null();
        };
        let mr = op(pd, offset, length, iova, fd, access);
        fill_mr(mr, pd, ctx, offset as usize as *mut c_void, length);
        mr
    }
}

/// Our `struct ibv_buf` (rdma-core v65 driver.h), which only this library creates at provider
/// ABI 34: the buffer, its size, its PD and its dma-buf fd (-1: plain memory).
#[repr(C)]
struct Buf {
    addr: *mut c_void,
    size: usize,
    pd: *mut ibv_pd,
    dmabuf_fd: c_int,
}

/// rdma-core's `fill_mr_init_attr_from_buf`: turn `BUF` into the address (or,
/// for a dma-buf backed buffer, fd) fields. EINVAL unless the buffer belongs to `pd`, `ADDR` is
/// given, the range lies inside the buffer, no FD/FD_OFFSET is given, and (dma-buf) no IOVA.
///
/// # Safety
/// `a.buf` is a live buffer from [`ibv_alloc_buf`].
unsafe fn attr_from_buf(pd: *mut ibv_pd, a: &mut ibv_mr_init_attr) -> Result<()> {
    // SAFETY: the caller's contract.
    let b = unsafe { &*a.buf.cast::<Buf>() };
    let (base, addr) = (b.addr as usize, a.addr as usize);
    let m = a.comp_mask;
    if pd != b.pd || m & ADDR == 0 || addr < base {
        return Err(Errno::EINVAL);
    }
    let off = addr - base;
    if off > b.size || a.length > b.size - off {
        return Err(Errno::EINVAL);
    }
    if m & (FD | FD_OFFSET) != 0 {
        return Err(Errno::EINVAL);
    }
    a.comp_mask &= !(BUF);
    if b.dmabuf_fd != -1 {
        if m & IOVA != 0 {
            return Err(Errno::EINVAL);
        }
        a.comp_mask &= !(ADDR);
        a.comp_mask |= FD | FD_OFFSET | IOVA;
        a.fd = b.dmabuf_fd;
        a.fd_offset = off as u64;
        a.iova = addr as u64;
    }
    Ok(())
}

/// rdma-core's default `reg_mr_ex` for a provider without one (every provider at ABI 34): an
/// fd-based request (FD with FD_OFFSET and IOVA, no ADDR) goes to `reg_dmabuf_mr`, an
/// address-based one (ADDR, no FD_OFFSET) to `reg_mr` with IOVA or the address; other masks
/// are EINVAL, masks beyond IOVA/ADDR/FD/FD_OFFSET EOPNOTSUPP. NULL with errno on failure.
///
/// # Safety
/// `pd` is a PD of the open context `ctx`.
unsafe fn default_reg_mr_ex(
    pd: *mut ibv_pd,
    ctx: *mut ibv_context,
    a: &ibv_mr_init_attr,
) -> *mut ibv_mr {
    let m = a.comp_mask;
    let has = |bit: u64| m & bit != 0;
    let supported = IOVA | ADDR | FD | FD_OFFSET;
    if m & !supported != 0 {
        return Err(Errno::EOPNOTSUPP).ret_null();
    }
    // SAFETY: the caller's contract.
    let ops = unsafe { ops_of(ctx) };
    if has(FD) {
        if has(ADDR) || !has(FD_OFFSET) || !has(IOVA) {
            return Err(Errno::EINVAL).ret_null();
        }
        return match ops.reg_dmabuf_mr {
            // SAFETY: the provider's op on its own PD.
            Some(op) => unsafe { op(pd, a.fd_offset, a.length, a.iova, a.fd, a.access) },
            None => Err(Errno::EOPNOTSUPP).ret_null(),
        };
    }
    if !has(ADDR) || has(FD_OFFSET) {
        return Err(Errno::EINVAL).ret_null();
    }
    let iova = if has(IOVA) {
        a.iova
    } else {
        a.addr as usize as u64
    };
    match ops.reg_mr {
        // SAFETY: as above.
        Some(op) => unsafe { op(pd, a.addr, a.length, iova, a.access) },
        None => Err(Errno::EOPNOTSUPP).ret_null(),
    }
}

/// The body of [`ibv_reg_mr_ex`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_reg_mr_ex`].
#[inline(always)]
pub(crate) unsafe fn reg_mr_ex_edge(
    pd: *mut ibv_pd,
    mr_init_attr: *mut ibv_mr_init_attr,
) -> *mut ibv_mr {
    // SAFETY: the caller's PD and attributes (checked for NULL); an open context of this library.
    unsafe {
        let ctx = match pd_ctx(pd) {
            Ok(c) if !mr_init_attr.is_null() => c,
            _ => return Err(Errno::EINVAL).ret_null(),
        };
        let src = &*mr_init_attr;
        let m = src.comp_mask;
        let has = |bit: u64| m & bit != 0;
        let mut a: ibv_mr_init_attr = core::mem::zeroed();
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
            if src.buf.is_null() {
                return Err(Errno::EINVAL).ret_null();
            }
            a.buf = src.buf;
            if let Err(e) = attr_from_buf(pd, &mut a) {
                return Err(e).ret_null();
            }
        }
        let need_fork = a.access & ODP == 0 && a.comp_mask & FD == 0;
        if need_fork && let Err(e) = dontfork(a.addr, a.length) {
            return Err(e).ret_null();
        }
        a.access = device_access(ctx, a.access);
        let mr = match ops_of(ctx).reg_mr_ex {
            Some(f) => f(pd, &mut a),
            None => default_reg_mr_ex(pd, ctx, &a),
        };
        if !mr.is_null() {
            let addr = if a.comp_mask & ADDR != 0 {
                a.addr
            } else {
                a.fd_offset as usize as *mut c_void
            };
            fill_mr(mr, pd, ctx, addr, a.length);
        } else if need_fork {
            dofork_quiet(a.addr, a.length);
        }
        mr
    }
}

/// `struct ibv_mr *ibv_reg_mr_ex(struct ibv_pd *pd, struct ibv_mr_init_attr *mr_init_attr)`
///
/// Registers memory described by `mr_init_attr` (read only; its `comp_mask` says which of iova,
/// addr, fd, fd_offset, dmah and buf are given). A `buf` from [`ibv_alloc_buf`] is checked to
/// belong to `pd` and to contain the range. Address-based, non-ODP ranges get fork protection as
/// in [`ibv_reg_mr_iova2`]. The request then goes to the provider's `reg_mr_ex` (ABI 65); without
/// one (every ABI-34 provider), as in rdma-core, it is served by the provider's `reg_mr` or
/// `reg_dmabuf_mr` (a DMA handle is EOPNOTSUPP). On
/// success sets the MR's context, pd, length, and addr (the address, or `fd_offset` for a
/// dma-buf). NULL with errno on failure. Divergence: a NULL `mr_init_attr`, or BUF with a NULL
/// `buf`, gives EINVAL.
#[export("IBVERBS_1.15")]
fn ibv_reg_mr_ex(pd: *mut ibv_pd, mr_init_attr: *mut ibv_mr_init_attr) -> Raw<*mut ibv_mr> {
    // SAFETY: the export's C contract is the body's.
    unsafe { reg_mr_ex_edge(pd, mr_init_attr) }
}

/// `int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr, size_t length, int access)`
///
/// Changes an MR's translation (`addr`, `length`), PD and/or access through the provider's
/// `rereg_mr`. Returns 0 or an `enum ibv_rereg_mr_err_code`, errno set:
/// `IBV_REREG_MR_ERR_INPUT` (-1, EINVAL) for an MR not registered by address, unknown flags, a
/// translation change with no address or length, or access bits without CHANGE_ACCESS;
/// `_DONT_FORK_NEW` (-2) when the new range cannot be marked don't-fork; `_CMD` (-4) when the
/// provider fails (a provider without the op: EOPNOTSUPP), `_CMD_AND_DO_FORK_NEW` (-5) if the new
/// range's mark could not be undone then; `_DO_FORK_OLD` (-3) when the old range's mark cannot be
/// released after success. On success updates `pd` and, with a new translation, `addr` and
/// `length`. Divergence: a NULL `mr`, or CHANGE_PD with a NULL `pd`, gives -1 with EINVAL.
#[export("IBVERBS_1.1")]
fn ibv_rereg_mr(
    mr: *mut ibv_mr,
    flags: c_int,
    pd: *mut ibv_pd,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> Raw<c_int> {
    let input = || Err::<c_int, _>(Errno::EINVAL).ret_minus_one();
    // SAFETY: the caller's MR (checked for NULL); its context is an open one of this library.
    unsafe {
        let Ok(ctx) = mr_ctx(mr) else { return input() };
        let vmr = mr.cast::<verbs_mr>();
        let f = |bit: ibv_rereg_mr_flags| flags & bit as c_int != 0;
        if (*vmr).mr_type.raw() != IBV_MR_TYPE_MR as u32
            || flags & !(IBV_REREG_MR_FLAGS_SUPPORTED as c_int) != 0
            || (f(IBV_REREG_MR_CHANGE_TRANSLATION) && (length == 0 || addr.is_null()))
            || (access != 0 && !f(IBV_REREG_MR_CHANGE_ACCESS))
            || (f(IBV_REREG_MR_CHANGE_PD) && pd.is_null())
        {
            return input();
        }
        let translate = f(IBV_REREG_MR_CHANGE_TRANSLATION);
        if translate && let Err(e) = dontfork(addr, length) {
            crate::sys::set_errno(e.0);
            return IBV_REREG_MR_ERR_DONT_FORK_NEW as c_int;
        }
        let (old_addr, old_len) = ((*mr).addr, (*mr).length);
        let err = match ops_of(ctx).rereg_mr {
            Some(op) => op(vmr, flags, pd, addr, length, access),
            None => {
                crate::sys::set_errno(libc::EOPNOTSUPP);
                IBV_REREG_MR_ERR_INPUT as c_int
            }
        };
        if err == 0 {
            if f(IBV_REREG_MR_CHANGE_PD) {
                (*mr).pd = pd;
            }
            if translate {
                (*mr).addr = addr;
                (*mr).length = length;
                if let Err(e) = dofork(old_addr, old_len) {
                    crate::sys::set_errno(e.0);
                    return IBV_REREG_MR_ERR_DO_FORK_OLD as c_int;
                }
            }
            return 0;
        }
        if translate && let Err(e) = dofork(addr, length) {
            crate::sys::set_errno(e.0);
            return IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW as c_int;
        }
        IBV_REREG_MR_ERR_CMD as c_int
    }
}

/// The body of [`ibv_dereg_mr`], which its IBVERBS_1.0 twin (or a sibling export) shares: no export
/// calls another.
///
/// # Safety
/// The C contract of [`ibv_dereg_mr`].
#[inline(always)]
pub(crate) unsafe fn dereg_mr_edge(mr: *mut ibv_mr) -> c_int {
    // SAFETY: the caller's MR (checked for NULL); its context is an open one of this library.
    unsafe {
        let ctx = match mr_ctx(mr) {
            Ok(c) => c,
            Err(e) => return e.ret_errno(),
        };
        let vmr = mr.cast::<verbs_mr>();
        let (addr, length, mr_type, access) =
            ((*mr).addr, (*mr).length, (*vmr).mr_type, (*vmr).access);
        let ret = match ops_of(ctx).dereg_mr {
            Some(op) => op(vmr),
            None => quiet(Errno::EOPNOTSUPP),
        };
        if ret == 0 && mr_type.raw() == IBV_MR_TYPE_MR as u32 && access & ODP == 0 {
            dofork_quiet(addr, length);
        }
        ret
    }
}

/// `int ibv_dereg_mr(struct ibv_mr *mr)`
///
/// The provider's `dereg_mr`: 0, or the positive errno it returns (errno as the provider left
/// it). After success an address-registered, non-ODP MR's range is released from fork
/// protection.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_dereg_mr(mr: *mut ibv_mr) -> Raw<c_int> {
    // SAFETY: the export's C contract is the body's.
    unsafe { dereg_mr_edge(mr) }
}

/// `struct ibv_mr *ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle)`
///
/// The MR with `mr_handle` of another process sharing the command fd, from the provider's
/// `import_mr`. NULL with errno on failure (EOPNOTSUPP when the provider cannot import).
#[export("IBVERBS_1.10")]
fn ibv_import_mr(pd: *mut ibv_pd, mr_handle: u32) -> Raw<*mut ibv_mr> {
    // SAFETY: the caller's PD (checked); an open context of this library.
    unsafe {
        let ctx = match pd_ctx(pd) {
            Ok(c) => c,
            Err(e) => return Err(e).ret_null(),
        };
        match ops_of(ctx).import_mr {
            Some(op) => op(pd, mr_handle),
            None => Err(Errno::EOPNOTSUPP).ret_null(),
        }
    }
}

/// `void ibv_unimport_mr(struct ibv_mr *mr)`
///
/// Forgets an imported MR (the provider's `unimport_mr`) without destroying the kernel object.
#[export("IBVERBS_1.10")]
fn ibv_unimport_mr(mr: *mut ibv_mr) -> Raw<()> {
    // SAFETY: the caller's MR (checked); an open context of this library.
    unsafe {
        if let Ok(ctx) = mr_ctx(mr)
            && let Some(op) = ops_of(ctx).unimport_mr
        {
            op(mr);
        }
    }
}

/// `void *ibv_alloc_buf(struct ibv_pd *pd, size_t size, struct ibv_buf **buf)`
///
/// The provider's `alloc_buf` (ABI 65; mlx5 may place the buffer in a dma-buf heap). Without one
/// (every ABI-34 provider), rdma-core's default: `size` bytes of page-aligned memory for
/// registering on `pd`. `*buf` receives the handle for [`ibv_reg_buf_mr`] and [`ibv_free_buf`].
/// The memory, or NULL with errno (ENOMEM). Divergence: a NULL `pd` or `buf` gives EINVAL.
#[export("IBVERBS_1.17")]
fn ibv_alloc_buf(pd: *mut ibv_pd, size: usize, buf: *mut *mut ibv_buf) -> Raw<*mut c_void> {
    // SAFETY: the caller's PD (checked).
    let ctx = match unsafe { pd_ctx(pd) } {
        Ok(c) if !buf.is_null() => c,
        _ => return Err(Errno::EINVAL).ret_null(),
    };
    // SAFETY: an open context; the provider's op takes what the caller gave.
    if let Some(f) = unsafe { ops_of(ctx).alloc_buf } {
        // SAFETY: as above; on success the provider stored its handle into `*buf`.
        let p = unsafe { f(pd, size, buf) };
        if !p.is_null() {
            // SAFETY: the caller's out-pointer, just written by the provider.
            BUFS.give(unsafe { *buf });
        }
        return p;
    }
    let p = match crate::sys::heap::page_aligned_alloc(size) {
        Ok(p) => p,
        Err(e) => return Err(e).ret_null(),
    };
    // The handle is malloc'd, as rdma-core's: a provider's `free_buf` may be handed it.
    // SAFETY: calloc of one Buf.
    let b = unsafe { libc::calloc(1, size_of::<Buf>()) }.cast::<Buf>();
    if b.is_null() {
        // SAFETY: p came from posix_memalign just now.
        unsafe { libc::free(p) };
        return Err(Errno::ENOMEM).ret_null();
    }
    // SAFETY: b is a fresh, suitably aligned allocation of one Buf; the caller's out-pointer.
    unsafe {
        b.write(Buf {
            addr: p,
            size,
            pd,
            dmabuf_fd: -1,
        });
        *buf = BUFS.give(b).cast();
    }
    p
}

/// The `ibv_buf` handles [`ibv_alloc_buf`] handed out and [`ibv_free_buf`] has not freed.
static BUFS: crate::verbs::handed::Handed = crate::verbs::handed::Handed::new("ibv_buf");

/// `void ibv_free_buf(struct ibv_buf *buf)`
///
/// Frees a buffer from [`ibv_alloc_buf`] and its handle (deregister its MRs first), by the
/// provider's `free_buf` where its `alloc_buf` made it (ABI 65). NULL is ignored. Divergence: so
/// is a handle [`ibv_alloc_buf`] did not hand out (rdma-core frees it: libc aborts the process).
#[export("IBVERBS_1.17")]
fn ibv_free_buf(buf: *mut ibv_buf) -> Raw<()> {
    if buf.is_null() || !BUFS.take(buf) {
        return;
    }
    // SAFETY: a handle from ibv_alloc_buf: its PD's context is the one that allocated it, and an
    // ABI-65 provider with `alloc_buf` frees its own buffers.
    unsafe {
        let pd = (*buf.cast::<Buf>()).pd;
        if !pd.is_null()
            && !(*pd).context.is_null()
            && let Some(f) = ops_of((*pd).context).free_buf
        {
            return f(buf);
        }
    }
    // SAFETY: a handle from ibv_alloc_buf (a calloc'd Buf) whose memory came from posix_memalign.
    unsafe {
        libc::free((*buf.cast::<Buf>()).addr);
        libc::free(buf.cast());
    }
}

/// `struct ibv_mr *ibv_reg_buf_mr(struct ibv_pd *pd, struct ibv_buf *buf, void *addr, size_t length, int access)`
///
/// [`ibv_reg_mr_ex`] of `length` bytes at `addr` inside `buf` (BUF and ADDR given): NULL with
/// EINVAL unless `buf` belongs to `pd` and holds the whole range.
#[export("IBVERBS_1.17")]
fn ibv_reg_buf_mr(
    pd: *mut ibv_pd,
    buf: *mut ibv_buf,
    addr: *mut c_void,
    length: usize,
    access: c_int,
) -> Raw<*mut ibv_mr> {
    // SAFETY: zeroed plain data (NULL pointers).
    let mut a: ibv_mr_init_attr = unsafe { core::mem::zeroed() };
    a.length = length;
    a.access = access;
    a.comp_mask = BUF | ADDR;
    a.addr = addr;
    a.buf = buf;
    // SAFETY: the caller's contract.
    unsafe { reg_mr_ex_edge(pd, &mut a) }
}

/// `int ibv_export_buf_dmabuf_fd(struct ibv_buf *buf)`
///
/// A new close-on-exec duplicate of a dma-buf backed buffer's fd, or -1 with errno: ENODATA for
/// plain memory (every buffer at provider ABI 34), else fcntl's. Divergence: NULL gives -1 with
/// EINVAL.
#[export("IBVERBS_1.18")]
fn ibv_export_buf_dmabuf_fd(buf: *mut ibv_buf) -> Raw<c_int> {
    // SAFETY: a handle from ibv_alloc_buf, or NULL.
    let Some(b) = (unsafe { buf.cast::<Buf>().as_ref() }) else {
        return Err(Errno::EINVAL).ret_minus_one();
    };
    if b.dmabuf_fd < 0 {
        return Err(Errno(libc::ENODATA)).ret_minus_one();
    }
    // SAFETY: fcntl on an fd number; failure is reported through errno.
    unsafe { libc::fcntl(b.dmabuf_fd, libc::F_DUPFD_CLOEXEC, 0) }
}

#[cfg(test)]
#[path = "mr_tests.rs"]
mod tests;
