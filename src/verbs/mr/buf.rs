//! Library-allocated buffers (rdma-core v65: verbs.c `ibv_alloc_buf`, `ibv_free_buf`,
//! `ibv_export_buf_dmabuf_fd`; dummy_ops.c's defaults; `fill_mr_init_attr_from_buf`): the
//! provider's `alloc_buf`/`free_buf` where it has them (ABI 65), else plain page-aligned memory
//! with a handle of ours. Called by [`capi::mr`](crate::capi::mr) and
//! [`verbs::mr`](crate::verbs::mr).
use core::ffi::{c_int, c_void};

use super::{ADDR, BUF, FD, FD_OFFSET, IOVA, provider_errno};
use crate::abi::verbs::{ibv_buf, ibv_mr_init_attr, ibv_pd};
use crate::errno::{Errno, Result};
use crate::verbs::handle::{Pd, Ptr};

/// Our `struct ibv_buf` (rdma-core v65 driver.h), which only this library creates at provider
/// ABI 34: the buffer, its size, its PD and its dma-buf fd (-1: plain memory).
#[repr(C)]
struct Buf {
    addr: *mut c_void,
    size: usize,
    pd: *mut ibv_pd,
    dmabuf_fd: c_int,
}

/// rdma-core's `fill_mr_init_attr_from_buf`: turn `BUF` into the address (or, for a dma-buf
/// backed buffer, fd) fields. EINVAL unless the buffer belongs to `pd`, `ADDR` is given, the
/// range lies inside the buffer, no FD/FD_OFFSET is given, and (dma-buf) no IOVA.
pub(super) fn attr_from_buf(pd: Pd, a: &mut ibv_mr_init_attr) -> Result<()> {
    // SAFETY: the caller's contract: a live buffer from `ibv_alloc_buf` (not NULL: checked).
    let b = unsafe { &*a.buf.cast::<Buf>() };
    let (base, addr) = (b.addr as usize, a.addr as usize);
    let m = a.comp_mask;
    if pd.raw() != b.pd || m & ADDR == 0 || addr < base {
        return Err(Errno::EINVAL);
    }
    let off = addr - base;
    if off > b.size || a.length > b.size - off {
        return Err(Errno::EINVAL);
    }
    if m & (FD | FD_OFFSET) != 0 {
        return Err(Errno::EINVAL);
    }
    a.comp_mask &= !BUF;
    if b.dmabuf_fd != -1 {
        if m & IOVA != 0 {
            return Err(Errno::EINVAL);
        }
        a.comp_mask &= !ADDR;
        a.comp_mask |= FD | FD_OFFSET | IOVA;
        a.fd = b.dmabuf_fd;
        a.fd_offset = off as u64;
        a.iova = addr as u64;
    }
    Ok(())
}

/// The `ibv_buf` handles [`alloc_buf`] handed out and [`free_buf`] has not freed.
static BUFS: crate::verbs::handed::Handed = crate::verbs::handed::Handed::new("ibv_buf");

/// `ibv_alloc_buf`: the provider's `alloc_buf` (ABI 65; mlx5 may place the buffer in a dma-buf
/// heap), else (every ABI-34 provider) rdma-core's default: `size` bytes of page-aligned memory for
/// registering on `pd`, and a handle of ours (malloc'd, as rdma-core's: a provider's `free_buf` may
/// be handed it) in `*buf`, for [`ibv_reg_buf_mr`](super::reg_buf) and
/// [`ibv_free_buf`](free_buf). ENOMEM when there is no memory.
pub(crate) fn alloc_buf(pd: Pd, size: usize, buf: Ptr<*mut ibv_buf>) -> Result<*mut c_void> {
    if let Some(f) = pd.ops().alloc_buf {
        // SAFETY: the provider's op on its own PD; on success it stored its handle into `*buf`.
        let p = unsafe { f(pd.raw(), size, buf.as_ptr()) };
        if p.is_null() {
            return Err(provider_errno());
        }
        BUFS.give(buf.read());
        return Ok(p);
    }
    let p = crate::sys::heap::page_aligned_alloc(size)?;
    // SAFETY: calloc of one Buf.
    let b = unsafe { libc::calloc(1, size_of::<Buf>()) }.cast::<Buf>();
    if b.is_null() {
        // SAFETY: p came from posix_memalign just now.
        unsafe { libc::free(p) };
        return Err(Errno::ENOMEM);
    }
    let v = Buf {
        addr: p,
        size,
        pd: pd.raw(),
        dmabuf_fd: -1,
    };
    // SAFETY: b is a fresh, suitably aligned allocation of one Buf.
    unsafe { b.write(v) };
    buf.write(BUFS.give(b).cast());
    Ok(p)
}

/// `ibv_free_buf`: frees a buffer [`ibv_alloc_buf`](alloc_buf) handed out and its handle, by the
/// provider's `free_buf` where its `alloc_buf` made it (ABI 65). Its MRs are to be deregistered
/// first. NULL is ignored. Divergence: so is a handle `ibv_alloc_buf` did not hand out (rdma-core
/// frees it: libc aborts the process).
pub(crate) fn free_buf(buf: Ptr<ibv_buf>) {
    let b = buf.as_ptr();
    if !BUFS.take(b) {
        return;
    }
    // SAFETY: a handle from alloc_buf: a live Buf, or the provider's own.
    let pd = unsafe { (*b.cast::<Buf>()).pd };
    // SAFETY: the buffer's PD, live while its buffers are (the C contract).
    let free_buf = unsafe { Pd::from_raw(pd) }
        .ok()
        .and_then(|pd| pd.ops().free_buf);
    if let Some(f) = free_buf {
        // SAFETY: an ABI-65 provider with `alloc_buf` frees its own buffers.
        return unsafe { f(b) };
    }
    // SAFETY: our Buf: its memory came from posix_memalign.
    let addr = unsafe { (*b.cast::<Buf>()).addr };
    // SAFETY: our Buf's memory came from posix_memalign; freed once (taken back from BUFS).
    unsafe { libc::free(addr) };
    // SAFETY: the calloc'd handle, freed once.
    unsafe { libc::free(b.cast()) };
}

/// `ibv_export_buf_dmabuf_fd`: a new close-on-exec duplicate of a dma-buf backed buffer's fd
/// (fcntl's -1 and errno passed on); ENODATA for plain memory (every buffer at provider ABI 34).
pub(crate) fn export_buf_dmabuf_fd(buf: Ptr<ibv_buf>) -> Result<c_int> {
    // SAFETY: a handle from alloc_buf (the C contract).
    let fd = unsafe { (*buf.as_ptr().cast::<Buf>()).dmabuf_fd };
    if fd < 0 {
        return Err(Errno(libc::ENODATA));
    }
    // SAFETY: fcntl on an fd number; failure is reported through errno.
    Ok(unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) })
}
