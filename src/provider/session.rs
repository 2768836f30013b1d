//! One device-discovery round with lazy provider loading (rdma-core: init.c
//! `ibverbs_get_device_list`'s matching half, `try_all_drivers`, and `load_drivers`' "once" rule).
//!
//! rdma-core: match new devices against the registered providers; if any is left and providers
//! have not been loaded yet, read the config, dlopen every name, mark "loaded" for the rest of the
//! process, and retry the leftovers. We: the same first round; at that same moment fix the name
//! list ([`Plan::ensure_started`]) but dlopen nothing; then retry the leftovers — and in every later
//! round, all new devices — with [`try_drivers`] over a [`LazySource`], which dlopens names in order
//! only when a walk reaches them, and not even then where [`NameHints`] show the name cannot change
//! the walk (skips and stand-ins). `matcher`'s header argues the result is rdma-core's. Names whose
//! load might print a warning (no file in the provider directory) are loaded at the load moment
//! itself, in order, as rdma-core loads them, so the warnings come out when and as its do.
//!
//! No lock is held across a dlopen: [`Plan`] claims a name under its mutex, releases it, calls
//! the opener, then re-locks to record completion; other threads that need that name wait on a
//! condvar (which releases the mutex). A walk running inside a provider constructor (this thread
//! is in one of our dlopens) never waits; it sees what is registered so far.
#![forbid(unsafe_code)]

use std::sync::Arc;

use crate::sys::sync::{Condvar, Mutex, MutexGuard};

use super::config::{ProviderList, ProviderName};
use super::known::KnownProvider;
use super::matcher::{
    Device, Hooks, Loaded, MatchState, ProviderMatch, ProviderSource, RDMA_DRIVER_UNKNOWN, View,
    try_drivers,
};
use super::registry::{DriverEntry, Registry, Slot, current_load_context, hole_index};

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
            state: Mutex::new(PlanState {
                names: None,
                done: Vec::new(),
                busy: Vec::new(),
            }),
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
        g.names
            .as_ref()
            .map(|n| (g.done.iter().filter(|d| **d).count(), n.names.len()))
    }

    /// The first position not loaded yet for which `wanted` holds (positions being loaded count
    /// as not loaded).
    pub fn first_pending(
        &self,
        wanted: &mut dyn FnMut(usize, &ProviderName) -> bool,
    ) -> Option<usize> {
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
        let Some(names) = g.names.clone() else {
            return false;
        };
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

/// What is known, without loading it, about what a configured name registers.
///
/// Contract of a `Known` answer for a name: loading it prints nothing (its file exists and
/// opens), and it registers at least one provider, every one named [`Known::ops_name`], with a
/// match table and no `match_device` callback, whose tables hold a `DriverId` entry equal to
/// `id` only if [`Known::may_claim_id`] says so, and match `dev` (in any state of its walk) only
/// if [`Known::may_match`] says so.
pub trait Known {
    fn ops_name(&self) -> &str;
    fn may_claim_id(&self, id: u32) -> bool;
    fn may_match(&self, dev: &Device) -> bool;
}

impl Known for KnownProvider {
    fn ops_name(&self) -> &str {
        self.ops_name
    }
    fn may_claim_id(&self, id: u32) -> bool {
        KnownProvider::may_claim_id(self, id)
    }
    fn may_match(&self, dev: &Device) -> bool {
        KnownProvider::may_match(self, dev)
    }
}

/// Knowledge about unloaded names.
pub trait NameHints {
    /// What is known about name `pos` (None: nothing; it is loaded when a walk reaches it).
    fn known(&mut self, pos: usize, name: &ProviderName) -> Option<&dyn Known>;
    /// False when loading name `pos` may print a warning (its file may be missing): it is then
    /// loaded at rdma-core's load moment, in order, so stderr shows what rdma-core's shows even
    /// when no walk ever reaches it.
    fn loads_quietly(&mut self, _pos: usize, _name: &ProviderName) -> bool {
        true
    }
}

/// No knowledge: every name is loaded when a walk reaches it.
pub struct NoHints;

impl NameHints for NoHints {
    fn known(&mut self, _: usize, _: &ProviderName) -> Option<&dyn Known> {
        None
    }
}

/// What a walk does with an unloaded name.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Load,
    Skip,
    /// A stand-in named after the provider it stands for.
    StandIn(String),
}

/// The registry with the not-yet-loaded names as a hole (and stand-ins, see `matcher`).
pub struct LazySource<'a> {
    registry: &'a Registry,
    plan: &'a Plan,
    open: &'a mut dyn FnMut(usize, &ProviderName),
    hints: &'a mut dyn NameHints,
    /// Per provider name of a known name: the first position of a known name registering it.
    first_known: Option<Vec<(String, usize)>>,
}

/// The stand-in for name `pos` (see `matcher`): an empty table, after every entry of that
/// position.
fn stand_in(pos: usize, ops_name: &str) -> Arc<DriverEntry> {
    Arc::new(DriverEntry::with_matching(
        0,
        0,
        ProviderMatch {
            name: ops_name.to_owned(),
            min_abi: 0,
            max_abi: 0,
            table: Some(Vec::new()),
            has_match_device: false,
        },
        Slot::Config(pos),
        u64::MAX,
    ))
}

impl<'a> LazySource<'a> {
    pub fn new(
        registry: &'a Registry,
        plan: &'a Plan,
        open: &'a mut dyn FnMut(usize, &ProviderName),
        hints: &'a mut dyn NameHints,
    ) -> LazySource<'a> {
        LazySource {
            registry,
            plan,
            open,
            hints,
            first_known: None,
        }
    }

    /// Whether a known name before `pos` registers `ops_name` too.
    fn has_earlier_twin(&mut self, names: &[ProviderName], pos: usize, ops_name: &str) -> bool {
        let hints = &mut *self.hints;
        let first = self.first_known.get_or_insert_with(|| {
            let mut v: Vec<(String, usize)> = Vec::new();
            for (i, n) in names.iter().enumerate() {
                if n.first.is_some() {
                    continue;
                }
                if let Some(k) = hints.known(i, n) {
                    if !v.iter().any(|(o, _)| o == k.ops_name()) {
                        v.push((k.ops_name().to_owned(), i));
                    }
                }
            }
            v
        });
        first.iter().any(|(o, i)| o == ops_name && *i < pos)
    }

    /// What the walk for `dev` does with unloaded name `pos` of `names`, given what is
    /// registered now (`items`).
    fn step(
        &mut self,
        names: &[ProviderName],
        pos: usize,
        dev: &Device,
        pass1: bool,
        items: &[Arc<DriverEntry>],
    ) -> Step {
        let name = &names[pos];
        let Some(k) = self.hints.known(pos, name) else {
            return Step::Load;
        };
        if name.first.is_some() {
            return Step::Skip;
        }
        if pass1 {
            let id = dev.known_driver_id().unwrap_or(RDMA_DRIVER_UNKNOWN);
            return if k.may_claim_id(id) {
                Step::Load
            } else {
                Step::Skip
            };
        }
        if k.may_match(dev) || items.iter().any(|e| e.matching().name == k.ops_name()) {
            return Step::Load;
        }
        // An earlier name with the same provider name may be this very object (then rdma-core
        // evaluates nothing here) or another one: only loading tells.
        let ops_name = k.ops_name().to_owned();
        if self.has_earlier_twin(names, pos, &ops_name) {
            Step::Load
        } else {
            Step::StandIn(ops_name)
        }
    }

    /// The first unloaded name this walk must load, and the stand-ins for the names before it.
    fn pending(
        &mut self,
        dev: &Device,
        pass1: bool,
        items: &[Arc<DriverEntry>],
        stand_ins: &mut Vec<Arc<DriverEntry>>,
    ) -> Option<usize> {
        let plan = self.plan;
        let names = plan.names()?;
        plan.first_pending(
            &mut |pos, _| match self.step(&names.names, pos, dev, pass1, items) {
                Step::Load => true,
                Step::Skip => false,
                Step::StandIn(ops_name) => {
                    stand_ins.push(stand_in(pos, &ops_name));
                    false
                }
            },
        )
    }
}

impl ProviderSource for LazySource<'_> {
    type Item = Arc<DriverEntry>;

    fn view(&mut self, dev: &Device, pass1: bool) -> View<Arc<DriverEntry>> {
        let mut items = self.registry.snapshot();
        let mut stand_ins = Vec::new();
        let pending = self.pending(dev, pass1, &items, &mut stand_ins);
        if !stand_ins.is_empty() {
            items.extend(stand_ins);
            items.sort_by_key(|e| (e.slot, e.seq));
        }
        View {
            hole: pending.map(|p| hole_index(&items, p)),
            items,
        }
    }

    fn load_next(&mut self, dev: &Device, pass1: bool) -> bool {
        let items = self.registry.snapshot();
        match self.pending(dev, pass1, &items, &mut Vec::new()) {
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
    match_devices_with(
        devices,
        states,
        registry,
        plan,
        read_config,
        open,
        &mut NoHints,
        hooks,
    )
}

/// [`match_devices`] with knowledge about unloaded names (`hints`), which lets walks leave names
/// unloaded where that cannot change their result (see `matcher`).
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
        let started = plan.ensure_started(registry, read_config);
        if let Some(names) = started.then(|| plan.names()).flatten() {
            // rdma-core's load moment: it loads every name now, and a failed load prints its
            // warning now; so does ours for every name that might fail.
            for (pos, name) in names.names.iter().enumerate() {
                if !hints.loads_quietly(pos, name) {
                    plan.load(pos, open);
                }
            }
        }
    }
    let mut src = LazySource::new(registry, plan, open, hints);
    for (i, dev) in devices.iter().enumerate() {
        if results[i].is_none() {
            results[i] = try_drivers(dev, &mut states[i], &mut src, hooks);
        }
    }
    results
}
