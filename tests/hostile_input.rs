//! Hostile input at the provider-facing exports: each case here crashed or aborted the process
//! before (the bad-input sweep, abi-tests/sweep, found them), and now returns rdma-core's answer.
//!
//! Objects are zeroed or garbage-filled memory: "zeroed" is what a caller's calloc gives (a
//! context with no private part, command fd set to -1 so nothing reaches a kernel), "garbage" a
//! region of 0xa5 bytes whose pointers lead nowhere. rdma-core checks the arguments below before
//! it follows such a pointer; so must we.

use core::ffi::c_int;
use core::ptr::null_mut;
use ibverbs::abi::driver::{verbs_qp, verbs_sysfs_dev};
use ibverbs::abi::kern_abi::*;
use ibverbs::abi::uapi::*;
use ibverbs::abi::verbs::*;
use ibverbs::capi::device as cmd_device;
use ibverbs::capi::{cq, flow, mr, pd, qp as cmd_qp, wq};
use ibverbs::sys::{errno, set_errno};

const SENTINEL: c_int = 12345;

/// 16 KiB of one byte value; objects point 8 KiB in, so what a library reads before an object
/// (the `verbs_context` before an `ibv_context`) is the same bytes.
#[repr(C, align(4096))]
struct Region([u8; 16384]);

impl Region {
    fn new(byte: u8) -> Box<Region> {
        Box::new(Region([byte; 16384]))
    }

    fn at<T>(&mut self) -> *mut T {
        self.0.as_mut_ptr().wrapping_add(8192).cast()
    }

    /// A context of zeroed memory whose commands would go to fd -1.
    fn context(&mut self) -> *mut ibv_context {
        let c = self.at::<ibv_context>();
        // SAFETY: c points 8 KiB into our region, which holds a whole ibv_context there.
        unsafe { (*c).cmd_fd = -1 };
        c
    }
}

fn with_errno<T>(f: impl FnOnce() -> T) -> (T, c_int) {
    set_errno(SENTINEL);
    let r = f();
    (r, errno())
}

#[test]
fn query_context_refuses_command_buffers_no_kernel_could_take() {
    let mut z = Region::new(0);
    let ctx = z.context();
    // SAFETY: all-zero is a valid command buffer header.
    let mut b: Box<ibv_command_buffer> = Box::new(unsafe { core::mem::zeroed() });
    let base = (&raw mut b.hdr.attrs).cast::<ib_uverbs_attr>();
    // Was: an allocation of 2^40 / 16 attributes (6e18 bytes for the sweep's garbage): abort.
    b.next_attr = base.wrapping_add(1 << 36);
    b.last_attr = base.wrapping_add(1 << 37);
    // SAFETY: the context is zeroed memory; the chain is refused before any attribute is read.
    let (r, e) = with_errno(|| unsafe { cmd_device::ibv_cmd_query_context(ctx, &mut *b) });
    assert_eq!((r, e), (libc::EINVAL, libc::EINVAL));
    // Not a whole attribute into the array, or before it.
    b.next_attr = base.cast::<u8>().wrapping_add(3).cast();
    assert_eq!(
        // SAFETY: the zeroed context; the misplaced chain is refused before any attribute is read.
        unsafe { cmd_device::ibv_cmd_query_context(ctx, &mut *b) },
        libc::EINVAL
    );
    b.next_attr = base.wrapping_sub(1);
    assert_eq!(
        // SAFETY: the zeroed context; the chain before its array is refused before any read.
        unsafe { cmd_device::ibv_cmd_query_context(ctx, &mut *b) },
        libc::EINVAL
    );
    // Was: a chain that loops back walked (and grown in memory) forever.
    b.next_attr = base;
    b.last_attr = base;
    let me = &raw mut *b;
    b.next = me;
    assert_eq!(
        // SAFETY: the zeroed context; every buffer of the loop is this one, holding no attributes.
        unsafe { cmd_device::ibv_cmd_query_context(ctx, me) },
        libc::EINVAL
    );
}

#[test]
fn poll_cq_for_more_completions_than_memory_holds() {
    let mut z = Region::new(0);
    let ctx = z.context();
    // SAFETY: all-zero is a valid CQ.
    let mut cq: Box<ibv_cq> = Box::new(unsafe { core::mem::zeroed() });
    cq.context = ctx;
    // SAFETY: all-zero is a valid work completion.
    let mut wc: ibv_wc = unsafe { core::mem::zeroed() };
    // Was: a 103 GB allocation that aborted the process. rdma-core's malloc fails: -1, ENOMEM.
    // (Should the allocator grant it lazily, the command then fails on fd -1: EBADF.)
    // SAFETY: the call fails before anything is written to `wc`.
    let (r, e) = with_errno(|| unsafe { cq::ibv_cmd_poll_cq(&mut *cq, c_int::MAX, &mut wc) });
    assert_eq!(r, -1);
    assert!(e == libc::ENOMEM || e == libc::EBADF, "errno {e}");
}

#[test]
fn create_qp_checks_the_attributes_before_the_context() {
    for byte in [0u8, 0xa5] {
        let mut mem = Region::new(byte);
        let ctx = mem.context();
        let mut qp = Region::new(0);
        // SAFETY: all-zero attributes: QP type 0, which no entry point takes.
        let mut attr: ibv_qp_init_attr_ex = unsafe { core::mem::zeroed() };
        let (mut cmd, mut resp) = (Region::new(0), Region::new(0));
        // Was: a crash reading the context's private part (qpcommon.rs). rdma-core: EINVAL from
        // its switch on the QP type, before it looks at the context.
        // SAFETY: every pointer is our memory, large enough for what it stands for.
        let (r, e) = with_errno(|| unsafe {
            cmd_qp::ibv_cmd_create_qp_ex(
                ctx,
                qp.at::<verbs_qp>(),
                &mut attr,
                cmd.at(),
                64,
                resp.at(),
                64,
            )
        });
        assert_eq!(
            (r, e),
            (libc::EINVAL, libc::EINVAL),
            "context of {byte:#x} bytes"
        );
        // SAFETY: every pointer is our memory, large enough for what it stands for; the context's
        // bytes (zero or 0xa5) are not read before the attributes are refused.
        let (r, e) = with_errno(|| unsafe {
            cmd_qp::ibv_cmd_create_qp_ex2(
                ctx,
                qp.at::<verbs_qp>(),
                &mut attr,
                cmd.at(),
                64,
                resp.at(),
                64,
            )
        });
        assert_eq!(
            (r, e),
            (libc::EINVAL, libc::EINVAL),
            "context of {byte:#x} bytes"
        );
        // A comp_mask the entry point does not take: refused first, the QP left alone.
        attr.comp_mask = ibv_qp_init_attr_mask::IBV_QP_INIT_ATTR_CREATE_FLAGS as u32;
        // SAFETY: every pointer is our memory, large enough for what it stands for; the mask is
        // refused first, the QP left alone.
        let r = unsafe {
            cmd_qp::ibv_cmd_create_qp_ex(
                ctx,
                qp.at::<verbs_qp>(),
                &mut attr,
                cmd.at(),
                64,
                resp.at(),
                64,
            )
        };
        assert_eq!(r, libc::EINVAL);
        attr.comp_mask = 0;
    }
}

#[test]
fn modify_and_query_check_their_masks_before_the_object() {
    let mut g = Region::new(0xa5);
    let mut cmd = Region::new(0);
    // Objects of garbage: their `context` points nowhere. rdma-core returns on these masks first.
    let (qp, cq, wq) = (g.at::<ibv_qp>(), g.at::<ibv_cq>(), g.at::<ibv_wq>());
    // SAFETY: all-zero attribute structs, with the masks set below.
    let (mut qa, mut qi): (ibv_qp_attr, ibv_qp_init_attr) =
        unsafe { (core::mem::zeroed(), core::mem::zeroed()) };
    let rate_limit = ibv_qp_attr_mask::IBV_QP_RATE_LIMIT as c_int;
    // SAFETY: the calls return before reading the QP's context.
    unsafe {
        let (r, e) =
            with_errno(|| cmd_qp::ibv_cmd_modify_qp(qp, &mut qa, rate_limit, cmd.at(), 64));
        assert_eq!((r, e), (libc::EOPNOTSUPP, SENTINEL));
        let (r, e) =
            with_errno(|| cmd_qp::ibv_cmd_query_qp(qp, &mut qa, rate_limit, &mut qi, cmd.at(), 64));
        assert_eq!((r, e), (libc::EOPNOTSUPP, SENTINEL));
    }
    // SAFETY: an all-zero attribute struct, its mask set below.
    let mut ca: ibv_modify_cq_attr = unsafe { core::mem::zeroed() };
    ca.attr_mask = ibv_cq_attr_mask::IBV_CQ_ATTR_RESERVED as u32;
    // SAFETY: the CQ is garbage but the call returns on the mask before reading its context.
    let (r, e) = with_errno(|| unsafe { cq::ibv_cmd_modify_cq(cq, &mut ca, cmd.at(), 64) });
    assert_eq!((r, e), (libc::EINVAL, SENTINEL));
    // SAFETY: an all-zero attribute struct, its masks set below.
    let mut wa: ibv_wq_attr = unsafe { core::mem::zeroed() };
    wa.attr_mask = ibv_wq_attr_mask::IBV_WQ_ATTR_RESERVED as u32;
    // SAFETY: the WQ is garbage but the call returns on the mask before reading its context.
    let (r, e) = with_errno(|| unsafe { wq::ibv_cmd_modify_wq(wq, &mut wa, cmd.at(), 64) });
    assert_eq!((r, e), (libc::EINVAL, SENTINEL));
    wa.attr_mask = ibv_wq_attr_mask::IBV_WQ_ATTR_FLAGS as u32;
    wa.flags_mask = u32::MAX;
    // SAFETY: the same garbage WQ; the call returns on the flags mask before reading its context.
    let (r, e) = with_errno(|| unsafe { wq::ibv_cmd_modify_wq(wq, &mut wa, cmd.at(), 64) });
    assert_eq!((r, e), (libc::EOPNOTSUPP, SENTINEL));
}

#[test]
fn create_wq_query_device_reg_mr_and_flows_check_before_the_context() {
    let mut g = Region::new(0xa5);
    let ctx = g.at::<ibv_context>();
    let (mut a, mut b) = (Region::new(0), Region::new(0));
    // SAFETY: as in the tests above: each call returns on its arguments first.
    unsafe {
        let mut wa: ibv_wq_init_attr = core::mem::zeroed();
        wa.comp_mask = u32::MAX;
        let mut wq: ibv_wq = core::mem::zeroed();
        let (r, e) =
            with_errno(|| wq::ibv_cmd_create_wq(ctx, &mut wa, &mut wq, a.at(), 64, b.at(), 64));
        assert_eq!((r, e), (libc::EINVAL, libc::EINVAL));

        let input = ibv_query_device_ex_input { comp_mask: 1 };
        let mut attr: ibv_device_attr_ex = core::mem::zeroed();
        let size = size_of::<ibv_device_attr_ex>();
        let mut rs = size;
        let (r, e) = with_errno(|| {
            cmd_device::ibv_cmd_query_device_any(ctx, &input, &mut attr, size, b.at(), &mut rs)
        });
        assert_eq!((r, e), (libc::EINVAL, SENTINEL));
        let (r, e) = with_errno(|| {
            cmd_device::ibv_cmd_query_device_any(
                ctx,
                null_mut(),
                &mut attr,
                8,
                null_mut(),
                null_mut(),
            )
        });
        assert_eq!((r, e), (libc::EINVAL, SENTINEL));

        // An implicit on-demand MR (the whole address space) cannot start at an address.
        let pd = g.at::<ibv_pd>();
        let odp = ibv_access_flags::IBV_ACCESS_ON_DEMAND as c_int;
        let (r, e) = with_errno(|| {
            mr::ibv_cmd_reg_mr(
                pd,
                0x1000 as *mut _,
                usize::MAX,
                0,
                odp,
                a.at(),
                b.at(),
                64,
                b.at(),
                64,
            )
        });
        assert_eq!((r, e), (libc::EINVAL, libc::EINVAL));

        // A flow spec of an unknown type, on a QP of garbage.
        let qp = g.at::<ibv_qp>();
        let spec = a.at::<ibv_flow_attr>();
        (*spec).num_of_specs = 1;
        spec.add(1).cast::<u32>().write(0xdead_0000);
        spec.add(1).cast::<u16>().add(2).write(16);
        let mut flow: ibv_flow = core::mem::zeroed();
        let (r, e) = with_errno(|| flow::ibv_cmd_create_flow(qp, &mut flow, spec, null_mut(), 0));
        assert_eq!((r, e), (libc::EINVAL, libc::EINVAL));
    }
}

#[test]
fn a_context_without_a_private_part_fails_its_commands() {
    // Zeroed memory: no private part. The commands go to fd -1 instead of crashing on it.
    let mut z = Region::new(0);
    let ctx = z.context();
    let (mut pd, mut cmd, mut resp) = (Region::new(0), Region::new(0), Region::new(0));
    // SAFETY: zeroed objects and buffers large enough for the core command and response.
    let r = unsafe {
        pd::ibv_cmd_alloc_pd(
            ctx,
            pd.at(),
            cmd.at(),
            size_of::<ibv_alloc_pd>(),
            resp.at(),
            size_of::<ib_uverbs_alloc_pd_resp>(),
        )
    };
    assert_eq!(r, libc::EBADF);
    // SAFETY: a zeroed CQ of that context.
    let mut cq: Box<ibv_cq> = Box::new(unsafe { core::mem::zeroed() });
    cq.context = ctx;
    assert_eq!(
        // SAFETY: a zeroed CQ of the test's context; the call fails on its command fd (EBADF).
        unsafe { cq::ibv_cmd_req_notify_cq(&mut *cq, 0) },
        libc::EBADF
    );
}

#[test]
fn read_ibdev_sysfs_file_sizes_no_buffer_has() {
    // Was: "capacity overflow" (SIZE_MAX) or an allocation failure (2^40), each an abort.
    // SAFETY: all-zero is a valid sysfs record; its ibdev_path is set below.
    let mut dev: Box<verbs_sysfs_dev> = Box::new(unsafe { core::mem::zeroed() });
    for (d, s) in dev.ibdev_path.iter_mut().zip(b"/proc/self\0") {
        *d = *s as core::ffi::c_char;
    }
    let mut buf = [0 as core::ffi::c_char; 8];
    for size in [usize::MAX, 1 << 40] {
        // SAFETY: the kernel refuses the range before writing.
        let (r, e) = with_errno(|| unsafe {
            ibverbs::capi::sysfs::ibverbs_rs_read_ibdev_sysfs_file(
                buf.as_mut_ptr(),
                size,
                &mut *dev,
                c"comm".as_ptr(),
            )
        });
        assert_eq!((r, e), (-1, libc::EFAULT), "size {size:#x}");
    }
}
