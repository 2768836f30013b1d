//! One device-discovery round with lazy provider loading (rdma-core: init.c
//! `ibverbs_get_device_list`'s matching half, `try_all_drivers`, and `load_drivers`' "once" rule).
//!
//! rdma-core: match new devices against the registered providers; if any is left and providers
//! have not been loaded yet, read the config, dlopen every name, mark "loaded" for the rest of the
//! process, and retry the leftovers. We: the same first round; at that same moment fix the name
//! list ([`Plan::ensure_started`]) but dlopen nothing; then retry the leftovers — and in every later
//! round, all new devices — with [`try_drivers`] over a [`LazySource`], which dlopens names in order
//! only when a walk reaches them. `matcher`'s header argues the result is rdma-core's.
//!
//! No lock is held across a dlopen: [`Plan`] claims a name under its mutex, releases it, calls
//! the opener, then re-locks to record completion; other threads that need that name wait on a
//! condvar (which releases the mutex). A walk running inside a provider constructor (this thread
//! is in one of our dlopens) never waits; it sees what is registered so far.
#![forbid(unsafe_code)]

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use super::config::{ProviderList, ProviderName};
use super::matcher::{Device, Hooks, Loaded, MatchState, ProviderSource, View, try_drivers};
use super::registry::{DriverEntry, Registry, current_load_context, hole_index};

#[derive(Default)]
struct PlanState {
    names: Option<Arc<ProviderList>>,
    /// Names `..next` are loaded (or failed).
    next: usize,
    /// A thread is loading name `next`.
    busy: bool,
}

/// The process's list of names to load and how far loading got.
pub struct Plan {
    state: Mutex<PlanState>,
    done: Condvar,
}

/// The process's plan.
pub static PLAN: Plan = Plan::new();

impl Default for Plan {
    fn default() -> Plan {
        Plan::new()
    }
}

impl Plan {
    pub const fn new() -> Plan {
        Plan {
            state: Mutex::new(PlanState { names: None, next: 0, busy: false }),
            done: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, PlanState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the name list has been fixed (rdma-core's `drivers_loaded`).
    pub fn started(&self) -> bool {
        self.lock().names.is_some()
    }

    /// The fixed name list, if any.
    pub fn names(&self) -> Option<Arc<ProviderList>> {
        self.lock().names.clone()
    }

    /// (loaded so far, total), once started.
    pub fn progress(&self) -> Option<(usize, usize)> {
        let g = self.lock();
        g.names.as_ref().map(|n| (g.next, n.names.len()))
    }

    /// Fix the name list once: marks the registry (later outside registrations are Late) and
    /// calls `read` (config + environment; no dlopen) under the plan lock. True if this call did it.
    pub fn ensure_started(&self, registry: &Registry, read: impl FnOnce() -> ProviderList) -> bool {
        let mut g = self.lock();
        if g.names.is_some() {
            return false;
        }
        registry.start_loading();
        g.names = Some(Arc::new(read()));
        true
    }

    /// Load the next name with `open(position, name)`. True if progress was made (by us or by a
    /// thread we waited for); false when all are loaded, not started, or this thread is inside a
    /// load itself.
    pub fn load_next(&self, open: &mut dyn FnMut(usize, &ProviderName)) -> bool {
        if current_load_context().is_some() {
            return false;
        }
        let mut g = self.lock();
        if g.busy {
            while g.busy {
                g = self.done.wait(g).unwrap_or_else(|e| e.into_inner());
            }
            return true;
        }
        let Some(names) = g.names.clone() else { return false };
        let pos = g.next;
        if pos >= names.names.len() {
            return false;
        }
        g.busy = true;
        drop(g);
        open(pos, &names.names[pos]);
        let mut g = self.lock();
        g.next = pos + 1;
        g.busy = false;
        drop(g);
        self.done.notify_all();
        true
    }
}

/// The registry with the not-yet-loaded names as a hole.
pub struct LazySource<'a> {
    pub registry: &'a Registry,
    pub plan: &'a Plan,
    pub open: &'a mut dyn FnMut(usize, &ProviderName),
}

impl ProviderSource for LazySource<'_> {
    type Item = Arc<DriverEntry>;

    fn view(&mut self) -> View<Arc<DriverEntry>> {
        let progress = self.plan.progress();
        let items = self.registry.snapshot();
        let hole = match progress {
            Some((next, total)) if next < total => Some(hole_index(&items, next)),
            _ => None,
        };
        View { items, hole }
    }

    fn load_next(&mut self) -> bool {
        self.plan.load_next(self.open)
    }
}

/// Match a round of new devices (in discovery order). `states` holds one [`MatchState`] per
/// device, kept by the caller for the device's life. `read_config` runs at most once per process,
/// at rdma-core's load moment; `open` dlopens one name (see `loader::load_name`). Returns, per
/// device, the winning provider and what `alloc_device` gave.
pub fn match_devices<H: Hooks<Arc<DriverEntry>>>(
    devices: &[Device],
    states: &mut [MatchState],
    registry: &Registry,
    plan: &Plan,
    read_config: impl FnOnce() -> ProviderList,
    open: &mut dyn FnMut(usize, &ProviderName),
    hooks: &mut H,
) -> Vec<Option<(Arc<DriverEntry>, H::Out)>> {
    assert_eq!(devices.len(), states.len());
    let mut results: Vec<Option<(Arc<DriverEntry>, H::Out)>> =
        devices.iter().map(|_| None).collect();
    if !plan.started() {
        // rdma-core's first try: only what is registered now.
        for (i, dev) in devices.iter().enumerate() {
            let snap = registry.snapshot();
            results[i] = try_drivers(dev, &mut states[i], &mut Loaded(&snap), hooks);
        }
        if results.iter().all(Option::is_some) {
            return results;
        }
        plan.ensure_started(registry, read_config);
    }
    for (i, dev) in devices.iter().enumerate() {
        if results[i].is_none() {
            let mut src = LazySource { registry, plan, open: &mut *open };
            results[i] = try_drivers(dev, &mut states[i], &mut src, hooks);
        }
    }
    results
}
