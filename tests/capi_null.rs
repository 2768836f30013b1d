//! NULL arguments to the device-list and sysfs exports: rdma-core crashes on them, so the
//! behaviour diffs (abi-tests/diff) cannot call them under the system library. Ours documents a
//! result with errno EINVAL for each (or ignores NULL); checked here against ours alone.
use core::ffi::c_char;
use core::ptr::{null, null_mut};

use ibverbs::capi::{device, driver, sysfs};
use ibverbs::sys;

/// Run `f` with errno preset to a sentinel; return its result and the errno it left.
fn with_errno<T>(f: impl FnOnce() -> T) -> (T, i32) {
    sys::set_errno(12345);
    let r = f();
    (r, sys::errno())
}

#[test]
fn device_queries_reject_null() {
    // SAFETY: each export accepts NULL (our documented divergence).
    unsafe {
        let (name, e) = with_errno(|| device::ibv_get_device_name(null_mut()));
        assert!(name.is_null());
        assert_eq!(e, libc::EINVAL);

        let (guid, e) = with_errno(|| device::ibv_get_device_guid(null_mut()));
        assert_eq!(guid.0, 0);
        assert_eq!(e, libc::EINVAL);

        let (idx, e) = with_errno(|| device::ibv_get_device_index(null_mut()));
        assert_eq!(idx, -1);
        assert_eq!(e, libc::EINVAL);
    }
}

#[test]
fn open_and_close_reject_null() {
    // SAFETY: NULL is the input under test; each export checks it before any dereference.
    unsafe {
        let (ctx, e) = with_errno(|| device::ibv_open_device(null_mut()));
        assert!(ctx.is_null());
        assert_eq!(e, libc::EINVAL);

        let (ctx, e) = with_errno(|| driver::verbs_open_device(null_mut(), null_mut()));
        assert!(ctx.is_null());
        assert_eq!(e, libc::EINVAL);

        let (ret, e) = with_errno(|| device::ibv_close_device(null_mut()));
        assert_eq!(ret, -1);
        assert_eq!(e, libc::EINVAL);
    }
}

#[test]
fn free_device_list_ignores_null() {
    // SAFETY: NULL is ignored.
    let ((), e) = with_errno(|| unsafe { device::ibv_free_device_list(null_mut()) });
    assert_eq!(e, 12345, "errno must be left alone");
}

#[test]
fn read_sysfs_file_rejects_null() {
    let mut buf = [b'#' as c_char; 8];
    // SAFETY: NULL dir/file are rejected before any use; buf is 8 bytes.
    unsafe {
        let (ret, e) =
            with_errno(|| sysfs::ibv_read_sysfs_file(null(), c"x".as_ptr(), buf.as_mut_ptr(), 8));
        assert_eq!((ret, e), (-1, libc::EINVAL));
        let (ret, e) =
            with_errno(|| sysfs::ibv_read_sysfs_file(c"/".as_ptr(), null(), buf.as_mut_ptr(), 8));
        assert_eq!((ret, e), (-1, libc::EINVAL));
        let (ret, e) = with_errno(|| {
            sysfs::ibv_read_sysfs_file(c"/proc/self".as_ptr(), c"comm".as_ptr(), null_mut(), 8)
        });
        // The kernel judges the buffer, as under rdma-core.
        assert_eq!((ret, e), (-1, libc::EFAULT));
    }
    assert!(buf.iter().all(|&b| b == b'#' as c_char), "buffer untouched");
}

#[test]
fn read_sysfs_file_sizes_no_buffer_has() {
    // Was: a capacity-overflow panic (SIZE_MAX) or an allocation failure (2^40), each aborting
    // the process. Now one read() into the caller's buffer: the kernel refuses the range.
    let mut buf = [b'#' as c_char; 8];
    for size in [usize::MAX, 1 << 40, 1 << 62] {
        // SAFETY: the kernel checks the range before writing; nothing past the file's length
        // (a few bytes of /proc/self/comm fit in buf) could be written.
        let (ret, e) = with_errno(|| unsafe {
            sysfs::ibv_read_sysfs_file(
                c"/proc/self".as_ptr(),
                c"comm".as_ptr(),
                buf.as_mut_ptr(),
                size,
            )
        });
        assert_eq!((ret, e), (-1, libc::EFAULT), "size {size:#x}");
    }
}

#[test]
fn free_device_list_ignores_lists_it_did_not_hand_out() {
    // Was: libc's free() of a stack array (SIGABRT: "free(): invalid pointer").
    let mut fake: [*mut ibverbs::abi::verbs::ibv_device; 2] = [null_mut(); 2];
    // SAFETY: the array is not a list of ours: it is ignored.
    unsafe { device::ibv_free_device_list(fake.as_mut_ptr()) };
    // A real list is freed once; the second free is ignored.
    let mut n = -1;
    // SAFETY: the export's contract.
    let list = unsafe { device::ibv_get_device_list(&mut n) };
    if !list.is_null() {
        // SAFETY: a live list, then the same (now freed) address.
        unsafe {
            device::ibv_free_device_list(list);
            device::ibv_free_device_list(list);
        }
    }
}
