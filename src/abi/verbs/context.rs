//! rdma-core v65 `libibverbs/verbs.h`, in part:
//! devices, contexts and their dispatch tables, counters, parent domains, DMA handles.

use core::ffi::{c_char, c_int, c_uint, c_void};

use super::*;
use crate::abi::ctype::{CEnum, verbs_ex_private};

/// Two obsolete callback slots kept in `ibv_device` for layout.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct _ibv_device_ops {
    pub _dummy1:
        Option<unsafe extern "C" fn(device: *mut ibv_device, cmd_fd: c_int) -> *mut ibv_context>,
    pub _dummy2: Option<unsafe extern "C" fn(context: *mut ibv_context)>,
}

// Buffer sizes of the sysfs name and path fields.
pub const IBV_SYSFS_NAME_MAX: u32 = 64;
pub const IBV_SYSFS_PATH_MAX: u32 = 256;

/// An RDMA device as listed by `ibv_get_device_list`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_device {
    pub _ops: _ibv_device_ops,
    pub node_type: CEnum<ibv_node_type>,
    pub transport_type: CEnum<ibv_transport_type>,
    pub name: [c_char; IBV_SYSFS_NAME_MAX as usize],
    pub dev_name: [c_char; IBV_SYSFS_NAME_MAX as usize],
    pub dev_path: [c_char; IBV_SYSFS_PATH_MAX as usize],
    pub ibdev_path: [c_char; IBV_SYSFS_PATH_MAX as usize],
}

/// The original per-context dispatch table.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_context_ops {
    pub _compat_query_device: Option<
        unsafe extern "C" fn(context: *mut ibv_context, device_attr: *mut ibv_device_attr) -> c_int,
    >,
    pub _compat_query_port: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            port_num: u8,
            port_attr: *mut _compat_ibv_port_attr,
        ) -> c_int,
    >,
    pub _compat_alloc_pd: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_dealloc_pd: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_reg_mr: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_rereg_mr: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_dereg_mr: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub alloc_mw: Option<unsafe extern "C" fn(pd: *mut ibv_pd, r#type: u32) -> *mut ibv_mw>,
    pub bind_mw: Option<
        unsafe extern "C" fn(qp: *mut ibv_qp, mw: *mut ibv_mw, mw_bind: *mut ibv_mw_bind) -> c_int,
    >,
    pub dealloc_mw: Option<unsafe extern "C" fn(mw: *mut ibv_mw) -> c_int>,
    pub _compat_create_cq: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub poll_cq:
        Option<unsafe extern "C" fn(cq: *mut ibv_cq, num_entries: c_int, wc: *mut ibv_wc) -> c_int>,
    pub req_notify_cq:
        Option<unsafe extern "C" fn(cq: *mut ibv_cq, solicited_only: c_int) -> c_int>,
    pub _compat_cq_event: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_resize_cq: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_destroy_cq: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_create_srq: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_modify_srq: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_query_srq: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_destroy_srq: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub post_srq_recv: Option<
        unsafe extern "C" fn(
            srq: *mut ibv_srq,
            recv_wr: *mut ibv_recv_wr,
            bad_recv_wr: *mut *mut ibv_recv_wr,
        ) -> c_int,
    >,
    pub _compat_create_qp: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_query_qp: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_modify_qp: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_destroy_qp: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub post_send: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp,
            wr: *mut ibv_send_wr,
            bad_wr: *mut *mut ibv_send_wr,
        ) -> c_int,
    >,
    pub post_recv: Option<
        unsafe extern "C" fn(
            qp: *mut ibv_qp,
            wr: *mut ibv_recv_wr,
            bad_wr: *mut *mut ibv_recv_wr,
        ) -> c_int,
    >,
    pub _compat_create_ah: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_destroy_ah: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_attach_mcast: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_detach_mcast: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub _compat_async_event: Option<unsafe extern "C" fn() -> *mut c_void>,
}

/// An open device context.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_context {
    pub device: *mut ibv_device,
    pub ops: ibv_context_ops,
    pub cmd_fd: c_int,
    pub async_fd: c_int,
    pub num_comp_vectors: c_int,
    pub mutex: libc::pthread_mutex_t,
    pub abi_compat: *mut c_void,
}

/// Bits of `ibv_cq_init_attr_ex::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_cq_init_attr_mask {
    IBV_CQ_INIT_ATTR_MASK_FLAGS = 1,
    IBV_CQ_INIT_ATTR_MASK_PD = 2,
}

/// Bits of `ibv_cq_init_attr_ex::flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_create_cq_attr_flags {
    IBV_CREATE_CQ_ATTR_SINGLE_THREADED = 1,
    IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN = 2,
}

/// Attributes for `ibv_create_cq_ex`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_cq_init_attr_ex {
    pub cqe: u32,
    pub cq_context: *mut c_void,
    pub channel: *mut ibv_comp_channel,
    pub comp_vector: u32,
    pub wc_flags: u64,
    pub comp_mask: u32,
    pub flags: u32,
    pub parent_domain: *mut ibv_pd,
}

/// Operations whose completions a completion counter counts.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_qp_attach_comp_cntr_op {
    IBV_QP_ATTACH_COMP_CNTR_OP_SEND = 1 << 0,
    IBV_QP_ATTACH_COMP_CNTR_OP_RECV = 1 << 1,
    IBV_QP_ATTACH_COMP_CNTR_OP_RDMA_READ = 1 << 2,
    IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_READ = 1 << 3,
    IBV_QP_ATTACH_COMP_CNTR_OP_RDMA_WRITE = 1 << 4,
    IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE = 1 << 5,
}

/// Completion counter capabilities.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_comp_cntr_caps {
    pub max_value: u64,
    pub max_counters: u32,
    pub supported_qp_attach_ops: u32,
}

/// A completion counter.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_comp_cntr {
    pub context: *mut ibv_context,
    pub handle: u32,
}

/// Completion counter type.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_comp_cntr_type {
    IBV_COMP_CNTR_TYPE_WRS = 0,
    IBV_COMP_CNTR_TYPE_BYTES = 1,
}

/// Attributes for creating a completion counter.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_comp_cntr_init_attr {
    pub comp_mask: u32,
    pub r#type: CEnum<ibv_comp_cntr_type>,
    pub flags: u32,
}

/// Attributes for attaching a completion counter to a QP.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_qp_attach_comp_cntr_attr {
    pub comp_mask: u32,
    pub op_mask: u32,
}

/// Bits of `ibv_parent_domain_init_attr::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_parent_domain_init_attr_mask {
    IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS = 1,
    IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT = 2,
    IBV_PARENT_DOMAIN_INIT_ATTR_ALLOW_CC_UNPROTECTED_ALLOC = 4,
}

/// Attributes for `ibv_alloc_parent_domain`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_parent_domain_init_attr {
    pub pd: *mut ibv_pd,
    pub td: *mut ibv_td,
    pub comp_mask: u32,
    pub alloc: Option<
        unsafe extern "C" fn(
            pd: *mut ibv_pd,
            pd_context: *mut c_void,
            size: usize,
            alignment: usize,
            resource_type: u64,
        ) -> *mut c_void,
    >,
    pub free: Option<
        unsafe extern "C" fn(
            pd: *mut ibv_pd,
            pd_context: *mut c_void,
            ptr: *mut c_void,
            resource_type: u64,
        ),
    >,
    pub pd_context: *mut c_void,
}

/// TPH memory type of a DMA handle.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_tph_mem_type {
    IBV_TPH_MEM_TYPE_VM = 0,
    IBV_TPH_MEM_TYPE_PM = 1,
}

/// Bits of `ibv_dmah_init_attr::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_dmah_init_attr_mask {
    IBV_DMAH_INIT_ATTR_MASK_CPU_ID = 1,
    IBV_DMAH_INIT_ATTR_MASK_PH = 2,
    IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE = 4,
}

/// Attributes for `ibv_alloc_dmah`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_dmah_init_attr {
    pub comp_mask: u32,
    pub cpu_id: u32,
    pub ph: u8,
    pub tph_mem_type: u8,
}

/// Attributes for `ibv_create_counters`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_counters_init_attr {
    pub comp_mask: u32,
}

/// A counters object.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_counters {
    pub context: *mut ibv_context,
}

/// What a counter counts.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_counter_description {
    IBV_COUNTER_PACKETS = 0,
    IBV_COUNTER_BYTES = 1,
}

/// Attributes for `ibv_attach_counters_point_flow`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_counter_attach_attr {
    pub counter_desc: CEnum<ibv_counter_description>,
    pub index: u32,
    pub comp_mask: u32,
}

/// Flags of `ibv_read_counters`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_read_counters_flags {
    IBV_READ_COUNTERS_ATTR_PREFER_CACHED = 1,
}

/// Bits of `ibv_values_ex::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_values_mask {
    IBV_VALUES_MASK_RAW_CLOCK = 1,
    IBV_VALUES_MASK_RESERVED = 2,
}

/// Values read by `ibv_query_rt_values_ex`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_values_ex {
    pub comp_mask: u32,
    pub raw_clock: libc::timespec,
}

/// The extended context in rdma-core v65's public layout (696 bytes); `context` is last.
///
/// A provider of ABI 34 builds rdma-core v44's shorter layout instead (648 bytes, without the
/// first six ops of this one, marked `pabi: N` with the provider ABI that added each; the Rust
/// side's common part is `abi::driver::verbs_context_pabi34`, see `abi::driver::pabi`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_context {
    /// pabi: 64 (the public ops provider ABI 64 put in front)
    pub free_buf: Option<unsafe extern "C" fn(buf: *mut ibv_buf)>,
    /// pabi: 64 (the public ops provider ABI 64 put in front)
    pub alloc_buf: Option<
        unsafe extern "C" fn(pd: *mut ibv_pd, size: usize, buf: *mut *mut ibv_buf) -> *mut c_void,
    >,
    /// pabi: 62 (put in front by rdma-core v62 within provider ABI 59: layout 62)
    pub dm_export_dmabuf_fd: Option<unsafe extern "C" fn(dm: *mut ibv_dm) -> c_int>,
    /// pabi: 59 (the public ops provider ABI 59 put in front)
    pub reg_mr_ex: Option<
        unsafe extern "C" fn(pd: *mut ibv_pd, mr_init_attr: *mut ibv_mr_init_attr) -> *mut ibv_mr,
    >,
    /// pabi: 59 (the public ops provider ABI 59 put in front)
    pub dealloc_dmah: Option<unsafe extern "C" fn(dmah: *mut ibv_dmah) -> c_int>,
    /// pabi: 59 (the public ops provider ABI 59 put in front)
    pub alloc_dmah: Option<
        unsafe extern "C" fn(
            context: *mut ibv_context,
            attr: *mut ibv_dmah_init_attr,
        ) -> *mut ibv_dmah,
    >,
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

/// Error codes `ibv_rereg_mr` may return.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_rereg_mr_err_code {
    IBV_REREG_MR_ERR_INPUT = -1,
    IBV_REREG_MR_ERR_DONT_FORK_NEW = -2,
    IBV_REREG_MR_ERR_DO_FORK_OLD = -3,
    IBV_REREG_MR_ERR_CMD = -4,
    IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW = -5,
}

/// `ibv_context::abi_compat` of a context that has a `verbs_context` in front of it.
pub const __VERBS_ABI_IS_EXTENDED: *mut c_void = usize::MAX as *mut c_void;
/// `ibv_parent_domain_init_attr::alloc`/`free` value asking for the provider's default allocator.
pub const IBV_ALLOCATOR_USE_DEFAULT: *mut c_void = usize::MAX as *mut c_void;
/// Lowest UDP source port allowed for RoCE v2 encapsulation.
pub const IB_ROCE_UDP_ENCAP_VALID_PORT_MIN: u32 = 0xc000;
/// Highest UDP source port allowed for RoCE v2 encapsulation.
pub const IB_ROCE_UDP_ENCAP_VALID_PORT_MAX: u32 = 0xffff;
/// Mask of the 20-bit GRH flow label.
pub const IB_GRH_FLOWLABEL_MASK: u32 = 0x000f_ffff;
