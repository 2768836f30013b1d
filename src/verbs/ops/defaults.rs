//! The default op table (rdma-core `libibverbs/dummy_ops.c`: `verbs_dummy_ops`): the op every
//! slot of a context holds until its provider supplies its own, and the private table a context
//! starts with. What each default reports is listed in [`super`]'s header; [`super::set_ops`]
//! and [`super::init_defaults`] install them.
use crate::abi::driver::pabi::{self, OP_SINCE, OPS};
use crate::abi::driver::verbs_context_ops;

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

/// The private table a context starts with: [`DEFAULT_OPS`] without `async_event` and without
/// the ops later ABIs added (see [`super::init_defaults`]).
pub(super) const DEFAULT_PRIVATE: verbs_context_ops = {
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
    // SAFETY: [Slot; OPS] has the layout of the table (above), each slot keeping its value.
    unsafe { core::mem::transmute::<[Slot; OPS], verbs_context_ops>(t) }
};
