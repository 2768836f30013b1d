//! The type-to-string and rate helpers (rdma-core: enum_strs.c, verbs.c), each a declaration
//! over [`crate::strings`], which holds the tables.
//!
//! `Raw` throughout: each answers a plain value (a table's string, NULL for a hole in it; a rate),
//! with no failure and errno untouched.
use crate::capi::export::export;
use core::ffi::{c_char, c_int};

use crate::abi::ctype::CEnum;
use crate::abi::verbs::{
    ibv_event_type, ibv_node_type, ibv_port_state, ibv_rate, ibv_wc_status, ibv_wr_opcode,
};
use crate::strings;

/// A thin table entry as C's `const char *` (NULL for a hole).
#[inline]
fn ptr(s: Option<&'static u8>) -> *const c_char {
    s.map_or(core::ptr::null(), |b| core::ptr::from_ref(b).cast())
}

/// `const char *ibv_node_type_str(enum ibv_node_type node_type)`
#[export("IBVERBS_1.1")]
fn ibv_node_type_str(node_type: CEnum<ibv_node_type>) -> Raw<*const c_char> {
    ptr(strings::NODE_TYPE_C.get(strings::node_type_idx(node_type.raw_signed())))
}

/// `const char *ibv_port_state_str(enum ibv_port_state port_state)`
#[export("IBVERBS_1.1")]
fn ibv_port_state_str(port_state: CEnum<ibv_port_state>) -> Raw<*const c_char> {
    ptr(strings::PORT_STATE_C.get(strings::port_state_idx(port_state.raw())))
}

/// `const char *ibv_event_type_str(enum ibv_event_type event)`
#[export("IBVERBS_1.1")]
fn ibv_event_type_str(event: CEnum<ibv_event_type>) -> Raw<*const c_char> {
    ptr(strings::EVENT_TYPE_C.get(strings::event_type_idx(event.raw())))
}

/// `const char *ibv_wc_status_str(enum ibv_wc_status status)`
#[export("IBVERBS_1.1")]
fn ibv_wc_status_str(status: CEnum<ibv_wc_status>) -> Raw<*const c_char> {
    ptr(strings::WC_STATUS_C.get(strings::wc_status_idx(status.raw())))
}

/// `const char *ibv_wr_opcode_str(enum ibv_wr_opcode opcode)`
#[export(PRIVATE 34..)]
fn ibv_wr_opcode_str(opcode: CEnum<ibv_wr_opcode>) -> Raw<*const c_char> {
    ptr(strings::WR_OPCODE_C.get(strings::wr_opcode_idx(opcode.raw())))
}

/// `int ibv_rate_to_mult(enum ibv_rate rate)`
#[export("IBVERBS_1.0")]
fn ibv_rate_to_mult(rate: CEnum<ibv_rate>) -> Raw<c_int> {
    strings::rate_to_mult(rate.raw())
}

/// `enum ibv_rate mult_to_ibv_rate(int mult)`
#[export("IBVERBS_1.0")]
fn mult_to_ibv_rate(mult: c_int) -> Raw<CEnum<ibv_rate>> {
    CEnum::new(strings::mult_to_rate(mult))
}

/// `int ibv_rate_to_mbps(enum ibv_rate rate)`
#[export("IBVERBS_1.1")]
fn ibv_rate_to_mbps(rate: CEnum<ibv_rate>) -> Raw<c_int> {
    strings::rate_to_mbps(rate.raw())
}

/// `enum ibv_rate mbps_to_ibv_rate(int mbps)`
#[export("IBVERBS_1.1")]
fn mbps_to_ibv_rate(mbps: c_int) -> Raw<CEnum<ibv_rate>> {
    CEnum::new(strings::mbps_to_rate(mbps))
}
