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
    /// Per name: loaded (or failed).
    done: Vec<bool>,
    /// Per name: a thread is loading it.
    busy: Vec<bool>,
}

/// The process's list of names to load and which are loaded.
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
            state: Mutex::new(PlanState { names: None, done: Vec::new(), busy: Vec::new() }),
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

    /// (names loaded so far, total), once started.
    pub fn progress(&self) -> Option<(usize, usize)> {
        let g = self.lock();
        g.names.as_ref().map(|n| (g.done.iter().filter(|d| **d).count(), n.names.len()))
    }

    /// The first position not loaded yet for which `wanted` holds (positions being loaded count
    /// as not loaded).
    pub fn first_pending(&self, wanted: &mut dyn FnMut(usize, &ProviderName) -> bool) -> Option<usize> {
        let (names, done) = {
            let g = self.lock();
            (g.names.clone()?, g.done.clone())
        };
        (0..names.names.len()).find(|&p| !done[p] && wanted(p, &names.names[p]))
    }

    /// Fix the name list once: marks the registry (later outside registrations are Late) and
    /// calls `read` (config + environment; no dlopen) under the plan lock. True if this call did it.
    pub fn ensure_started(&self, registry: &Registry, read: impl FnOnce() -> ProviderList) -> bool {
        let mut g = self.lock();
        if g.names.is_some() {
            return false;
        }
        registry.start_loading();
        let names = read();
        g.done = vec![false; names.names.len()];
        g.busy = vec![false; names.names.len()];
        g.names = Some(Arc::new(names));
        true
    }

    /// Load name `pos` with `open(pos, name)` unless it is loaded. True if it is loaded now (by
    /// us or by a thread we waited for); false when not started, out of range, or this thread is
    /// inside a load itself.
    pub fn load(&self, pos: usize, open: &mut dyn FnMut(usize, &ProviderName)) -> bool {
        if current_load_context().is_some() {
            return false;
        }
        let mut g = self.lock();
        let Some(names) = g.names.clone() else { return false };
        if pos >= names.names.len() {
            return false;
        }
        while g.busy[pos] {
            g = self.done.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        if g.done[pos] {
            return true;
        }
        g.busy[pos] = true;
        drop(g);
        open(pos, &names.names[pos]);
        let mut g = self.lock();
        g.done[pos] = true;
        g.busy[pos] = false;
        drop(g);
        self.done.notify_all();
        true
    }

    /// Load the first name not loaded yet (see [`Plan::load`]).
    pub fn load_next(&self, open: &mut dyn FnMut(usize, &ProviderName)) -> bool {
        match self.first_pending(&mut |_, _| true) {
            Some(pos) => self.load(pos, open),
            None => false,
        }
    }
}

/// What is known, without loading it, about the providers a name registers.
pub trait NameHints {
    /// False only when name `pos` is known to register no provider with a `DriverId` entry
    /// equal to `id` (so pass 1 for a device with that id may skip it).
    fn may_claim_id(&mut self, pos: usize, name: &ProviderName, id: u32) -> bool;
}

/// No knowledge: every name may claim every id.
pub struct NoHints;

impl NameHints for NoHints {
    fn may_claim_id(&mut self, _: usize, _: &ProviderName, _: u32) -> bool {
        true
    }
}

/// The registry with the not-yet-loaded names as a hole.
pub struct LazySource<'a> {
    pub registry: &'a Registry,
    pub plan: &'a Plan,
    pub open: &'a mut dyn FnMut(usize, &ProviderName),
    pub hints: &'a mut dyn NameHints,
}

impl LazySource<'_> {
    /// The first unloaded name a walk must load next (in pass 1, skipping names that cannot
    /// claim the id).
    fn pending(&mut self, pass1: Option<u32>) -> Option<usize> {
        let hints = &mut *self.hints;
        self.plan.first_pending(&mut |pos, name| match pass1 {
            Some(id) => hints.may_claim_id(pos, name, id),
            None => true,
        })
    }
}

impl ProviderSource for LazySource<'_> {
    type Item = Arc<DriverEntry>;

    fn view(&mut self, pass1: Option<u32>) -> View<Arc<DriverEntry>> {
        let pending = self.pending(pass1);
        let items = self.registry.snapshot();
        View { hole: pending.map(|p| hole_index(&items, p)), items }
    }

    fn load_next(&mut self, pass1: Option<u32>) -> bool {
        match self.pending(pass1) {
            Some(pos) => self.plan.load(pos, self.open),
            None => false,
        }
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
    match_devices_with(devices, states, registry, plan, read_config, open, &mut NoHints, hooks)
}

/// [`match_devices`] with knowledge about unloaded names (e.g. a cache of what each provider
/// file registered last time), used only to skip names in pass 1.
#[allow(clippy::too_many_arguments)]
pub fn match_devices_with<H: Hooks<Arc<DriverEntry>>>(
    devices: &[Device],
    states: &mut [MatchState],
    registry: &Registry,
    plan: &Plan,
    read_config: impl FnOnce() -> ProviderList,
    open: &mut dyn FnMut(usize, &ProviderName),
    hints: &mut dyn NameHints,
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
            let mut src = LazySource { registry, plan, open: &mut *open, hints: &mut *hints };
            results[i] = try_drivers(dev, &mut states[i], &mut src, hooks);
        }
    }
    results
}
