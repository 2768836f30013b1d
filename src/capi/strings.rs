//! Exports of the type-to-string and rate helpers (rdma-core: enum_strs.c, verbs.c).
use core::ffi::{c_char, c_int, c_uint};

use crate::strings;

fn ptr(s: Option<&'static core::ffi::CStr>) -> *const c_char {
    s.map_or(core::ptr::null(), |s| s.as_ptr())
}

/// `const char *ibv_node_type_str(enum ibv_node_type node_type)`
#[unsafe(no_mangle)]
pub extern "C" fn ibv_node_type_str(node_type: c_int) -> *const c_char {
    ptr(strings::node_type(node_type))
}

/// `const char *ibv_port_state_str(enum ibv_port_state port_state)`
#[unsafe(no_mangle)]
pub extern "C" fn ibv_port_state_str(port_state: c_uint) -> *const c_char {
    ptr(strings::port_state(port_state))
}

/// `const char *ibv_event_type_str(enum ibv_event_type event)`
#[unsafe(no_mangle)]
pub extern "C" fn ibv_event_type_str(event: c_uint) -> *const c_char {
    ptr(strings::event_type(event))
}

/// `const char *ibv_wc_status_str(enum ibv_wc_status status)`
#[unsafe(no_mangle)]
pub extern "C" fn ibv_wc_status_str(status: c_uint) -> *const c_char {
    ptr(strings::wc_status(status))
}

/// `const char *ibv_wr_opcode_str(enum ibv_wr_opcode opcode)`
#[unsafe(no_mangle)]
pub extern "C" fn ibv_wr_opcode_str(opcode: c_uint) -> *const c_char {
    ptr(strings::wr_opcode(opcode))
}

/// `int ibv_rate_to_mult(enum ibv_rate rate)`
#[unsafe(no_mangle)]
pub extern "C" fn ibv_rate_to_mult(rate: c_uint) -> c_int {
    strings::rate_to_mult(rate)
}

/// `enum ibv_rate mult_to_ibv_rate(int mult)`
#[unsafe(no_mangle)]
pub extern "C" fn mult_to_ibv_rate(mult: c_int) -> c_uint {
    strings::mult_to_rate(mult)
}

/// `int ibv_rate_to_mbps(enum ibv_rate rate)`
#[unsafe(no_mangle)]
pub extern "C" fn ibv_rate_to_mbps(rate: c_uint) -> c_int {
    strings::rate_to_mbps(rate)
}

/// `enum ibv_rate mbps_to_ibv_rate(int mbps)`
#[unsafe(no_mangle)]
pub extern "C" fn mbps_to_ibv_rate(mbps: c_int) -> c_uint {
    strings::mbps_to_rate(mbps)
}
