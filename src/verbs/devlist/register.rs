//! Provider registration (rdma-core: init.c `verbs_register_driver` and the match-table read of
//! `try_driver`): the `verbs_device_ops` each provider registers, the layout it was built with
//! ([`verbs::ctxlayout`](crate::verbs::ctxlayout)), and its match table read when a device is first
//! matched.
//!
//! Called by [`verbs::devlist`](crate::verbs::devlist) (its parent) and, through it,
//! [`capi::driver`](crate::capi::driver) and [`verbs::context`](crate::verbs::context); calls
//! [`provider::registry`](crate::provider::registry), [`verbs::ctxlayout`](crate::verbs::ctxlayout)
//! and `log`.
use core::ffi::CStr;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::abi::driver::pabi;
use crate::abi::driver::{verbs_device_ops, verbs_match_ent};
use crate::log;
use crate::provider::hints;
use crate::provider::matcher::{
    MatchKind, ProviderMatch, VERBS_MATCH_DRIVER_ID, VERBS_MATCH_MODALIAS, VERBS_MATCH_PCI,
    VERBS_MATCH_SENTINEL,
};
use crate::provider::registry::REGISTRY;
use crate::sys::sync::Mutex;

/// The `verbs_device_ops` tables whose layout is not the oldest ABI's own: registered through the
/// entry point of a later provider ABI, or a provider of ABI 34 built by rdma-core v34, v35 or
/// v54-v56 ([`pabi::OTHER_LAYOUTS`]), with that ABI and its layout.
static NEWER_DRIVERS: Mutex<Vec<(usize, u32, u32)>> = Mutex::new(Vec::new());
/// Whether [`NEWER_DRIVERS`] holds any table (set under its lock after the push, never cleared).
pub(super) static ANY_NEWER: AtomicBool = AtomicBool::new(false);

/// The layout ([`pabi::LAYOUTS`]) of the driver whose ops table is `ops`: the ABI of the
/// `verbs_register_driver_<N>` it registered through, or the other layout of that ABI its provider
/// was built with ([`provider::release`](crate::provider::release)). It decides the layout of the
/// `verbs_context` its `alloc_context`/`import_context` return.
pub(crate) fn ops_abi(ops: *const verbs_device_ops) -> u32 {
    // Without such providers (the usual case) there is nothing to look up: no lock per open.
    if !ANY_NEWER.load(Ordering::Acquire) {
        return pabi::OLDEST;
    }
    let l = NEWER_DRIVERS.lock().unwrap_or_else(|e| e.into_inner());
    l.iter()
        .find(|(o, _, _)| *o == ops as usize)
        .map_or(pabi::OLDEST, |&(_, _, layout)| layout)
}

/// `verbs_register_driver_<N>` (provider ABI `provider_abi`), called by a provider's ELF
/// constructor from inside our dlopen (or at program start for a provider linked into the program):
/// record a provider's ops (NULL is ignored) and its ABI, for device matching. Only the pointer is
/// kept now (it is the provider's identity from here on); the table is read by [`read_match`] when
/// a device is first matched, as rdma-core reads it only then. A provider of an ABI with several
/// layouts (34, 59) has its layout told here
/// ([`ctxlayout::of_provider`](crate::verbs::ctxlayout::of_provider)).
///
/// The C caller's contract: `ops` is NULL or points to a provider's static `verbs_device_ops`
/// (it lives as long as the process).
pub(crate) fn register_driver(ops: *const verbs_device_ops, provider_abi: u32) {
    if ops.is_null() {
        return;
    }
    log::log(
        log::VERBS_LOG_DEBUG,
        format_args!(
            "libibverbs: provider ops at {ops:p} registered (provider ABI {provider_abi})"
        ),
    );
    let layout = if pabi::has_other_layouts(provider_abi) {
        crate::verbs::ctxlayout::of_provider(ops as usize, provider_abi)
    } else {
        provider_abi
    };
    if layout != pabi::OLDEST {
        let mut l = NEWER_DRIVERS.lock().unwrap_or_else(|e| e.into_inner());
        if l.try_reserve(1).is_ok() {
            l.push((ops as usize, provider_abi, layout));
            ANY_NEWER.store(true, Ordering::Release);
        }
    }
    REGISTRY.register_lazy(ops as usize, provider_abi, read_match);
}

/// The matching data of the provider whose `verbs_device_ops` is at `token`.
fn read_match(token: usize, loaded_as: Option<usize>) -> ProviderMatch {
    // SAFETY: a token is the ops address `register_driver` was given: a provider's static table,
    // alive for the process (a provider is never unloaded).
    let o = unsafe { &*(token as *const verbs_device_ops) };
    let name = if o.name.is_null() {
        String::new()
    } else {
        // SAFETY: a provider's name is a NUL-terminated static string.
        unsafe { CStr::from_ptr(o.name) }
            .to_string_lossy()
            .into_owned()
    };
    let table = if o.match_table.is_null() {
        None
    } else {
        let mut v = Vec::new();
        let mut e = o.match_table;
        loop {
            // SAFETY: the table ends with a sentinel entry (kind 0), as VERBS_*_MATCH tables
            // do, and `e` has not passed it.
            let entry = unsafe { &*e };
            if entry.kind == VERBS_MATCH_SENTINEL {
                break;
            }
            v.push(match_kind(entry));
            // SAFETY: not the sentinel yet: the next entry is inside the table.
            e = unsafe { e.add(1) };
        }
        Some(v)
    };
    let matching = ProviderMatch {
        name,
        min_abi: o.match_min_abi_version,
        max_abi: o.match_max_abi_version,
        table,
        has_match_device: o.match_device.is_some(),
    };
    if let Some(c) = hints::audit_registration(loaded_as, &matching) {
        log::log(
            log::VERBS_LOG_WARN,
            format_args!(
                "libibverbs: provider {} does not fit the built-in table for '{}' ({}); that name is loaded in order from now on",
                matching.name, c.config_name, c.reason
            ),
        );
    }
    matching
}

fn match_kind(e: &verbs_match_ent) -> MatchKind {
    match e.kind {
        VERBS_MATCH_PCI => MatchKind::Pci {
            vendor: e.vendor,
            device: e.device,
        },
        VERBS_MATCH_MODALIAS => {
            // SAFETY: for this kind the union holds a NUL-terminated pattern (or NULL).
            let p = unsafe { e.u.modalias };
            if p.is_null() {
                MatchKind::Modalias(Vec::new())
            } else {
                // SAFETY: `p` is not NULL here, and a modalias entry's pointer is the provider's
                // NUL-terminated pattern in its static match table, alive for the process (a
                // provider is never unloaded); the bytes are copied, not kept.
                MatchKind::Modalias(unsafe { CStr::from_ptr(p) }.to_bytes().to_vec())
            }
        }
        // SAFETY: for this kind the union holds the driver id.
        VERBS_MATCH_DRIVER_ID => MatchKind::DriverId(unsafe { e.u.driver_id }),
        k => MatchKind::Other(k),
    }
}
