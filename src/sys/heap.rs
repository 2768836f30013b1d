//! The system calls of the dma-buf heap allocator (`capi::pabi::heap`; rdma-core v65
//! `libibverbs/dmabuf_heap.c`), of `ibv_alloc_buf`'s page-aligned allocation, and of the event
//! fds' reads: open, the heap's allocation ioctl, shared mappings, `read`, `posix_memalign`.
use core::ffi::{CStr, c_int, c_void};

use crate::errno::{Errno, Result};

/// `struct dma_heap_allocation_data` (`linux/dma-heap.h`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct dma_heap_allocation_data {
    pub len: u64,
    pub fd: u32,
    pub fd_flags: u32,
    pub heap_flags: u64,
}

/// `DMA_HEAP_IOCTL_ALLOC`: `_IOWR('H', 0x0, struct dma_heap_allocation_data)`.
pub const DMA_HEAP_IOCTL_ALLOC: libc::c_ulong =
    crate::abi::uapi::iowr(b'H' as u32, 0, size_of::<dma_heap_allocation_data>()) as libc::c_ulong;

/// `open(path, O_RDWR | O_CLOEXEC)`: the fd, or open()'s errno.
pub fn open_rw(path: &CStr) -> Result<c_int> {
    // SAFETY: a NUL-terminated path.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    if fd < 0 {
        Err(Errno(super::errno()))
    } else {
        Ok(fd)
    }
}

/// `DMA_HEAP_IOCTL_ALLOC` of `len` bytes on the heap `heap_fd`: the new dma-buf's fd.
pub fn heap_alloc(heap_fd: c_int, len: u64) -> Result<c_int> {
    let mut data = dma_heap_allocation_data {
        len,
        fd: 0,
        fd_flags: (libc::O_RDWR | libc::O_CLOEXEC) as u32,
        heap_flags: 0,
    };
    // SAFETY: the request struct DMA_HEAP_IOCTL_ALLOC reads and writes, owned here.
    if unsafe { libc::ioctl(heap_fd, DMA_HEAP_IOCTL_ALLOC, &mut data) } < 0 {
        return Err(Errno(super::errno()));
    }
    Ok(data.fd as c_int)
}

/// A fresh read-write shared mapping of `size` bytes of `fd`, or mmap()'s errno.
pub fn mmap_shared(fd: c_int, size: usize) -> Result<*mut c_void> {
    // SAFETY: a new mapping at an address the kernel picks; no existing memory is touched.
    let p = unsafe {
        libc::mmap(
            core::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        Err(Errno(super::errno()))
    } else {
        Ok(p)
    }
}

/// Unmap `size` bytes at `addr`.
///
/// # Safety
/// `addr`/`size` is a mapping of this process that nothing uses any more.
pub unsafe fn munmap(addr: *mut c_void, size: usize) {
    // SAFETY: the caller's contract.
    unsafe { libc::munmap(addr, size) };
}

/// One `read(fd, buf)` that must fill `buf`: Ok when it did; read()'s errno when it failed, EIO
/// when it read short. The one comparison with `buf.len()` decides the common case; which
/// failure it was is sorted out off the fast path.
#[inline]
pub fn read_whole(fd: c_int, buf: &mut [u8]) -> Result<()> {
    // SAFETY: reads at most buf.len() bytes into the caller's slice.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    if n as usize == buf.len() {
        Ok(())
    } else {
        Err(read_failure(n))
    }
}

/// One whole `T` read from `fd` into memory nobody zeroes first (the event records: the kernel
/// writes every byte of a record it returns): Ok when `read` returned all `size_of::<T>()`
/// bytes; read()'s errno when it failed, EIO when it read short.
#[inline(always)]
pub fn read_pod<T: crate::sys::pod::Pod>(fd: c_int) -> Result<T> {
    let mut rec = core::mem::MaybeUninit::<T>::uninit();
    // SAFETY: reads at most size_of::<T>() bytes into rec's own storage.
    let n = unsafe { libc::read(fd, rec.as_mut_ptr().cast(), size_of::<T>()) };
    if n as usize == size_of::<T>() {
        // SAFETY: read() wrote all size_of::<T>() bytes, and every bit pattern is a valid T
        // (Pod).
        Ok(unsafe { rec.assume_init() })
    } else {
        Err(read_failure(n))
    }
}

/// Why a [`read_whole`] or [`read_pod`] returned `n`: read()'s errno when negative, else EIO (short).
#[cold]
#[inline(never)]
fn read_failure(n: isize) -> Errno {
    if n < 0 {
        Errno(super::errno())
    } else {
        Errno(libc::EIO)
    }
}

/// `size` bytes aligned to the page size from libc (`posix_memalign`), to be freed with `free`;
/// posix_memalign's errno on failure.
pub fn page_aligned_alloc(size: usize) -> Result<*mut c_void> {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let mut p: *mut c_void = core::ptr::null_mut();
    // SAFETY: p is ours; the alignment is the (power-of-two) page size.
    let r = unsafe { libc::posix_memalign(&mut p, page.max(1) as usize, size) };
    if r != 0 { Err(Errno(r)) } else { Ok(p) }
}
