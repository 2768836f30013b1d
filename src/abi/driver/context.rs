//! rdma-core v44.0 `libibverbs/verbs.h` types whose provider ABI 34 layout differs from the newest:
//! `struct verbs_context` (the library's view of every provider ABI's context, see [`super::pabi`])
//! and `struct ibv_qp_ex`.

use crate::abi::ctype::verbs_ex_private;
use crate::abi::verbs::{
    ibv_ah, ibv_alloc_dm_attr, ibv_context, ibv_counter_attach_attr, ibv_counters,
    ibv_counters_init_attr, ibv_cq, ibv_cq_ex, ibv_cq_init_attr_ex, ibv_data_buf,
    ibv_device_attr_ex, ibv_dm, ibv_flow, ibv_flow_action, ibv_flow_action_esp_attr, ibv_flow_attr,
    ibv_modify_cq_attr, ibv_mr, ibv_mw, ibv_mw_bind_info, ibv_ops_wr, ibv_parent_domain_init_attr,
    ibv_pd, ibv_port_attr, ibv_qp, ibv_qp_init_attr_ex, ibv_qp_open_attr, ibv_qp_rate_limit_attr,
    ibv_query_device_ex_input, ibv_rwq_ind_table, ibv_rwq_ind_table_init_attr, ibv_sge, ibv_srq,
    ibv_srq_init_attr_ex, ibv_td, ibv_td_init_attr, ibv_values_ex, ibv_wq, ibv_wq_attr,
    ibv_wq_init_attr, ibv_xrcd, ibv_xrcd_init_attr,
};
use core::ffi::{c_int, c_uint, c_void};

/// The extended context as a provider ABI 34 provider lays it out; `context` is its last member.
///
/// This is `struct verbs_context` of rdma-core v44's verbs.h: 648 bytes, `sz` at 312 and
/// `context` at 320. The public v65 `verbs::verbs_context` (696 bytes) adds six ops in front
/// (`free_buf`, `alloc_buf`, `dm_export_dmabuf_fd`, `reg_mr_ex`, `dealloc_dmah`, `alloc_dmah`);
/// every member from `query_port` on sits at the same distance before `context` in both. The
/// public inline functions test `sz` against that distance, so a context built from a PABI 34
/// provider must report `sz = 648`, or v65 callers would read the provider's memory in front of it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_context_pabi34 {
    pub query_port: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            port_num: u8,
            port_attr: *mut ibv_port_attr,
            port_attr_len: usize,
        ) -> c_int,
    >,
    pub advise_mr: Option<
        unsafe extern "C" fn(
            pd: *mut ibv_pd,
            advice: u32,
            flags: u32,
            sg_list: *mut ibv_sge,
            num_sges: u32,
        ) -> c_int,
    >,
    pub alloc_null_mr: Option<unsafe extern "C" fn(pd: *mut ibv_pd) -> *mut ibv_mr>,
    pub read_counters: Option<
        unsafe extern "C" fn(
            counters: *mut ibv_counters,
            counters_value: *mut u64,
            ncounters: u32,
            flags: u32,
        ) -> c_int,
    >,
    pub attach_counters_point_flow: Option<
        unsafe extern "C" fn(
            counters: *mut ibv_counters,
            attr: *mut ibv_counter_attach_attr,
            flow: *mut ibv_flow,
        ) -> c_int,
    >,
    pub create_counters: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            init_attr: *mut ibv_counters_init_attr,
        ) -> *mut ibv_counters,
    >,
    pub destroy_counters: Option<unsafe extern "C" fn(counters: *mut ibv_counters) -> c_int>,
    pub reg_dm_mr: Option<
        unsafe extern "C" fn(
            pd: *mut ibv_pd,
            dm: *mut ibv_dm,
            dm_offset: u64,
            length: usize,
            access: c_uint,
        ) -> *mut ibv_mr,
    >,
    pub alloc_dm: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            attr: *mut ibv_alloc_dm_attr,
        ) -> *mut ibv_dm,
    >,
    pub free_dm: Option<unsafe extern "C" fn(dm: *mut ibv_dm) -> c_int>,
    pub modify_flow_action_esp: Option<
        unsafe extern "C" fn(
            action: *mut ibv_flow_action,
            attr: *mut ibv_flow_action_esp_attr,
        ) -> c_int,
    >,
    pub destroy_flow_action: Option<unsafe extern "C" fn(action: *mut ibv_flow_action) -> c_int>,
    pub create_flow_action_esp: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            attr: *mut ibv_flow_action_esp_attr,
        ) -> *mut ibv_flow_action,
    >,
    pub modify_qp_rate_limit:
        Option<unsafe extern "C" fn(qp: *mut ibv_qp, attr: *mut ibv_qp_rate_limit_attr) -> c_int>,
    pub alloc_parent_domain: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            attr: *mut ibv_parent_domain_init_attr,
        ) -> *mut ibv_pd,
    >,
    pub dealloc_td: Option<unsafe extern "C" fn(td: *mut ibv_td) -> c_int>,
    pub alloc_td: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            init_attr: *mut ibv_td_init_attr,
        ) -> *mut ibv_td,
    >,
    pub modify_cq:
        Option<unsafe extern "C" fn(cq: *mut ibv_cq, attr: *mut ibv_modify_cq_attr) -> c_int>,
    pub post_srq_ops: Option<
        unsafe extern "C" fn(
            srq: *mut ibv_srq,
            op: *mut ibv_ops_wr,
            bad_op: *mut *mut ibv_ops_wr,
        ) -> c_int,
    >,
    pub destroy_rwq_ind_table:
        Option<unsafe extern "C" fn(rwq_ind_table: *mut ibv_rwq_ind_table) -> c_int>,
    pub create_rwq_ind_table: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            init_attr: *mut ibv_rwq_ind_table_init_attr,
        ) -> *mut ibv_rwq_ind_table,
    >,
    pub destroy_wq: Option<unsafe extern "C" fn(wq: *mut ibv_wq) -> c_int>,
    pub modify_wq:
        Option<unsafe extern "C" fn(wq: *mut ibv_wq, wq_attr: *mut ibv_wq_attr) -> c_int>,
    pub create_wq: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            wq_init_attr: *mut ibv_wq_init_attr,
        ) -> *mut ibv_wq,
    >,
    pub query_rt_values: Option<
        unsafe extern "C" fn(context: *mut ibv_context, values: *mut ibv_values_ex) -> c_int,
    >,
    pub create_cq_ex: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            init_attr: *mut ibv_cq_init_attr_ex,
        ) -> *mut ibv_cq_ex,
    >,
    /// The core's private per-context data (rdma-core's `struct verbs_ex_private`, ours is
    /// src/verbs/ctxpriv.rs).
    pub r#priv: *mut verbs_ex_private,
    pub query_device_ex: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            input: *const ibv_query_device_ex_input,
            attr: *mut ibv_device_attr_ex,
            attr_size: usize,
        ) -> c_int,
    >,
    pub ibv_destroy_flow: Option<unsafe extern "C" fn(flow: *mut ibv_flow) -> c_int>,
    pub ABI_placeholder2: Option<unsafe extern "C" fn()>,
    pub ibv_create_flow: Option<
        unsafe extern "C" fn(qp: *mut ibv_qp, flow_attr: *mut ibv_flow_attr) -> *mut ibv_flow,
    >,
    pub ABI_placeholder1: Option<unsafe extern "C" fn()>,
    pub open_qp: Option<
        unsafe extern "C" fn(context: *mut ibv_context, attr: *mut ibv_qp_open_attr) -> *mut ibv_qp,
    >,
    pub create_qp_ex: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            qp_init_attr_ex: *mut ibv_qp_init_attr_ex,
        ) -> *mut ibv_qp,
    >,
    pub get_srq_num: Option<unsafe extern "C" fn(srq: *mut ibv_srq, srq_num: *mut u32) -> c_int>,
    pub create_srq_ex: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            srq_init_attr_ex: *mut ibv_srq_init_attr_ex,
        ) -> *mut ibv_srq,
    >,
    pub open_xrcd: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            xrcd_init_attr: *mut ibv_xrcd_init_attr,
        ) -> *mut ibv_xrcd,
    >,
    pub close_xrcd: Option<unsafe extern "C" fn(xrcd: *mut ibv_xrcd) -> c_int>,
    pub _ABI_placeholder3: u64,
    pub sz: usize,
    pub context: ibv_context,
}

/// `struct ibv_qp_ex` as a provider ABI 34 (rdma-core v44) provider lays it out.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_qp_ex_pabi34 {
    pub qp_base: ibv_qp,
    pub comp_mask: u64,
    pub wr_id: u64,
    pub wr_flags: c_uint,
    pub wr_atomic_cmp_swp: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp_ex_pabi34,
            rkey: u32,
            remote_addr: u64,
            compare: u64,
            swap: u64,
        ),
    >,
    pub wr_atomic_fetch_add: Option<
        unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, rkey: u32, remote_addr: u64, add: u64),
    >,
    pub wr_bind_mw: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp_ex_pabi34,
            mw: *mut ibv_mw,
            rkey: u32,
            bind_info: *const ibv_mw_bind_info,
        ),
    >,
    pub wr_local_inv: Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, invalidate_rkey: u32)>,
    pub wr_rdma_read:
        Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, rkey: u32, remote_addr: u64)>,
    pub wr_rdma_write:
        Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, rkey: u32, remote_addr: u64)>,
    pub wr_rdma_write_imm: Option<
        unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, rkey: u32, remote_addr: u64, imm_data: u32),
    >,
    pub wr_send: Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34)>,
    pub wr_send_imm: Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, imm_data: u32)>,
    pub wr_send_inv: Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, invalidate_rkey: u32)>,
    pub wr_send_tso: Option<
        unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, hdr: *mut c_void, hdr_sz: u16, mss: u16),
    >,
    pub wr_set_ud_addr: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp_ex_pabi34,
            ah: *mut ibv_ah,
            remote_qpn: u32,
            remote_qkey: u32,
        ),
    >,
    pub wr_set_xrc_srqn: Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, remote_srqn: u32)>,
    pub wr_set_inline_data:
        Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, addr: *mut c_void, length: usize)>,
    pub wr_set_inline_data_list: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp_ex_pabi34,
            num_buf: usize,
            buf_list: *const ibv_data_buf,
        ),
    >,
    pub wr_set_sge:
        Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, lkey: u32, addr: u64, length: u32)>,
    pub wr_set_sge_list: Option<
        unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34, num_sge: usize, sg_list: *const ibv_sge),
    >,
    pub wr_start: Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34)>,
    pub wr_complete: Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34) -> c_int>,
    pub wr_abort: Option<unsafe extern "C" fn(qp: *mut ibv_qp_ex_pabi34)>,
    pub wr_atomic_write: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp_ex_pabi34,
            rkey: u32,
            remote_addr: u64,
            atomic_wr: *const c_void,
        ),
    >,
}
