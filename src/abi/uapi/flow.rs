//! Flow steering: the flow specs and filters of `rdma/ib_user_verbs.h`, and the ESP flow
//! action records of `rdma/ib_user_ioctl_verbs.h`.

use core::ffi::c_void;

/// Common head of every flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_hdr {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
    pub flow_spec_data: [u64; 0],
}

/// Ethernet match values of a flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_eth_filter {
    pub dst_mac: [u8; 6],
    pub src_mac: [u8; 6],
    /// Big-endian on the wire.
    pub ether_type: u16,
    /// Big-endian on the wire.
    pub vlan_tag: u16,
}

/// Ethernet flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_eth {
    pub anon_1: ib_uverbs_flow_spec_eth_anon_1,
    pub val: ib_uverbs_flow_eth_filter,
    pub mask: ib_uverbs_flow_eth_filter,
}

/// Anonymous union inside `ib_uverbs_flow_spec_eth`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_eth_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_eth_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_eth_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_eth_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// IPv4 match values of a flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_ipv4_filter {
    /// Big-endian on the wire.
    pub src_ip: u32,
    /// Big-endian on the wire.
    pub dst_ip: u32,
    pub proto: u8,
    pub tos: u8,
    pub ttl: u8,
    pub flags: u8,
}

/// IPv4 flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_ipv4 {
    pub anon_1: ib_uverbs_flow_spec_ipv4_anon_1,
    pub val: ib_uverbs_flow_ipv4_filter,
    pub mask: ib_uverbs_flow_ipv4_filter,
}

/// Anonymous union inside `ib_uverbs_flow_spec_ipv4`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_ipv4_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_ipv4_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_ipv4_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_ipv4_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// TCP/UDP port match values of a flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_tcp_udp_filter {
    /// Big-endian on the wire.
    pub dst_port: u16,
    /// Big-endian on the wire.
    pub src_port: u16,
}

/// TCP/UDP flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_tcp_udp {
    pub anon_1: ib_uverbs_flow_spec_tcp_udp_anon_1,
    pub val: ib_uverbs_flow_tcp_udp_filter,
    pub mask: ib_uverbs_flow_tcp_udp_filter,
}

/// Anonymous union inside `ib_uverbs_flow_spec_tcp_udp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_tcp_udp_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_tcp_udp_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_tcp_udp_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_tcp_udp_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// IPv6 match values of a flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_ipv6_filter {
    pub src_ip: [u8; 16],
    pub dst_ip: [u8; 16],
    /// Big-endian on the wire.
    pub flow_label: u32,
    pub next_hdr: u8,
    pub traffic_class: u8,
    pub hop_limit: u8,
    pub reserved: u8,
}

/// IPv6 flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_ipv6 {
    pub anon_1: ib_uverbs_flow_spec_ipv6_anon_1,
    pub val: ib_uverbs_flow_ipv6_filter,
    pub mask: ib_uverbs_flow_ipv6_filter,
}

/// Anonymous union inside `ib_uverbs_flow_spec_ipv6`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_ipv6_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_ipv6_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_ipv6_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_ipv6_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// Flow spec tagging matched packets.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_action_tag {
    pub anon_1: ib_uverbs_flow_spec_action_tag_anon_1,
    pub tag_id: u32,
    pub reserved1: u32,
}

/// Anonymous union inside `ib_uverbs_flow_spec_action_tag`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_action_tag_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_action_tag_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_action_tag_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_action_tag_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// Flow spec dropping matched packets.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_action_drop {
    pub anon_1: ib_uverbs_flow_spec_action_drop_anon_1,
}

/// Anonymous union inside `ib_uverbs_flow_spec_action_drop`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_action_drop_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_action_drop_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_action_drop_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_action_drop_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// Flow spec attaching a flow action object.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_action_handle {
    pub anon_1: ib_uverbs_flow_spec_action_handle_anon_1,
    pub handle: u32,
    pub reserved1: u32,
}

/// Anonymous union inside `ib_uverbs_flow_spec_action_handle`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_action_handle_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_action_handle_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_action_handle_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_action_handle_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// Flow spec attaching a counters object.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_action_count {
    pub anon_1: ib_uverbs_flow_spec_action_count_anon_1,
    pub handle: u32,
    pub reserved1: u32,
}

/// Anonymous union inside `ib_uverbs_flow_spec_action_count`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_action_count_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_action_count_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_action_count_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_action_count_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// Tunnel id match value of a flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_tunnel_filter {
    /// Big-endian on the wire.
    pub tunnel_id: u32,
}

/// VXLAN tunnel flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_tunnel {
    pub anon_1: ib_uverbs_flow_spec_tunnel_anon_1,
    pub val: ib_uverbs_flow_tunnel_filter,
    pub mask: ib_uverbs_flow_tunnel_filter,
}

/// Anonymous union inside `ib_uverbs_flow_spec_tunnel`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_tunnel_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_tunnel_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_tunnel_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_tunnel_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// ESP match values of a flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_esp_filter {
    pub spi: u32,
    pub seq: u32,
}

/// ESP flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_esp {
    pub anon_1: ib_uverbs_flow_spec_esp_anon_1,
    pub val: ib_uverbs_flow_spec_esp_filter,
    pub mask: ib_uverbs_flow_spec_esp_filter,
}

/// Anonymous union inside `ib_uverbs_flow_spec_esp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_esp_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_esp_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_esp_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_esp_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// GRE match values of a flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_gre_filter {
    /// Big-endian on the wire.
    pub c_ks_res0_ver: u16,
    /// Big-endian on the wire.
    pub protocol: u16,
    /// Big-endian on the wire.
    pub key: u32,
}

/// GRE flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_gre {
    pub anon_1: ib_uverbs_flow_spec_gre_anon_1,
    pub val: ib_uverbs_flow_gre_filter,
    pub mask: ib_uverbs_flow_gre_filter,
}

/// Anonymous union inside `ib_uverbs_flow_spec_gre`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_gre_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_gre_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_gre_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_gre_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// MPLS match values of a flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_mpls_filter {
    /// Big-endian on the wire.
    pub label: u32,
}

/// MPLS flow spec.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_mpls {
    pub anon_1: ib_uverbs_flow_spec_mpls_anon_1,
    pub val: ib_uverbs_flow_mpls_filter,
    pub mask: ib_uverbs_flow_mpls_filter,
}

/// Anonymous union inside `ib_uverbs_flow_spec_mpls`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_spec_mpls_anon_1 {
    pub hdr: ib_uverbs_flow_spec_hdr,
    pub anon_1: ib_uverbs_flow_spec_mpls_anon_1_anon_1,
}

/// Anonymous struct inside `ib_uverbs_flow_spec_mpls_anon_1`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_spec_mpls_anon_1_anon_1 {
    pub r#type: u32,
    pub size: u16,
    pub reserved: u16,
}

/// Flow rule header; flow specs follow it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_attr {
    pub r#type: u32,
    pub size: u16,
    pub priority: u16,
    pub num_of_specs: u8,
    pub reserved: [u8; 2],
    pub port: u8,
    pub flags: u32,
    pub flow_specs: [ib_uverbs_flow_spec_hdr; 0],
}

/// Request payload of `IB_USER_VERBS_EX_CMD_CREATE_FLOW`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_flow {
    pub comp_mask: u32,
    pub qp_handle: u32,
    pub flow_attr: ib_uverbs_flow_attr,
}

/// Response of `IB_USER_VERBS_EX_CMD_CREATE_FLOW`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_create_flow_resp {
    pub comp_mask: u32,
    pub flow_handle: u32,
}

/// Request payload of `IB_USER_VERBS_EX_CMD_DESTROY_FLOW`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_destroy_flow {
    pub comp_mask: u32,
    pub flow_handle: u32,
}

/// AES-GCM key material of an ESP flow action.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_action_esp_keymat_aes_gcm {
    pub iv: u64,
    pub iv_algo: u32,
    pub salt: u32,
    pub icv_len: u32,
    pub key_len: u32,
    pub aes_key: [u32; 8],
}

/// Bitmap replay protection of an ESP flow action.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_action_esp_replay_bmp {
    pub size: u32,
}

/// One element of the ESP encapsulation filter list.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_action_esp_encap {
    pub anon_1: ib_uverbs_flow_action_esp_encap_anon_1,
    pub anon_2: ib_uverbs_flow_action_esp_encap_anon_2,
    pub len: u16,
    pub r#type: u16,
}

/// Anonymous union inside `ib_uverbs_flow_action_esp_encap`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_action_esp_encap_anon_1 {
    pub val_ptr: *mut c_void,
    pub val_ptr_data_u64: u64,
}

/// Anonymous union inside `ib_uverbs_flow_action_esp_encap`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_flow_action_esp_encap_anon_2 {
    pub next_ptr: *mut ib_uverbs_flow_action_esp_encap,
    pub next_ptr_data_u64: u64,
}

/// ESP flow action parameters.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_flow_action_esp {
    pub spi: u32,
    pub seq: u32,
    pub tfc_pad: u32,
    pub flags: u32,
    pub hard_limit_pkts: u64,
}
