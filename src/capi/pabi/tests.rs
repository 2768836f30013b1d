//! The v65-only verbs and commands on contexts made here: a public verb calls an ABI-65
//! provider's own op and keeps rdma-core's default for an ABI-34 one; the `ibv_cmd_*` exports'
//! glue (what they store into the provider's objects, their errno conventions) over a command
//! fd with no ioctl interface (`/dev/null`: ENOTTY; write() swallows anything); NULL arguments;
//! the dma-buf heap without a heap device.
use core::ffi::{c_int, c_void};
use core::ptr::null_mut;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::abi::driver::{verbs_context_ops, verbs_context_pabi34, verbs_dmah, verbs_mr};
use crate::abi::verbs::*;
use crate::capi::counters::*;
use crate::capi::dm::*;
use crate::capi::mr::ibv_cmd_reg_mr_ex;
use crate::capi::{context, counters, dm, mr};
use crate::sys;
use crate::sys::heap::{DMA_HEAP_IOCTL_ALLOC, dma_heap_allocation_data};
use crate::verbs::ctxpriv::ContextPriv;
use crate::verbs::dm::{BUFFERS, HEAPS, heap_open, ibv_dmabuf_heap};

/// Which fake provider ops ran (one bit each).
static CALLED: AtomicU32 = AtomicU32::new(0);
/// The tests share CALLED.
static SERIAL: Mutex<()> = Mutex::new(());

fn hit(bit: u32) {
    CALLED.fetch_or(1 << bit, Ordering::Relaxed);
}

fn with_errno<T>(f: impl FnOnce() -> T) -> (T, i32) {
    sys::set_errno(12345);
    let r = f();
    (r, sys::errno())
}

static mut CNTR: ibv_comp_cntr = ibv_comp_cntr {
    context: null_mut(),
    handle: 77,
};
static mut DMAH: ibv_dmah = ibv_dmah {
    context: null_mut(),
};

mod fake {
    use super::*;
    pub unsafe extern "C" fn create_comp_cntr(
        _: *mut ibv_context,
        _: *mut ibv_comp_cntr_init_attr,
    ) -> *mut ibv_comp_cntr {
        hit(0);
        &raw mut CNTR
    }
    pub unsafe extern "C" fn destroy_comp_cntr(_: *mut ibv_comp_cntr) -> c_int {
        hit(1);
        101
    }
    pub unsafe extern "C" fn set_comp_cntr(_: *mut ibv_comp_cntr, v: u64) -> c_int {
        hit(2);
        v as c_int
    }
    pub unsafe extern "C" fn set_err_comp_cntr(_: *mut ibv_comp_cntr, v: u64) -> c_int {
        hit(3);
        v as c_int
    }
    pub unsafe extern "C" fn inc_comp_cntr(_: *mut ibv_comp_cntr, v: u64) -> c_int {
        hit(4);
        v as c_int
    }
    pub unsafe extern "C" fn inc_err_comp_cntr(_: *mut ibv_comp_cntr, v: u64) -> c_int {
        hit(5);
        v as c_int
    }
    pub unsafe extern "C" fn read_comp_cntr(_: *mut ibv_comp_cntr, v: *mut u64) -> c_int {
        hit(6);
        // SAFETY: the test's out value.
        unsafe { *v = 600 };
        0
    }
    pub unsafe extern "C" fn read_err_comp_cntr(_: *mut ibv_comp_cntr, v: *mut u64) -> c_int {
        hit(7);
        // SAFETY: the test's out value.
        unsafe { *v = 700 };
        0
    }
    pub unsafe extern "C" fn qp_attach_comp_cntr(
        _: *mut ibv_qp,
        _: *mut ibv_comp_cntr,
        _: *mut ibv_qp_attach_comp_cntr_attr,
    ) -> c_int {
        hit(8);
        108
    }
    pub unsafe extern "C" fn query_comp_cntr_caps(
        _: *mut ibv_context,
        caps: *mut ibv_comp_cntr_caps,
        _: usize,
    ) -> c_int {
        hit(9);
        // SAFETY: the test's caps.
        unsafe { (*caps).max_counters = 9 };
        0
    }
    pub unsafe extern "C" fn alloc_dmah(
        _: *mut ibv_context,
        _: *mut ibv_dmah_init_attr,
    ) -> *mut ibv_dmah {
        hit(10);
        &raw mut DMAH
    }
    pub unsafe extern "C" fn dealloc_dmah(_: *mut ibv_dmah) -> c_int {
        hit(11);
        111
    }
    pub unsafe extern "C" fn dm_export_dmabuf_fd(_: *mut ibv_dm) -> c_int {
        hit(12);
        112
    }
    pub unsafe extern "C" fn query_port_speed(
        _: *mut ibv_context,
        port: u32,
        s: *mut u64,
    ) -> c_int {
        hit(13);
        // SAFETY: the test's out value.
        unsafe { *s = 25_000 + u64::from(port) };
        0
    }
    pub unsafe extern "C" fn reg_mr_ex(_: *mut ibv_pd, a: *mut ibv_mr_init_attr) -> *mut ibv_mr {
        hit(14);
        // SAFETY: zeroed plain data; the caller's attributes.
        let mut v: Box<verbs_mr> = Box::new(unsafe { core::mem::zeroed() });
        // SAFETY: the caller's attributes, live for the call.
        v.ibv_mr.lkey = unsafe { (*a).length } as u32;
        Box::into_raw(v).cast()
    }
    /// A provider buffer: our handle layout, memory from malloc.
    pub unsafe extern "C" fn alloc_buf(
        pd: *mut ibv_pd,
        size: usize,
        buf: *mut *mut ibv_buf,
    ) -> *mut c_void {
        hit(15);
        // SAFETY: plain allocations; the caller's out-pointer.
        unsafe {
            let p = libc::malloc(size);
            let b = libc::calloc(1, 32).cast::<usize>();
            *b = p as usize;
            *b.add(1) = size;
            *b.add(2) = pd as usize;
            *b.add(3).cast::<i32>() = -1; // dmabuf_fd -1 (an int at byte 24, either byte order)
            *buf = b.cast();
            p
        }
    }
    pub unsafe extern "C" fn free_buf(buf: *mut ibv_buf) {
        hit(16);
        // SAFETY: a buffer of alloc_buf above.
        unsafe {
            libc::free(*buf.cast::<*mut c_void>());
            libc::free(buf.cast());
        }
    }
}

/// A context of provider ABI `abi` (the ops later ABIs added the fakes above when 65), whose
/// command fd is `/dev/null`.
fn context(abi: u32) -> *mut ibv_context {
    // SAFETY: zeroed plain data: NULL pointers and absent ops.
    let ops: verbs_context_ops = unsafe { core::mem::zeroed() };
    let mut p = Box::new(ContextPriv::new(
        ops,
        crate::cmd::CmdState::new(0, false),
        false,
    ));
    if abi == 65 {
        let t = &mut p.ops;
        t.create_comp_cntr = Some(fake::create_comp_cntr);
        t.destroy_comp_cntr = Some(fake::destroy_comp_cntr);
        t.set_comp_cntr = Some(fake::set_comp_cntr);
        t.set_err_comp_cntr = Some(fake::set_err_comp_cntr);
        t.inc_comp_cntr = Some(fake::inc_comp_cntr);
        t.inc_err_comp_cntr = Some(fake::inc_err_comp_cntr);
        t.read_comp_cntr = Some(fake::read_comp_cntr);
        t.read_err_comp_cntr = Some(fake::read_err_comp_cntr);
        t.qp_attach_comp_cntr = Some(fake::qp_attach_comp_cntr);
        t.query_comp_cntr_caps = Some(fake::query_comp_cntr_caps);
        t.alloc_dmah = Some(fake::alloc_dmah);
        t.dealloc_dmah = Some(fake::dealloc_dmah);
        t.dm_export_dmabuf_fd = Some(fake::dm_export_dmabuf_fd);
        t.query_port_speed = Some(fake::query_port_speed);
        t.reg_mr_ex = Some(fake::reg_mr_ex);
        t.alloc_buf = Some(fake::alloc_buf);
        t.free_buf = Some(fake::free_buf);
    }
    // SAFETY: zeroed plain data: a verbs_context of NULL pointers and absent ops is a valid value.
    let v: *mut verbs_context_pabi34 = Box::into_raw(Box::new(unsafe { core::mem::zeroed() }));
    // SAFETY: our own allocation; a plain open().
    unsafe {
        (*v).r#priv = Box::into_raw(p).cast();
        (*v).context.cmd_fd = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
        assert!((*v).context.cmd_fd >= 0);
        &raw mut (*v).context
    }
}

#[test]
fn public_v65_verbs_call_an_abi65_providers_ops() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    CALLED.store(0, Ordering::Relaxed);
    let ctx = context(65);
    // SAFETY: a context made above; objects of it; the verbs' C contracts.
    unsafe {
        let mut cc = ibv_comp_cntr {
            context: ctx,
            handle: 1,
        };
        assert_eq!(
            counters::ibv_create_comp_cntr(ctx, null_mut()),
            &raw mut CNTR
        );
        assert_eq!(counters::ibv_destroy_comp_cntr(&mut cc), 101);
        assert_eq!(counters::ibv_set_comp_cntr(&mut cc, 2), 2);
        assert_eq!(counters::ibv_set_err_comp_cntr(&mut cc, 3), 3);
        assert_eq!(counters::ibv_inc_comp_cntr(&mut cc, 4), 4);
        assert_eq!(counters::ibv_inc_err_comp_cntr(&mut cc, 5), 5);
        let mut v = 0u64;
        assert_eq!((counters::ibv_read_comp_cntr(&mut cc, &mut v), v), (0, 600));
        assert_eq!(
            (counters::ibv_read_err_comp_cntr(&mut cc, &mut v), v),
            (0, 700)
        );
        let mut qp: ibv_qp = core::mem::zeroed();
        qp.context = ctx;
        assert_eq!(
            counters::ibv_qp_attach_comp_cntr(&mut qp, &mut cc, null_mut()),
            108
        );
        let mut caps = ibv_comp_cntr_caps {
            max_value: 5,
            max_counters: 5,
            supported_qp_attach_ops: 5,
        };
        assert_eq!(
            counters::_ibv_query_comp_cntr_caps(ctx, &mut caps, size_of::<ibv_comp_cntr_caps>()),
            0
        );
        // Zeroed first, as rdma-core does, then the provider's answer.
        assert_eq!(
            (
                caps.max_value,
                caps.max_counters,
                caps.supported_qp_attach_ops
            ),
            (0, 9, 0)
        );
        assert_eq!(dm::ibv_alloc_dmah(ctx, null_mut()), &raw mut DMAH);
        let mut h = ibv_dmah { context: ctx };
        assert_eq!(dm::ibv_dealloc_dmah(&mut h), 111);
        let mut d: ibv_dm = core::mem::zeroed();
        d.context = ctx;
        assert_eq!(dm::ibv_dm_export_dmabuf_fd(&mut d), 112);
        let mut speed = 0u64;
        assert_eq!(
            (context::ibv_query_port_speed(ctx, 1, &mut speed), speed),
            (0, 25_001)
        );
        let mut pd = ibv_pd {
            context: ctx,
            handle: 3,
        };
        let mut a: ibv_mr_init_attr = core::mem::zeroed();
        let mut mem = [0u8; 64];
        a.comp_mask = ibv_mr_init_attr_mask::IBV_REG_MR_MASK_ADDR as u64;
        a.addr = mem.as_mut_ptr().cast();
        a.length = 64;
        let m = mr::ibv_reg_mr_ex(&mut pd, &mut a);
        assert!(!m.is_null());
        // The provider made it; the library fills in the common fields as rdma-core does.
        assert_eq!(
            ((*m).lkey, (*m).pd, (*m).context, (*m).length),
            (64, &raw mut pd, ctx, 64)
        );
        drop(Box::from_raw(m.cast::<verbs_mr>()));
        let mut b: *mut ibv_buf = null_mut();
        let p = mr::ibv_alloc_buf(&mut pd, 100, &mut b);
        assert!(!p.is_null() && !b.is_null());
        assert_eq!(mr::ibv_export_buf_dmabuf_fd(b), -1);
        mr::ibv_free_buf(b);
    }
    assert_eq!(
        CALLED.load(Ordering::Relaxed),
        (1 << 17) - 1,
        "every fake op ran"
    );
}

#[test]
fn an_abi34_context_keeps_rdma_cores_defaults() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    CALLED.store(0, Ordering::Relaxed);
    let ctx = context(34);
    // SAFETY: `ctx` is the live context context(34) made; every struct passed is a local alive for
    // its call.
    unsafe {
        let mut cc = ibv_comp_cntr {
            context: ctx,
            handle: 1,
        };
        assert_eq!(
            with_errno(|| counters::ibv_create_comp_cntr(ctx, null_mut())),
            (null_mut(), libc::EOPNOTSUPP)
        );
        assert_eq!(
            with_errno(|| counters::ibv_set_comp_cntr(&mut cc, 2)),
            (libc::EOPNOTSUPP, 12345)
        );
        let mut v = 9u64;
        assert_eq!(
            (counters::ibv_read_comp_cntr(&mut cc, &mut v), v),
            (libc::EOPNOTSUPP, 9)
        );
        assert_eq!(
            with_errno(|| dm::ibv_alloc_dmah(ctx, null_mut())),
            (null_mut(), libc::EOPNOTSUPP)
        );
        let mut h = ibv_dmah { context: ctx };
        assert_eq!(dm::ibv_dealloc_dmah(&mut h), libc::EOPNOTSUPP);
        let mut speed = 7u64;
        assert_eq!(
            (context::ibv_query_port_speed(ctx, 1, &mut speed), speed),
            (libc::EOPNOTSUPP, 7)
        );
        // The library's own page-aligned buffer.
        let mut pd = ibv_pd {
            context: ctx,
            handle: 3,
        };
        let mut b: *mut ibv_buf = null_mut();
        let p = mr::ibv_alloc_buf(&mut pd, 100, &mut b);
        assert!(!p.is_null() && (p as usize) % 4096 == 0);
        mr::ibv_free_buf(b);
    }
    assert_eq!(CALLED.load(Ordering::Relaxed), 0);
}

#[test]
fn cmd_exports_glue_over_a_channel_without_ioctl() {
    let ctx = context(34);
    // SAFETY: `ctx` is the live context context(34) made; the provider-side objects are this test's
    // locals.
    unsafe {
        // Ioctl-only commands: the kernel's ENOTTY, positive and in errno.
        let mut cc = ibv_comp_cntr {
            context: null_mut(),
            handle: 0,
        };
        assert_eq!(
            with_errno(|| ibv_cmd_create_comp_cntr(ctx, &mut cc, null_mut())),
            (libc::ENOTTY, libc::ENOTTY)
        );
        assert_eq!(
            cc.context, ctx,
            "the context is set whatever the outcome, as rdma-core"
        );
        assert_eq!(ibv_cmd_set_comp_cntr(&mut cc, 1), libc::ENOTTY);
        assert_eq!(ibv_cmd_inc_err_comp_cntr(&mut cc, 1), libc::ENOTTY);
        let mut v = 5u64;
        assert_eq!(
            (ibv_cmd_read_comp_cntr(&mut cc, &mut v), v),
            (libc::ENOTTY, 5)
        );
        assert_eq!(ibv_cmd_destroy_comp_cntr(&mut cc), libc::ENOTTY);
        let mut caps: ibv_comp_cntr_caps = core::mem::zeroed();
        assert_eq!(
            ibv_cmd_query_comp_cntr_caps(ctx, &mut caps, size_of::<ibv_comp_cntr_caps>()),
            libc::ENOTTY
        );
        // Too small a caps: EINVAL, errno left alone, nothing sent.
        assert_eq!(
            with_errno(|| ibv_cmd_query_comp_cntr_caps(ctx, &mut caps, 8)),
            (libc::EINVAL, 12345)
        );
        let mut st: verbs_dmah = core::mem::zeroed();
        let mut init: ibv_dmah_init_attr = core::mem::zeroed();
        assert_eq!(ibv_cmd_alloc_dmah(ctx, &mut st, &mut init), libc::ENOTTY);
        assert!(st.dmah.context.is_null(), "nothing stored on failure");
        assert_eq!(
            with_errno(|| ibv_cmd_export_dmabuf_fd(ctx, 0)),
            (-1, libc::ENOTTY)
        );
        // MR_REG_EX falls back to the REG_MR write, which /dev/null swallows (an all-zero
        // answer): the MR is filled in as a plain one.
        let mut pd = ibv_pd {
            context: ctx,
            handle: 3,
        };
        let mut vmr: verbs_mr = core::mem::zeroed();
        vmr.ibv_mr.lkey = 0xdead;
        let mut a: ibv_mr_init_attr = core::mem::zeroed();
        a.comp_mask = ibv_mr_init_attr_mask::IBV_REG_MR_MASK_ADDR as u64;
        a.addr = 0x1000 as *mut c_void;
        a.length = 64;
        a.access = 1;
        assert_eq!(ibv_cmd_reg_mr_ex(&mut pd, &mut vmr, &mut a), 0);
        assert_eq!(
            (
                vmr.ibv_mr.context,
                vmr.ibv_mr.lkey,
                vmr.mr_type.raw(),
                vmr.access
            ),
            (ctx, 0, 0, 1)
        );
        // A dma-buf request has no write form.
        a.comp_mask = (ibv_mr_init_attr_mask::IBV_REG_MR_MASK_FD as u64)
            | (ibv_mr_init_attr_mask::IBV_REG_MR_MASK_FD_OFFSET as u64)
            | (ibv_mr_init_attr_mask::IBV_REG_MR_MASK_IOVA as u64);
        assert_eq!(
            with_errno(|| ibv_cmd_reg_mr_ex(&mut pd, &mut vmr, &mut a)),
            (libc::EOPNOTSUPP, libc::EOPNOTSUPP)
        );
        a.comp_mask = ibv_mr_init_attr_mask::IBV_REG_MR_MASK_FD as u64;
        assert_eq!(
            with_errno(|| ibv_cmd_reg_mr_ex(&mut pd, &mut vmr, &mut a)),
            (libc::EINVAL, libc::EINVAL)
        );
    }
}

#[test]
fn cmd_exports_reject_null() {
    let einval = (libc::EINVAL, libc::EINVAL);
    // SAFETY: each export accepts NULL (our documented divergence).
    unsafe {
        let ctx = context(34);
        let mut cc = ibv_comp_cntr {
            context: ctx,
            handle: 0,
        };
        let mut orphan = ibv_comp_cntr {
            context: null_mut(),
            handle: 0,
        };
        assert_eq!(
            with_errno(|| ibv_cmd_alloc_dmah(null_mut(), null_mut(), null_mut())),
            einval
        );
        assert_eq!(
            with_errno(|| ibv_cmd_alloc_dmah(ctx, null_mut(), null_mut())),
            einval
        );
        assert_eq!(with_errno(|| ibv_cmd_free_dmah(null_mut())), einval);
        let mut st: verbs_dmah = core::mem::zeroed();
        assert_eq!(with_errno(|| ibv_cmd_free_dmah(&mut st)), einval);
        assert_eq!(
            with_errno(|| ibv_cmd_create_comp_cntr(null_mut(), &mut cc, null_mut())),
            einval
        );
        assert_eq!(
            with_errno(|| ibv_cmd_create_comp_cntr(ctx, null_mut(), null_mut())),
            einval
        );
        for f in [
            ibv_cmd_set_comp_cntr,
            ibv_cmd_set_err_comp_cntr,
            ibv_cmd_inc_comp_cntr,
            ibv_cmd_inc_err_comp_cntr,
        ] {
            assert_eq!(with_errno(|| f(null_mut(), 1)), einval);
            assert_eq!(with_errno(|| f(&mut orphan, 1)), einval);
        }
        for f in [ibv_cmd_read_comp_cntr, ibv_cmd_read_err_comp_cntr] {
            let mut v = 0u64;
            assert_eq!(with_errno(|| f(null_mut(), &mut v)), einval);
            assert_eq!(with_errno(|| f(&mut cc, null_mut())), einval);
        }
        assert_eq!(with_errno(|| ibv_cmd_destroy_comp_cntr(null_mut())), einval);
        assert_eq!(
            with_errno(|| ibv_cmd_qp_attach_comp_cntr(null_mut(), &mut cc, null_mut())),
            einval
        );
        assert_eq!(
            with_errno(|| ibv_cmd_query_comp_cntr_caps(null_mut(), null_mut(), 16)),
            einval
        );
        let mut caps: ibv_comp_cntr_caps = core::mem::zeroed();
        assert_eq!(
            with_errno(|| ibv_cmd_query_comp_cntr_caps(null_mut(), &mut caps, 16)),
            einval
        );
        assert_eq!(
            with_errno(|| ibv_cmd_export_dmabuf_fd(null_mut(), 0)),
            (-1, libc::EINVAL)
        );
        let mut pd = ibv_pd {
            context: ctx,
            handle: 3,
        };
        let mut vmr: verbs_mr = core::mem::zeroed();
        assert_eq!(
            with_errno(|| ibv_cmd_reg_mr_ex(null_mut(), &mut vmr, null_mut())),
            einval
        );
        assert_eq!(
            with_errno(|| ibv_cmd_reg_mr_ex(&mut pd, null_mut(), null_mut())),
            einval
        );
        let mut a: ibv_mr_init_attr = core::mem::zeroed();
        a.comp_mask = (ibv_mr_init_attr_mask::IBV_REG_MR_MASK_ADDR as u64)
            | (ibv_mr_init_attr_mask::IBV_REG_MR_MASK_DMAH as u64);
        assert_eq!(
            with_errno(|| ibv_cmd_reg_mr_ex(&mut pd, &mut vmr, &mut a)),
            einval,
            "DMAH with no dmah"
        );
    }
}

/// `ibv_dmabuf_heap_free` unmaps only what ibv_dmabuf_heap_alloc mapped, by its own length: a
/// garbage address or a huge size (the hostile-input sweep's cases) leaves the process's memory.
#[test]
fn dmabuf_heap_free_unmaps_only_its_own() {
    let mut keep = vec![7u8; 4096];
    // SAFETY: the export's C contract, with a buffer it did not map (our divergence: ignored).
    unsafe { ibv_dmabuf_heap_free(keep.as_mut_ptr().cast(), usize::MAX / 2, -1) };
    assert!(keep.iter().all(|&b| b == 7));
    // Two pages; the first handed out as a 4096-byte heap buffer, freed with a larger size.
    // SAFETY: a new anonymous mapping at an address the kernel picks.
    let p = unsafe {
        libc::mmap(
            null_mut(),
            8192,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    assert_ne!(p, libc::MAP_FAILED);
    BUFFERS.give_sized(p, 4096);
    // SAFETY: p is the buffer handed out above; the size is wrong on purpose.
    unsafe { ibv_dmabuf_heap_free(p, 8192, -1) };
    let second = p.cast::<u8>().wrapping_add(4096);
    // SAFETY: the second page was not handed out, so it must still be mapped and writable.
    unsafe { second.write(1) };
    // The first page is gone: mincore on it fails with ENOMEM.
    let mut vec = [0u8; 1];
    // SAFETY: mincore writes one byte into `vec` for the one page asked about.
    let r = unsafe { libc::mincore(p, 4096, vec.as_mut_ptr()) };
    assert_eq!(r, -1);
    // Taken back once: a second free of it is ignored.
    // SAFETY: the export only looks `p` up among what it handed out and never dereferences it; now
    // a stale address, which it ignores.
    unsafe { ibv_dmabuf_heap_free(p, 4096, -1) };
    // SAFETY: the second page, still ours, unmapped once.
    unsafe { libc::munmap(second.cast(), 4096) };
}

#[test]
fn dmabuf_heap_without_a_heap_device() {
    assert_eq!(DMA_HEAP_IOCTL_ALLOC, 0xc018_4800);
    assert_eq!(size_of::<dma_heap_allocation_data>(), 24);
    // SAFETY: the exports' C contracts; NULLs are our documented divergence.
    unsafe {
        if !std::path::Path::new("/dev/dma_heap/system_cc_shared").exists() {
            assert_eq!(
                with_errno(|| ibv_dmabuf_heap_cc_shared_init()),
                (null_mut(), libc::ENOENT)
            );
        }
        let mut fd = -7;
        assert_eq!(
            with_errno(|| ibv_dmabuf_heap_alloc(null_mut(), 4096, &mut fd)),
            (null_mut(), libc::EINVAL)
        );
        ibv_dmabuf_heap_destroy(null_mut());
        ibv_dmabuf_heap_free(null_mut(), 0, -1);
        // A "heap" that is not one: the allocation ioctl fails before any dma-buf exists.
        let h = HEAPS.give(Box::into_raw(heap_open("/dev", "null").unwrap()));
        assert_eq!(
            with_errno(|| ibv_dmabuf_heap_alloc(h, 4096, &mut fd)),
            (null_mut(), libc::ENOTTY)
        );
        assert_eq!(fd, -7);
        assert_eq!(
            with_errno(|| ibv_dmabuf_heap_alloc(h, 4096, null_mut())),
            (null_mut(), libc::EINVAL)
        );
        ibv_dmabuf_heap_destroy(h);
        // Destroyed already, or never a heap of ours: ignored (libc's free would abort).
        ibv_dmabuf_heap_destroy(h);
        let mut fake: ibv_dmabuf_heap = core::mem::zeroed();
        ibv_dmabuf_heap_destroy(&mut fake);
    }
    assert_eq!(
        heap_open("/dev/dma_heap", "../null").err(),
        Some(crate::errno::Errno::EINVAL)
    );
    assert_eq!(
        heap_open("/nonexistent", "x").err(),
        Some(crate::errno::Errno::ENOENT)
    );
}
