//! Hidden entry points for the `__verbs_log` C shim (src/shim/verbs_log.c); not in symbols.map.
use core::ffi::{c_char, c_int};

/// `int ibverbs_rs_log_enabled(uint32_t level)`: whether a message at `level` would be written.
#[unsafe(no_mangle)]
pub extern "C" fn ibverbs_rs_log_enabled(level: u32) -> c_int {
    c_int::from(crate::log::enabled(level))
}

/// `void ibverbs_rs_log_write(const char *msg, size_t len)`
///
/// # Safety
/// `msg` points to `len` readable bytes (the shim's formatting buffer).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibverbs_rs_log_write(msg: *const c_char, len: usize) {
    if msg.is_null() {
        return;
    }
    // SAFETY: the shim passes its own buffer and the length vsnprintf wrote into it.
    let bytes = unsafe { core::slice::from_raw_parts(msg.cast::<u8>(), len) };
    crate::log::write(bytes);
}
