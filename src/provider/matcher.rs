//! Which registered provider gets a device (rdma-core: init.c `match_modalias`,
//! `match_modalias_device`, `match_name`, `match_driver_id`, `match_device`, `try_driver`,
//! `try_drivers`; driver.h `struct verbs_match_ent` and the `VERBS_*_MATCH` macros; unchanged
//! from v44 to v65), on plain Rust data, plus the lazy-loading walk that reproduces its result.
//!
//! # rdma-core's rules
//! A provider has an optional match table (entries: `DriverId(id)`, `Pci{vendor,device}`,
//! `Modalias(pattern)`; `VERBS_NAME_MATCH("rxe")` is the modalias pattern `rdma_device:*Nrxe*`),
//! an optional `match_device` callback and a kernel ABI range. For one provider and one device:
//! 1. If the table exists, the device's current match (`sysfs_dev->match`) becomes the first entry
//!    found by, in this order: (a) `DriverId` equal to the device's netlink driver id (skipped when
//!    that is 0 = RDMA_DRIVER_UNKNOWN); (b) any entry whose pattern matches `rdma_device:N<ibdev>`
//!    (a PCI entry becomes the pattern `pci:v%08Xd%08Xsv*`, so it never matches this);
//!    (c) any entry whose pattern matches the device's modalias. Without a table the current match
//!    is *left as the previous provider set it* (a quirk we keep: [`MatchState::current`]).
//! 2. With a callback, the callback alone decides (it sees the current match); without one, the
//!    current match must be set.
//! 3. The device's kernel ABI must be within the provider's range, else a warning and no match.
//! 4. `alloc_device` must succeed, else try the next provider.
//!
//! Modalias quirk: the modalias is read on the first evaluation of (c) for a device. If it cannot
//! be read, that first evaluation matches nothing, and later ones match patterns against "".
//!
//! Over the provider list (registration order), `try_drivers` makes two passes: first, when the
//! device has a driver id, only providers with a `DriverId` entry equal to it are tried (steps 1-4);
//! then every provider is tried in order. The first success wins. Passes never consult "how good"
//! a match is beyond this, so with two providers matching one device, list order decides.
//!
//! # Loading only what is needed, with the same result
//! rdma-core, on the first `ibv_get_device_list` that finds a device no registered provider takes,
//! dlopens *every* configured name (once per process), then retries the remaining devices over
//! the whole list `E = R0 ++ R(n1) ++ … ++ R(nk) ++ Late`, where R0 = providers registered before
//! that moment (linked into the application), R(ni) = providers whose constructors ran during the
//! dlopen of name i, Late = registered later. We instead keep the unloaded names as a *hole* in E
//! at their position and [`try_drivers`] walks E in order, loading the next name whenever the walk
//! reaches the hole.
//!
//! Claim: for every device the winner, and the sequence of `match_device`/`alloc_device` calls, are
//! those of rdma-core. Sketch:
//! - A pass is "first provider in E order for which steps 1-4 succeed (restricted to driver-id
//!   matches in pass 1)". Our walk visits the same providers in the same order; entries before the
//!   hole never move (a load only inserts at the hole; Late entries stay after it), so a walk that
//!   stops at a success before the hole has seen exactly rdma-core's prefix of E.
//! - A walk that reaches the hole loads the next name and continues at the same index, so it sees
//!   E as rdma-core would have had it. A pass-1 walk that fails has loaded every name it could
//!   not skip (below); so has a pass-2 walk that fails. Pass 2 is only run after pass 1 failed
//!   over all of E, exactly as in rdma-core — hence a device with a driver id that its provider
//!   claims only by name, modalias or callback makes every name that might claim that id load.
//! - Per-device state (modalias read, current match) evolves by the same evaluations in the same
//!   order, so the quirks above give the same answers.
//! - At the moment rdma-core would load everything, we first try all devices over R0 alone
//!   (rdma-core's first round), and retry the failures over E from the start, as it does.
//! - Late: a provider the application loads itself after that moment lands after the hole. If one
//!   of our later dlopens returns that same object, its entries move to that name's position (the
//!   loader checks by link map), which is where rdma-core — having loaded it first — had them.
//!
//! - Names known without loading (`session::NameHints`, fed by `known`): a walk may leave an
//!   unloaded name unloaded when loading it cannot change what the walk sees. In pass 1, a name
//!   known to register no provider with a `DriverId` equal to the device's id contributes
//!   nothing (`match_driver_id` is pure and is checked before anything else), so the walk skips
//!   it. In pass 2, a name known to register providers that all have a table, no callback, and a
//!   table that cannot match the device would, in rdma-core, only run steps 1-2 for each and fail,
//!   leaving the per-device state as "no current match, modalias read"; the walk visits a
//!   *stand-in* at the name's position instead: an entry with an empty table, whose `try_driver`
//!   leaves exactly that state and calls no hook. (So a stand-in is exact even after an earlier
//!   provider matched and failed its ABI check, leaving a current match a table-less provider
//!   further on would accept.) A second copy of a known name is skipped in both passes (rdma-core's
//!   dlopen of it returns the object already loaded, which registers nothing).
//!   Skipped names, once loaded by another walk, are filed at their own position, so later walks
//!   see E's order; if a skipped name later opens an object that an out-of-order load already
//!   opened, the loader moves those entries back to the earlier position (rdma-core, loading in
//!   order, had them there). A walk resumes after the last item it visited by list order, not by
//!   index. Three more rules keep stand-ins exact when one object is reachable under two names or
//!   is already loaded (linked into the application, or opened under another configured name):
//!   a name whose provider name is already registered is loaded, never stood in for; when a load
//!   registers that name, the view puts the hole back at the earlier name, so the walk loads it at
//!   once and the loader moves the entries there before anything after them is visited; and a
//!   known name with the same provider name as an earlier known name is loaded (it may be the
//!   same object, which rdma-core evaluates only once, or another one).
//! - Warnings: rdma-core prints a load failure for every configured name at its load moment.
//!   Names that might fail (no file in the provider directory: `session::NameHints::loads_quietly`)
//!   are loaded at that moment, in order; the others are loaded later or never.
//!   Extra assumptions: a name whose file exists in the provider directory loads without a
//!   warning, and a known name registers what `known` says (see there; a registration that
//!   contradicts it is logged and stops the entry from being used).
//!
//! Assumptions (also rdma-core's own, as it never retries): match tables, callbacks and
//! `alloc_device` give the same answer for the same device; provider files and the config do not
//! change during the process (we dlopen later than rdma-core would); a provider library does not
//! pull in another provider library as a dependency that the application then loads first.
#![forbid(unsafe_code)]

use crate::sys::fnmatch::fnmatch;

/// `RDMA_DRIVER_UNKNOWN`: the netlink driver id of a device whose driver the kernel did not name.
pub const RDMA_DRIVER_UNKNOWN: u32 = 0;

/// `verbs_match_ent.kind` values (driver.h).
pub const VERBS_MATCH_SENTINEL: u8 = 0;
pub const VERBS_MATCH_PCI: u8 = 1;
pub const VERBS_MATCH_MODALIAS: u8 = 2;
pub const VERBS_MATCH_DRIVER_ID: u8 = 3;

/// One entry of a provider's match table (a `verbs_match_ent` other than the sentinel).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchKind {
    /// `VERBS_PCI_MATCH(vendor, device)`.
    Pci { vendor: u16, device: u16 },
    /// `VERBS_MODALIAS_MATCH(pattern)` and `VERBS_NAME_MATCH(prefix)`: an fnmatch pattern.
    Modalias(Vec<u8>),
    /// `VERBS_DRIVER_ID(id)` (a 64-bit field in the table, compared with a 32-bit device id).
    DriverId(u64),
    /// A kind this library does not know: never matches, does not end the table.
    Other(u8),
}

impl MatchKind {
    /// The entry `VERBS_NAME_MATCH(prefix)` builds.
    pub fn name(prefix: &str) -> MatchKind {
        MatchKind::Modalias(format!("rdma_device:*N{prefix}*").into_bytes())
    }

    /// The modalias pattern rdma-core builds for a PCI entry.
    pub fn pci_pattern(vendor: u16, device: u16) -> String {
        format!("pci:v{:08X}d{:08X}sv*", vendor, device)
    }

    /// Whether this entry's pattern matches `value` (`match_modalias`; DriverId never does).
    pub fn matches_modalias(&self, value: &[u8]) -> bool {
        match self {
            MatchKind::Modalias(p) => fnmatch(p, value),
            MatchKind::Pci { vendor, device } => {
                fnmatch(Self::pci_pattern(*vendor, *device).as_bytes(), value)
            }
            MatchKind::DriverId(_) | MatchKind::Other(_) => false,
        }
    }
}

/// What the library knows about a provider for matching (`verbs_device_ops` minus the code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderMatch {
    pub name: String,
    pub min_abi: u32,
    pub max_abi: u32,
    /// None when `match_table` is NULL; entries up to (not including) the sentinel.
    pub table: Option<Vec<MatchKind>>,
    /// `match_device` is non-NULL.
    pub has_match_device: bool,
}

/// A device as discovered (the matching-relevant part of `verbs_sysfs_dev`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Device {
    /// `ibdev_name`, e.g. "mlx5_0".
    pub ibdev_name: Vec<u8>,
    /// `ibdev_path` (bytes, as the C string holds them): the ABI warning names it.
    pub ibdev_path: Vec<u8>,
    /// Netlink driver id; None and Some(0) both mean unknown.
    pub driver_id: Option<u32>,
    /// Contents of `device/modalias` if it could be read (non-empty), without the newline, when
    /// known up front; else see `read_modalias`.
    pub modalias: Option<Vec<u8>>,
    /// The uverbs ABI version of the device.
    pub abi_ver: u32,
    /// How to read the modalias when a match first needs it (rdma-core reads it lazily), given
    /// `ibdev_path`; used when `modalias` is None.
    pub read_modalias: Option<ReadModalias>,
}

impl Device {
    /// The driver id, unless unknown.
    pub fn known_driver_id(&self) -> Option<u32> {
        self.driver_id.filter(|id| *id != RDMA_DRIVER_UNKNOWN)
    }

    /// The modalias (non-empty) if it can be read: given, or read now, once.
    pub fn modalias(&self) -> Option<&[u8]> {
        if let Some(m) = &self.modalias {
            return Some(m);
        }
        let r = self.read_modalias.as_ref()?;
        r.value
            .get_or_init(|| (r.read)(&self.ibdev_path))
            .as_deref()
    }
}

/// A modalias read on first use: the reader and, once read, its answer.
#[derive(Clone)]
pub struct ReadModalias {
    read: fn(&[u8]) -> Option<Vec<u8>>,
    value: std::cell::OnceCell<Option<Vec<u8>>>,
}

impl ReadModalias {
    pub fn new(read: fn(&[u8]) -> Option<Vec<u8>>) -> ReadModalias {
        ReadModalias {
            read,
            value: std::cell::OnceCell::new(),
        }
    }
}

impl std::fmt::Debug for ReadModalias {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadModalias")
            .field("value", &self.value.get())
            .finish()
    }
}

/// Readers compare equal: what a device is does not depend on when its modalias is read.
impl PartialEq for ReadModalias {
    fn eq(&self, _: &ReadModalias) -> bool {
        true
    }
}

impl Eq for ReadModalias {}

/// Which table entry of which provider (`sysfs_dev->match`); `provider` is that provider's token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchRef {
    pub provider: usize,
    pub entry: usize,
}

/// Per-device matching state that rdma-core keeps in `verbs_sysfs_dev`. Keep one per device for
/// the device's whole discovery and pass the same one to every call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchState {
    /// VSYSFS_READ_MODALIAS: the modalias has been looked at once.
    pub modalias_read: bool,
    /// `sysfs_dev->match` as the last table evaluation left it.
    pub current: Option<MatchRef>,
}

impl MatchState {
    /// The modalias string rdma-core holds now: None before the first read, "" after a failed one.
    pub fn modalias<'a>(&self, dev: &'a Device) -> Option<&'a [u8]> {
        if !self.modalias_read {
            None
        } else {
            Some(dev.modalias().unwrap_or(b""))
        }
    }
}

/// A provider as the walk sees it.
pub trait Provider {
    /// Stable identity (the glue uses the `verbs_device_ops` address).
    fn token(&self) -> usize;
    fn matching(&self) -> &ProviderMatch;
    /// The item's place in list order, when it has a stable one (a walk resumes after the last
    /// item it visited even if entries were inserted before it meanwhile).
    fn order(&self) -> Option<(u64, u64)> {
        None
    }
}

impl Provider for (usize, ProviderMatch) {
    fn token(&self) -> usize {
        self.0
    }
    fn matching(&self) -> &ProviderMatch {
        &self.1
    }
}

/// The parts of `try_driver` that run provider code; the glue implements them.
pub trait Hooks<P> {
    /// What a successful `alloc_device` gives.
    type Out;
    /// Call the provider's `match_device` (only for providers that have one).
    fn match_device(&mut self, provider: &P, dev: &Device, state: &MatchState) -> bool;
    /// `alloc_device` and the rest of `try_driver`; None means "failed, try the next provider".
    fn alloc_device(&mut self, provider: &P, dev: &Device, state: &MatchState)
    -> Option<Self::Out>;
    /// A warning rdma-core prints to stderr (without "libibverbs: " and newline).
    fn warn(&mut self, text: Vec<u8>);
}

/// `match_driver_id`: the first `DriverId` entry equal to the device's known driver id.
pub fn match_driver_id(p: &ProviderMatch, dev: &Device) -> Option<usize> {
    let id = dev.known_driver_id()?;
    p.table
        .as_ref()?
        .iter()
        .position(|k| matches!(k, MatchKind::DriverId(d) if *d == id as u64))
}

/// `match_name`: the first entry matching `rdma_device:N<ibdev_name>`.
pub fn match_name(p: &ProviderMatch, dev: &Device) -> Option<usize> {
    let mut s = b"rdma_device:N".to_vec();
    s.extend_from_slice(&dev.ibdev_name);
    // rdma-core formats into a 100-byte buffer and gives up on truncation.
    if s.len() >= 100 {
        return None;
    }
    p.table
        .as_ref()?
        .iter()
        .position(|k| k.matches_modalias(&s))
}

/// `match_modalias_device`, including the read-once quirk.
pub fn match_modalias(p: &ProviderMatch, dev: &Device, st: &mut MatchState) -> Option<usize> {
    if !st.modalias_read {
        st.modalias_read = true;
        dev.modalias()?;
    }
    let value = st.modalias(dev).unwrap_or(b"");
    p.table
        .as_ref()?
        .iter()
        .position(|k| k.matches_modalias(value))
}

/// Step 1: driver id, then name, then modalias.
pub fn table_match(p: &ProviderMatch, dev: &Device, st: &mut MatchState) -> Option<usize> {
    match_driver_id(p, dev)
        .or_else(|| match_name(p, dev))
        .or_else(|| match_modalias(p, dev, st))
}

/// `try_driver`: steps 1 to 4 for one provider.
pub fn try_driver<P: Provider, H: Hooks<P>>(
    p: &P,
    dev: &Device,
    st: &mut MatchState,
    hooks: &mut H,
) -> Option<H::Out> {
    let m = p.matching();
    if m.table.is_some() {
        st.current = table_match(m, dev, st).map(|entry| MatchRef {
            provider: p.token(),
            entry,
        });
    }
    if m.has_match_device {
        if !hooks.match_device(p, dev, st) {
            return None;
        }
    } else if st.current.is_none() {
        return None;
    }
    if dev.abi_ver < m.min_abi || dev.abi_ver > m.max_abi {
        // The path's bytes as they are (rdma-core prints it with %s).
        let mut text = format!(
            "Warning: Driver {} does not support the kernel ABI of {} (supports {} to {}) for device ",
            m.name, dev.abi_ver, m.min_abi, m.max_abi
        )
        .into_bytes();
        text.extend_from_slice(&dev.ibdev_path);
        hooks.warn(text);
        return None;
    }
    hooks.alloc_device(p, dev, st)
}

/// The provider list as a walk sees it at one moment.
#[derive(Clone, Debug)]
pub struct View<T> {
    /// Providers in rdma-core's order.
    pub items: Vec<T>,
    /// Some(k): names not loaded yet would insert their providers before `items[k]`.
    pub hole: Option<usize>,
}

/// Where [`try_drivers`] gets providers from.
pub trait ProviderSource {
    type Item: Provider;
    /// The list as the walk for `dev` sees it now; `pass1` while the walk is in pass 1. The
    /// source may leave out, or stand in for, unloaded names whose loading cannot change the
    /// walk (see the module header).
    fn view(&mut self, dev: &Device, pass1: bool) -> View<Self::Item>;
    /// Load the name at the hole of `view(dev, pass1)`. False when nothing more can be loaded;
    /// the walk then treats the hole as closed.
    fn load_next(&mut self, dev: &Device, pass1: bool) -> bool;
}

/// A fixed list: everything is loaded.
pub struct Loaded<'a, P>(pub &'a [P]);

impl<P: Provider + Clone> ProviderSource for Loaded<'_, P> {
    type Item = P;
    fn view(&mut self, _: &Device, _: bool) -> View<P> {
        View {
            items: self.0.to_vec(),
            hole: None,
        }
    }
    fn load_next(&mut self, _: &Device, _: bool) -> bool {
        false
    }
}

/// First item (in order, loading names when the hole is reached) for which `f` gives Some.
fn walk<S: ProviderSource, R>(
    src: &mut S,
    dev: &Device,
    pass1: bool,
    mut f: impl FnMut(&S::Item) -> Option<R>,
) -> Option<(S::Item, R)> {
    let mut i = 0;
    let mut last: Option<(u64, u64)> = None;
    let mut hole_closed = false;
    loop {
        let View { mut items, hole } = src.view(dev, pass1);
        if let Some(k) = last {
            // Names may have been loaded before us meanwhile (one this pass skipped, by another
            // thread; or one put back before us by the rules in the module header).
            i = items.partition_point(|x| x.order().is_some_and(|o| o <= k));
        }
        let end = if hole_closed {
            items.len()
        } else {
            hole.unwrap_or(items.len())
        };
        while i < end {
            if let Some(r) = f(&items[i]) {
                return Some((items.swap_remove(i), r));
            }
            last = items[i].order().or(last);
            i += 1;
        }
        if end == items.len() && (hole.is_none() || hole_closed) {
            return None;
        }
        if !src.load_next(dev, pass1) {
            hole_closed = true;
        }
    }
}

/// `try_drivers`: the two passes over `src`. Returns the winning provider and `alloc_device`'s
/// result.
pub fn try_drivers<S: ProviderSource, H: Hooks<S::Item>>(
    dev: &Device,
    st: &mut MatchState,
    src: &mut S,
    hooks: &mut H,
) -> Option<(S::Item, H::Out)> {
    if dev.known_driver_id().is_some() {
        let won = walk(src, dev, true, |p| {
            match_driver_id(p.matching(), dev)?;
            try_driver(p, dev, st, hooks)
        });
        if won.is_some() {
            return won;
        }
    }
    walk(src, dev, false, |p| try_driver(p, dev, st, hooks))
}
