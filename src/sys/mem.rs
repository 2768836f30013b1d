//! Memory system calls for fork protection: page size, fork advice, page-aligned buffers; and
//! zeroed buffers whose size comes from outside, allocated fallibly.
//!
//! Used by [`crate::fork`] (rdma-core: `libibverbs/memory.c`) through its `MemSys` seam.

use crate::errno::Errno;

/// The two `madvise(2)` advices fork protection uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForkAdvice {
    /// `MADV_DONTFORK`: the child of a fork does not get these pages.
    DontFork,
    /// `MADV_DOFORK`: undo `MADV_DONTFORK`.
    DoFork,
}

impl ForkAdvice {
    /// The `madvise` advice number.
    pub const fn raw(self) -> core::ffi::c_int {
        match self {
            ForkAdvice::DontFork => libc::MADV_DONTFORK,
            ForkAdvice::DoFork => libc::MADV_DOFORK,
        }
    }
}

/// `sysconf(_SC_PAGESIZE)`.
pub fn page_size() -> Result<usize, Errno> {
    // SAFETY: sysconf takes no pointers.
    let r = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if r < 0 {
        Err(Errno(super::errno()))
    } else {
        Ok(r as usize)
    }
}

/// `madvise(addr, len, MADV_DONTFORK | MADV_DOFORK)`; `Err` carries errno.
///
/// Safe to offer with any address: these two advices only set or clear a mapping flag that
/// `fork` reads; they neither read nor write the memory, and unmapped ranges fail with ENOMEM.
pub fn madvise_fork(addr: usize, len: usize, advice: ForkAdvice) -> Result<(), Errno> {
    // SAFETY: these advices only set or clear a mapping flag (no memory is read or written);
    // the kernel validates the range.
    let r = unsafe { libc::madvise(addr as *mut libc::c_void, len, advice.raw()) };
    if r == 0 {
        Ok(())
    } else {
        Err(Errno(super::errno()))
    }
}

/// `len` zero bytes, or ENOMEM when the allocator refuses: for buffers sized by a caller, a file
/// or the kernel (`vec![0; len]` would abort the process instead). The memory comes zeroed from
/// the allocator (calloc-like, so a large buffer is not touched here).
pub fn try_zeroed(len: usize) -> Result<Vec<u8>, Errno> {
    if len == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u8>(len).map_err(|_| Errno::ENOMEM)?;
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    if p.is_null() {
        return Err(Errno::ENOMEM);
    }
    // SAFETY: p is a Global allocation of exactly `len` initialised (zero) bytes, align 1: what
    // a Vec<u8> of capacity `len` owns.
    Ok(unsafe { Vec::from_raw_parts(p, len, len) })
}

/// The index of the first `c` in `hay` (libc's `memchr`: vectorised, for long inputs such as
/// configuration files of any size).
pub fn memchr(c: u8, hay: &[u8]) -> Option<usize> {
    // SAFETY: memchr reads at most hay.len() bytes of hay, which the slice owns.
    let p = unsafe { libc::memchr(hay.as_ptr().cast(), c.into(), hay.len()) };
    (!p.is_null()).then(|| p as usize - hay.as_ptr() as usize)
}

/// A heap buffer from `posix_memalign`, freed on drop.
pub struct AlignedBuf {
    ptr: *mut libc::c_void,
}

impl AlignedBuf {
    /// `posix_memalign(&p, align, size)`; `None` when it fails.
    pub fn new(align: usize, size: usize) -> Option<AlignedBuf> {
        let mut ptr = core::ptr::null_mut();
        // SAFETY: posix_memalign writes one pointer into `ptr`.
        let r = unsafe { libc::posix_memalign(&mut ptr, align, size) };
        (r == 0 && !ptr.is_null()).then_some(AlignedBuf { ptr })
    }

    /// The buffer's address.
    pub fn addr(&self) -> usize {
        self.ptr as usize
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        // SAFETY: ptr came from posix_memalign and is freed once.
        unsafe { libc::free(self.ptr) };
    }
}

// SAFETY: the buffer is plain heap memory owned by this value; nothing is thread-bound.
unsafe impl Send for AlignedBuf {}
