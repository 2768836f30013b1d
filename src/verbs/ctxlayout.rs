//! Which layout a context of a provider ABI rdma-core changed in place has
//! ([`pabi::OTHER_LAYOUTS`]): for ABI 34 rdma-core v34's or v35's (fewer ops in
//! `verbs_context_ops`) or v36-v56's (its own), for ABI 59 v59-v61's (its own) or v62/v63's
//! ([`pabi::LAYOUT_V62`]: one more public op in front of `verbs_context`, two more ops).
//!
//! rdma-core has no counterpart (one build has one layout). The provider's layout is told when it
//! registers ([`of_provider`], from [`provider::release`](crate::provider::release), for
//! `devlist`); its contexts are made by `_verbs_init_and_alloc_context`, which knows the device and
//! so the driver, and records here the start of each `verbs_context` it makes whose tables differ
//! from its ABI's own ([`pabi::tables_differ`]). The calls that only get that start
//! (`verbs_set_ops`, `ibv_cmd_get_context`, `verbs_uninit_context` of such a node) look it up.
//! Without such providers (everyone else) nothing is recorded and nothing is locked: a flag says
//! so.
//!
//! Called by [`verbs::devlist`](crate::verbs::devlist), [`verbs::context`](crate::verbs::context),
//! [`verbs::ops`](crate::verbs::ops) and [`capi::pabi`](crate::capi::pabi); calls `provider` and
//! [`sys::dl`](crate::sys::dl).
use core::ffi::c_void;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::abi::driver::pabi;
use crate::sys::sync::Mutex;

/// The live contexts of another layout than their ABI's own: (start, layout).
static OTHER_CONTEXTS: Mutex<Vec<(usize, u32)>> = Mutex::new(Vec::new());
/// Whether such a context was ever recorded (never cleared).
static ANY: AtomicBool = AtomicBool::new(false);

fn contexts() -> crate::sys::sync::MutexGuard<'static, Vec<(usize, u32)>> {
    OTHER_CONTEXTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The layout of the context whose `verbs_context` starts at `vctx`, made for a provider of ABI
/// `abi`: `abi` itself but for a recorded context of another of its layouts.
#[inline(always)]
pub(crate) fn of(abi: u32, vctx: *const c_void) -> u32 {
    if !pabi::has_other_layouts(abi) || !ANY.load(Ordering::Acquire) {
        return abi;
    }
    of_slow(abi, vctx)
}

#[cold]
fn of_slow(abi: u32, vctx: *const c_void) -> u32 {
    contexts()
        .iter()
        .find(|&&(a, l)| a == vctx as usize && pabi::node_of(l) == abi)
        .map_or(abi, |&(_, l)| l)
}

/// Record that the context starting at `vctx` has `layout` (a fresh context of a provider ABI
/// with several layouts; an entry a context left at the same address without
/// `verbs_uninit_context` is replaced). A layout whose tables are its ABI's own is not kept.
/// ENOMEM when the record cannot grow.
pub(crate) fn record(vctx: *const c_void, layout: u32) -> crate::errno::Result<()> {
    if !pabi::tables_differ(layout) {
        if ANY.load(Ordering::Acquire) {
            forget(vctx);
        }
        return Ok(());
    }
    let mut l = contexts();
    if let Some(e) = l.iter_mut().find(|e| e.0 == vctx as usize) {
        e.1 = layout;
        return Ok(());
    }
    l.try_reserve(1).map_err(|_| crate::errno::Errno::ENOMEM)?;
    l.push((vctx as usize, layout));
    ANY.store(true, Ordering::Release);
    Ok(())
}

/// The context starting at `vctx` is gone (`verbs_uninit_context`).
pub(crate) fn forget(vctx: *const c_void) {
    if !ANY.load(Ordering::Acquire) {
        return;
    }
    let mut l = contexts();
    if let Some(i) = l.iter().position(|&(a, _)| a == vctx as usize) {
        l.swap_remove(i);
    }
}

/// The layout of a provider of ABI `abi` (one with several layouts) registering its `ops`
/// ([`provider::release`](crate::provider::release) on the file that holds them), logged with its
/// evidence at debug level.
///
/// Unless that log is on, the link of the rdma-core library beside the file is read first
/// without allocating: a provider registers during `ibv_get_device_list`, and allocations there
/// change the heap every later call works on (bench row ibv_create_qp RC: 11,210 Ir, and 11,328
/// with the allocating detection).
pub(crate) fn of_provider(ops: usize, abi: u32) -> u32 {
    let quick = !crate::log::enabled(crate::log::VERBS_LOG_DEBUG);
    // One dladdr: the link's answer, or the path copied for the full detection.
    let found = crate::sys::dl::with_object_path(ops, |p| {
        match quick
            .then(|| crate::provider::release::layout_by_link(p, abi))
            .flatten()
        {
            Some(layout) => Ok(layout),
            None => Err(p.to_vec()),
        }
    });
    let path = match found {
        Some(Ok(layout)) => return layout,
        // The main program's own name is empty in the link map.
        Some(Err(p)) if p.is_empty() => b"/proc/self/exe".to_vec(),
        Some(Err(p)) => p,
        None => {
            crate::log::log(
                crate::log::VERBS_LOG_DEBUG,
                format_args!(
                    "libibverbs: provider ops at {ops:#x}: provider ABI {abi}, no file holds them: {}",
                    crate::provider::release::layout_name(abi)
                ),
            );
            return abi;
        }
    };
    let d = crate::provider::release::detect(Path::new(OsStr::from_bytes(&path)), abi);
    crate::log::log(
        crate::log::VERBS_LOG_DEBUG,
        format_args!(
            "libibverbs: provider {} (ops at {ops:#x}): provider ABI {abi}, {d}",
            String::from_utf8_lossy(&path),
        ),
    );
    d.layout
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::driver::pabi::{LAYOUT_V34, LAYOUT_V35, LAYOUT_V54, LAYOUT_V62, NODE_V62};

    #[test]
    fn recorded_contexts_have_their_layout() {
        let a = 0x1000usize as *const c_void;
        let b = 0x2000usize as *const c_void;
        let c = 0x3000usize as *const c_void;
        assert_eq!(of(34, a), 34);
        record(a, LAYOUT_V62).unwrap();
        record(b, NODE_V62).unwrap();
        assert_eq!(of(NODE_V62, a), LAYOUT_V62);
        assert_eq!(of(NODE_V62, b), NODE_V62);
        // ABIs with one layout are theirs; a record of another ABI's layout is not this one's.
        assert_eq!(of(64, a), 64);
        assert_eq!(of(34, a), 34);
        // A context of the old layout at the same address replaces the record.
        record(a, NODE_V62).unwrap();
        assert_eq!(of(NODE_V62, a), NODE_V62);
        record(a, LAYOUT_V62).unwrap();
        forget(a);
        assert_eq!(of(NODE_V62, a), NODE_V62);
        // ABI 34's: v34's and v35's are kept; v54's tables are 34's own, so it is not.
        record(a, LAYOUT_V34).unwrap();
        record(b, LAYOUT_V35).unwrap();
        record(c, LAYOUT_V54).unwrap();
        assert_eq!(
            (of(34, a), of(34, b), of(34, c)),
            (LAYOUT_V34, LAYOUT_V35, 34)
        );
        record(a, LAYOUT_V35).unwrap();
        assert_eq!(of(34, a), LAYOUT_V35);
        forget(a);
        forget(b);
        assert_eq!((of(34, a), of(34, b)), (34, 34));
    }
}
