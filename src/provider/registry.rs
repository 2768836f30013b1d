//! Registered providers (rdma-core: init.c `verbs_register_driver` and its `driver_list`).
//!
//! Registration happens from a provider's ELF constructor, i.e. *inside* `dlopen`, possibly while
//! another thread walks the list. So: the list sits behind a short mutex taken only to push or
//! copy; nobody holds it across `dlopen` or any `dl*` call; readers work on a snapshot of
//! `Arc`s. The loader marks "this thread is inside the dlopen of config name #i" in a
//! thread-local ([`with_load_context`]) so the registration — which runs on that same thread —
//! is filed at that name's position without any lock held across the load.
//!
//! Order ([`Registry::snapshot`]) is rdma-core's list order: providers registered before loading
//! started ([`Slot::Early`], e.g. linked into the application), then those of config name 0, 1, …
//! ([`Slot::Config`]), then those registered later outside our loads ([`Slot::Late`]); ties by
//! registration order. See `matcher` for why this order is rdma-core's even with lazy loading.
#![forbid(unsafe_code)]

use std::cell::Cell;
use std::sync::Arc;

use crate::sys::sync::{Mutex, MutexGuard, OnceLock};

use super::matcher::{Provider, ProviderMatch};

/// Where in the order an entry sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Slot {
    /// Registered before provider loading started.
    Early,
    /// Registered during the dlopen of config name #i (or adopted there, see [`Registry::adopt`]).
    Config(usize),
    /// Registered after loading started, outside our dlopens.
    Late,
}

/// How an entry's [`ProviderMatch`] is read from its token, the first time matching needs it; the
/// second argument is the config position the provider registered while loading (if any), so the
/// reader can audit the data against what that name is known to claim.
pub type ReadMatch = fn(usize, Option<usize>) -> ProviderMatch;

/// One registered provider.
#[derive(Clone, Debug)]
pub struct DriverEntry {
    /// Opaque, pointer-sized: the glue passes the `verbs_device_ops` address.
    pub token: usize,
    /// The provider ABI of the entry point it registered through (34 for `verbs_register_driver_34`).
    pub provider_abi: u32,
    /// Read on first use (see [`DriverEntry::matching`]).
    matching: OnceLock<ProviderMatch>,
    read: Option<ReadMatch>,
    pub slot: Slot,
    /// Registration order, process-wide.
    pub seq: u64,
}

impl DriverEntry {
    /// An entry whose matching data is known now (stand-ins and tests), not in any registry.
    pub fn with_matching(
        token: usize,
        provider_abi: u32,
        matching: ProviderMatch,
        slot: Slot,
        seq: u64,
    ) -> DriverEntry {
        DriverEntry {
            token,
            provider_abi,
            matching: OnceLock::from(matching),
            read: None,
            slot,
            seq,
        }
    }

    /// What the provider matches, read from its table the first time it is asked for (rdma-core
    /// reads the table only while matching devices, never at registration, so a provider that
    /// registers a table it has not finished, or a bad one, is not touched until then).
    pub fn matching(&self) -> &ProviderMatch {
        self.matching.get_or_init(|| match self.read {
            Some(read) => {
                let loaded_as = match self.slot {
                    Slot::Config(pos) => Some(pos),
                    _ => None,
                };
                read(self.token, loaded_as)
            }
            None => ProviderMatch {
                name: String::new(),
                min_abi: 0,
                max_abi: 0,
                table: None,
                has_match_device: false,
            },
        })
    }
}

impl Provider for Arc<DriverEntry> {
    fn token(&self) -> usize {
        self.token
    }
    fn matching(&self) -> &ProviderMatch {
        DriverEntry::matching(self)
    }
    fn order(&self) -> Option<(u64, u64)> {
        let slot = match self.slot {
            Slot::Early => 0,
            Slot::Config(p) => p as u64 + 1,
            Slot::Late => u64::MAX,
        };
        Some((slot, self.seq))
    }
}

#[derive(Default)]
struct Inner {
    entries: Vec<Arc<DriverEntry>>,
    next_seq: u64,
    loading_started: bool,
}

/// The provider list. One global instance, [`REGISTRY`]; tests make their own.
pub struct Registry {
    inner: Mutex<Inner>,
}

/// The process's registry, filled by `verbs_register_driver_34`.
pub static REGISTRY: Registry = Registry::new();

thread_local! {
    static LOAD_CONTEXT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Run `f` (a dlopen) with this thread marked as loading config name `pos`; restores the previous
/// mark afterwards, so nested loads (a constructor that loads) stay correct.
pub fn with_load_context<R>(pos: usize, f: impl FnOnce() -> R) -> R {
    let prev = LOAD_CONTEXT.with(|c| c.replace(Some(pos)));
    let r = f();
    LOAD_CONTEXT.with(|c| c.set(prev));
    r
}

/// The config position this thread is loading, if it is inside one of our dlopens.
pub fn current_load_context() -> Option<usize> {
    LOAD_CONTEXT.with(Cell::get)
}

impl Registry {
    pub const fn new() -> Registry {
        Registry {
            inner: Mutex::new(Inner {
                entries: Vec::new(),
                next_seq: 0,
                loading_started: false,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Record a provider whose matching data is known already (tests, and the eager form of
    /// [`Registry::register_lazy`]).
    pub fn register(&self, token: usize, provider_abi: u32, matching: ProviderMatch) -> Slot {
        self.push(token, provider_abi, OnceLock::from(matching), None)
    }

    /// Record a provider (the body of `verbs_register_driver_34`): only its token and ABI now;
    /// `read` gives its matching data when matching first needs it. Never blocks on anything but
    /// the short list lock. Duplicates are kept, as rdma-core keeps them.
    pub fn register_lazy(&self, token: usize, provider_abi: u32, read: ReadMatch) -> Slot {
        self.push(token, provider_abi, OnceLock::new(), Some(read))
    }

    fn push(
        &self,
        token: usize,
        provider_abi: u32,
        matching: OnceLock<ProviderMatch>,
        read: Option<ReadMatch>,
    ) -> Slot {
        let ctx = current_load_context();
        let mut g = self.lock();
        let slot = match ctx {
            Some(pos) => Slot::Config(pos),
            None if g.loading_started => Slot::Late,
            None => Slot::Early,
        };
        let seq = g.next_seq;
        g.next_seq += 1;
        g.entries.push(Arc::new(DriverEntry {
            token,
            provider_abi,
            matching,
            read,
            slot,
            seq,
        }));
        slot
    }

    /// Mark the moment rdma-core would load every provider. True if this call did it.
    pub fn start_loading(&self) -> bool {
        let mut g = self.lock();
        !std::mem::replace(&mut g.loading_started, true)
    }

    pub fn loading_started(&self) -> bool {
        self.lock().loading_started
    }

    /// All entries in order (see the module header).
    pub fn snapshot(&self) -> Vec<Arc<DriverEntry>> {
        let mut v = self.lock().entries.clone();
        v.sort_by_key(|e| (e.slot, e.seq));
        v
    }

    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tokens of the Late entries (to ask the loader which object each lives in).
    pub fn late_tokens(&self) -> Vec<usize> {
        self.lock()
            .entries
            .iter()
            .filter(|e| e.slot == Slot::Late)
            .map(|e| e.token)
            .collect()
    }

    /// Tokens of the entries that loading config name `pos` may move (see [`Registry::adopt`]):
    /// the Late ones and those filed at a later config position (loaded out of order).
    pub fn movable_tokens(&self, pos: usize) -> Vec<usize> {
        self.lock()
            .entries
            .iter()
            .filter(|e| movable(e.slot, pos))
            .map(|e| e.token)
            .collect()
    }

    /// Move the Late (or later-position) entries with these tokens to config position `pos`: our
    /// dlopen of that name returned the object they were registered from (the application, or
    /// our out-of-order load of another name, had loaded it first); rdma-core, loading in order,
    /// files them here.
    pub fn adopt(&self, tokens: &[usize], pos: usize) {
        let mut g = self.lock();
        for e in g.entries.iter_mut() {
            if movable(e.slot, pos) && tokens.contains(&e.token) {
                *e = Arc::new(DriverEntry {
                    slot: Slot::Config(pos),
                    ..DriverEntry::clone(e)
                });
            }
        }
    }
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::new()
    }
}

fn movable(slot: Slot, pos: usize) -> bool {
    match slot {
        Slot::Late => true,
        Slot::Config(q) => q > pos,
        Slot::Early => false,
    }
}

/// Index in an ordered snapshot where the providers of config names `next..` would go: after
/// every Early entry and every Config entry of a position below `next`.
pub fn hole_index(ordered: &[Arc<DriverEntry>], next: usize) -> usize {
    ordered.partition_point(|e| match e.slot {
        Slot::Early => true,
        Slot::Config(p) => p < next,
        Slot::Late => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pm(name: &str) -> ProviderMatch {
        ProviderMatch {
            name: name.into(),
            min_abi: 1,
            max_abi: 1,
            table: None,
            has_match_device: false,
        }
    }

    #[test]
    fn order_and_slots() {
        let r = Registry::new();
        assert_eq!(r.register(1, 34, pm("early")), Slot::Early);
        assert!(r.start_loading());
        assert!(!r.start_loading());
        assert_eq!(r.register(2, 34, pm("late")), Slot::Late);
        assert_eq!(
            with_load_context(3, || r.register(3, 34, pm("c3"))),
            Slot::Config(3)
        );
        assert_eq!(
            with_load_context(1, || r.register(4, 34, pm("c1"))),
            Slot::Config(1)
        );
        assert_eq!(current_load_context(), None);
        let names: Vec<_> = r
            .snapshot()
            .iter()
            .map(|e| e.matching().name.clone())
            .collect();
        assert_eq!(names, ["early", "c1", "c3", "late"]);
        let s = r.snapshot();
        assert_eq!(hole_index(&s, 0), 1);
        assert_eq!(hole_index(&s, 2), 2);
        assert_eq!(hole_index(&s, 4), 3);
        assert_eq!(r.late_tokens(), [2]);
        r.adopt(&[2], 2);
        let names: Vec<_> = r
            .snapshot()
            .iter()
            .map(|e| e.matching().name.clone())
            .collect();
        assert_eq!(names, ["early", "c1", "late", "c3"]);
        assert!(r.late_tokens().is_empty());
    }

    #[test]
    fn nested_context() {
        with_load_context(5, || {
            with_load_context(6, || assert_eq!(current_load_context(), Some(6)));
            assert_eq!(current_load_context(), Some(5));
        });
        assert_eq!(current_load_context(), None);
    }
}
