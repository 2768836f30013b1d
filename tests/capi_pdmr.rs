//! The PD/MR/MW/AH/mcast/XRCD/DM family without a device: NULL arguments (rdma-core crashes, so
//! the behaviour diffs cannot call them; ours documents EINVAL), the library-side checks that
//! come before any provider op (ibv_rereg_mr's input checks, ibv_reg_mr_ex's buffer checks), the
//! library-allocated buffers, and the verbs whose op provider ABI 34 lacks (EOPNOTSUPP as
//! rdma-core's defaults). Objects here carry a context made here with no private part.
use core::ffi::c_void;
use core::ptr::{null, null_mut};

use ibverbs::abi::driver::verbs_mr;
use ibverbs::abi::verbs::ibv_mr_init_attr_mask::*;
use ibverbs::abi::verbs::ibv_rereg_mr_err_code::IBV_REREG_MR_ERR_INPUT;
use ibverbs::abi::verbs::ibv_rereg_mr_flags::*;
use ibverbs::abi::verbs::*;
use ibverbs::capi::{ah, context, counters, dm, marshall, mcast, mr, pd};
use ibverbs::sys;

/// Run `f` with errno preset to a sentinel; return its result and the errno it left.
fn with_errno<T>(f: impl FnOnce() -> T) -> (T, i32) {
    sys::set_errno(12345);
    let r = f();
    (r, sys::errno())
}

/// A context for objects whose paths under test look at most at its `verbs_context` (which
/// has no private part: no provider ops of ABI 65).
fn fake_ctx() -> *mut ibv_context {
    // SAFETY: zeroed plain data (NULL pointers, absent ops).
    let v: *mut ibverbs::abi::driver::verbs_context_pabi34 =
        Box::into_raw(Box::new(unsafe { core::mem::zeroed() }));
    // SAFETY: our own allocation.
    unsafe { &raw mut (*v).context }
}

fn fake_pd() -> ibv_pd {
    ibv_pd {
        context: fake_ctx(),
        handle: 1,
    }
}

#[test]
fn verbs_reject_null() {
    // SAFETY: each export accepts NULL (our documented divergence).
    unsafe {
        assert_eq!(
            with_errno(|| pd::ibv_alloc_pd(null_mut())),
            (null_mut(), libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| pd::ibv_dealloc_pd(null_mut())),
            (libc::EINVAL, libc::EINVAL)
        );
        let mut orphan = ibv_pd {
            context: null_mut(),
            handle: 0,
        };
        assert_eq!(
            with_errno(|| pd::ibv_dealloc_pd(&mut orphan)),
            (libc::EINVAL, libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| pd::ibv_import_pd(null_mut(), 1)),
            (null_mut(), libc::EINVAL)
        );
        pd::ibv_unimport_pd(null_mut());

        let buf = [0u8; 64];
        let p = buf.as_ptr() as *mut c_void;
        assert_eq!(
            with_errno(|| mr::ibv_reg_mr(null_mut(), p, 64, 0)),
            (null_mut(), libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| mr::ibv_reg_mr_iova(null_mut(), p, 64, 0, 0)),
            (null_mut(), libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| mr::ibv_reg_mr_iova2(null_mut(), p, 64, 0, 0)),
            (null_mut(), libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| mr::ibv_reg_mr(&mut orphan, p, 64, 0)),
            (null_mut(), libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| mr::ibv_reg_dmabuf_mr(null_mut(), 0, 64, 0, -1, 0)),
            (null_mut(), libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| mr::ibv_reg_mr_ex(null_mut(), null_mut())),
            (null_mut(), libc::EINVAL)
        );
        let mut pd1 = fake_pd();
        assert_eq!(
            with_errno(|| mr::ibv_reg_mr_ex(&mut pd1, null_mut())),
            (null_mut(), libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| mr::ibv_rereg_mr(null_mut(), 0, null_mut(), null_mut(), 0, 0)),
            (-1, libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| mr::ibv_dereg_mr(null_mut())),
            (libc::EINVAL, libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| mr::ibv_import_mr(null_mut(), 1)),
            (null_mut(), libc::EINVAL)
        );
        mr::ibv_unimport_mr(null_mut());
        mr::ibv_free_buf(null_mut());
        assert_eq!(
            with_errno(|| mr::ibv_export_buf_dmabuf_fd(null_mut())),
            (-1, libc::EINVAL)
        );

        assert_eq!(
            with_errno(|| ah::ibv_create_ah(null_mut(), null_mut())),
            (null_mut(), libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| ah::ibv_destroy_ah(null_mut())),
            (libc::EINVAL, libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| ah::ibv_create_ah_from_wc(null_mut(), null_mut(), null_mut(), 1)),
            (null_mut(), libc::EINVAL)
        );
        let mut a: ibv_ah_attr = core::mem::zeroed();
        assert_eq!(
            with_errno(|| ah::ibv_init_ah_from_wc(fake_ctx(), 1, null_mut(), null_mut(), &mut a)),
            (-1, libc::EINVAL)
        );

        let mut g: ibv_gid = core::mem::zeroed();
        assert_eq!(
            with_errno(|| mcast::ibv_attach_mcast(null_mut(), &mut g, 0)),
            (libc::EINVAL, libc::EINVAL)
        );
        let mut qp: ibv_qp = core::mem::zeroed();
        qp.context = fake_ctx();
        assert_eq!(
            with_errno(|| mcast::ibv_detach_mcast(&mut qp, null_mut(), 0)),
            (libc::EINVAL, libc::EINVAL)
        );

        assert_eq!(
            with_errno(|| dm::ibv_import_dm(null_mut(), 1)),
            (null_mut(), libc::EINVAL)
        );
        dm::ibv_unimport_dm(null_mut());
        assert_eq!(
            with_errno(|| dm::ibv_dm_export_dmabuf_fd(null_mut())),
            (-1, libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| dm::ibv_alloc_dmah(null_mut(), null_mut())),
            (null_mut(), libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| dm::ibv_dealloc_dmah(null_mut())),
            (libc::EINVAL, libc::EINVAL)
        );
    }
}

#[test]
fn commands_reject_null() {
    // SAFETY: NULL is the input under test; each command checks it before any dereference.
    unsafe {
        let e = (libc::EINVAL, libc::EINVAL);
        assert_eq!(
            with_errno(|| pd::ibv_cmd_alloc_pd(
                null_mut(),
                null_mut(),
                null_mut(),
                0,
                null_mut(),
                0
            )),
            e
        );
        assert_eq!(with_errno(|| pd::ibv_cmd_dealloc_pd(null_mut())), e);
        let mut orphan = ibv_pd {
            context: null_mut(),
            handle: 0,
        };
        assert_eq!(with_errno(|| pd::ibv_cmd_dealloc_pd(&mut orphan)), e);
        assert_eq!(with_errno(|| pd::ibv_cmd_close_xrcd(null_mut())), e);
        assert_eq!(
            with_errno(|| pd::ibv_cmd_open_xrcd(
                null_mut(),
                null_mut(),
                0,
                null_mut(),
                null_mut(),
                0,
                null_mut(),
                0
            )),
            e
        );
        // A provider buffer shorter than the core request is refused before anything is sent.
        let mut pd1 = fake_pd();
        let (mut req, mut resp) = ([0u8; 8], [0u8; 4]);
        assert_eq!(
            with_errno(|| pd::ibv_cmd_alloc_pd(
                fake_ctx(),
                &mut pd1,
                req.as_mut_ptr().cast(),
                8,
                resp.as_mut_ptr().cast(),
                4
            )),
            e
        );
        let mut vmr: verbs_mr = core::mem::zeroed();
        assert_eq!(
            with_errno(|| mr::ibv_cmd_reg_mr(
                null_mut(),
                null_mut(),
                0,
                0,
                0,
                &mut vmr,
                null_mut(),
                0,
                null_mut(),
                0
            )),
            e
        );
        assert_eq!(
            with_errno(|| mr::ibv_cmd_reg_dmabuf_mr(
                null_mut(),
                0,
                0,
                0,
                -1,
                0,
                &mut vmr,
                null_mut()
            )),
            e
        );
        assert_eq!(
            with_errno(|| dm::ibv_cmd_reg_dm_mr(
                &mut pd1,
                null_mut(),
                0,
                0,
                0,
                &mut vmr,
                null_mut()
            )),
            e
        );
        assert_eq!(
            with_errno(|| mr::ibv_cmd_rereg_mr(
                &mut vmr,
                IBV_REREG_MR_CHANGE_PD as u32,
                null_mut(),
                0,
                0,
                0,
                null_mut(),
                null_mut(),
                0,
                null_mut(),
                0
            )),
            e
        );
        assert_eq!(with_errno(|| mr::ibv_cmd_dereg_mr(null_mut())), e);
        assert_eq!(
            with_errno(|| mr::ibv_cmd_dereg_mr(&mut vmr)),
            e,
            "an MR without a context"
        );
        assert_eq!(
            with_errno(|| mr::ibv_cmd_query_mr(null_mut(), &mut vmr, 1)),
            e
        );
        assert_eq!(
            with_errno(|| mr::ibv_cmd_advise_mr(&mut pd1, 0, 0, null_mut(), 1)),
            e
        );
        assert_eq!(
            with_errno(|| mr::ibv_cmd_alloc_mw(
                null_mut(),
                1,
                null_mut(),
                null_mut(),
                0,
                null_mut(),
                0
            )),
            e
        );
        assert_eq!(with_errno(|| mr::ibv_cmd_dealloc_mw(null_mut())), e);
        assert_eq!(
            with_errno(|| dm::ibv_cmd_alloc_dm(null_mut(), null(), null_mut(), null_mut())),
            e
        );
        assert_eq!(with_errno(|| dm::ibv_cmd_free_dm(null_mut())), e);
        assert_eq!(
            with_errno(|| mcast::ibv_cmd_attach_mcast(null_mut(), null_mut(), 0)),
            e
        );
        assert_eq!(
            with_errno(|| mcast::ibv_cmd_detach_mcast(null_mut(), null_mut(), 0)),
            e
        );
        assert_eq!(
            with_errno(|| ah::ibv_cmd_create_ah(&mut pd1, null_mut(), null_mut(), null_mut(), 0)),
            e
        );
        assert_eq!(with_errno(|| ah::ibv_cmd_destroy_ah(null_mut())), e);
    }
}

#[test]
fn rereg_input_checks_come_first() {
    // SAFETY: a fake MR whose context is never looked at on these paths.
    unsafe {
        let v: *mut verbs_mr = Box::into_raw(Box::new(core::mem::zeroed()));
        (*v).ibv_mr.context = fake_ctx();
        let mr = v.cast::<ibv_mr>();
        let input = (IBV_REREG_MR_ERR_INPUT as i32, libc::EINVAL);
        let buf = [0u8; 16];
        let p = buf.as_ptr() as *mut c_void;
        (*v).mr_type = ibverbs::abi::ctype::CEnum::new(
            ibverbs::abi::driver::ibv_mr_type::IBV_MR_TYPE_IMPORTED_MR as u32,
        );
        assert_eq!(
            with_errno(|| mr::ibv_rereg_mr(
                mr,
                IBV_REREG_MR_CHANGE_ACCESS as i32,
                null_mut(),
                null_mut(),
                0,
                0
            )),
            input
        );
        (*v).mr_type = ibverbs::abi::ctype::CEnum::new(
            ibverbs::abi::driver::ibv_mr_type::IBV_MR_TYPE_MR as u32,
        );
        assert_eq!(
            with_errno(|| mr::ibv_rereg_mr(mr, 8, null_mut(), null_mut(), 0, 0)),
            input
        );
        assert_eq!(
            with_errno(|| mr::ibv_rereg_mr(
                mr,
                IBV_REREG_MR_CHANGE_TRANSLATION as i32,
                null_mut(),
                null_mut(),
                16,
                0
            )),
            input
        );
        assert_eq!(
            with_errno(|| mr::ibv_rereg_mr(
                mr,
                IBV_REREG_MR_CHANGE_TRANSLATION as i32,
                null_mut(),
                p,
                0,
                0
            )),
            input
        );
        assert_eq!(
            with_errno(|| mr::ibv_rereg_mr(mr, 0, null_mut(), null_mut(), 0, 1)),
            input
        );
        // Divergence: CHANGE_PD with no PD.
        assert_eq!(
            with_errno(|| mr::ibv_rereg_mr(
                mr,
                IBV_REREG_MR_CHANGE_PD as i32,
                null_mut(),
                null_mut(),
                0,
                0
            )),
            input
        );
    }
}

#[test]
fn buffers() {
    // SAFETY: fake PDs whose contexts are never looked at on these paths; buffers from
    // ibv_alloc_buf.
    unsafe {
        let (mut pd1, mut pd2) = (fake_pd(), fake_pd());
        let mut b: *mut ibv_buf = null_mut();
        assert_eq!(
            with_errno(|| mr::ibv_alloc_buf(&mut pd1, 100, null_mut())),
            (null_mut(), libc::EINVAL)
        );
        let p = mr::ibv_alloc_buf(&mut pd1, 10000, &mut b);
        assert!(!p.is_null() && !b.is_null());
        assert_eq!(p as usize % 4096, 0, "page aligned");
        p.cast::<u8>().write_bytes(0x5a, 10000);
        assert_eq!(
            with_errno(|| mr::ibv_export_buf_dmabuf_fd(b)),
            (-1, libc::ENODATA)
        );

        // Checked before any registration: the PD, the range, the masks.
        let bad = |r: *mut ibv_mr, e: i32| r.is_null() && e == libc::EINVAL;
        let (r, e) = with_errno(|| mr::ibv_reg_buf_mr(&mut pd2, b, p, 100, 0));
        assert!(bad(r, e), "another PD");
        let (r, e) =
            with_errno(|| mr::ibv_reg_buf_mr(&mut pd1, b, p.cast::<u8>().sub(1).cast(), 100, 0));
        assert!(bad(r, e), "starts before the buffer");
        let (r, e) = with_errno(|| {
            mr::ibv_reg_buf_mr(&mut pd1, b, p.cast::<u8>().add(9000).cast(), 1001, 0)
        });
        assert!(bad(r, e), "ends after the buffer");
        let (r, e) =
            with_errno(|| mr::ibv_reg_buf_mr(&mut pd1, b, p.cast::<u8>().add(10001).cast(), 0, 0));
        assert!(bad(r, e), "starts after the buffer");
        let mut a: ibv_mr_init_attr = core::mem::zeroed();
        a.comp_mask = IBV_REG_MR_MASK_BUF as u64;
        a.buf = b;
        a.addr = p;
        a.length = 10;
        let (r, e) = with_errno(|| mr::ibv_reg_mr_ex(&mut pd1, &mut a));
        assert!(bad(r, e), "BUF without ADDR");
        a.comp_mask = IBV_REG_MR_MASK_BUF as u64
            | IBV_REG_MR_MASK_ADDR as u64
            | IBV_REG_MR_MASK_FD_OFFSET as u64;
        let (r, e) = with_errno(|| mr::ibv_reg_mr_ex(&mut pd1, &mut a));
        assert!(bad(r, e), "BUF with FD_OFFSET");
        a.comp_mask = IBV_REG_MR_MASK_BUF as u64 | IBV_REG_MR_MASK_ADDR as u64;
        a.buf = null_mut();
        let (r, e) = with_errno(|| mr::ibv_reg_mr_ex(&mut pd1, &mut a));
        assert!(bad(r, e), "BUF with a NULL buf");
        mr::ibv_free_buf(b);
        // Freed already, or never a handle of ours: ignored (libc's free would abort).
        mr::ibv_free_buf(b);
        let mut fake = [0u64; 8];
        mr::ibv_free_buf(fake.as_mut_ptr().cast());
    }
}

#[test]
fn ops_missing_at_pabi34() {
    // SAFETY: fake objects whose contexts are never looked at: these verbs have no op to call.
    unsafe {
        let ctx = fake_ctx();
        let mut speed = 77u64;
        assert_eq!(
            with_errno(|| context::ibv_query_port_speed(ctx, 1, &mut speed)),
            (libc::EOPNOTSUPP, 12345)
        );
        assert_eq!(speed, 77);
        assert_eq!(
            with_errno(|| context::ibv_query_port_speed(null_mut(), 1, &mut speed)),
            (libc::EINVAL, libc::EINVAL)
        );

        let mut caps = [0xeeu8; 32];
        assert_eq!(
            with_errno(|| counters::_ibv_query_comp_cntr_caps(ctx, caps.as_mut_ptr().cast(), 24)),
            (libc::EOPNOTSUPP, 12345)
        );
        assert_eq!(
            (caps[..24].iter().all(|&x| x == 0), caps[24]),
            (true, 0xee),
            "zeroed up to caps_size"
        );
        assert_eq!(
            with_errno(|| counters::ibv_create_comp_cntr(ctx, null_mut())),
            (null_mut(), libc::EOPNOTSUPP)
        );
        assert_eq!(
            with_errno(|| counters::ibv_create_comp_cntr(null_mut(), null_mut())),
            (null_mut(), libc::EINVAL)
        );
        let mut c = ibv_comp_cntr {
            context: ctx,
            handle: 1,
        };
        let mut v = 0u64;
        let unsupported = (libc::EOPNOTSUPP, 12345);
        assert_eq!(
            with_errno(|| counters::ibv_destroy_comp_cntr(&mut c)),
            unsupported
        );
        assert_eq!(
            with_errno(|| counters::ibv_set_comp_cntr(&mut c, 1)),
            unsupported
        );
        assert_eq!(
            with_errno(|| counters::ibv_set_err_comp_cntr(&mut c, 1)),
            unsupported
        );
        assert_eq!(
            with_errno(|| counters::ibv_inc_comp_cntr(&mut c, 1)),
            unsupported
        );
        assert_eq!(
            with_errno(|| counters::ibv_inc_err_comp_cntr(&mut c, 1)),
            unsupported
        );
        assert_eq!(
            with_errno(|| counters::ibv_read_comp_cntr(&mut c, &mut v)),
            unsupported
        );
        assert_eq!(
            with_errno(|| counters::ibv_read_err_comp_cntr(&mut c, &mut v)),
            unsupported
        );
        assert_eq!(
            with_errno(|| counters::ibv_destroy_comp_cntr(null_mut())),
            (libc::EINVAL, libc::EINVAL)
        );
        let mut qp: ibv_qp = core::mem::zeroed();
        qp.context = ctx;
        assert_eq!(
            with_errno(|| counters::ibv_qp_attach_comp_cntr(&mut qp, &mut c, null_mut())),
            unsupported
        );

        assert_eq!(
            with_errno(|| dm::ibv_alloc_dmah(ctx, null_mut())),
            (null_mut(), libc::EOPNOTSUPP)
        );
        let mut h = ibv_dmah { context: ctx };
        assert_eq!(with_errno(|| dm::ibv_dealloc_dmah(&mut h)), unsupported);
        let mut d: ibv_dm = core::mem::zeroed();
        d.context = ctx;
        assert_eq!(
            with_errno(|| dm::ibv_dm_export_dmabuf_fd(&mut d)),
            (-1, libc::EOPNOTSUPP)
        );
    }
}

#[test]
fn marshall_ignores_null() {
    // SAFETY: NULL is our documented no-op.
    unsafe {
        marshall::ibv_copy_ah_attr_from_kern(null_mut(), null_mut());
        marshall::ibv_copy_qp_attr_from_kern(null_mut(), null_mut());
        marshall::ibv_copy_path_rec_from_kern(null_mut(), null_mut());
        marshall::ibv_copy_path_rec_to_kern(null_mut(), null_mut());
    }
}
