//! The default op table and how a provider's ops are installed into a context
//! (rdma-core `libibverbs/dummy_ops.c`: `verbs_dummy_ops` and `verbs_set_ops`, v44 to v65).
//!
//! Every context keeps its ops in the newest provider ABI's layout (`verbs_context_ops`),
//! whatever its provider's ABI: [`provider_table`] reads a provider's own table (the ops of its
//! ABI, `abi::driver::pabi`) into that layout. A context starts with [`DEFAULT_OPS`] in the slots
//! of its private table that the oldest ABI has, except `async_event`, whose default does
//! nothing (left empty, so `ibv_get_async_event` skips the call; `cq_event` keeps its default,
//! so that `ibv_get_cq_event` calls the slot without a test), and in the public slots that mirror
//! them; the slots later ABIs added stay empty until a
//! provider fills them (the public verbs then do what rdma-core's default op does). A provider
//! then overwrites the ops it implements with [`set_ops`], possibly several times.
//!
//! The defaults never touch their arguments. What they report:
//! - ops returning a pointer: NULL with errno EOPNOTSUPP;
//! - ops returning `int`: the positive value EOPNOTSUPP, errno left alone — including `poll_cq`,
//!   `post_send`, `post_recv`, `post_srq_recv` and `post_srq_ops`, which do NOT set `*bad_wr`;
//! - `query_qp_data_in_order`: 0 (no in-order guarantee), not an error;
//! - `rereg_mr`: `IBV_REREG_MR_ERR_INPUT` (-1) with errno EOPNOTSUPP;
//! - `async_event`, `cq_event`, `free_context`, `unimport_dm`, `unimport_mr`, `unimport_pd`:
//!   return nothing and do nothing.
//!
//! Called by `capi::driver` (`verbs_set_ops`) and `verbs::context`.

use crate::abi::driver::pabi::{self, OP_SINCE, OPS};
use crate::abi::driver::{verbs_context_ops, verbs_context_pabi34};
use crate::verbs::ctxpriv::ContextPriv;

/// Default ops returning `int`: EOPNOTSUPP (positive), errno untouched. One `unsafe extern "C"`
/// function per line, visible to the invoking module's parent.
macro_rules! int_unsupported {
    ($($name:ident($($t:ty),*);)*) => {
        $(pub(super) unsafe extern "C" fn $name($(_: $t),*) -> core::ffi::c_int { libc::EOPNOTSUPP })*
    };
}
/// Default ops returning a pointer: NULL with errno EOPNOTSUPP.
macro_rules! null_unsupported {
    ($($name:ident($($t:ty),*) -> $r:ty;)*) => {
        $(pub(super) unsafe extern "C" fn $name($(_: $t),*) -> *mut $r {
            crate::sys::set_errno(libc::EOPNOTSUPP);
            core::ptr::null_mut()
        })*
    };
}

/// The defaults themselves; only reachable through [`DEFAULT_OPS`].
mod dflt {
    use crate::abi::driver::verbs_mr;
    use crate::abi::verbs::*;
    use crate::sys::set_errno;
    use core::ffi::{c_int, c_uint, c_void};
    use libc::EOPNOTSUPP;

    /// Ops returning nothing: no effect.
    macro_rules! no_op {
        ($($name:ident($($t:ty),*);)*) => {
            $(pub(super) unsafe extern "C" fn $name($(_: $t),*) {})*
        };
    }

    int_unsupported! {
        advise_mr(*mut ibv_pd, u32, u32, *mut ibv_sge, u32);
        attach_counters_point_flow(*mut ibv_counters, *mut ibv_counter_attach_attr, *mut ibv_flow);
        attach_mcast(*mut ibv_qp, *const ibv_gid, u16);
        bind_mw(*mut ibv_qp, *mut ibv_mw, *mut ibv_mw_bind);
        close_xrcd(*mut ibv_xrcd);
        dealloc_mw(*mut ibv_mw);
        dealloc_pd(*mut ibv_pd);
        dealloc_td(*mut ibv_td);
        dereg_mr(*mut verbs_mr);
        destroy_ah(*mut ibv_ah);
        destroy_counters(*mut ibv_counters);
        destroy_cq(*mut ibv_cq);
        destroy_flow(*mut ibv_flow);
        destroy_flow_action(*mut ibv_flow_action);
        destroy_qp(*mut ibv_qp);
        destroy_rwq_ind_table(*mut ibv_rwq_ind_table);
        destroy_srq(*mut ibv_srq);
        destroy_wq(*mut ibv_wq);
        detach_mcast(*mut ibv_qp, *const ibv_gid, u16);
        free_dm(*mut ibv_dm);
        get_srq_num(*mut ibv_srq, *mut u32);
        modify_cq(*mut ibv_cq, *mut ibv_modify_cq_attr);
        modify_flow_action_esp(*mut ibv_flow_action, *mut ibv_flow_action_esp_attr);
        modify_qp(*mut ibv_qp, *mut ibv_qp_attr, c_int);
        modify_qp_rate_limit(*mut ibv_qp, *mut ibv_qp_rate_limit_attr);
        modify_srq(*mut ibv_srq, *mut ibv_srq_attr, c_int);
        modify_wq(*mut ibv_wq, *mut ibv_wq_attr);
        // The data-path ops report EOPNOTSUPP as their return value and leave *bad_wr unset;
        // poll_cq's positive return thus reads as a completion count to a naive caller.
        poll_cq(*mut ibv_cq, c_int, *mut ibv_wc);
        post_recv(*mut ibv_qp, *mut ibv_recv_wr, *mut *mut ibv_recv_wr);
        post_send(*mut ibv_qp, *mut ibv_send_wr, *mut *mut ibv_send_wr);
        post_srq_ops(*mut ibv_srq, *mut ibv_ops_wr, *mut *mut ibv_ops_wr);
        post_srq_recv(*mut ibv_srq, *mut ibv_recv_wr, *mut *mut ibv_recv_wr);
        query_device_ex(
            *mut ibv_context, *const ibv_query_device_ex_input, *mut ibv_device_attr_ex, usize
        );
        query_ece(*mut ibv_qp, *mut ibv_ece);
        query_port(*mut ibv_context, u8, *mut ibv_port_attr);
        query_qp(*mut ibv_qp, *mut ibv_qp_attr, c_int, *mut ibv_qp_init_attr);
        query_rt_values(*mut ibv_context, *mut ibv_values_ex);
        query_srq(*mut ibv_srq, *mut ibv_srq_attr);
        read_counters(*mut ibv_counters, *mut u64, u32, u32);
        req_notify_cq(*mut ibv_cq, c_int);
        resize_cq(*mut ibv_cq, c_int);
        set_ece(*mut ibv_qp, *mut ibv_ece);
    }

    null_unsupported! {
        alloc_dm(*mut ibv_context, *mut ibv_alloc_dm_attr) -> ibv_dm;
        alloc_mw(*mut ibv_pd, u32) -> ibv_mw;
        alloc_null_mr(*mut ibv_pd) -> ibv_mr;
        alloc_parent_domain(*mut ibv_context, *mut ibv_parent_domain_init_attr) -> ibv_pd;
        alloc_pd(*mut ibv_context) -> ibv_pd;
        alloc_td(*mut ibv_context, *mut ibv_td_init_attr) -> ibv_td;
        create_ah(*mut ibv_pd, *mut ibv_ah_attr) -> ibv_ah;
        create_counters(*mut ibv_context, *mut ibv_counters_init_attr) -> ibv_counters;
        create_cq(*mut ibv_context, c_int, *mut ibv_comp_channel, c_int) -> ibv_cq;
        create_cq_ex(*mut ibv_context, *mut ibv_cq_init_attr_ex) -> ibv_cq_ex;
        create_flow(*mut ibv_qp, *mut ibv_flow_attr) -> ibv_flow;
        create_flow_action_esp(*mut ibv_context, *mut ibv_flow_action_esp_attr) -> ibv_flow_action;
        create_qp(*mut ibv_pd, *mut ibv_qp_init_attr) -> ibv_qp;
        create_qp_ex(*mut ibv_context, *mut ibv_qp_init_attr_ex) -> ibv_qp;
        create_rwq_ind_table(
            *mut ibv_context, *mut ibv_rwq_ind_table_init_attr
        ) -> ibv_rwq_ind_table;
        create_srq(*mut ibv_pd, *mut ibv_srq_init_attr) -> ibv_srq;
        create_srq_ex(*mut ibv_context, *mut ibv_srq_init_attr_ex) -> ibv_srq;
        create_wq(*mut ibv_context, *mut ibv_wq_init_attr) -> ibv_wq;
        import_dm(*mut ibv_context, u32) -> ibv_dm;
        import_mr(*mut ibv_pd, u32) -> ibv_mr;
        import_pd(*mut ibv_context, u32) -> ibv_pd;
        open_qp(*mut ibv_context, *mut ibv_qp_open_attr) -> ibv_qp;
        open_xrcd(*mut ibv_context, *mut ibv_xrcd_init_attr) -> ibv_xrcd;
        reg_dm_mr(*mut ibv_pd, *mut ibv_dm, u64, usize, c_uint) -> ibv_mr;
        reg_dmabuf_mr(*mut ibv_pd, u64, usize, u64, c_int, c_int) -> ibv_mr;
        reg_mr(*mut ibv_pd, *mut c_void, usize, u64, c_int) -> ibv_mr;
    }

    // The ops later provider ABIs added (what rdma-core's dummy ops put in the public slots in
    // front of a context; the private table keeps these slots empty for a provider without them).
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

    no_op! {
        free_buf(*mut ibv_buf);
        async_event(*mut ibv_context, *mut ibv_async_event);
        cq_event(*mut ibv_cq);
        free_context(*mut ibv_context);
        unimport_dm(*mut ibv_dm);
        unimport_mr(*mut ibv_mr);
        unimport_pd(*mut ibv_pd);
    }

    /// Not 0/EOPNOTSUPP like the other queries: "no in-order guarantee" is a valid answer.
    pub(super) unsafe extern "C" fn query_qp_data_in_order(
        _: *mut ibv_qp,
        _: u32,
        _: u32,
    ) -> c_int {
        0
    }

    /// Returns the rereg error code for bad input (-1) and, unlike the other int ops, sets errno.
    pub(super) unsafe extern "C" fn rereg_mr(
        _: *mut verbs_mr,
        _: c_int,
        _: *mut ibv_pd,
        _: *mut c_void,
        _: usize,
        _: c_int,
    ) -> c_int {
        set_errno(EOPNOTSUPP);
        ibv_rereg_mr_err_code::IBV_REREG_MR_ERR_INPUT as c_int
    }
}

/// The op every slot holds until a provider supplies its own (`verbs_dummy_ops`).
pub(crate) static DEFAULT_OPS: verbs_context_ops = DEFAULT_OPS_VALUE;

/// [`DEFAULT_OPS`]' value, for constants built from it.
const DEFAULT_OPS_VALUE: verbs_context_ops = verbs_context_ops {
    advise_mr: Some(dflt::advise_mr),
    alloc_buf: Some(dflt::alloc_buf),
    alloc_dm: Some(dflt::alloc_dm),
    alloc_dmah: Some(dflt::alloc_dmah),
    alloc_mw: Some(dflt::alloc_mw),
    alloc_null_mr: Some(dflt::alloc_null_mr),
    alloc_parent_domain: Some(dflt::alloc_parent_domain),
    alloc_pd: Some(dflt::alloc_pd),
    alloc_td: Some(dflt::alloc_td),
    async_event: Some(dflt::async_event),
    attach_counters_point_flow: Some(dflt::attach_counters_point_flow),
    attach_mcast: Some(dflt::attach_mcast),
    bind_mw: Some(dflt::bind_mw),
    close_xrcd: Some(dflt::close_xrcd),
    cq_event: Some(dflt::cq_event),
    create_ah: Some(dflt::create_ah),
    create_comp_cntr: Some(dflt::create_comp_cntr),
    create_counters: Some(dflt::create_counters),
    create_cq: Some(dflt::create_cq),
    create_cq_ex: Some(dflt::create_cq_ex),
    create_flow: Some(dflt::create_flow),
    create_flow_action_esp: Some(dflt::create_flow_action_esp),
    create_qp: Some(dflt::create_qp),
    create_qp_ex: Some(dflt::create_qp_ex),
    create_rwq_ind_table: Some(dflt::create_rwq_ind_table),
    create_srq: Some(dflt::create_srq),
    create_srq_ex: Some(dflt::create_srq_ex),
    create_wq: Some(dflt::create_wq),
    dealloc_dmah: Some(dflt::dealloc_dmah),
    dealloc_mw: Some(dflt::dealloc_mw),
    dealloc_pd: Some(dflt::dealloc_pd),
    dealloc_td: Some(dflt::dealloc_td),
    dereg_mr: Some(dflt::dereg_mr),
    destroy_ah: Some(dflt::destroy_ah),
    destroy_comp_cntr: Some(dflt::destroy_comp_cntr),
    destroy_counters: Some(dflt::destroy_counters),
    destroy_cq: Some(dflt::destroy_cq),
    destroy_flow: Some(dflt::destroy_flow),
    destroy_flow_action: Some(dflt::destroy_flow_action),
    destroy_qp: Some(dflt::destroy_qp),
    destroy_rwq_ind_table: Some(dflt::destroy_rwq_ind_table),
    destroy_srq: Some(dflt::destroy_srq),
    destroy_wq: Some(dflt::destroy_wq),
    detach_mcast: Some(dflt::detach_mcast),
    dm_export_dmabuf_fd: Some(dflt::dm_export_dmabuf_fd),
    free_buf: Some(dflt::free_buf),
    free_context: Some(dflt::free_context),
    free_dm: Some(dflt::free_dm),
    get_srq_num: Some(dflt::get_srq_num),
    import_dm: Some(dflt::import_dm),
    import_mr: Some(dflt::import_mr),
    import_pd: Some(dflt::import_pd),
    inc_comp_cntr: Some(dflt::inc_comp_cntr),
    inc_err_comp_cntr: Some(dflt::inc_err_comp_cntr),
    modify_cq: Some(dflt::modify_cq),
    modify_flow_action_esp: Some(dflt::modify_flow_action_esp),
    modify_qp: Some(dflt::modify_qp),
    modify_qp_rate_limit: Some(dflt::modify_qp_rate_limit),
    modify_srq: Some(dflt::modify_srq),
    modify_wq: Some(dflt::modify_wq),
    open_qp: Some(dflt::open_qp),
    open_xrcd: Some(dflt::open_xrcd),
    poll_cq: Some(dflt::poll_cq),
    post_recv: Some(dflt::post_recv),
    post_send: Some(dflt::post_send),
    post_srq_ops: Some(dflt::post_srq_ops),
    post_srq_recv: Some(dflt::post_srq_recv),
    qp_attach_comp_cntr: Some(dflt::qp_attach_comp_cntr),
    query_comp_cntr_caps: Some(dflt::query_comp_cntr_caps),
    query_device_ex: Some(dflt::query_device_ex),
    query_ece: Some(dflt::query_ece),
    query_port: Some(dflt::query_port),
    query_port_speed: Some(dflt::query_port_speed),
    query_qp: Some(dflt::query_qp),
    query_qp_data_in_order: Some(dflt::query_qp_data_in_order),
    query_rt_values: Some(dflt::query_rt_values),
    query_srq: Some(dflt::query_srq),
    read_comp_cntr: Some(dflt::read_comp_cntr),
    read_counters: Some(dflt::read_counters),
    read_err_comp_cntr: Some(dflt::read_err_comp_cntr),
    reg_dm_mr: Some(dflt::reg_dm_mr),
    reg_dmabuf_mr: Some(dflt::reg_dmabuf_mr),
    reg_mr: Some(dflt::reg_mr),
    reg_mr_ex: Some(dflt::reg_mr_ex),
    req_notify_cq: Some(dflt::req_notify_cq),
    rereg_mr: Some(dflt::rereg_mr),
    resize_cq: Some(dflt::resize_cq),
    set_comp_cntr: Some(dflt::set_comp_cntr),
    set_ece: Some(dflt::set_ece),
    set_err_comp_cntr: Some(dflt::set_err_comp_cntr),
    unimport_dm: Some(dflt::unimport_dm),
    unimport_mr: Some(dflt::unimport_mr),
    unimport_pd: Some(dflt::unimport_pd),
};

/// A provider's op table of provider ABI `abi` (the ops of that ABI, in order) in the newest
/// layout: the slots its ABI lacks are empty (what [`set_ops`] reads op by op).
///
/// # Safety
/// `ops` points to a readable `verbs_context_ops` of provider ABI `abi` (`pabi::op_count(abi)`
/// function pointers, each NULL or an op of the provider).
#[cfg(test)]
pub(crate) unsafe fn provider_table(abi: u32, ops: *const core::ffi::c_void) -> verbs_context_ops {
    let src = ops.cast::<usize>();
    let mut slots = [0usize; OPS];
    for (i, slot) in slots.iter_mut().enumerate() {
        if let Some(k) = pabi::slot_in(abi, i) {
            // SAFETY: the caller's contract: slot k of the provider's table exists.
            *slot = unsafe { src.wrapping_add(k).read_unaligned() };
        }
    }
    // SAFETY: `verbs_context_ops` is OPS `Option<fn>` slots with the layout of [usize; OPS]; each
    // value is 0 (None) or the address of one of the provider's ops.
    unsafe { core::mem::transmute::<[usize; OPS], verbs_context_ops>(slots) }
}

/// Slot `k` of an op table at `src` as the op type `T` (`Option` of a function pointer), or
/// None (`k` None: the table's ABI lacks the op).
///
/// # Safety
/// `src` points to a table of at least `k + 1` slots, each NULL or a function of type `T`.
#[inline(always)]
unsafe fn slot<T: Copy>(src: *const usize, k: Option<usize>) -> Option<T> {
    const { assert!(size_of::<Option<T>>() == size_of::<usize>()) };
    let k = k?;
    // SAFETY: the caller's contract: slot k exists and holds NULL (None) or a `T`.
    unsafe { src.wrapping_add(k).cast::<Option<T>>().read_unaligned() }
}

/// [`set_ops`] from a whole table in the newest layout (the defaults, tests).
///
/// # Safety
/// As for [`set_ops`].
#[cfg(test)]
pub(crate) unsafe fn set_ops_table(
    vctx: *mut verbs_context_pabi34,
    abi: u32,
    ops: &verbs_context_ops,
) {
    // SAFETY: the caller's contract; a whole table is the newest ABI's layout.
    unsafe {
        set_ops::<{ pabi::NEWEST }, true>(vctx, abi, (ops as *const verbs_context_ops).cast())
    }
}

/// Install every non-NULL op of the table at `src`, a provider table of provider ABI `SRC` (the
/// ops of that ABI, in order: each read from its slot there, a constant), into a context of
/// provider ABI `abi` (`verbs_set_ops`): into the private table (when `PRIVATE`), and for most
/// ops also into the public slot that exposes it. Straight-line code, one test per op.
///
/// Public destinations, as rdma-core assigns them:
/// - 39 ops go to the same-named slot of `verbs_context` or `context.ops`;
/// - 2 go to a differently named `verbs_context` slot (`create_flow` → `ibv_create_flow`,
///   `destroy_flow` → `ibv_destroy_flow`);
/// - 22 go, untyped, to `context.ops._compat_<op>` (kept only for old binaries);
/// - 6 of the ops later ABIs added go to their slots in front of the context (`pabi::FRONT_OPS`)
///   when the context's ABI has them;
/// - the others stay private: `create_cq_ex`, `free_context`, `import_dm`, `import_mr`,
///   `import_pd`, `query_ece`, `query_port`, `query_qp_data_in_order`, `reg_dmabuf_mr`,
///   `set_ece`, `unimport_dm`, `unimport_mr`, `unimport_pd` (`create_cq_ex` and `query_port`
///   have public slots of their own, which the library fills with its wrappers instead), the
///   completion-counter ops and `query_port_speed`.
///
/// # Safety
/// `vctx` points to the common part (`verbs_context_pabi34` view) of a writable `verbs_context`
/// of provider ABI `abi`, whose `priv` is a live `ContextPriv` not otherwise borrowed; `src`
/// points to a readable op table of provider ABI `SRC` (`pabi::op_count(SRC)` slots).
#[inline(always)]
pub(crate) unsafe fn set_ops<const SRC: u32, const PRIVATE: bool>(
    vctx: *mut verbs_context_pabi34,
    abi: u32,
    src: *const usize,
) {
    // SAFETY: the caller's contract: a writable verbs_context.
    let p = unsafe { (*vctx).r#priv }.cast::<ContextPriv>();
    // SAFETY: the caller's contract: `priv` is a live ContextPriv nobody else borrows; it is a
    // separate allocation, so this borrow does not overlap the writes through `vctx` below.
    let table = unsafe { &mut (*p).ops };
    let front = pabi::front_bytes(abi);

    macro_rules! op {
        ($op:ident) => {
            // SAFETY: the caller's contract: a table of ABI SRC, whose slot for this op (a
            // constant) exists when the ABI has the op.
            unsafe {
                slot(
                    src,
                    const {
                        pabi::slot_in(
                            SRC,
                            core::mem::offset_of!(verbs_context_ops, $op) / size_of::<usize>(),
                        )
                    },
                )
            }
        };
    }
    macro_rules! install {
        // Same-named public slot of the verbs_context.
        (vctx $op:ident) => {
            if let Some(f) = op!($op) {
                if PRIVATE {
                    table.$op = Some(f);
                }
                // SAFETY: writable verbs_context (caller's contract).
                unsafe { (*vctx).$op = Some(f) };
            }
        };
        // Public slot of the verbs_context under another name.
        (vctx $op:ident => $slot:ident) => {
            if let Some(f) = op!($op) {
                if PRIVATE {
                    table.$op = Some(f);
                }
                // SAFETY: as above.
                unsafe { (*vctx).$slot = Some(f) };
            }
        };
        // Same-named public slot of ibv_context_ops.
        (ctx $op:ident) => {
            if let Some(f) = op!($op) {
                if PRIVATE {
                    table.$op = Some(f);
                }
                // SAFETY: as above.
                unsafe { (*vctx).context.ops.$op = Some(f) };
            }
        };
        // Untyped compatibility slot of ibv_context_ops.
        (compat $op:ident => $slot:ident) => {
            if let Some(f) = op!($op) {
                if PRIVATE {
                    table.$op = Some(f);
                }
                // SAFETY: writable verbs_context; the slot is a bare code address that nobody
                // calls through its declared type, and an Option of any function pointer has
                // the slot's size and alignment, so the typed pointer is stored as is.
                unsafe {
                    (&raw mut (*vctx).context.ops.$slot)
                        .cast::<Option<_>>()
                        .write(Some(f))
                };
            }
        };
        // Private table only.
        (private $op:ident) => {
            if PRIVATE {
                if let Some(f) = op!($op) {
                    table.$op = Some(f);
                }
            }
        };
        // A public slot in front of the common part, where the context's ABI has it.
        (front $op:ident) => {
            if let Some(f) = op!($op) {
                if PRIVATE {
                    table.$op = Some(f);
                }
                let back = pabi::front_distance(core::mem::offset_of!(
                    crate::abi::verbs::verbs_context,
                    $op
                ));
                if back <= front {
                    // SAFETY: the context's ABI has this slot `back` bytes before the common part
                    // (pabi::FRONT_OPS), inside the provider's writable verbs_context.
                    unsafe {
                        vctx.cast::<u8>()
                            .sub(back)
                            .cast::<Option<_>>()
                            .write_unaligned(Some(f))
                    };
                }
            }
        };
    }

    install!(vctx advise_mr);
    install!(vctx alloc_dm);
    install!(ctx alloc_mw);
    install!(vctx alloc_null_mr);
    install!(compat alloc_pd => _compat_alloc_pd);
    install!(vctx alloc_parent_domain);
    install!(vctx alloc_td);
    install!(vctx attach_counters_point_flow);
    install!(vctx create_counters);
    install!(compat async_event => _compat_async_event);
    install!(compat attach_mcast => _compat_attach_mcast);
    install!(ctx bind_mw);
    install!(vctx close_xrcd);
    install!(compat cq_event => _compat_cq_event);
    install!(compat create_ah => _compat_create_ah);
    install!(compat create_cq => _compat_create_cq);
    install!(private create_cq_ex);
    install!(vctx create_flow => ibv_create_flow);
    install!(vctx create_flow_action_esp);
    install!(compat create_qp => _compat_create_qp);
    install!(vctx create_qp_ex);
    install!(vctx create_rwq_ind_table);
    install!(compat create_srq => _compat_create_srq);
    install!(vctx create_srq_ex);
    install!(vctx create_wq);
    install!(ctx dealloc_mw);
    install!(compat dealloc_pd => _compat_dealloc_pd);
    install!(vctx dealloc_td);
    install!(vctx destroy_counters);
    install!(compat dereg_mr => _compat_dereg_mr);
    install!(compat destroy_ah => _compat_destroy_ah);
    install!(compat destroy_cq => _compat_destroy_cq);
    install!(vctx destroy_flow => ibv_destroy_flow);
    install!(vctx destroy_flow_action);
    install!(compat destroy_qp => _compat_destroy_qp);
    install!(vctx destroy_rwq_ind_table);
    install!(compat destroy_srq => _compat_destroy_srq);
    install!(vctx destroy_wq);
    install!(compat detach_mcast => _compat_detach_mcast);
    install!(private free_context);
    install!(vctx free_dm);
    install!(vctx get_srq_num);
    install!(private import_dm);
    install!(private import_mr);
    install!(private import_pd);
    install!(vctx modify_cq);
    install!(vctx modify_flow_action_esp);
    install!(compat modify_qp => _compat_modify_qp);
    install!(vctx modify_qp_rate_limit);
    install!(compat modify_srq => _compat_modify_srq);
    install!(vctx modify_wq);
    install!(vctx open_qp);
    install!(vctx open_xrcd);
    install!(ctx poll_cq);
    install!(ctx post_recv);
    install!(ctx post_send);
    install!(vctx post_srq_ops);
    install!(ctx post_srq_recv);
    install!(vctx query_device_ex);
    install!(private query_ece);
    install!(private query_port);
    install!(compat query_qp => _compat_query_qp);
    install!(private query_qp_data_in_order);
    install!(vctx query_rt_values);
    install!(vctx read_counters);
    install!(compat query_srq => _compat_query_srq);
    install!(vctx reg_dm_mr);
    install!(private reg_dmabuf_mr);
    install!(compat reg_mr => _compat_reg_mr);
    install!(ctx req_notify_cq);
    install!(compat rereg_mr => _compat_rereg_mr);
    install!(compat resize_cq => _compat_resize_cq);
    install!(private set_ece);
    install!(private unimport_dm);
    install!(private unimport_mr);
    install!(private unimport_pd);
    install!(front alloc_buf);
    install!(front alloc_dmah);
    install!(front dealloc_dmah);
    install!(front dm_export_dmabuf_fd);
    install!(front free_buf);
    install!(front reg_mr_ex);
    install!(private create_comp_cntr);
    install!(private destroy_comp_cntr);
    install!(private inc_comp_cntr);
    install!(private inc_err_comp_cntr);
    install!(private qp_attach_comp_cntr);
    install!(private query_comp_cntr_caps);
    install!(private query_port_speed);
    install!(private read_comp_cntr);
    install!(private read_err_comp_cntr);
    install!(private set_comp_cntr);
    install!(private set_err_comp_cntr);
}

/// `verbs_set_ops` of a provider of ABI `ABI`: its table `ops` into the context whose
/// `verbs_context` starts at `vctx` (NULL arguments are ignored). The C caller's contract: `vctx`
/// is a context `_verbs_init_and_alloc_context` of this ABI made; `ops` the provider's table of
/// its ABI.
pub(crate) fn verbs_set_ops<const ABI: u32>(
    vctx: *mut core::ffi::c_void,
    ops: *const core::ffi::c_void,
) {
    if vctx.is_null() || ops.is_null() {
        return;
    }
    // Another layout of this ABI (rdma-core v34/v35 of ABI 34, v62/v63 of 59:
    // verbs::ctxlayout); decided when this is compiled for every other ABI.
    if pabi::has_other_layouts(ABI) {
        let layout = crate::verbs::ctxlayout::of(ABI, vctx);
        if layout != ABI && pabi::tables_differ(layout) {
            set_ops_other(vctx, layout, ops);
            return;
        }
    }
    let view = crate::verbs::ctxpriv::view34(vctx, ABI);
    // SAFETY: the C caller's contract: a context of this ABI whose priv is ours; the provider's
    // op table of its ABI.
    unsafe { set_ops::<ABI, true>(view, ABI, ops.cast()) };
}

/// [`verbs_set_ops`] on a context of `layout`, another layout of its ABI whose tables differ
/// (`pabi::tables_differ`: it was recorded).
#[cold]
fn set_ops_other(vctx: *mut core::ffi::c_void, layout: u32, ops: *const core::ffi::c_void) {
    let view = crate::verbs::ctxpriv::view34(vctx, layout);
    let src = ops.cast::<usize>();
    match layout {
        // SAFETY: the C caller's contract, for a context and a table of rdma-core v34's layout.
        pabi::LAYOUT_V34 => unsafe { set_ops::<{ pabi::LAYOUT_V34 }, true>(view, layout, src) },
        // SAFETY: as above, of v35's layout.
        pabi::LAYOUT_V35 => unsafe { set_ops::<{ pabi::LAYOUT_V35 }, true>(view, layout, src) },
        // SAFETY: as above, of v62/v63's layout.
        pabi::LAYOUT_V62 => unsafe { set_ops::<{ pabi::LAYOUT_V62 }, true>(view, layout, src) },
        // Not a recorded layout (the caller passes only those whose tables differ).
        _ => {}
    }
}

/// Fill the private table and the public slots with the defaults, as a fresh context of provider
/// ABI `abi` gets them before its provider installs its own (`verbs_set_ops(ctx,
/// &verbs_dummy_ops)` in `verbs_init_context`).
///
/// # Safety
/// As for [`set_ops`].
///
/// Two differences from the defaults, in the private table only: `async_event` stays empty
/// (None) until a provider installs its own (its default does nothing, so
/// `ibv_get_async_event`, which tests the slot, skips the call; the public `_compat_*` slot
/// still holds the default, as rdma-core's does), and so do the ops later ABIs added (the public
/// verbs do what rdma-core's default op does when the provider gave none). `cq_event` keeps its
/// default, as in rdma-core: `ibv_get_cq_event` calls the slot without testing it (bench row
/// ibv_get_cq_event+ibv_ack_cq_events: a load, test and branch less), and it is never emptied
/// again ([`set_ops`] installs only a provider's non-NULL ops).
pub(crate) unsafe fn init_defaults(vctx: *mut verbs_context_pabi34, abi: u32) {
    // SAFETY: the caller's contract: a writable verbs_context.
    let p = unsafe { (*vctx).r#priv }.cast::<ContextPriv>();
    // SAFETY: the caller's contract: `priv` is a live ContextPriv nobody else borrows.
    unsafe { (*p).ops = DEFAULT_PRIVATE };
    // SAFETY: the caller's contract; the defaults are a whole table (the newest ABI's layout),
    // whose every slot is set, so each test below is decided when this is compiled.
    unsafe {
        set_ops::<{ pabi::NEWEST }, false>(vctx, abi, (&raw const DEFAULT_OPS).cast::<usize>())
    };
}

/// The private table a context starts with: [`DEFAULT_OPS`] without `async_event` and without
/// the ops later ABIs added (see [`init_defaults`]).
const DEFAULT_PRIVATE: verbs_context_ops = {
    type Slot = Option<unsafe extern "C" fn()>;
    // SAFETY: OPS slots of `Option` function pointers, each the size of a pointer: the table
    // has the layout of [Slot; OPS], and each slot keeps its value (a function or None).
    let mut t: [Slot; OPS] = unsafe { core::mem::transmute(DEFAULT_OPS_VALUE) };
    let mut i = 0;
    while i < OPS {
        if OP_SINCE[i] > pabi::OLDEST {
            t[i] = None;
        }
        i += 1;
    }
    t[core::mem::offset_of!(verbs_context_ops, async_event) / size_of::<usize>()] = None;
    // SAFETY: as above, back.
    unsafe { core::mem::transmute::<[Slot; OPS], verbs_context_ops>(t) }
};

#[cfg(test)]
mod tests;
