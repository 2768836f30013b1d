//! The provider ABI 65 forms of the private functions whose signature or structure layout changed
//! since ABI 34 (rdma-core v65 init.c, dummy_ops.c, cmd_device.c, cmd_cq.c, cmd_qp.c, cmd_mr.c).
//! Each adapts its arguments and calls the body the ABI-34 export calls (never that export), naming
//! its C convention itself; they are exported only as `name@IBVERBS_PRIVATE_65` (see `twins.rs`),
//! never by their Rust names.
// The safety contract of each function is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use core::ffi::{c_int, c_void};

use crate::abi::driver::pabi65::{verbs_context_ops_pabi65, verbs_context_pabi65};
use crate::abi::driver::{verbs_context_ops, verbs_cq, verbs_mr, verbs_qp};
use crate::abi::kern_abi::{
    ibv_command_buffer, ibv_create_cq_ex, ibv_create_qp_ex, ibv_get_context,
};
use crate::abi::uapi::{
    ib_uverbs_ex_create_cq_resp, ib_uverbs_ex_create_qp_resp, ib_uverbs_get_context_resp,
};
use crate::abi::verbs::{
    ibv_context, ibv_cq_init_attr_ex, ibv_device, ibv_fd_arr, ibv_pd, ibv_qp_init_attr_ex,
};
use crate::cret::CRet;
use crate::errno::Errno;
use crate::verbs::ctxpriv::{ContextPriv, PABI65_FRONT, view34};

/// Calls `$m!(name)` for each of the 76 ops provider ABIs 34 and 65 share.
macro_rules! common_ops {
    ($m:ident) => {
        $m!(
        advise_mr alloc_dm alloc_mw alloc_null_mr alloc_parent_domain alloc_pd alloc_td async_event
        attach_counters_point_flow attach_mcast bind_mw close_xrcd cq_event create_ah create_counters
        create_cq create_cq_ex create_flow create_flow_action_esp create_qp create_qp_ex
        create_rwq_ind_table create_srq create_srq_ex create_wq dealloc_mw dealloc_pd dealloc_td
        dereg_mr destroy_ah destroy_counters destroy_cq destroy_flow destroy_flow_action destroy_qp
        destroy_rwq_ind_table destroy_srq destroy_wq detach_mcast free_context free_dm get_srq_num
        import_dm import_mr import_pd modify_cq modify_flow_action_esp modify_qp modify_qp_rate_limit
        modify_srq modify_wq open_qp open_xrcd poll_cq post_recv post_send post_srq_ops post_srq_recv
        query_device_ex query_ece query_port query_qp query_qp_data_in_order query_rt_values query_srq
        read_counters reg_dm_mr reg_dmabuf_mr reg_mr req_notify_cq rereg_mr resize_cq set_ece
        unimport_dm unimport_mr unimport_pd
        );
    };
}

/// `struct verbs_create_cq_prov_attr` (v65 driver.h): a CQ buffer the provider allocated itself.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_create_cq_prov_attr {
    /// `buffer.length`; the union after it (`ptr` or `dmabuf {offset, fd}`) is not read here.
    pub buffer_length: u64,
    pub buffer_u: [u64; 2],
}

/// True when a provider's `driver` chain carries attributes (NULL or empty: false).
unsafe fn has_driver_attrs(driver: *mut ibv_command_buffer) -> bool {
    // SAFETY: the caller's contract: NULL or a command buffer chain.
    !driver.is_null() && unsafe { crate::capi::driver::final_num_attrs(0, driver) } != 0
}

/// `void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd, size_t alloc_size, struct verbs_context *context_offset, uint32_t driver_id)` (ABI 65)
///
/// As the ABI-34 form, for the 696-byte v65 `verbs_context` at `context_offset`: its `sz` is
/// 696 (v65 inline functions see the six newer public ops), and the context is marked ABI 65.
pub unsafe extern "C" fn _verbs_init_and_alloc_context_65(
    device: *mut ibv_device,
    cmd_fd: c_int,
    alloc_size: usize,
    context_offset: *mut verbs_context_pabi65,
    driver_id: u32,
) -> *mut c_void {
    let offset = context_offset as usize;
    let fits = offset
        .checked_add(size_of::<verbs_context_pabi65>())
        .is_some_and(|end| end <= alloc_size);
    if device.is_null() || !fits {
        crate::sys::cdev::close(cmd_fd);
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: calloc of the provider's wrapper; a zeroed verbs_context is a valid start.
    let drv = unsafe { libc::calloc(1, alloc_size) };
    if drv.is_null() {
        crate::sys::cdev::close(cmd_fd);
        return Err(Errno::ENOMEM).ret_null();
    }
    let vctx = drv
        .cast::<u8>()
        .wrapping_add(offset)
        .cast::<verbs_context_pabi65>();
    // SAFETY: the ABI-34 view lies inside the fresh allocation (it ends where the v65 one does).
    match unsafe {
        crate::verbs::context::init_context(view34(vctx.cast(), 65), device, cmd_fd, driver_id)
    } {
        Ok(()) => {
            // SAFETY: initialised just now; priv is our ContextPriv.
            unsafe {
                (*vctx).sz = size_of::<verbs_context_pabi65>();
                let p = &mut *(*vctx).r#priv.cast::<ContextPriv>();
                p.abi = 65;
                let t = &mut p.ops65;
                macro_rules! copy_defaults {
                    ($($n:ident)*) => { $( t.$n = p.ops.$n; )* };
                }
                common_ops!(copy_defaults);
                set_extra(vctx, p, &DEFAULT_EXTRA, false);
            }
            drv
        }
        Err(e) => {
            // SAFETY: ours, not handed out.
            unsafe { libc::free(drv) };
            Err(e).ret_null()
        }
    }
}

/// `void verbs_set_ops(struct verbs_context *vctx, const struct verbs_context_ops *ops)` (ABI 65)
///
/// The 76 ops both ABIs share go through the ABI-34 installer (private table and public slots);
/// the 17 newer ones into the context's v65 table, six of them (`alloc_buf`, `alloc_dmah`,
/// `dealloc_dmah`, `dm_export_dmabuf_fd`, `free_buf`, `reg_mr_ex`) also into their public
/// slots in front of the v65 `verbs_context`. NULL arguments are ignored.
pub unsafe extern "C" fn verbs_set_ops_65(
    vctx: *mut verbs_context_pabi65,
    ops: *const verbs_context_ops_pabi65,
) {
    if vctx.is_null() || ops.is_null() {
        return;
    }
    // SAFETY: a context initialised by the ABI-65 _verbs_init_and_alloc_context and the
    // provider's table.
    unsafe {
        let o = &*ops;
        // SAFETY: a table of Option<fn>: all-zero is all None.
        let mut t34: verbs_context_ops = core::mem::zeroed();
        macro_rules! copy34 {
            ($($n:ident)*) => { $( t34.$n = o.$n; )* };
        }
        common_ops!(copy34);
        crate::verbs::ops::set_ops(view34(vctx.cast(), 65), &t34);
        let p = &mut *(*vctx).r#priv.cast::<ContextPriv>();
        macro_rules! copy65 {
            ($($n:ident)*) => { $( if o.$n.is_some() { p.ops65.$n = o.$n; } )* };
        }
        common_ops!(copy65);
        set_extra(vctx, p, o, true);
    }
}

/// Install the 17 v65-only ops of `o` that are set: the six public ones into their slots in
/// front of the context, and, when `provider` (the provider's own table, not the defaults), all
/// of them into `p.ops65`, where the public verbs look for a provider op before doing what
/// rdma-core's default op does (so `p.ops65` holds only provider ops for these 17).
///
/// # Safety
/// `vctx` is a writable v65 context whose priv is `p`.
unsafe fn set_extra(
    vctx: *mut verbs_context_pabi65,
    p: &mut ContextPriv,
    o: &verbs_context_ops_pabi65,
    provider: bool,
) {
    macro_rules! public {
        ($($n:ident)*) => { $( if let Some(f) = o.$n {
            if provider {
                p.ops65.$n = Some(f);
            }
            // SAFETY: the caller's contract.
            unsafe { (*vctx).$n = Some(f) };
        } )* };
    }
    macro_rules! private {
        ($($n:ident)*) => { $( if provider && o.$n.is_some() { p.ops65.$n = o.$n; } )* };
    }
    public!(alloc_buf alloc_dmah dealloc_dmah dm_export_dmabuf_fd free_buf reg_mr_ex);
    private!(create_comp_cntr destroy_comp_cntr inc_comp_cntr inc_err_comp_cntr qp_attach_comp_cntr
        query_comp_cntr_caps query_port_speed read_comp_cntr read_err_comp_cntr set_comp_cntr
        set_err_comp_cntr);
}

/// The defaults of the 17 v65-only ops (the other 76 come from `ops::DEFAULT_OPS`): int ops
/// return EOPNOTSUPP, pointer ops NULL with errno EOPNOTSUPP, `free_buf` does nothing.
static DEFAULT_EXTRA: verbs_context_ops_pabi65 = {
    // SAFETY: a table of Option<fn>: all-zero is all None.
    let mut t: verbs_context_ops_pabi65 = unsafe { core::mem::zeroed() };
    t.alloc_buf = Some(dflt::alloc_buf);
    t.alloc_dmah = Some(dflt::alloc_dmah);
    t.create_comp_cntr = Some(dflt::create_comp_cntr);
    t.dealloc_dmah = Some(dflt::dealloc_dmah);
    t.destroy_comp_cntr = Some(dflt::destroy_comp_cntr);
    t.dm_export_dmabuf_fd = Some(dflt::dm_export_dmabuf_fd);
    t.free_buf = Some(dflt::free_buf);
    t.inc_comp_cntr = Some(dflt::inc_comp_cntr);
    t.inc_err_comp_cntr = Some(dflt::inc_err_comp_cntr);
    t.qp_attach_comp_cntr = Some(dflt::qp_attach_comp_cntr);
    t.query_comp_cntr_caps = Some(dflt::query_comp_cntr_caps);
    t.query_port_speed = Some(dflt::query_port_speed);
    t.read_comp_cntr = Some(dflt::read_comp_cntr);
    t.read_err_comp_cntr = Some(dflt::read_err_comp_cntr);
    t.reg_mr_ex = Some(dflt::reg_mr_ex);
    t.set_comp_cntr = Some(dflt::set_comp_cntr);
    t.set_err_comp_cntr = Some(dflt::set_err_comp_cntr);
    t
};

mod dflt {
    use crate::abi::verbs::*;
    use crate::verbs::ops::{int_unsupported, null_unsupported};
    use core::ffi::c_void;

    int_unsupported! {
        dealloc_dmah(*mut ibv_dmah);
        destroy_comp_cntr(*mut ibv_comp_cntr);
        dm_export_dmabuf_fd(*mut ibv_dm);
        inc_comp_cntr(*mut ibv_comp_cntr, u64);
        inc_err_comp_cntr(*mut ibv_comp_cntr, u64);
        qp_attach_comp_cntr(*mut ibv_qp, *mut ibv_comp_cntr, *mut ibv_qp_attach_comp_cntr_attr);
        query_comp_cntr_caps(*mut ibv_context, *mut ibv_comp_cntr_caps, usize);
        query_port_speed(*mut ibv_context, u32, *mut u64);
        read_comp_cntr(*mut ibv_comp_cntr, *mut u64);
        read_err_comp_cntr(*mut ibv_comp_cntr, *mut u64);
        set_comp_cntr(*mut ibv_comp_cntr, u64);
        set_err_comp_cntr(*mut ibv_comp_cntr, u64);
    }
    null_unsupported! {
        alloc_buf(*mut ibv_pd, usize, *mut *mut ibv_buf) -> c_void;
        alloc_dmah(*mut ibv_context, *mut ibv_dmah_init_attr) -> ibv_dmah;
        create_comp_cntr(*mut ibv_context, *mut ibv_comp_cntr_init_attr) -> ibv_comp_cntr;
        reg_mr_ex(*mut ibv_pd, *mut ibv_mr_init_attr) -> ibv_mr;
    }
    pub(super) unsafe extern "C" fn free_buf(_: *mut ibv_buf) {}
}

/// `void verbs_uninit_context(struct verbs_context *context)` (ABI 65): as the ABI-34 form on the
/// context's ABI-34 view.
pub unsafe extern "C" fn verbs_uninit_context_65(context: *mut verbs_context_pabi65) {
    if context.is_null() {
        return;
    }
    // SAFETY: a context initialised by the ABI-65 _verbs_init_and_alloc_context.
    unsafe { crate::verbs::context::uninit_context(view34(context.cast(), 65)) }
}

/// `int ibv_cmd_get_context(struct verbs_context *context, struct ibv_get_context *cmd, size_t cmd_size, struct ibv_fd_arr *fd_arr, struct ib_uverbs_get_context_resp *resp, size_t resp_size)` (ABI 65)
///
/// As the ABI-34 form. Divergence: a non-empty `fd_arr` (file descriptors to hand the kernel
/// with GET_CONTEXT) gives EOPNOTSUPP, nothing sent; NULL or `count == 0` is the ABI-34 call.
pub unsafe extern "C" fn ibv_cmd_get_context_65(
    context: *mut verbs_context_pabi65,
    cmd: *mut ibv_get_context,
    cmd_size: usize,
    fd_arr: *mut ibv_fd_arr,
    resp: *mut ib_uverbs_get_context_resp,
    resp_size: usize,
) -> c_int {
    if context.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's fd array, if any.
    if !fd_arr.is_null() && unsafe { (*fd_arr).count } != 0 {
        return Errno::EOPNOTSUPP.ret_errno();
    }
    // SAFETY: the C contract, on the ABI-34 view.
    unsafe {
        crate::capi::cmd_device::get_context(
            view34(context.cast(), 65),
            cmd,
            cmd_size,
            resp,
            resp_size,
        )
    }
    .ret_errno()
}

/// `int ibv_cmd_create_cq_ex(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr, struct verbs_create_cq_prov_attr *prov_attr, struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags)` (ABI 65)
///
/// As the ABI-34 form. Divergence: a `prov_attr` with a buffer (`buffer.length` != 0, a CQ
/// ring the provider allocated) gives EOPNOTSUPP, nothing sent.
pub unsafe extern "C" fn ibv_cmd_create_cq_ex_65(
    context: *mut ibv_context,
    cq_attr: *const ibv_cq_init_attr_ex,
    prov_attr: *mut verbs_create_cq_prov_attr,
    cq: *mut verbs_cq,
    cmd: *mut ibv_create_cq_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_cq_resp,
    resp_size: usize,
    cmd_flags: u32,
) -> c_int {
    // SAFETY: the C contract, forwarded.
    unsafe {
        create_cq_ex(
            context,
            cq_attr,
            prov_attr,
            cq,
            cmd,
            cmd_size,
            resp,
            resp_size,
            cmd_flags,
            core::ptr::null_mut(),
        )
    }
}

/// `int ibv_cmd_create_cq_ex2(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr, struct verbs_create_cq_prov_attr *prov_attr, struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags, struct ibv_command_buffer *driver)` (ABI 65)
///
/// As the ABI-34 form; `prov_attr` as for `ibv_cmd_create_cq_ex` (ABI 65).
pub unsafe extern "C" fn ibv_cmd_create_cq_ex2_65(
    context: *mut ibv_context,
    cq_attr: *const ibv_cq_init_attr_ex,
    prov_attr: *mut verbs_create_cq_prov_attr,
    cq: *mut verbs_cq,
    cmd: *mut ibv_create_cq_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_cq_resp,
    resp_size: usize,
    cmd_flags: u32,
    driver: *mut ibv_command_buffer,
) -> c_int {
    // SAFETY: the C contract, forwarded.
    unsafe {
        create_cq_ex(
            context, cq_attr, prov_attr, cq, cmd, cmd_size, resp, resp_size, cmd_flags, driver,
        )
    }
}

/// The body of both ABI-65 create-CQ commands: a `prov_attr` with a buffer (a CQ ring the
/// provider allocated) gives EOPNOTSUPP, nothing sent; otherwise the ABI-34 body.
///
/// # Safety
/// As for those exports.
#[allow(clippy::too_many_arguments)]
unsafe fn create_cq_ex(
    context: *mut ibv_context,
    cq_attr: *const ibv_cq_init_attr_ex,
    prov_attr: *mut verbs_create_cq_prov_attr,
    cq: *mut verbs_cq,
    cmd: *mut ibv_create_cq_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_cq_resp,
    resp_size: usize,
    cmd_flags: u32,
    driver: *mut ibv_command_buffer,
) -> c_int {
    // SAFETY: the provider's attributes, if any.
    if !prov_attr.is_null() && unsafe { (*prov_attr).buffer_length } != 0 {
        return Errno::EOPNOTSUPP.ret_errno();
    }
    // SAFETY: the caller's contract.
    unsafe {
        crate::capi::cmd_cq::create_cq_ex(
            context, cq_attr, cq, cmd, cmd_size, resp, resp_size, cmd_flags, driver,
        )
    }
}

/// `int ibv_cmd_create_qp_ex2(struct ibv_context *context, struct verbs_qp *qp, struct ibv_qp_init_attr_ex *qp_attr, struct ibv_create_qp_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_qp_resp *resp, size_t resp_size, struct ibv_command_buffer *driver)` (ABI 65)
///
/// As the ABI-34 form. Divergence: a `driver` chain carrying attributes gives EOPNOTSUPP,
/// nothing sent (the ABI-34 form has no way to pass them on).
pub unsafe extern "C" fn ibv_cmd_create_qp_ex2_65(
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    qp_attr: *mut ibv_qp_init_attr_ex,
    cmd: *mut ibv_create_qp_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_qp_resp,
    resp_size: usize,
    driver: *mut ibv_command_buffer,
) -> c_int {
    // SAFETY: NULL or the provider's chain.
    if unsafe { has_driver_attrs(driver) } {
        return Errno::EOPNOTSUPP.ret_errno();
    }
    // SAFETY: the C contract, forwarded.
    unsafe {
        crate::capi::cmd_qp::create_qp_ext(
            context,
            qp,
            qp_attr,
            (cmd, cmd_size),
            (resp, resp_size),
            crate::cmd::qp::CREATE_QP_EX2_MASK,
            crate::cmd::qp::create_qp_ex2,
        )
    }
    .ret_errno()
}

/// `int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access, struct verbs_mr *vmr, struct ibv_command_buffer *driver)` (ABI 65)
///
/// As the ABI-34 form. Divergence: a `driver` chain carrying attributes gives EOPNOTSUPP,
/// nothing sent.
pub unsafe extern "C" fn ibv_cmd_reg_dmabuf_mr_65(
    pd: *mut ibv_pd,
    offset: u64,
    length: usize,
    iova: u64,
    fd: c_int,
    access: c_int,
    vmr: *mut verbs_mr,
    driver: *mut ibv_command_buffer,
) -> c_int {
    // SAFETY: NULL or the provider's chain.
    if unsafe { has_driver_attrs(driver) } {
        return Errno::EOPNOTSUPP.ret_errno();
    }
    // SAFETY: the C contract, forwarded.
    unsafe { crate::capi::cmd_mr::reg_dmabuf_mr(pd, offset, length, iova, fd, access, vmr) }
        .ret_errno()
}

// The facts the ABI-34 view rests on (v65 layout file: verbs_context 696 bytes with `context` at
// 368, verbs_context_ops 744 bytes): the shared tail sits at the same distance before `context`.
const _: () = {
    use crate::abi::driver::verbs_context_pabi34 as V34;
    use core::mem::offset_of;
    assert!(PABI65_FRONT == 48);
    assert!(
        size_of::<verbs_context_pabi65>() == 696 && size_of::<verbs_context_ops_pabi65>() == 744
    );
    assert!(offset_of!(verbs_context_pabi65, context) == 368);
    assert!(
        offset_of!(verbs_context_pabi65, query_port) == offset_of!(V34, query_port) + PABI65_FRONT
    );
    assert!(offset_of!(verbs_context_pabi65, r#priv) == offset_of!(V34, r#priv) + PABI65_FRONT);
    assert!(offset_of!(verbs_context_pabi65, sz) == offset_of!(V34, sz) + PABI65_FRONT);
    assert!(size_of::<verbs_context_pabi65>() == size_of::<V34>() + PABI65_FRONT);
};
