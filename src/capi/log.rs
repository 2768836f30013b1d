//! The provider ABI's log (rdma-core: init.c `__verbs_log`): the declaration of the C variadic
//! `__verbs_log` (src/shim/verbs_log.c, which only formats) and its two hidden entry points
//! (not in the version script), which filter and write through [`crate::log`].
use core::ffi::{c_char, c_int};

use crate::capi::export::export_c;

/// `void __verbs_log(struct verbs_context *ctx, uint32_t level, const char *fmt, ...)`
///
/// The provider ABI's logging entry (`verbs_log` and friends): formats the message and writes it
/// to the verbs log when `level` is enabled (VERBS_LOG_LEVEL, VERBS_LOG_FILE). A C variadic,
/// defined in src/shim/verbs_log.c; `ctx` is not read, so every provider ABI's context will do.
#[export_c(PRIVATE 34..)]
fn __verbs_log();

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
