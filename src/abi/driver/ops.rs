//! rdma-core `libibverbs/driver.h`: `struct verbs_context_ops`, the provider's dispatch table, as
//! the newest provider ABI lays it out (v65: 744 bytes, 93 ops sorted by name).
//!
//! Each provider ABI's table holds, in the same (alphabetical) order, the ops that existed at that
//! ABI: the 76 of provider ABI 34 (v44, unchanged signatures since), then those marked `pabi: N`,
//! which ABI N added (N is a layout: 62 is rdma-core v62/v63's layout of ABI 59; [`super::pabi`]
//! derives every ABI's layout from these marks' numbers, kept in [`super::pabi::OPS_ADDED`];
//! tests/abi_layout_rust.rs checks both against each other and against rdma-core's layouts). The
//! header generator turns a mark into `#if IBVERBS_PABI_VERSION >= N`.

use crate::abi::driver::verbs_mr;
use crate::abi::verbs::*;
use core::ffi::{c_int, c_uint, c_void};

/// The dispatch table of the newest provider ABI (one slot per op, sorted by name); the library
/// keeps every context's ops in this layout, whatever its provider's ABI.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_context_ops {
    pub advise_mr: Option<
        unsafe extern "C" fn(
            pd: *mut ibv_pd,
            advice: u32,
            flags: u32,
            sg_list: *mut ibv_sge,
            num_sges: u32,
        ) -> c_int,
    >,
    /// pabi: 64 (added by provider ABI 64)
    pub alloc_buf: Option<
        unsafe extern "C" fn(pd: *mut ibv_pd, size: usize, buf: *mut *mut ibv_buf) -> *mut c_void,
    >,
    pub alloc_dm: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            attr: *mut ibv_alloc_dm_attr,
        ) -> *mut ibv_dm,
    >,
    /// pabi: 59 (added by provider ABI 59)
    pub alloc_dmah: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            attr: *mut ibv_dmah_init_attr,
        ) -> *mut ibv_dmah,
    >,
    pub alloc_mw: Option<unsafe extern "C" fn(pd: *mut ibv_pd, r#type: u32) -> *mut ibv_mw>,
    pub alloc_null_mr: Option<unsafe extern "C" fn(pd: *mut ibv_pd) -> *mut ibv_mr>,
    pub alloc_parent_domain: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            attr: *mut ibv_parent_domain_init_attr,
        ) -> *mut ibv_pd,
    >,
    pub alloc_pd: Option<unsafe extern "C" fn(context: *mut ibv_context) -> *mut ibv_pd>,
    pub alloc_td: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            init_attr: *mut ibv_td_init_attr,
        ) -> *mut ibv_td,
    >,
    pub async_event:
        Option<unsafe extern "C" fn(context: *mut ibv_context, event: *mut ibv_async_event)>,
    pub attach_counters_point_flow: Option<
        unsafe extern "C" fn(
            counters: *mut ibv_counters,
            attr: *mut ibv_counter_attach_attr,
            flow: *mut ibv_flow,
        ) -> c_int,
    >,
    pub attach_mcast:
        Option<unsafe extern "C" fn(qp: *mut ibv_qp, gid: *const ibv_gid, lid: u16) -> c_int>,
    pub bind_mw: Option<
        unsafe extern "C" fn(qp: *mut ibv_qp, mw: *mut ibv_mw, mw_bind: *mut ibv_mw_bind) -> c_int,
    >,
    pub close_xrcd: Option<unsafe extern "C" fn(xrcd: *mut ibv_xrcd) -> c_int>,
    pub cq_event: Option<unsafe extern "C" fn(cq: *mut ibv_cq)>,
    pub create_ah:
        Option<unsafe extern "C" fn(pd: *mut ibv_pd, attr: *mut ibv_ah_attr) -> *mut ibv_ah>,
    /// pabi: 65 (added by provider ABI 65)
    pub create_comp_cntr: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            attr: *mut ibv_comp_cntr_init_attr,
        ) -> *mut ibv_comp_cntr,
    >,
    pub create_counters: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            init_attr: *mut ibv_counters_init_attr,
        ) -> *mut ibv_counters,
    >,
    pub create_cq: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            cqe: c_int,
            channel: *mut ibv_comp_channel,
            comp_vector: c_int,
        ) -> *mut ibv_cq,
    >,
    pub create_cq_ex: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            init_attr: *mut ibv_cq_init_attr_ex,
        ) -> *mut ibv_cq_ex,
    >,
    pub create_flow: Option<
        unsafe extern "C" fn(qp: *mut ibv_qp, flow_attr: *mut ibv_flow_attr) -> *mut ibv_flow,
    >,
    pub create_flow_action_esp: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            attr: *mut ibv_flow_action_esp_attr,
        ) -> *mut ibv_flow_action,
    >,
    pub create_qp:
        Option<unsafe extern "C" fn(pd: *mut ibv_pd, attr: *mut ibv_qp_init_attr) -> *mut ibv_qp>,
    pub create_qp_ex: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            qp_init_attr_ex: *mut ibv_qp_init_attr_ex,
        ) -> *mut ibv_qp,
    >,
    pub create_rwq_ind_table: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            init_attr: *mut ibv_rwq_ind_table_init_attr,
        ) -> *mut ibv_rwq_ind_table,
    >,
    pub create_srq: Option<
        unsafe extern "C" fn(
            pd: *mut ibv_pd,
            srq_init_attr: *mut ibv_srq_init_attr,
        ) -> *mut ibv_srq,
    >,
    pub create_srq_ex: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            srq_init_attr_ex: *mut ibv_srq_init_attr_ex,
        ) -> *mut ibv_srq,
    >,
    pub create_wq: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            wq_init_attr: *mut ibv_wq_init_attr,
        ) -> *mut ibv_wq,
    >,
    /// pabi: 59 (added by provider ABI 59)
    pub dealloc_dmah: Option<unsafe extern "C" fn(dmah: *mut ibv_dmah) -> c_int>,
    pub dealloc_mw: Option<unsafe extern "C" fn(mw: *mut ibv_mw) -> c_int>,
    pub dealloc_pd: Option<unsafe extern "C" fn(pd: *mut ibv_pd) -> c_int>,
    pub dealloc_td: Option<unsafe extern "C" fn(td: *mut ibv_td) -> c_int>,
    pub dereg_mr: Option<unsafe extern "C" fn(vmr: *mut verbs_mr) -> c_int>,
    pub destroy_ah: Option<unsafe extern "C" fn(ah: *mut ibv_ah) -> c_int>,
    /// pabi: 65 (added by provider ABI 65)
    pub destroy_comp_cntr: Option<unsafe extern "C" fn(comp_cntr: *mut ibv_comp_cntr) -> c_int>,
    pub destroy_counters: Option<unsafe extern "C" fn(counters: *mut ibv_counters) -> c_int>,
    pub destroy_cq: Option<unsafe extern "C" fn(cq: *mut ibv_cq) -> c_int>,
    pub destroy_flow: Option<unsafe extern "C" fn(flow: *mut ibv_flow) -> c_int>,
    pub destroy_flow_action: Option<unsafe extern "C" fn(action: *mut ibv_flow_action) -> c_int>,
    pub destroy_qp: Option<unsafe extern "C" fn(qp: *mut ibv_qp) -> c_int>,
    pub destroy_rwq_ind_table:
        Option<unsafe extern "C" fn(rwq_ind_table: *mut ibv_rwq_ind_table) -> c_int>,
    pub destroy_srq: Option<unsafe extern "C" fn(srq: *mut ibv_srq) -> c_int>,
    pub destroy_wq: Option<unsafe extern "C" fn(wq: *mut ibv_wq) -> c_int>,
    pub detach_mcast:
        Option<unsafe extern "C" fn(qp: *mut ibv_qp, gid: *const ibv_gid, lid: u16) -> c_int>,
    /// pabi: 62 (added by rdma-core v62 within provider ABI 59: layout 62)
    pub dm_export_dmabuf_fd: Option<unsafe extern "C" fn(dm: *mut ibv_dm) -> c_int>,
    /// pabi: 64 (added by provider ABI 64)
    pub free_buf: Option<unsafe extern "C" fn(buf: *mut ibv_buf)>,
    pub free_context: Option<unsafe extern "C" fn(context: *mut ibv_context)>,
    pub free_dm: Option<unsafe extern "C" fn(dm: *mut ibv_dm) -> c_int>,
    pub get_srq_num: Option<unsafe extern "C" fn(srq: *mut ibv_srq, srq_num: *mut u32) -> c_int>,
    /// pabi: 33 (added by rdma-core v35 inside provider ABI 34: layout 33)
    pub import_dm:
        Option<unsafe extern "C" fn(context: *mut ibv_context, dm_handle: u32) -> *mut ibv_dm>,
    pub import_mr: Option<unsafe extern "C" fn(pd: *mut ibv_pd, mr_handle: u32) -> *mut ibv_mr>,
    pub import_pd:
        Option<unsafe extern "C" fn(context: *mut ibv_context, pd_handle: u32) -> *mut ibv_pd>,
    /// pabi: 65 (added by provider ABI 65)
    pub inc_comp_cntr:
        Option<unsafe extern "C" fn(comp_cntr: *mut ibv_comp_cntr, amount: u64) -> c_int>,
    /// pabi: 65 (added by provider ABI 65)
    pub inc_err_comp_cntr:
        Option<unsafe extern "C" fn(comp_cntr: *mut ibv_comp_cntr, amount: u64) -> c_int>,
    pub modify_cq:
        Option<unsafe extern "C" fn(cq: *mut ibv_cq, attr: *mut ibv_modify_cq_attr) -> c_int>,
    pub modify_flow_action_esp: Option<
        unsafe extern "C" fn(
            action: *mut ibv_flow_action,
            attr: *mut ibv_flow_action_esp_attr,
        ) -> c_int,
    >,
    pub modify_qp: Option<
        unsafe extern "C" fn(qp: *mut ibv_qp, attr: *mut ibv_qp_attr, attr_mask: c_int) -> c_int,
    >,
    pub modify_qp_rate_limit:
        Option<unsafe extern "C" fn(qp: *mut ibv_qp, attr: *mut ibv_qp_rate_limit_attr) -> c_int>,
    pub modify_srq: Option<
        unsafe extern "C" fn(
            srq: *mut ibv_srq,
            srq_attr: *mut ibv_srq_attr,
            srq_attr_mask: c_int,
        ) -> c_int,
    >,
    pub modify_wq:
        Option<unsafe extern "C" fn(wq: *mut ibv_wq, wq_attr: *mut ibv_wq_attr) -> c_int>,
    pub open_qp: Option<
        unsafe extern "C" fn(context: *mut ibv_context, attr: *mut ibv_qp_open_attr) -> *mut ibv_qp,
    >,
    pub open_xrcd: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            xrcd_init_attr: *mut ibv_xrcd_init_attr,
        ) -> *mut ibv_xrcd,
    >,
    pub poll_cq:
        Option<unsafe extern "C" fn(cq: *mut ibv_cq, num_entries: c_int, wc: *mut ibv_wc) -> c_int>,
    pub post_recv: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp,
            wr: *mut ibv_recv_wr,
            bad_wr: *mut *mut ibv_recv_wr,
        ) -> c_int,
    >,
    pub post_send: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp,
            wr: *mut ibv_send_wr,
            bad_wr: *mut *mut ibv_send_wr,
        ) -> c_int,
    >,
    pub post_srq_ops: Option<
        unsafe extern "C" fn(
            srq: *mut ibv_srq,
            op: *mut ibv_ops_wr,
            bad_op: *mut *mut ibv_ops_wr,
        ) -> c_int,
    >,
    pub post_srq_recv: Option<
        unsafe extern "C" fn(
            srq: *mut ibv_srq,
            recv_wr: *mut ibv_recv_wr,
            bad_recv_wr: *mut *mut ibv_recv_wr,
        ) -> c_int,
    >,
    /// pabi: 65 (added by provider ABI 65)
    pub qp_attach_comp_cntr: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp,
            comp_cntr: *mut ibv_comp_cntr,
            attr: *mut ibv_qp_attach_comp_cntr_attr,
        ) -> c_int,
    >,
    /// pabi: 65 (added by provider ABI 65)
    pub query_comp_cntr_caps: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            caps: *mut ibv_comp_cntr_caps,
            caps_size: usize,
        ) -> c_int,
    >,
    pub query_device_ex: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            input: *const ibv_query_device_ex_input,
            attr: *mut ibv_device_attr_ex,
            attr_size: usize,
        ) -> c_int,
    >,
    pub query_ece: Option<unsafe extern "C" fn(qp: *mut ibv_qp, ece: *mut ibv_ece) -> c_int>,
    pub query_port: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            port_num: u8,
            port_attr: *mut ibv_port_attr,
        ) -> c_int,
    >,
    /// pabi: 62 (added by rdma-core v62 within provider ABI 59: layout 62)
    pub query_port_speed: Option<
        unsafe extern "C" fn(context: *mut ibv_context, port_num: u32, speed: *mut u64) -> c_int,
    >,
    pub query_qp: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp,
            attr: *mut ibv_qp_attr,
            attr_mask: c_int,
            init_attr: *mut ibv_qp_init_attr,
        ) -> c_int,
    >,
    /// pabi: 34 (added by rdma-core v36: provider ABI 34's own layout)
    pub query_qp_data_in_order:
        Option<unsafe extern "C" fn(qp: *mut ibv_qp, op: u32, flags: u32) -> c_int>,
    pub query_rt_values: Option<
        unsafe extern "C" fn(context: *mut ibv_context, values: *mut ibv_values_ex) -> c_int,
    >,
    pub query_srq:
        Option<unsafe extern "C" fn(srq: *mut ibv_srq, srq_attr: *mut ibv_srq_attr) -> c_int>,
    /// pabi: 65 (added by provider ABI 65)
    pub read_comp_cntr:
        Option<unsafe extern "C" fn(comp_cntr: *mut ibv_comp_cntr, value: *mut u64) -> c_int>,
    pub read_counters: Option<
        unsafe extern "C" fn(
            counters: *mut ibv_counters,
            counters_value: *mut u64,
            ncounters: u32,
            flags: u32,
        ) -> c_int,
    >,
    /// pabi: 65 (added by provider ABI 65)
    pub read_err_comp_cntr:
        Option<unsafe extern "C" fn(comp_cntr: *mut ibv_comp_cntr, value: *mut u64) -> c_int>,
    pub reg_dm_mr: Option<
        unsafe extern "C" fn(
            pd: *mut ibv_pd,
            dm: *mut ibv_dm,
            dm_offset: u64,
            length: usize,
            access: c_uint,
        ) -> *mut ibv_mr,
    >,
    pub reg_dmabuf_mr: Option<
        unsafe extern "C" fn(
            pd: *mut ibv_pd,
            offset: u64,
            length: usize,
            iova: u64,
            fd: c_int,
            access: c_int,
        ) -> *mut ibv_mr,
    >,
    pub reg_mr: Option<
        unsafe extern "C" fn(
            pd: *mut ibv_pd,
            addr: *mut c_void,
            length: usize,
            hca_va: u64,
            access: c_int,
        ) -> *mut ibv_mr,
    >,
    /// pabi: 59 (added by provider ABI 59)
    pub reg_mr_ex: Option<
        unsafe extern "C" fn(pd: *mut ibv_pd, mr_init_attr: *mut ibv_mr_init_attr) -> *mut ibv_mr,
    >,
    pub req_notify_cq:
        Option<unsafe extern "C" fn(cq: *mut ibv_cq, solicited_only: c_int) -> c_int>,
    pub rereg_mr: Option<
        unsafe extern "C" fn(
            vmr: *mut verbs_mr,
            flags: c_int,
            pd: *mut ibv_pd,
            addr: *mut c_void,
            length: usize,
            access: c_int,
        ) -> c_int,
    >,
    pub resize_cq: Option<unsafe extern "C" fn(cq: *mut ibv_cq, cqe: c_int) -> c_int>,
    /// pabi: 65 (added by provider ABI 65)
    pub set_comp_cntr:
        Option<unsafe extern "C" fn(comp_cntr: *mut ibv_comp_cntr, value: u64) -> c_int>,
    pub set_ece: Option<unsafe extern "C" fn(qp: *mut ibv_qp, ece: *mut ibv_ece) -> c_int>,
    /// pabi: 65 (added by provider ABI 65)
    pub set_err_comp_cntr:
        Option<unsafe extern "C" fn(comp_cntr: *mut ibv_comp_cntr, value: u64) -> c_int>,
    /// pabi: 33 (added by rdma-core v35 inside provider ABI 34: layout 33)
    pub unimport_dm: Option<unsafe extern "C" fn(dm: *mut ibv_dm)>,
    pub unimport_mr: Option<unsafe extern "C" fn(mr: *mut ibv_mr)>,
    pub unimport_pd: Option<unsafe extern "C" fn(pd: *mut ibv_pd)>,
}
