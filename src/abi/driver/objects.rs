//! rdma-core `libibverbs/driver.h`: the objects a provider shares with the core (the `verbs_*`
//! wrappers around the public objects, the device records, the match table), whose layouts no
//! provider ABI since 34 has changed (v44's, checked against v44, v64 and v65).
//!
//! Pure data; the `..._anon_N` unions are inlined as anonymous members in C.

use crate::abi::ctype::{CAtomicInt, CEnum};
use crate::abi::driver::{
    ibv_flow_action_type, ibv_mr_type, ibv_qp_ex_pabi34, list_node, verbs_context_pabi34,
};
use crate::abi::verbs::{
    IBV_SYSFS_NAME_MAX, IBV_SYSFS_PATH_MAX, ibv_counters, ibv_cq, ibv_cq_ex, ibv_device, ibv_dm,
    ibv_flow_action, ibv_mr, ibv_node_type, ibv_qp, ibv_srq, ibv_srq_type, ibv_xrcd,
};
use core::ffi::{c_char, c_int, c_uint, c_void};

/// The core's wrapper around an XRC domain.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_xrcd {
    pub xrcd: ibv_xrcd,
    pub comp_mask: u32,
    pub handle: u32,
}

/// The core's wrapper around an SRQ, with its XRC extras.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_srq {
    pub srq: ibv_srq,
    pub srq_type: CEnum<ibv_srq_type>,
    pub xrcd: *mut verbs_xrcd,
    pub cq: *mut ibv_cq,
    pub srq_num: u32,
}

/// The core's wrapper around a memory region.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_mr {
    pub ibv_mr: ibv_mr,
    pub mr_type: CEnum<ibv_mr_type>,
    pub access: c_int,
}

/// The core's wrapper around a QP (plain or extended view).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_qp {
    pub anon_1: verbs_qp_anon_1,
    pub comp_mask: u32,
    pub xrcd: *mut verbs_xrcd,
}

/// The plain and the extended view of a provider QP.
#[repr(C)]
#[derive(Clone, Copy)]
pub union verbs_qp_anon_1 {
    pub qp: ibv_qp,
    pub qp_ex: ibv_qp_ex_pabi34,
}

/// The core's wrapper around a CQ (plain or extended view).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_cq {
    pub anon_1: verbs_cq_anon_1,
}

/// The plain and the extended view of a provider CQ.
#[repr(C)]
#[derive(Clone, Copy)]
pub union verbs_cq_anon_1 {
    pub cq: ibv_cq,
    pub cq_ex: ibv_cq_ex,
}

/// The core's wrapper around a flow action.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_flow_action {
    pub action: ibv_flow_action,
    pub handle: u32,
    pub r#type: CEnum<ibv_flow_action_type>,
}

/// The core's wrapper around device memory.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_dm {
    pub dm: ibv_dm,
    pub handle: u32,
}

/// One entry of a provider's device match table.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_match_ent {
    pub driver_data: *mut c_void,
    pub u: verbs_match_ent_u,
    pub vendor: u16,
    pub device: u16,
    pub kind: u8,
}

/// Modalias pattern or kernel driver id of a match entry.
#[repr(C)]
#[derive(Clone, Copy)]
pub union verbs_match_ent_u {
    pub modalias: *const c_char,
    pub driver_id: u64,
}

/// An RDMA device found in sysfs, before a provider claims it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_sysfs_dev {
    pub entry: list_node,
    pub provider_data: *mut c_void,
    pub r#match: *const verbs_match_ent,
    pub flags: c_uint,
    pub sysfs_name: [c_char; IBV_SYSFS_NAME_MAX as usize],
    pub sysfs_cdev: libc::dev_t,
    pub ibdev_name: [c_char; IBV_SYSFS_NAME_MAX as usize],
    pub ibdev_path: [c_char; IBV_SYSFS_PATH_MAX as usize],
    pub modalias: [c_char; 512],
    pub node_guid: u64,
    pub driver_id: u32,
    pub node_type: CEnum<ibv_node_type>,
    pub ibdev_idx: c_int,
    /// pabi: 33 (added by rdma-core v35 inside provider ABI 34, before `abi_ver`)
    pub num_ports: u32,
    pub abi_ver: u32,
    pub time_created: libc::timespec,
}

/// What a provider registers: its match rules and its device/context constructors.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_device_ops {
    pub name: *const c_char,
    pub match_min_abi_version: u32,
    pub match_max_abi_version: u32,
    pub match_table: *const verbs_match_ent,
    pub static_providers: *mut *const verbs_device_ops,
    pub match_device: Option<unsafe extern "C" fn(sysfs_dev: *mut verbs_sysfs_dev) -> bool>,
    pub alloc_context: Option<
        unsafe extern "C" fn(
            device: *mut ibv_device,
            cmd_fd: c_int,
            private_data: *mut c_void,
        ) -> *mut verbs_context_pabi34,
    >,
    pub import_context: Option<
        unsafe extern "C" fn(device: *mut ibv_device, cmd_fd: c_int) -> *mut verbs_context_pabi34,
    >,
    pub alloc_device:
        Option<unsafe extern "C" fn(sysfs_dev: *mut verbs_sysfs_dev) -> *mut verbs_device>,
    pub uninit_device: Option<unsafe extern "C" fn(device: *mut verbs_device)>,
}

/// The core's device object, embedding the public `ibv_device`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_device {
    pub device: ibv_device,
    pub ops: *const verbs_device_ops,
    /// C `atomic_int`; only touch it through `AtomicI32::from_ptr`.
    pub refcount: CAtomicInt,
    pub entry: list_node,
    pub sysfs: *mut verbs_sysfs_dev,
    pub core_support: u64,
}

/// The core's wrapper around a counters object.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_counters {
    pub counters: ibv_counters,
    pub handle: u32,
}

/// The core's wrapper around a DMA handle (provider ABI 59 on; `verbs_get_dmah` is its
/// `container_of`: `dmah` is first).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_dmah {
    pub dmah: crate::abi::verbs::ibv_dmah,
    pub handle: u32,
}
