//! The registration verbs' fork protection, with fake provider ops on a context made here: the
//! pages of an MR carry MADV_DONTFORK (the `dc` VmFlag in /proc/self/smaps) exactly while it is
//! registered, unless it is on-demand or dma-buf; a failed registration leaves nothing behind
//! and keeps the provider's errno. Needs fork protection on (`ibv_fork_init`), which a kernel
//! that copies pinned pages on fork makes unneeded: the test then checks nothing.
use core::ffi::{c_int, c_void};
use core::ptr::null_mut;

use super::*;
use crate::abi::driver::ibv_mr_type::IBV_MR_TYPE_MR;
use crate::abi::driver::{verbs_context_ops, verbs_context_pabi34};
use crate::abi::verbs::ibv_access_flags::IBV_ACCESS_ON_DEMAND;
use crate::abi::verbs::ibv_context;
use crate::abi::verbs::ibv_mr_init_attr_mask as mask;
use crate::abi::verbs::ibv_rereg_mr_err_code::IBV_REREG_MR_ERR_CMD;
use crate::abi::verbs::ibv_rereg_mr_flags::IBV_REREG_MR_CHANGE_TRANSLATION;

const ODP: c_int = IBV_ACCESS_ON_DEMAND as c_int;
const IOVA: u64 = mask::IBV_REG_MR_MASK_IOVA as u64;
const ADDR: u64 = mask::IBV_REG_MR_MASK_ADDR as u64;
const FD: u64 = mask::IBV_REG_MR_MASK_FD as u64;
const FD_OFFSET: u64 = mask::IBV_REG_MR_MASK_FD_OFFSET as u64;
use crate::abi::verbs::ibv_fork_status::IBV_FORK_ENABLED;
use crate::verbs::ctxpriv::ContextPriv;

/// Whether the page holding `addr` is marked don't-fork.
fn dontfork(addr: *const u8) -> bool {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap_or_default();
    let a = addr as usize;
    let mut inside = false;
    for line in smaps.lines() {
        let mut range = line.split_whitespace().next().unwrap_or("").split('-');
        if let (Some(lo), Some(hi), true) = (range.next(), range.next(), line.contains(' ')) {
            if let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = (lo..hi).contains(&a);
                continue;
            }
        }
        if inside && line.starts_with("VmFlags:") {
            return line.split_whitespace().any(|f| f == "dc");
        }
    }
    false
}

static LAST_ACCESS: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// A provider MR: succeeds unless `access` asks for remote atomics (then EACCES).
unsafe extern "C" fn fake_reg(
    _pd: *mut ibv_pd,
    addr: *mut c_void,
    len: usize,
    _iova: u64,
    access: c_int,
) -> *mut ibv_mr {
    LAST_ACCESS.store(access, std::sync::atomic::Ordering::Relaxed);
    if access & crate::abi::verbs::ibv_access_flags::IBV_ACCESS_REMOTE_ATOMIC as c_int != 0 {
        crate::sys::set_errno(libc::EACCES);
        return null_mut();
    }
    // SAFETY: zeroed plain data.
    let mut v: Box<verbs_mr> = Box::new(unsafe { core::mem::zeroed() });
    v.mr_type = crate::abi::ctype::CEnum::new(IBV_MR_TYPE_MR as u32);
    v.access = access;
    v.ibv_mr.addr = addr;
    v.ibv_mr.length = len;
    Box::into_raw(v).cast()
}

unsafe extern "C" fn fake_dmabuf(
    _pd: *mut ibv_pd,
    _o: u64,
    _l: usize,
    _i: u64,
    _fd: c_int,
    _a: c_int,
) -> *mut ibv_mr {
    // SAFETY: zeroed plain data.
    let mut v: Box<verbs_mr> = Box::new(unsafe { core::mem::zeroed() });
    v.mr_type = crate::abi::ctype::CEnum::new(
        crate::abi::driver::ibv_mr_type::IBV_MR_TYPE_DMABUF_MR as u32,
    );
    Box::into_raw(v).cast()
}

/// Deregistration fails with EBUSY for an MR whose lkey is 1.
unsafe extern "C" fn fake_dereg(v: *mut verbs_mr) -> c_int {
    // SAFETY: an MR from fake_reg.
    unsafe {
        if (*v).ibv_mr.lkey == 1 {
            return libc::EBUSY;
        }
        drop(Box::from_raw(v));
    }
    0
}

unsafe extern "C" fn fake_rereg(
    _v: *mut verbs_mr,
    _f: c_int,
    _pd: *mut ibv_pd,
    _a: *mut c_void,
    len: usize,
    _acc: c_int,
) -> c_int {
    // SAFETY: sysconf has no memory effects.
    let pg = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
    if len == 3 * pg { libc::EINVAL } else { 0 }
}

/// A context whose private part holds the fake ops (no device, no command channel).
fn fake_context() -> *mut ibv_context {
    // SAFETY: zeroed plain data: NULL pointers and absent ops.
    let mut ops: verbs_context_ops = unsafe { core::mem::zeroed() };
    ops.reg_mr = Some(fake_reg);
    ops.reg_dmabuf_mr = Some(fake_dmabuf);
    ops.dereg_mr = Some(fake_dereg);
    ops.rereg_mr = Some(fake_rereg);
    let p = Box::new(ContextPriv::new(
        ops,
        crate::cmd::CmdState::new(0, false),
        false,
    ));
    // SAFETY: zeroed plain data: a verbs_context of NULL pointers and absent ops is a valid value.
    let v: *mut verbs_context_pabi34 = Box::into_raw(Box::new(unsafe { core::mem::zeroed() }));
    // SAFETY: our own allocation.
    unsafe {
        (*v).r#priv = Box::into_raw(p).cast();
        &raw mut (*v).context
    }
}

#[test]
fn registration_marks_pages_dontfork() {
    if crate::fork::fork_init().is_err() || crate::fork::fork_status() != IBV_FORK_ENABLED as u32 {
        eprintln!("fork protection unavailable or unneeded here: nothing to check");
        return;
    }
    // The target's page size (4 KiB on x86_64, often 64 KiB on arm64 and ppc64el kernels): a
    // registration of one page's length from inside page 1 covers pages 1 and 2.
    // SAFETY: sysconf has no memory effects.
    let pg = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
    // SAFETY: our own mapping of 4 pages, a fake context and PD; the verbs' C contracts.
    unsafe {
        let base = libc::mmap(
            null_mut(),
            4 * pg,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        assert_ne!(base, libc::MAP_FAILED);
        let page = |i: usize| base.cast::<u8>().add(i * pg);
        let marks = || (0..4).map(|i| dontfork(page(i))).collect::<Vec<_>>();
        let mut pd = ibv_pd {
            context: fake_context(),
            handle: 1,
        };
        let lw = crate::abi::verbs::ibv_access_flags::IBV_ACCESS_LOCAL_WRITE as c_int;

        // Registered: its pages (an unaligned range widens to whole pages), and only those.
        let mr = ibv_reg_mr(&mut pd, page(1).add(100).cast(), pg, lw);
        assert!(!mr.is_null());
        assert_eq!(
            ((*mr).pd, (*mr).context, (*mr).length),
            (&raw mut pd, pd.context, pg)
        );
        assert_eq!(marks(), [false, true, true, false]);
        // Optional access bits are dropped for a device that does not support them.
        assert_eq!(LAST_ACCESS.load(std::sync::atomic::Ordering::Relaxed), lw);
        assert_eq!(ibv_dereg_mr(mr), 0);
        assert_eq!(marks(), [false; 4]);

        // A provider failure undoes the mark and keeps the provider's errno.
        crate::sys::set_errno(0);
        let atomic = crate::abi::verbs::ibv_access_flags::IBV_ACCESS_REMOTE_ATOMIC as c_int;
        assert!(ibv_reg_mr(&mut pd, page(0).cast(), pg, lw | atomic).is_null());
        assert_eq!(
            (crate::sys::errno(), marks()),
            (libc::EACCES, vec![false; 4])
        );

        // On-demand MRs pin nothing; neither do dma-buf ones (ibv_reg_mr_ex with FD).
        let odp = ibv_reg_mr(&mut pd, page(0).cast(), pg, lw | ODP);
        assert_eq!(marks(), [false; 4]);
        assert_eq!(ibv_dereg_mr(odp), 0);
        let mut a: ibv_mr_init_attr = core::mem::zeroed();
        a.comp_mask = FD | FD_OFFSET | IOVA;
        a.length = pg;
        a.addr = page(0).cast();
        let dmabuf = ibv_reg_mr_ex(&mut pd, &mut a);
        assert!(!dmabuf.is_null());
        assert_eq!(marks(), [false; 4]);
        assert_eq!((*dmabuf).addr, null_mut(), "addr is the fd offset");
        // ...while an address-based ibv_reg_mr_ex is marked like ibv_reg_mr.
        a.comp_mask = ADDR;
        let ex = ibv_reg_mr_ex(&mut pd, &mut a);
        assert_eq!(marks(), [true, false, false, false]);

        // Two MRs on one page: it stays marked until both are gone; a failed dereg keeps it.
        let m2 = ibv_reg_mr(&mut pd, page(0).cast(), 100, lw);
        (*m2).lkey = 1;
        assert_eq!(ibv_dereg_mr(m2), libc::EBUSY);
        assert_eq!(marks(), [true, false, false, false]);
        (*m2).lkey = 0;
        assert_eq!(ibv_dereg_mr(m2), 0);
        assert_eq!(marks(), [true, false, false, false]);

        // rereg to a new translation moves the mark; a failing one leaves the old.
        let t = IBV_REREG_MR_CHANGE_TRANSLATION as c_int;
        assert_eq!(
            ibv_rereg_mr(ex, t, null_mut(), page(2).cast(), 2 * pg, 0),
            0
        );
        assert_eq!(((*ex).addr, (*ex).length), (page(2).cast(), 2 * pg));
        assert_eq!(marks(), [false, false, true, true]);
        assert_eq!(
            ibv_rereg_mr(ex, t, null_mut(), page(0).cast(), 3 * pg, 0),
            IBV_REREG_MR_ERR_CMD as c_int
        );
        assert_eq!(marks(), [false, false, true, true]);
        assert_eq!(ibv_dereg_mr(ex), 0);
        assert_eq!(marks(), [false; 4]);
        assert_eq!(ibv_dereg_mr(dmabuf), 0);
        libc::munmap(base, 4 * pg);
    }
}
