//! glibc's `fnmatch(3)`, called as rdma-core calls it (init.c `match_modalias`: flags 0, in the
//! program's locale), for the patterns of providers' match tables and file names.
//!
//! The library's byte strings are not NUL-terminated: each side is copied into a NUL-terminated
//! buffer (on the stack below 256 bytes, a fallible heap copy past that), cut at its first
//! NUL byte as the C string rdma-core passes would be.

use core::ffi::c_char;

/// Strings shorter than this are copied on the stack (every pattern rdma-core ships, and every
/// modalias a kernel writes, is well under it).
const STACK: usize = 256;

/// Whether `string` matches `pattern`: glibc's `fnmatch(pattern, string, 0) == 0`.
///
/// Divergence: when the heap copy of an over-long side cannot be allocated, no match (rdma-core's
/// strings are already C strings and never copied).
pub fn fnmatch(pattern: &[u8], string: &[u8]) -> bool {
    with_c_str(pattern, |p| {
        with_c_str(string, |s| {
            // SAFETY: p and s are NUL-terminated buffers alive for this call; fnmatch only reads them.
            unsafe { libc::fnmatch(p, s, 0) == 0 }
        })
        .unwrap_or(false)
    })
    .unwrap_or(false)
}

/// Calls `f` with `bytes` up to its first NUL as a C string; None when the copy can't be allocated.
fn with_c_str<R>(bytes: &[u8], f: impl FnOnce(*const c_char) -> R) -> Option<R> {
    let bytes = bytes.split(|b| *b == 0).next().unwrap_or_default();
    if bytes.len() < STACK {
        let mut buf = [0u8; STACK];
        buf[..bytes.len()].copy_from_slice(bytes);
        return Some(f(buf.as_ptr().cast()));
    }
    let mut buf = Vec::new();
    buf.try_reserve_exact(bytes.len().checked_add(1)?).ok()?;
    buf.extend_from_slice(bytes);
    buf.push(0);
    Some(f(buf.as_ptr().cast()))
}

#[cfg(test)]
mod tests {
    use super::fnmatch;

    #[test]
    fn cut_at_nul_and_long_strings() {
        assert!(fnmatch(
            b"rdma_device:*Nrxe*\0junk",
            b"rdma_device:Nrxe0\0x"
        ));
        assert!(!fnmatch(b"a\0", b"ab"));
        let long = [b'a'; 5000];
        assert!(fnmatch(b"a*a", &long));
        assert!(fnmatch(&long, &long));
        assert!(!fnmatch(&long[..4999], &long));
    }
}
