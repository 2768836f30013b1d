//! The dma-buf heap allocator of IBVERBS_PRIVATE_65 (rdma-core v65: `libibverbs/dmabuf_heap.c`):
//! buffers from a Linux DMA-BUF heap (`/dev/dma_heap/<name>`), mapped into the process, for
//! providers that must place queues in memory shared with the device under confidential
//! computing (mlx5 uses the `system_cc_shared` heap).
//!
//! The kernel interface is one ioctl on the heap's fd, `DMA_HEAP_IOCTL_ALLOC`
//! (`linux/dma-heap.h`): a length and fd flags in, a dma-buf fd out; the buffer is that fd
//! mapped shared. Divergence: NULL arguments give EINVAL (rdma-core crashes),
//! `ibv_dmabuf_heap_destroy(NULL)` does nothing, and `ibv_dmabuf_heap_free` unmaps only a buffer
//! this library mapped, by the length it mapped (rdma-core unmaps whatever range it is given: a
//! wrong address or a huge size unmaps the process's own memory).
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::{c_int, c_void};
use std::ffi::CString;

use crate::cret::CRet;
use crate::errno::{Errno, Result};

pub use crate::sys::heap::{DMA_HEAP_IOCTL_ALLOC, dma_heap_allocation_data};

/// Where the kernel puts the heaps' device nodes.
pub const DMA_HEAP_DIR: &str = "/dev/dma_heap";

/// The confidential-computing shared heap `ibv_dmabuf_heap_cc_shared_init` opens.
pub const CC_SHARED_HEAP: &str = "system_cc_shared";

/// `struct ibv_dmabuf_heap`: an open heap (opaque to callers).
#[repr(C)]
pub struct ibv_dmabuf_heap {
    heap_fd: c_int,
}

/// Open heap `name` under `dir` (read-write, close-on-exec). The heap, or open()'s errno
/// (ENOENT where the kernel has no such heap); EINVAL for a name with a NUL or a slash.
pub fn heap_open(dir: &str, name: &str) -> Result<Box<ibv_dmabuf_heap>> {
    if name.is_empty() || name.contains('/') {
        return Err(Errno::EINVAL);
    }
    let path = CString::new(format!("{dir}/{name}")).map_err(|_| Errno::EINVAL)?;
    let fd = crate::sys::heap::open_rw(&path)?;
    Ok(Box::new(ibv_dmabuf_heap { heap_fd: fd }))
}

/// Allocate `size` bytes from the open heap and map them shared: (address, dma-buf fd). On
/// failure nothing is left open: the ioctl's or mmap's errno.
pub fn heap_alloc(heap: &ibv_dmabuf_heap, size: usize) -> Result<(*mut c_void, c_int)> {
    let fd = crate::sys::heap::heap_alloc(heap.heap_fd, size as u64)?;
    let p = crate::sys::heap::mmap_shared(fd, size).inspect_err(|_| crate::sys::cdev::close(fd))?;
    Ok((p, fd))
}

/// The heaps [`ibv_dmabuf_heap_cc_shared_init`] handed out and [`ibv_dmabuf_heap_destroy`] has
/// not destroyed.
pub(crate) static HEAPS: crate::verbs::handed::Handed =
    crate::verbs::handed::Handed::new("dma-buf heap");

/// The buffers [`ibv_dmabuf_heap_alloc`] mapped and [`ibv_dmabuf_heap_free`] has not unmapped,
/// with their lengths.
pub(crate) static BUFFERS: crate::verbs::handed::Handed =
    crate::verbs::handed::Handed::new("dma-buf heap buffer");

/// `struct ibv_dmabuf_heap *ibv_dmabuf_heap_cc_shared_init(void)`
///
/// Opens the confidential-computing shared heap `/dev/dma_heap/system_cc_shared`. The heap, or
/// NULL with errno (open()'s: ENOENT on a kernel without that heap).
#[export(PRIVATE 64..)]
fn ibv_dmabuf_heap_cc_shared_init() -> Raw<*mut ibv_dmabuf_heap> {
    heap_open(DMA_HEAP_DIR, CC_SHARED_HEAP)
        .map(|h| HEAPS.give(Box::into_raw(h)))
        .ret_null()
}

/// `void ibv_dmabuf_heap_destroy(struct ibv_dmabuf_heap *heap)`
///
/// Closes the heap and frees its handle (buffers already allocated stay valid until freed).
/// NULL is ignored. Divergence: so is a heap this library did not hand out (rdma-core frees it:
/// libc aborts the process).
#[export(PRIVATE 64..)]
fn ibv_dmabuf_heap_destroy(heap: *mut ibv_dmabuf_heap) -> Raw<()> {
    if heap.is_null() || !HEAPS.take(heap) {
        return;
    }
    // SAFETY: a handle from ibv_dmabuf_heap_cc_shared_init (a leaked Box).
    let h = unsafe { Box::from_raw(heap) };
    crate::sys::cdev::close(h.heap_fd);
}

/// `void *ibv_dmabuf_heap_alloc(struct ibv_dmabuf_heap *heap, size_t size, int *dmabuf_fd)`
///
/// `size` bytes from the heap, mapped read-write and shared; `*dmabuf_fd` receives the buffer's
/// dma-buf fd (close-on-exec). The address, or NULL with errno (the ioctl's or mmap's), with
/// nothing left open. Divergence: a NULL `heap` or `dmabuf_fd` gives EINVAL.
#[export(PRIVATE 64..)]
fn ibv_dmabuf_heap_alloc(
    heap: *mut ibv_dmabuf_heap,
    size: usize,
    dmabuf_fd: *mut c_int,
) -> Raw<*mut c_void> {
    // SAFETY: a handle from ibv_dmabuf_heap_cc_shared_init, or NULL.
    let Some(h) = (unsafe { heap.as_ref() }) else {
        return Err(Errno::EINVAL).ret_null();
    };
    if dmabuf_fd.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    match heap_alloc(h, size) {
        Ok((p, fd)) => {
            // SAFETY: the caller's out-pointer.
            unsafe { *dmabuf_fd = fd };
            BUFFERS.give_sized(p, size)
        }
        Err(e) => Err(e).ret_null(),
    }
}

/// `void ibv_dmabuf_heap_free(void *buf, size_t size, int dmabuf_fd)`
///
/// Unmaps a buffer from [`ibv_dmabuf_heap_alloc`] and closes its dma-buf fd. Divergence: an
/// address this library did not map (or already unmapped) is not unmapped (logged at debug
/// level), and a buffer is unmapped by the length it was mapped with (a different `size` is
/// logged); the fd is closed either way, as rdma-core closes it.
#[export(PRIVATE 64..)]
fn ibv_dmabuf_heap_free(buf: *mut c_void, size: usize, dmabuf_fd: c_int) -> Raw<()> {
    // Only a mapping of ours, and only as long as it was mapped: a garbage address or size
    // must not unmap the process's own memory.
    let mapped = if buf.is_null() {
        None
    } else {
        BUFFERS.take_sized(buf)
    };
    if let Some(len) = mapped {
        if len != size {
            crate::log::log(
                crate::log::VERBS_LOG_WARN,
                format_args!(
                    "ibverbs-rs: ibv_dmabuf_heap_free: buffer {buf:p} was mapped with {len} bytes, \
                     freed with {size}; unmapping {len}"
                ),
            );
        }
        // SAFETY: our own mapping of `len` bytes from ibv_dmabuf_heap_alloc, taken back once.
        unsafe { crate::sys::heap::munmap(buf, len) };
    }
    crate::sys::cdev::close(dmabuf_fd);
}
