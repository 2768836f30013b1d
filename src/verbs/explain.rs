//! The library's explanations at the moment something fails, in the verbs log at warn level
//! (VERBS_LOG_LEVEL >= 2): a device left without a provider (why, from
//! [`crate::provider::explain`], the reasoning `ibverbs-doctor` prints too), and ENOMEM from
//! registering memory or creating a CQ (the memlock figures, [`crate::sys::limits`]).
//! rdma-core has no counterpart: it warns about RLIMIT_MEMLOCK once at start-up, for non-root
//! processes under 32 KiB only, and says nothing about a missing provider unless
//! IBV_SHOW_WARNINGS is set.
//!
//! Everything here is a cold path: the callers call it only after a failure, and it does
//! nothing unless the log takes warnings; `errno` is left as the failure set it.
#![forbid(unsafe_code)]

use crate::log;
use crate::provider::explain::{Seen, loader_search_dirs, why_unmatched};
use crate::provider::matcher::{Device, ProviderMatch};
use crate::provider::registry::REGISTRY;
use crate::provider::{config, session};
use crate::sys::limits::{Memlock, bytes_text};
use std::ffi::OsString;

/// Log why no provider took `dev` (called once per such device, after the walk).
#[cold]
#[inline(never)]
pub(crate) fn no_provider(dev: &Device, provider_dirs: &[OsString]) {
    if !log::enabled(log::VERBS_LOG_WARN) {
        return;
    }
    let e = crate::sys::errno();
    let (get, trusted) = (crate::env::real, crate::env::trusted());
    let config_dir = config::config_dir(get, trusted);
    let names = session::PLAN
        .names()
        .unwrap_or_else(|| std::sync::Arc::new(config::discover(&config_dir, get, trusted)));
    let registered: Vec<ProviderMatch> = REGISTRY
        .snapshot()
        .iter()
        .map(|d| d.matching().clone())
        .collect();
    let search = loader_search_dirs(get, trusted);
    let seen = Seen {
        names: &names.names,
        config_dir: &config_dir,
        provider_dirs,
        search_dirs: &search,
        registered: &registered,
    };
    log::log(
        log::VERBS_LOG_WARN,
        format_args!(
            "libibverbs: skipping device {}: {}",
            String::from_utf8_lossy(&dev.ibdev_name),
            why_unmatched(dev, &seen)
        ),
    );
    crate::sys::set_errno(e);
}

/// Log why a scan found no usable device: `failed` is the scan's errno when it failed as a whole
/// (ENOSYS: no `<sysfs>/class/infiniband_verbs` and no RDMA netlink). Devices skipped for a
/// reason of their own were logged one by one already; this adds what is common to them.
#[cold]
#[inline(never)]
pub(crate) fn no_devices(sysfs: &std::path::Path, failed: Option<crate::errno::Errno>) {
    if !log::enabled(log::VERBS_LOG_WARN) {
        return;
    }
    let e = crate::sys::errno();
    let class = sysfs.join("class/infiniband_verbs");
    let why = if failed == Some(crate::errno::Errno::ENOSYS) || !class.is_dir() {
        format!(
            "{} does not exist: the kernel has no uverbs devices (is ib_uverbs loaded? does this container see the host's sysfs?)",
            class.display()
        )
    } else if !std::path::Path::new(crate::device::RDMA_CDEV_DIR).is_dir() {
        format!(
            "{} does not exist: in a container, pass the devices in (docker run --device=/dev/infiniband/uverbs0 ..., or -v /dev/infiniband:/dev/infiniband)",
            crate::device::RDMA_CDEV_DIR
        )
    } else {
        "no RDMA device found (ibverbs-doctor explains this host)".into()
    };
    log::log(
        log::VERBS_LOG_WARN,
        format_args!("libibverbs: no devices: {why}"),
    );
    crate::sys::set_errno(e);
}

/// After `verb` failed: when `errno` is ENOMEM and the log takes warnings, log the memlock
/// figures (registering `bytes`, when known). `errno` is preserved.
#[cold]
#[inline(never)]
pub fn memlock_hint(verb: &str, bytes: Option<usize>) {
    let e = crate::sys::errno();
    if e != libc::ENOMEM || !log::enabled(log::VERBS_LOG_WARN) {
        return;
    }
    let text = enomem_text(verb, bytes, &Memlock::now());
    log::log(log::VERBS_LOG_WARN, format_args!("libibverbs: {text}"));
    crate::sys::set_errno(e);
}

/// The words of [`memlock_hint`].
pub fn enomem_text(verb: &str, bytes: Option<usize>, m: &Memlock) -> String {
    let what = match bytes {
        Some(b) => format!("{verb} of {} failed with ENOMEM", bytes_text(b as u64)),
        None => {
            format!("{verb} failed with ENOMEM (its queue memory is pinned like a registration)")
        }
    };
    let pinned = m.pinned.map_or_else(|| "unknown".into(), bytes_text);
    if !m.limits_pinning() {
        let why = if m.cap_ipc_lock {
            "this process has CAP_IPC_LOCK"
        } else {
            "RLIMIT_MEMLOCK is unlimited"
        };
        return format!(
            "{what}; not the memlock limit ({why}; pinned: {pinned}): the device or the kernel is out of memory or resources"
        );
    }
    let soft = m.soft.map_or_else(|| "unknown".into(), bytes_text);
    let hard = m.hard.map_or_else(|| "unknown".into(), bytes_text);
    format!(
        "{what}: RLIMIT_MEMLOCK is {soft} (hard limit {hard}) and {pinned} is already pinned; registered memory and queues count against it unless the process has CAP_IPC_LOCK. Raise it: ulimit -l (hard limit: /etc/security/limits.conf), LimitMEMLOCK= (systemd), --ulimit memlock=-1 (docker)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::limits::UNLIMITED;

    #[test]
    fn enomem_words() {
        let m = Memlock {
            soft: Some(65536),
            hard: Some(65536),
            pinned: Some(8192),
            locked: Some(0),
            cap_ipc_lock: false,
        };
        let t = enomem_text("ibv_reg_mr", Some(1 << 20), &m);
        assert!(t.starts_with("ibv_reg_mr of 1048576 bytes (1 MiB) failed with ENOMEM: RLIMIT_MEMLOCK is 65536 bytes (64 KiB) (hard limit 65536 bytes (64 KiB)) and 8192 bytes (8 KiB) is already pinned"), "{t}");
        let t = enomem_text(
            "ibv_create_cq",
            None,
            &Memlock {
                cap_ipc_lock: true,
                ..m
            },
        );
        assert!(
            t.contains("not the memlock limit (this process has CAP_IPC_LOCK"),
            "{t}"
        );
        let t = enomem_text(
            "ibv_reg_mr",
            Some(1),
            &Memlock {
                soft: Some(UNLIMITED),
                ..m
            },
        );
        assert!(t.contains("RLIMIT_MEMLOCK is unlimited"), "{t}");
    }
}
