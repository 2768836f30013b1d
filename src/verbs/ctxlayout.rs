//! Which layout a context of provider ABI 59 has: rdma-core v59-v61's (the ABI's own) or
//! v62/v63's (`pabi::LAYOUT_V62`: one more public op in front of `verbs_context`, two more ops in
//! `verbs_context_ops`), which rdma-core changed without a new ABI number.
//!
//! rdma-core has no counterpart (one build has one layout). The provider's layout is told when it
//! registers ([`of_provider`], from `provider::release`, for `devlist`); its contexts are made by
//! `_verbs_init_and_alloc_context`, which knows the device and so the driver, and records here
//! the start of each v62-layout `verbs_context` it makes. The calls that only get that start
//! (`verbs_set_ops`, `ibv_cmd_get_context`, `verbs_uninit_context` of node
//! `IBVERBS_PRIVATE_59`) look it up. Without v62 providers (everyone else) nothing is recorded
//! and nothing is locked: a flag says so.
//!
//! Called by `verbs::devlist`, `verbs::context`, `verbs::ops` and `capi::pabi`; calls `provider`
//! and `sys::dl`.
use core::ffi::c_void;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::abi::driver::pabi::{LAYOUT_V62, NODE_V62};
use crate::sys::sync::Mutex;

/// The starts of the live v62-layout contexts.
static V62_CONTEXTS: Mutex<Vec<usize>> = Mutex::new(Vec::new());
/// Whether a v62-layout context was ever recorded (never cleared).
static ANY: AtomicBool = AtomicBool::new(false);

fn contexts() -> crate::sys::sync::MutexGuard<'static, Vec<usize>> {
    V62_CONTEXTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The layout of the context whose `verbs_context` starts at `vctx`, made for a provider of ABI
/// `abi`: `abi` itself but for a v62-layout context of ABI 59.
#[inline(always)]
pub(crate) fn of(abi: u32, vctx: *const c_void) -> u32 {
    if abi != NODE_V62 || !ANY.load(Ordering::Acquire) {
        return abi;
    }
    of_slow(vctx)
}

#[cold]
fn of_slow(vctx: *const c_void) -> u32 {
    if contexts().contains(&(vctx as usize)) {
        LAYOUT_V62
    } else {
        NODE_V62
    }
}

/// Record that the context starting at `vctx` has `layout` (a fresh context of ABI 59; an entry
/// a context left at the same address without `verbs_uninit_context` is replaced). ENOMEM when
/// the record cannot grow.
pub(crate) fn record(vctx: *const c_void, layout: u32) -> crate::errno::Result<()> {
    if layout != LAYOUT_V62 {
        if ANY.load(Ordering::Acquire) {
            forget(vctx);
        }
        return Ok(());
    }
    let mut l = contexts();
    if l.contains(&(vctx as usize)) {
        return Ok(());
    }
    l.try_reserve(1).map_err(|_| crate::errno::Errno::ENOMEM)?;
    l.push(vctx as usize);
    ANY.store(true, Ordering::Release);
    Ok(())
}

/// The context starting at `vctx` is gone (`verbs_uninit_context`).
pub(crate) fn forget(vctx: *const c_void) {
    if !ANY.load(Ordering::Acquire) {
        return;
    }
    let mut l = contexts();
    if let Some(i) = l.iter().position(|&a| a == vctx as usize) {
        l.swap_remove(i);
    }
}

/// The layout of a provider of ABI `NODE_V62` registering its `ops` (`provider::release`
/// on the file that holds them), logged with its evidence at debug level.
pub(crate) fn of_provider(ops: usize) -> u32 {
    let path = match crate::sys::dl::object_path_containing(ops) {
        // The main program's own name is empty in the link map.
        Some(p) if p.is_empty() => b"/proc/self/exe".to_vec(),
        Some(p) => p,
        None => {
            crate::log::log(
                crate::log::VERBS_LOG_DEBUG,
                format_args!(
                    "libibverbs: provider ops at {ops:#x}: provider ABI {}, no file holds them: rdma-core v59-v61 layout",
                    NODE_V62
                ),
            );
            return NODE_V62;
        }
    };
    let d = crate::provider::release::detect(Path::new(OsStr::from_bytes(&path)));
    crate::log::log(
        crate::log::VERBS_LOG_DEBUG,
        format_args!(
            "libibverbs: provider {} (ops at {ops:#x}): provider ABI {}, {d}",
            String::from_utf8_lossy(&path),
            NODE_V62
        ),
    );
    d.layout
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_contexts_have_layout_62() {
        let a = 0x1000usize as *const c_void;
        let b = 0x2000usize as *const c_void;
        assert_eq!(of(34, a), 34);
        record(a, LAYOUT_V62).unwrap();
        record(b, NODE_V62).unwrap();
        assert_eq!(of(NODE_V62, a), LAYOUT_V62);
        assert_eq!(of(NODE_V62, b), NODE_V62);
        // Only ABI 59 has two layouts.
        assert_eq!(of(64, a), 64);
        // A context of the old layout at the same address replaces the record.
        record(a, NODE_V62).unwrap();
        assert_eq!(of(NODE_V62, a), NODE_V62);
        record(a, LAYOUT_V62).unwrap();
        forget(a);
        assert_eq!(of(NODE_V62, a), NODE_V62);
    }
}
