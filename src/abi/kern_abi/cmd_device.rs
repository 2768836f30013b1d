//! The context, device, port, PD, XRCD, MR, MW and AH write commands as rdma-core's
//! `libibverbs/kern-abi.h` (provider ABI 34) lays them out: the command header, then an
//! anonymous union of the kernel payload's fields and the kernel struct itself (`core_payload`).

use super::*;

/// Command `IB_USER_VERBS_CMD_GET_CONTEXT`: header, then `ib_uverbs_get_context`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_get_context {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_get_context_anon_1,
}

/// Payload of `ibv_get_context`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_get_context_anon_1 {
    pub anon_1: ibv_get_context_anon_1_anon_1,
    pub core_payload: ib_uverbs_get_context,
}

/// The fields of `ib_uverbs_get_context`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_get_context_anon_1_anon_1 {
    pub response: __u64,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_get_context {
    const CMD: u32 = IB_USER_VERBS_CMD_GET_CONTEXT;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_get_context;
    type Resp = ib_uverbs_get_context_resp;
}

/// Command `IB_USER_VERBS_CMD_QUERY_DEVICE`: header, then `ib_uverbs_query_device`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_device {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_query_device_anon_1,
}

/// Payload of `ibv_query_device`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_query_device_anon_1 {
    pub anon_1: ibv_query_device_anon_1_anon_1,
    pub core_payload: ib_uverbs_query_device,
}

/// The fields of `ib_uverbs_query_device`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_device_anon_1_anon_1 {
    pub response: __u64,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_query_device {
    const CMD: u32 = IB_USER_VERBS_CMD_QUERY_DEVICE;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_query_device;
    type Resp = ib_uverbs_query_device_resp;
}

/// Command `IB_USER_VERBS_EX_CMD_QUERY_DEVICE`: header, then `ib_uverbs_ex_query_device`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_device_ex {
    pub hdr: ex_hdr,
    pub anon_1: ibv_query_device_ex_anon_1,
}

/// Payload of `ibv_query_device_ex`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_query_device_ex_anon_1 {
    pub anon_1: ibv_query_device_ex_anon_1_anon_1,
    pub core_payload: ib_uverbs_ex_query_device,
}

/// The fields of `ib_uverbs_ex_query_device`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_device_ex_anon_1_anon_1 {
    pub comp_mask: u32,
    pub reserved: u32,
}

impl KernCmd for ibv_query_device_ex {
    const CMD: u32 = IB_USER_VERBS_EX_CMD_QUERY_DEVICE;
    const EXTENDED: bool = true;
    type Req = ib_uverbs_ex_query_device;
    type Resp = ib_uverbs_ex_query_device_resp;
}

/// Command `IB_USER_VERBS_CMD_QUERY_PORT`: header, then `ib_uverbs_query_port`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_port {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_query_port_anon_1,
}

/// Payload of `ibv_query_port`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_query_port_anon_1 {
    pub anon_1: ibv_query_port_anon_1_anon_1,
    pub core_payload: ib_uverbs_query_port,
}

/// The fields of `ib_uverbs_query_port`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_query_port_anon_1_anon_1 {
    pub response: __u64,
    pub port_num: u8,
    pub reserved: [u8; 7],
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_query_port {
    const CMD: u32 = IB_USER_VERBS_CMD_QUERY_PORT;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_query_port;
    type Resp = ib_uverbs_query_port_resp;
}

/// Command `IB_USER_VERBS_CMD_ALLOC_PD`: header, then `ib_uverbs_alloc_pd`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_alloc_pd {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_alloc_pd_anon_1,
}

/// Payload of `ibv_alloc_pd`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_alloc_pd_anon_1 {
    pub anon_1: ibv_alloc_pd_anon_1_anon_1,
    pub core_payload: ib_uverbs_alloc_pd,
}

/// The fields of `ib_uverbs_alloc_pd`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_alloc_pd_anon_1_anon_1 {
    pub response: __u64,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_alloc_pd {
    const CMD: u32 = IB_USER_VERBS_CMD_ALLOC_PD;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_alloc_pd;
    type Resp = ib_uverbs_alloc_pd_resp;
}

/// Command `IB_USER_VERBS_CMD_DEALLOC_PD`: header, then `ib_uverbs_dealloc_pd`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_dealloc_pd {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_dealloc_pd_anon_1,
}

/// Payload of `ibv_dealloc_pd`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_dealloc_pd_anon_1 {
    pub anon_1: ibv_dealloc_pd_anon_1_anon_1,
    pub core_payload: ib_uverbs_dealloc_pd,
}

/// The fields of `ib_uverbs_dealloc_pd`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_dealloc_pd_anon_1_anon_1 {
    pub pd_handle: u32,
}

impl KernCmd for ibv_dealloc_pd {
    const CMD: u32 = IB_USER_VERBS_CMD_DEALLOC_PD;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_dealloc_pd;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_CMD_OPEN_XRCD`: header, then `ib_uverbs_open_xrcd`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_open_xrcd {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_open_xrcd_anon_1,
}

/// Payload of `ibv_open_xrcd`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_open_xrcd_anon_1 {
    pub anon_1: ibv_open_xrcd_anon_1_anon_1,
    pub core_payload: ib_uverbs_open_xrcd,
}

/// The fields of `ib_uverbs_open_xrcd`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_open_xrcd_anon_1_anon_1 {
    pub response: __u64,
    pub fd: u32,
    pub oflags: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_open_xrcd {
    const CMD: u32 = IB_USER_VERBS_CMD_OPEN_XRCD;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_open_xrcd;
    type Resp = ib_uverbs_open_xrcd_resp;
}

/// Command `IB_USER_VERBS_CMD_CLOSE_XRCD`: header, then `ib_uverbs_close_xrcd`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_close_xrcd {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_close_xrcd_anon_1,
}

/// Payload of `ibv_close_xrcd`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_close_xrcd_anon_1 {
    pub anon_1: ibv_close_xrcd_anon_1_anon_1,
    pub core_payload: ib_uverbs_close_xrcd,
}

/// The fields of `ib_uverbs_close_xrcd`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_close_xrcd_anon_1_anon_1 {
    pub xrcd_handle: u32,
}

impl KernCmd for ibv_close_xrcd {
    const CMD: u32 = IB_USER_VERBS_CMD_CLOSE_XRCD;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_close_xrcd;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_CMD_REG_MR`: header, then `ib_uverbs_reg_mr`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_reg_mr {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_reg_mr_anon_1,
}

/// Payload of `ibv_reg_mr`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_reg_mr_anon_1 {
    pub anon_1: ibv_reg_mr_anon_1_anon_1,
    pub core_payload: ib_uverbs_reg_mr,
}

/// The fields of `ib_uverbs_reg_mr`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_reg_mr_anon_1_anon_1 {
    pub response: __u64,
    pub start: __u64,
    pub length: __u64,
    pub hca_va: __u64,
    pub pd_handle: u32,
    pub access_flags: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_reg_mr {
    const CMD: u32 = IB_USER_VERBS_CMD_REG_MR;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_reg_mr;
    type Resp = ib_uverbs_reg_mr_resp;
}

/// Command `IB_USER_VERBS_CMD_REREG_MR`: header, then `ib_uverbs_rereg_mr`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_rereg_mr {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_rereg_mr_anon_1,
}

/// Payload of `ibv_rereg_mr`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_rereg_mr_anon_1 {
    pub anon_1: ibv_rereg_mr_anon_1_anon_1,
    pub core_payload: ib_uverbs_rereg_mr,
}

/// The fields of `ib_uverbs_rereg_mr`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_rereg_mr_anon_1_anon_1 {
    pub response: __u64,
    pub mr_handle: u32,
    pub flags: u32,
    pub start: __u64,
    pub length: __u64,
    pub hca_va: __u64,
    pub pd_handle: u32,
    pub access_flags: u32,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_rereg_mr {
    const CMD: u32 = IB_USER_VERBS_CMD_REREG_MR;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_rereg_mr;
    type Resp = ib_uverbs_rereg_mr_resp;
}

/// Command `IB_USER_VERBS_CMD_DEREG_MR`: header, then `ib_uverbs_dereg_mr`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_dereg_mr {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_dereg_mr_anon_1,
}

/// Payload of `ibv_dereg_mr`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_dereg_mr_anon_1 {
    pub anon_1: ibv_dereg_mr_anon_1_anon_1,
    pub core_payload: ib_uverbs_dereg_mr,
}

/// The fields of `ib_uverbs_dereg_mr`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_dereg_mr_anon_1_anon_1 {
    pub mr_handle: u32,
}

impl KernCmd for ibv_dereg_mr {
    const CMD: u32 = IB_USER_VERBS_CMD_DEREG_MR;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_dereg_mr;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_CMD_ALLOC_MW`: header, then `ib_uverbs_alloc_mw`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_alloc_mw {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_alloc_mw_anon_1,
}

/// Payload of `ibv_alloc_mw`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_alloc_mw_anon_1 {
    pub anon_1: ibv_alloc_mw_anon_1_anon_1,
    pub core_payload: ib_uverbs_alloc_mw,
}

/// The fields of `ib_uverbs_alloc_mw`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_alloc_mw_anon_1_anon_1 {
    pub response: __u64,
    pub pd_handle: u32,
    pub mw_type: u8,
    pub reserved: [u8; 3],
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_alloc_mw {
    const CMD: u32 = IB_USER_VERBS_CMD_ALLOC_MW;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_alloc_mw;
    type Resp = ib_uverbs_alloc_mw_resp;
}

/// Command `IB_USER_VERBS_CMD_DEALLOC_MW`: header, then `ib_uverbs_dealloc_mw`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_dealloc_mw {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_dealloc_mw_anon_1,
}

/// Payload of `ibv_dealloc_mw`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_dealloc_mw_anon_1 {
    pub anon_1: ibv_dealloc_mw_anon_1_anon_1,
    pub core_payload: ib_uverbs_dealloc_mw,
}

/// The fields of `ib_uverbs_dealloc_mw`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_dealloc_mw_anon_1_anon_1 {
    pub mw_handle: u32,
}

impl KernCmd for ibv_dealloc_mw {
    const CMD: u32 = IB_USER_VERBS_CMD_DEALLOC_MW;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_dealloc_mw;
    type Resp = empty;
}

/// Command `IB_USER_VERBS_CMD_CREATE_AH`: header, then `ib_uverbs_create_ah`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_ah {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_create_ah_anon_1,
}

/// Payload of `ibv_create_ah`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_create_ah_anon_1 {
    pub anon_1: ibv_create_ah_anon_1_anon_1,
    pub core_payload: ib_uverbs_create_ah,
}

/// The fields of `ib_uverbs_create_ah`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_create_ah_anon_1_anon_1 {
    pub response: __u64,
    pub user_handle: __u64,
    pub pd_handle: u32,
    pub reserved: u32,
    pub attr: ib_uverbs_ah_attr,
    pub driver_data: [__u64; 0],
}

impl KernCmd for ibv_create_ah {
    const CMD: u32 = IB_USER_VERBS_CMD_CREATE_AH;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_create_ah;
    type Resp = ib_uverbs_create_ah_resp;
}

/// Command `IB_USER_VERBS_CMD_DESTROY_AH`: header, then `ib_uverbs_destroy_ah`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_ah {
    pub hdr: ib_uverbs_cmd_hdr,
    pub anon_1: ibv_destroy_ah_anon_1,
}

/// Payload of `ibv_destroy_ah`: by field, or as the kernel struct.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_destroy_ah_anon_1 {
    pub anon_1: ibv_destroy_ah_anon_1_anon_1,
    pub core_payload: ib_uverbs_destroy_ah,
}

/// The fields of `ib_uverbs_destroy_ah`, inlined.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_destroy_ah_anon_1_anon_1 {
    pub ah_handle: u32,
}

impl KernCmd for ibv_destroy_ah {
    const CMD: u32 = IB_USER_VERBS_CMD_DESTROY_AH;
    const EXTENDED: bool = false;
    type Req = ib_uverbs_destroy_ah;
    type Resp = empty;
}
