//! rdma-core v65 `libibverbs/verbs.h`, in part:
//! flow steering specifications, rules and flow actions.

use core::ffi::c_void;

use super::*;
use crate::abi::ctype::CEnum;
use crate::abi::uapi::{
    ib_uverbs_flow_action_esp, ib_uverbs_flow_action_esp_encap, ib_uverbs_flow_action_esp_keymat,
    ib_uverbs_flow_action_esp_replay,
};

/// Bits of `ibv_flow_attr::flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_flow_flags {
    IBV_FLOW_ATTR_FLAGS_DONT_TRAP = 2,
    IBV_FLOW_ATTR_FLAGS_EGRESS = 4,
}

/// Kind of a steering rule.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_flow_attr_type {
    IBV_FLOW_ATTR_NORMAL = 0,
    IBV_FLOW_ATTR_ALL_DEFAULT = 1,
    IBV_FLOW_ATTR_MC_DEFAULT = 2,
    IBV_FLOW_ATTR_SNIFFER = 3,
}

/// Kind of a flow specification.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_flow_spec_type {
    IBV_FLOW_SPEC_ETH = 32,
    IBV_FLOW_SPEC_IPV4 = 48,
    IBV_FLOW_SPEC_IPV6 = 49,
    IBV_FLOW_SPEC_IPV4_EXT = 50,
    IBV_FLOW_SPEC_ESP = 52,
    IBV_FLOW_SPEC_TCP = 64,
    IBV_FLOW_SPEC_UDP = 65,
    IBV_FLOW_SPEC_VXLAN_TUNNEL = 80,
    IBV_FLOW_SPEC_GRE = 81,
    IBV_FLOW_SPEC_MPLS = 96,
    IBV_FLOW_SPEC_INNER = 256,
    IBV_FLOW_SPEC_ACTION_TAG = 4096,
    IBV_FLOW_SPEC_ACTION_DROP = 4097,
    IBV_FLOW_SPEC_ACTION_HANDLE = 4098,
    IBV_FLOW_SPEC_ACTION_COUNT = 4099,
}

/// Ethernet header match values.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_eth_filter {
    pub dst_mac: [u8; 6],
    pub src_mac: [u8; 6],
    pub ether_type: u16,
    pub vlan_tag: u16,
}

/// Ethernet flow specification (value and mask).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_eth {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub val: ibv_flow_eth_filter,
    pub mask: ibv_flow_eth_filter,
}

/// IPv4 address match values.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_ipv4_filter {
    pub src_ip: u32,
    pub dst_ip: u32,
}

/// IPv4 flow specification (value and mask).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_ipv4 {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub val: ibv_flow_ipv4_filter,
    pub mask: ibv_flow_ipv4_filter,
}

/// Extended IPv4 header match values.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_ipv4_ext_filter {
    pub src_ip: u32,
    pub dst_ip: u32,
    pub proto: u8,
    pub tos: u8,
    pub ttl: u8,
    pub flags: u8,
}

/// Extended IPv4 flow specification (value and mask).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_ipv4_ext {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub val: ibv_flow_ipv4_ext_filter,
    pub mask: ibv_flow_ipv4_ext_filter,
}

/// IPv6 header match values.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_ipv6_filter {
    pub src_ip: [u8; 16],
    pub dst_ip: [u8; 16],
    pub flow_label: u32,
    pub next_hdr: u8,
    pub traffic_class: u8,
    pub hop_limit: u8,
}

/// IPv6 flow specification (value and mask).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_ipv6 {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub val: ibv_flow_ipv6_filter,
    pub mask: ibv_flow_ipv6_filter,
}

/// ESP header match values.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_esp_filter {
    pub spi: u32,
    pub seq: u32,
}

/// ESP flow specification (value and mask).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_esp {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub val: ibv_flow_esp_filter,
    pub mask: ibv_flow_esp_filter,
}

/// TCP/UDP port match values.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_tcp_udp_filter {
    pub dst_port: u16,
    pub src_port: u16,
}

/// TCP/UDP flow specification (value and mask).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_tcp_udp {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub val: ibv_flow_tcp_udp_filter,
    pub mask: ibv_flow_tcp_udp_filter,
}

/// GRE header match values.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_gre_filter {
    pub c_ks_res0_ver: u16,
    pub protocol: u16,
    pub key: u32,
}

/// GRE flow specification (value and mask).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_gre {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub val: ibv_flow_gre_filter,
    pub mask: ibv_flow_gre_filter,
}

/// MPLS label match value.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_mpls_filter {
    pub label: u32,
}

/// MPLS flow specification (value and mask).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_mpls {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub val: ibv_flow_mpls_filter,
    pub mask: ibv_flow_mpls_filter,
}

/// Tunnel id match value.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_tunnel_filter {
    pub tunnel_id: u32,
}

/// Tunnel flow specification (value and mask).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_tunnel {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub val: ibv_flow_tunnel_filter,
    pub mask: ibv_flow_tunnel_filter,
}

/// Flow action that tags matching packets.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_action_tag {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub tag_id: u32,
}

/// Flow action that drops matching packets.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_action_drop {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
}

/// Flow action given by an `ibv_flow_action` object.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_action_handle {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub action: *const ibv_flow_action,
}

/// Flow action that counts matching packets.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_counter_action {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
    pub counters: *mut ibv_counters,
}

/// Any one flow specification, led by a common type/size header.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec {
    pub anon_1: ibv_flow_spec_anon_1,
}

/// The alternatives of a flow specification.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ibv_flow_spec_anon_1 {
    pub hdr: ibv_flow_spec_anon_1_hdr,
    pub eth: ibv_flow_spec_eth,
    pub ipv4: ibv_flow_spec_ipv4,
    pub tcp_udp: ibv_flow_spec_tcp_udp,
    pub ipv4_ext: ibv_flow_spec_ipv4_ext,
    pub ipv6: ibv_flow_spec_ipv6,
    pub esp: ibv_flow_spec_esp,
    pub tunnel: ibv_flow_spec_tunnel,
    pub gre: ibv_flow_spec_gre,
    pub mpls: ibv_flow_spec_mpls,
    pub flow_tag: ibv_flow_spec_action_tag,
    pub drop: ibv_flow_spec_action_drop,
    pub handle: ibv_flow_spec_action_handle,
    pub flow_count: ibv_flow_spec_counter_action,
}

/// Type and size header shared by every flow specification.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_spec_anon_1_hdr {
    pub r#type: CEnum<ibv_flow_spec_type>,
    pub size: u16,
}

/// Steering rule header; its specifications follow it in memory.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_attr {
    pub comp_mask: u32,
    pub r#type: CEnum<ibv_flow_attr_type>,
    pub size: u16,
    pub priority: u16,
    pub num_of_specs: u8,
    pub port: u8,
    pub flags: u32,
}

/// A steering rule.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow {
    pub comp_mask: u32,
    pub context: *mut ibv_context,
    pub handle: u32,
}

/// A flow action object.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_action {
    pub context: *mut ibv_context,
}

/// Bits of `ibv_flow_action_esp_attr::comp_mask`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ibv_flow_action_esp_mask {
    IBV_FLOW_ACTION_ESP_MASK_ESN = 1,
}

/// Attributes for creating or modifying an ESP flow action.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_flow_action_esp_attr {
    /// `struct ib_uverbs_flow_action_esp *` in C (kernel uapi type, see `abi::uapi`).
    pub esp_attr: *mut ib_uverbs_flow_action_esp,
    pub keymat_proto: CEnum<ib_uverbs_flow_action_esp_keymat>,
    pub keymat_len: u16,
    pub keymat_ptr: *mut c_void,
    pub replay_proto: CEnum<ib_uverbs_flow_action_esp_replay>,
    pub replay_len: u16,
    pub replay_ptr: *mut c_void,
    /// `struct ib_uverbs_flow_action_esp_encap *` in C (kernel uapi type, see `abi::uapi`).
    pub esp_encap: *mut ib_uverbs_flow_action_esp_encap,
    pub comp_mask: u32,
    pub esn: u32,
}

/// Length of a MAC address in the Ethernet flow filter.
pub const ETHERNET_LL_SIZE: usize = 6;
