//! Directories read the way rdma-core walks sysfs (init.c `find_sysfs_devs`, `setup_sysfs_dev`;
//! sysfs.c `ibv_read_sysfs_file_at`): `opendir`/`readdir` over a class directory, each entry
//! opened with `openat(O_DIRECTORY)` (which itself says whether it is a directory), and small
//! files read relative to that directory's descriptor. Nothing here allocates.
use std::ffi::CStr;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::ptr::NonNull;

use crate::errno::{Errno, Result};

/// Room for a directory entry's name and its NUL (`d_name` of `struct dirent64`).
pub const NAME_BUF: usize = 256;

/// An open directory stream (`opendir`), closed when dropped.
pub struct DirStream {
    dir: NonNull<libc::DIR>,
}

impl DirStream {
    /// `opendir(path)`.
    pub fn open(path: &CStr) -> Result<DirStream> {
        // SAFETY: path is NUL-terminated; opendir has no other memory arguments.
        let d = unsafe { libc::opendir(path.as_ptr()) };
        NonNull::new(d)
            .map(|dir| DirStream { dir })
            .ok_or_else(|| Errno(crate::sys::errno()))
    }

    /// The next entry's name (`readdir`), copied into `out` with its NUL; its length without
    /// the NUL. None at the end of the directory or on an error, as rdma-core's loops treat both.
    pub fn next_into(&mut self, out: &mut [u8; NAME_BUF]) -> Option<usize> {
        self.next_entry(out).map(|(n, _)| n)
    }

    /// [`DirStream::next_into`] with the entry's `d_type` (`libc::DT_REG`, `DT_LNK`,
    /// `DT_UNKNOWN` where the file system does not say, ...).
    pub fn next_entry(&mut self, out: &mut [u8; NAME_BUF]) -> Option<(usize, u8)> {
        // SAFETY: dir is a live stream owned by self; &mut self keeps readdir single-threaded.
        let ent = unsafe { libc::readdir(self.dir.as_ptr()) };
        if ent.is_null() {
            return None;
        }
        // SAFETY: readdir returned a live entry whose d_name is NUL-terminated within the entry;
        // it stays valid until the next readdir/closedir on this stream, both need &mut self.
        let name = unsafe { CStr::from_ptr((*ent).d_name.as_ptr()) }.to_bytes();
        // SAFETY: the same live entry; d_type is a plain byte of it.
        let kind = unsafe { (*ent).d_type };
        let n = name.len().min(NAME_BUF - 1);
        out[..n].copy_from_slice(&name[..n]);
        out[n] = 0;
        Some((n, kind))
    }

    /// The stream's descriptor (`dirfd`), for `openat` relative to it.
    pub fn fd(&self) -> BorrowedFd<'_> {
        // SAFETY: dir is a live stream; dirfd only reads it.
        let fd = unsafe { libc::dirfd(self.dir.as_ptr()) };
        // SAFETY: the descriptor belongs to the stream and lives as long as self.
        unsafe { BorrowedFd::borrow_raw(fd) }
    }
}

impl Drop for DirStream {
    fn drop(&mut self) {
        // SAFETY: dir is live and not used after this.
        unsafe { libc::closedir(self.dir.as_ptr()) };
    }
}

/// `openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)`: `ENOTDIR` when it is not one.
pub fn open_dir_at(at: BorrowedFd<'_>, name: &CStr) -> Result<OwnedFd> {
    // SAFETY: name is NUL-terminated; at is a live descriptor.
    let fd = unsafe {
        libc::openat(
            at.as_raw_fd(),
            name.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(Errno(crate::sys::errno()));
    }
    // SAFETY: fd is a fresh descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// `openat(at, name, O_RDONLY | O_CLOEXEC)`, one `read` of at most `buf.len()` bytes, `close`:
/// the byte count, or the errno of `openat` or `read`.
pub fn read_at(at: BorrowedFd<'_>, name: &CStr, buf: &mut [u8]) -> Result<usize> {
    // SAFETY: name is NUL-terminated; at is a live descriptor.
    let fd = unsafe {
        libc::openat(
            at.as_raw_fd(),
            name.as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(Errno(crate::sys::errno()));
    }
    // SAFETY: fd is a fresh descriptor nobody else owns; it is closed when f drops.
    let f = unsafe { OwnedFd::from_raw_fd(fd) };
    // SAFETY: buf is writable for buf.len() bytes.
    let n = unsafe { libc::read(f.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
    usize::try_from(n).map_err(|_| Errno(crate::sys::errno()))
}
