//! Opening a uverbs character device (rdma-core: util/open_cdev.c).
use std::ffi::{CStr, CString};

use crate::errno::{Errno, Result};

/// `prefix` then `name` as a C string in `buf`, or None when they do not fit (or `name` holds a
/// NUL: then the caller's CString says EINVAL).
fn c_path<'a>(buf: &'a mut [u8; 96], prefix: &[u8], name: &[u8]) -> Option<&'a CStr> {
    let (p, n) = (prefix.len(), name.len());
    let end = p.checked_add(n)?;
    buf.get_mut(..p)?.copy_from_slice(prefix);
    buf.get_mut(p..end)?.copy_from_slice(name);
    *buf.get_mut(end)? = 0;
    CStr::from_bytes_with_nul(buf.get(..=end)?).ok()
}

fn open_checked(path: Vec<u8>, cdev: u64) -> Result<i32> {
    let c = CString::new(path).map_err(|_| Errno::EINVAL)?;
    open_checked_c(&c, cdev)
}

fn open_checked_c(c: &CStr, cdev: u64) -> Result<i32> {
    // SAFETY: c is a valid NUL-terminated path; open has no other memory arguments.
    let fd = unsafe { libc::open(c.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(Errno(crate::sys::errno()));
    }
    // SAFETY: st is a plain struct fstat fills; fd is ours.
    let mut st: libc::stat = unsafe { core::mem::zeroed() };
    // SAFETY: `st` is a writable local stat; fstat only writes it, and `fd` is ours.
    let ok = unsafe { libc::fstat(fd, &mut st) } == 0
        && (st.st_mode & libc::S_IFMT) == libc::S_IFCHR
        && (cdev == 0 || st.st_rdev == cdev);
    if !ok {
        // SAFETY: fd is ours and not used after this.
        unsafe { libc::close(fd) };
        return Err(Errno::ENODEV);
    }
    Ok(fd)
}

/// Open `/dev/infiniband/<name>` read-write and close-on-exec, checking it is the character device
/// `cdev` (0: any). If that fails and `cdev` is known, try udev's `/dev/char/<major>:<minor>`.
/// `name` is the node's name as sysfs spells it, bytes that need not be UTF-8 (rdma-core's `%s`).
///
/// Divergences from rdma-core: no 5-second inotify wait for udev to create the /dev/char link,
/// and the error returned is the first open's (EACCES stays EACCES), not the fallback's.
pub fn open_cdev(name: &[u8], cdev: u64) -> Result<i32> {
    const DIR: &[u8] = b"/dev/infiniband/";
    // The usual path is built on the stack (a device name is short); anything longer, or a name
    // with a NUL, takes the general way.
    let mut buf = [0u8; 96];
    let first = match c_path(&mut buf, DIR, name) {
        Some(c) => open_checked_c(c, cdev),
        None => open_checked([DIR, name].concat(), cdev),
    };
    match first {
        Ok(fd) => Ok(fd),
        Err(e) if cdev != 0 => {
            let (maj, min) = (
                libc::major(cdev as libc::dev_t),
                libc::minor(cdev as libc::dev_t),
            );
            open_checked(format!("/dev/char/{maj}:{min}").into_bytes(), cdev).map_err(|_| e)
        }
        Err(e) => Err(e),
    }
}

/// close(2), ignoring the result (rdma-core ignores it too).
pub fn close(fd: i32) {
    if fd >= 0 {
        // SAFETY: the caller owns fd.
        unsafe { libc::close(fd) };
    }
}

/// The `st_rdev` of `fd` when it is a character device, else None (fstat failed or not a char
/// device).
pub fn char_rdev(fd: i32) -> Option<u64> {
    // SAFETY: st is a plain struct fstat fills.
    let mut st: libc::stat = unsafe { core::mem::zeroed() };
    // SAFETY: `st` is a writable local stat; fstat only writes it (an invalid fd just fails).
    let ok = unsafe { libc::fstat(fd, &mut st) } == 0;
    (ok && (st.st_mode & libc::S_IFMT) == libc::S_IFCHR).then_some(st.st_rdev)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_paths_are_built_in_place_or_refused() {
        let mut buf = [0u8; 96];
        assert_eq!(
            c_path(&mut buf, b"/dev/infiniband/", b"uverbs0"),
            Some(c"/dev/infiniband/uverbs0")
        );
        assert_eq!(c_path(&mut buf, b"/dev/infiniband/", b"a\0b"), None);
        assert_eq!(c_path(&mut buf, b"/dev/infiniband/", &[b'x'; 80]), None);
        // Bytes that are not UTF-8 are part of the path as they are (rdma-core's "%s").
        assert_eq!(
            c_path(&mut buf, b"/dev/infiniband/", b"uverbs\xff6"),
            Some(c"/dev/infiniband/uverbs\xff6")
        );
        // The general way keeps rdma-core's answer for such names.
        assert_eq!(open_cdev(b"a\0b", 0), Err(Errno::EINVAL));
        assert!(open_cdev(&[b'x'; 200], 0).is_err());
    }
}
