//! Matching rules (rdma-core init.c) and the lazy-loading equivalence.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::sync::Arc;

use ibverbs::provider::config::{Origin, ProviderList, ProviderName};
use ibverbs::provider::matcher::{
    Device, Hooks, Loaded, MatchKind, MatchRef, MatchState, Provider, ProviderMatch,
    match_driver_id, match_name, table_match, try_drivers,
};
use ibverbs::provider::registry::{DriverEntry, Registry, with_load_context};
use ibverbs::provider::session::{Known, NameHints, Plan, match_devices, match_devices_with};

fn prov(name: &str, table: Option<Vec<MatchKind>>) -> ProviderMatch {
    ProviderMatch {
        name: name.into(),
        min_abi: 1,
        max_abi: 1,
        table,
        has_match_device: false,
    }
}

fn dev(name: &str, driver_id: Option<u32>, modalias: Option<&str>) -> Device {
    Device {
        ibdev_name: name.as_bytes().to_vec(),
        ibdev_path: format!("/sys/class/infiniband/{name}").into_bytes(),
        driver_id,
        modalias: modalias.map(|m| m.as_bytes().to_vec()),
        abi_ver: 1,
        read_modalias: None,
    }
}

const MLX5_MODALIAS: &str = "pci:v000015B3d00001017sv000015B3sd00000020bc02sc00i00";

/// Hooks with scripted answers and a trace of every call.
#[derive(Default)]
struct Script {
    /// token -> answer of match_device
    callback: HashMap<usize, bool>,
    /// tokens whose alloc_device fails
    alloc_fails: HashSet<usize>,
    trace: Vec<String>,
    warnings: Vec<String>,
}

impl<P: Provider> Hooks<P> for Script {
    type Out = usize;
    fn match_device(&mut self, p: &P, d: &Device, st: &MatchState) -> bool {
        self.trace.push(format!(
            "cb {} {} {:?}",
            p.token(),
            String::from_utf8_lossy(&d.ibdev_name),
            st.current
        ));
        self.callback.get(&p.token()).copied().unwrap_or(false)
    }
    fn alloc_device(&mut self, p: &P, d: &Device, st: &MatchState) -> Option<usize> {
        self.trace.push(format!(
            "alloc {} {} {:?}",
            p.token(),
            String::from_utf8_lossy(&d.ibdev_name),
            st.current
        ));
        (!self.alloc_fails.contains(&p.token())).then_some(p.token())
    }
    fn warn(&mut self, text: Vec<u8>) {
        self.warnings
            .push(String::from_utf8_lossy(&text).into_owned());
    }
}

fn winner(
    list: &[(usize, ProviderMatch)],
    d: &Device,
    h: &mut Script,
) -> (Option<usize>, MatchState) {
    let mut st = MatchState::default();
    let r = try_drivers(d, &mut st, &mut Loaded(list), h).map(|(p, _)| p.0);
    (r, st)
}

#[test]
fn entry_precedence_within_a_provider() {
    let p = prov(
        "p",
        Some(vec![
            MatchKind::Pci {
                vendor: 0x15b3,
                device: 0x1017,
            },
            MatchKind::name("mlx5"),
            MatchKind::DriverId(7),
        ]),
    );
    let mut st = MatchState::default();
    // Driver id first, even though it is the last entry.
    assert_eq!(
        table_match(&p, &dev("mlx5_0", Some(7), Some(MLX5_MODALIAS)), &mut st),
        Some(2)
    );
    // Then the name, before the modalias.
    let mut st = MatchState::default();
    assert_eq!(
        table_match(&p, &dev("mlx5_0", Some(8), Some(MLX5_MODALIAS)), &mut st),
        Some(1)
    );
    assert!(!st.modalias_read, "name matched, modalias not needed");
    // Then the modalias, through the PCI entry.
    let mut st = MatchState::default();
    assert_eq!(
        table_match(&p, &dev("other0", None, Some(MLX5_MODALIAS)), &mut st),
        Some(0)
    );
    assert!(st.modalias_read);
    // Unknown id (0) does not match DriverId(0).
    let z = prov("z", Some(vec![MatchKind::DriverId(0)]));
    assert_eq!(match_driver_id(&z, &dev("x", Some(0), None)), None);
    // 64-bit table ids are compared whole.
    let big = prov("b", Some(vec![MatchKind::DriverId((1 << 32) | 5)]));
    assert_eq!(match_driver_id(&big, &dev("x", Some(5), None)), None);
    // Unknown kinds never match and do not stop the scan.
    let o = prov("o", Some(vec![MatchKind::Other(9), MatchKind::name("x")]));
    assert_eq!(
        table_match(&o, &dev("x0", None, None), &mut MatchState::default()),
        Some(1)
    );
    // A PCI entry never matches the name string.
    assert_eq!(
        MatchKind::pci_pattern(0x15b3, 0x1017),
        "pci:v000015B3d00001017sv*"
    );
    // Names too long for rdma-core's 100-byte buffer never match by name.
    let long = "x".repeat(87);
    let any = prov(
        "any",
        Some(vec![MatchKind::Modalias(b"rdma_device:*".to_vec())]),
    );
    assert_eq!(
        table_match(
            &any,
            &dev(&long[..86], None, None),
            &mut MatchState::default()
        ),
        Some(0)
    );
    assert_eq!(
        table_match(&any, &dev(&long, None, None), &mut MatchState::default()),
        None
    );
}

#[test]
fn driver_id_pass_beats_list_order() {
    let a = (
        1,
        prov(
            "a",
            Some(vec![MatchKind::Pci {
                vendor: 0x15b3,
                device: 0x1017,
            }]),
        ),
    );
    let b = (2, prov("b", Some(vec![MatchKind::DriverId(4)])));
    let list = vec![a, b];
    let mut h = Script::default();
    // Known driver id: b wins in pass 1 although a is first and matches by modalias.
    assert_eq!(
        winner(&list, &dev("m0", Some(4), Some(MLX5_MODALIAS)), &mut h).0,
        Some(2)
    );
    // Unknown driver id: pass 2 only, list order.
    assert_eq!(
        winner(&list, &dev("m0", None, Some(MLX5_MODALIAS)), &mut h).0,
        Some(1)
    );
    // Pass-1 winner fails to allocate: pass 2 runs from the top.
    h.alloc_fails.insert(2);
    h.trace.clear();
    assert_eq!(
        winner(&list, &dev("m0", Some(4), Some(MLX5_MODALIAS)), &mut h).0,
        Some(1)
    );
    assert_eq!(
        h.trace,
        [
            "alloc 2 m0 Some(MatchRef { provider: 2, entry: 0 })",
            "alloc 1 m0 Some(MatchRef { provider: 1, entry: 0 })",
        ]
    );
}

#[test]
fn abi_range_and_callbacks() {
    let mut a = prov("a", Some(vec![MatchKind::name("dev")]));
    a.min_abi = 2;
    a.max_abi = 3;
    let mut b = prov("b", None);
    b.has_match_device = true;
    let list = vec![(1, a), (2, b)];
    let mut h = Script::default();
    h.callback.insert(2, true);
    let (w, st) = winner(&list, &dev("dev0", None, None), &mut h);
    assert_eq!(w, Some(2));
    assert_eq!(
        h.warnings,
        [
            "Warning: Driver a does not support the kernel ABI of 1 (supports 2 to 3) for device /sys/class/infiniband/dev0"
        ]
    );
    // b has no table: it saw (and keeps) a's stale match, as rdma-core's sysfs_dev->match.
    assert_eq!(
        st.current,
        Some(MatchRef {
            provider: 1,
            entry: 0
        })
    );
    assert_eq!(
        h.trace[0],
        "cb 2 dev0 Some(MatchRef { provider: 1, entry: 0 })"
    );
    // A callback can veto a table match.
    let mut c = prov("c", Some(vec![MatchKind::name("dev")]));
    c.has_match_device = true;
    let mut h = Script::default();
    h.callback.insert(3, false);
    assert_eq!(winner(&[(3, c)], &dev("dev0", None, None), &mut h).0, None);
}

#[test]
fn stale_match_lets_a_tableless_provider_win() {
    // a's table matches but its ABI range rejects the device; b has neither table nor callback,
    // so rdma-core's "must have a table match" test sees a's leftover match and accepts.
    let mut a = prov("a", Some(vec![MatchKind::name("dev")]));
    a.min_abi = 9;
    a.max_abi = 9;
    let list = vec![(1, a), (2, prov("b", None))];
    let mut h = Script::default();
    assert_eq!(winner(&list, &dev("dev0", None, None), &mut h).0, Some(2));
    // Without the leftover, b matches nothing.
    assert_eq!(winner(&list[1..], &dev("dev0", None, None), &mut h).0, None);
}

#[test]
fn unreadable_modalias_quirk() {
    let star = || prov("s", Some(vec![MatchKind::Modalias(b"*".to_vec())]));
    let d = dev("x0", None, None);
    let mut h = Script::default();
    // rdma_device:Nx0 matches "*" by name already; use a pattern that only "" matches instead.
    let empty_only = || prov("e", Some(vec![MatchKind::Modalias(b"".to_vec())]));
    // First provider: the failed read matches nothing. Second: patterns are tried against "".
    assert_eq!(
        winner(&[(1, empty_only()), (2, empty_only())], &d, &mut h).0,
        Some(2)
    );
    assert_eq!(winner(&[(1, empty_only())], &d, &mut h).0, None);
    assert_eq!(winner(&[(1, star())], &d, &mut h).0, Some(1));
}

// ---------------------------------------------------------------------------------------------
// Lazy loading gives rdma-core's answers: random worlds, rdma-core's eager algorithm vs ours.

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
}

struct World {
    /// Provider libraries: their providers as (token, match info); every provider of library l
    /// registers under the name "lib{l}".
    libs: Vec<Vec<(usize, ProviderMatch)>>,
    /// Config names: which library each opens (None = dlopen fails).
    names: Vec<Option<usize>>,
    /// Per config name: the earlier position holding the same name, if any.
    first: Vec<Option<usize>>,
    /// Libraries linked into the application.
    early: Vec<usize>,
    /// Rounds: (library the application dlopens before the round, new devices).
    rounds: Vec<(Option<usize>, Vec<Device>)>,
    callback: HashMap<usize, bool>,
    alloc_fails: HashSet<usize>,
}

fn random_kind(rng: &mut Rng) -> MatchKind {
    match rng.below(8) {
        0 | 1 => MatchKind::DriverId(1 + rng.below(3) as u64),
        2 => MatchKind::Pci {
            vendor: 0x15b3,
            device: 0x1017,
        },
        3 => MatchKind::Pci {
            vendor: 0x8086,
            device: 0x1572,
        },
        4 => MatchKind::name(["rxe", "mlx5", "siw"][rng.below(3)]),
        5 => MatchKind::Modalias(b"vmbus:*".to_vec()),
        6 => MatchKind::Modalias(if rng.chance(50) {
            b"".to_vec()
        } else {
            b"*".to_vec()
        }),
        _ => MatchKind::Other(9),
    }
}

fn random_world(rng: &mut Rng) -> World {
    let kinds = random_kind;
    let mut token = 100;
    let mut callback = HashMap::new();
    let mut alloc_fails = HashSet::new();
    let libs: Vec<Vec<(usize, ProviderMatch)>> = (0..1 + rng.below(6))
        .map(|l| {
            (0..rng.below(3))
                .map(|_| {
                    token += 1;
                    let table =
                        (!rng.chance(10)).then(|| (0..rng.below(4)).map(|_| kinds(rng)).collect());
                    let has_cb = rng.chance(20);
                    if has_cb {
                        callback.insert(token, rng.chance(60));
                    }
                    if rng.chance(15) {
                        alloc_fails.insert(token);
                    }
                    let min = rng.below(2) as u32;
                    let pm = ProviderMatch {
                        name: format!("lib{l}"),
                        min_abi: min,
                        max_abi: min + rng.below(3) as u32,
                        table,
                        has_match_device: has_cb,
                    };
                    (token, pm)
                })
                .collect()
        })
        .collect();
    let nl = libs.len();
    let mut names: Vec<Option<usize>> = Vec::new();
    let mut first: Vec<Option<usize>> = Vec::new();
    for _ in 0..rng.below(9) {
        if !names.is_empty() && rng.chance(10) {
            let i = rng.below(names.len());
            let i = first[i].unwrap_or(i);
            names.push(names[i]);
            first.push(Some(i));
        } else {
            names.push((!rng.chance(20)).then(|| rng.below(nl)));
            first.push(None);
        }
    }
    let early = (0..nl).filter(|_| rng.chance(15)).collect();
    let mut devno = 0;
    let rounds = (0..1 + rng.below(3))
        .map(|_| {
            let app = rng.chance(30).then(|| rng.below(nl));
            let devs = (0..rng.below(5))
                .map(|_| {
                    devno += 1;
                    let base = ["mlx5_", "rxe", "siw", "hns_"][rng.below(4)];
                    Device {
                        ibdev_name: format!("{base}{devno}").into_bytes(),
                        ibdev_path: format!("/sys/class/infiniband/dev{devno}").into_bytes(),
                        driver_id: [None, Some(0), Some(1), Some(2), Some(3)][rng.below(5)],
                        modalias: [
                            None,
                            Some(MLX5_MODALIAS),
                            Some("pci:v00008086d00001572sv0"),
                            Some("vmbus:ab"),
                        ][rng.below(4)]
                        .map(|s| s.as_bytes().to_vec()),
                        abi_ver: 1 + rng.below(2) as u32,
                        read_modalias: None,
                    }
                })
                .collect();
            (app, devs)
        })
        .collect();
    World {
        libs,
        names,
        first,
        early,
        rounds,
        callback,
        alloc_fails,
    }
}

type Outcome = (Vec<Vec<Option<usize>>>, Vec<String>, Vec<String>);

/// rdma-core's algorithm: registration-ordered list, load every name once when needed.
fn eager(w: &World) -> Outcome {
    let mut list: Vec<(usize, ProviderMatch)> = Vec::new();
    let mut loaded: HashSet<usize> = HashSet::new();
    let load = |l: usize, list: &mut Vec<(usize, ProviderMatch)>, loaded: &mut HashSet<usize>| {
        if loaded.insert(l) {
            list.extend(w.libs[l].iter().cloned());
        }
    };
    for &l in &w.early {
        load(l, &mut list, &mut loaded);
    }
    let mut drivers_loaded = false;
    let mut h = Script {
        callback: w.callback.clone(),
        alloc_fails: w.alloc_fails.clone(),
        ..Default::default()
    };
    let mut results = Vec::new();
    for (app, devs) in &w.rounds {
        if let Some(l) = app {
            load(*l, &mut list, &mut loaded);
        }
        let mut states = vec![MatchState::default(); devs.len()];
        let mut res: Vec<Option<usize>> = vec![None; devs.len()];
        for (i, d) in devs.iter().enumerate() {
            res[i] = try_drivers(d, &mut states[i], &mut Loaded(&list), &mut h).map(|(p, _)| p.0);
        }
        if res.iter().any(Option::is_none) && !drivers_loaded {
            for n in w.names.iter().flatten() {
                load(*n, &mut list, &mut loaded);
            }
            drivers_loaded = true;
            for (i, d) in devs.iter().enumerate() {
                if res[i].is_none() {
                    res[i] = try_drivers(d, &mut states[i], &mut Loaded(&list), &mut h)
                        .map(|(p, _)| p.0);
                }
            }
        }
        results.push(res);
    }
    (results, h.trace, h.warnings)
}

/// Known names: what a name's library registers, described by a superset of its tables (the
/// `Known` contract: the library opens, registers at least one provider, every one with a table,
/// no callback, all under one name).
#[derive(Clone)]
struct TestKnown {
    ops_name: String,
    envelope: ProviderMatch,
}

impl Known for TestKnown {
    fn ops_name(&self) -> &str {
        &self.ops_name
    }
    fn may_claim_id(&self, id: u32) -> bool {
        self.envelope
            .table
            .iter()
            .flatten()
            .any(|k| *k == MatchKind::DriverId(id as u64))
    }
    fn may_match(&self, dev: &Device) -> bool {
        let table = self.envelope.table.iter().flatten();
        dev.known_driver_id()
            .is_some_and(|id| self.may_claim_id(id))
            || match_name(&self.envelope, dev).is_some()
            || table
                .clone()
                .any(|k| k.matches_modalias(dev.modalias.as_deref().unwrap_or(b"")))
    }
}

/// Random static knowledge: for a random share of the names whose library fits the contract, a
/// correct answer (its tables plus random extra entries).
struct RandomKnown(Vec<Option<TestKnown>>);

impl RandomKnown {
    fn new(
        w: &World,
        rng: &mut Rng,
        pct_known: usize,
        kinds: impl Fn(&mut Rng) -> MatchKind,
    ) -> RandomKnown {
        let mut v: Vec<Option<TestKnown>> = Vec::new();
        for (pos, n) in w.names.iter().enumerate() {
            if let Some(i) = w.first[pos] {
                let k = v[i].clone();
                v.push(k);
                continue;
            }
            let fits = n.is_some_and(|l| {
                let ps = &w.libs[l];
                !ps.is_empty()
                    && ps.iter().all(|(t, pm)| {
                        pm.table.is_some() && !pm.has_match_device && !w.callback.contains_key(t)
                    })
            });
            v.push((fits && rng.chance(pct_known)).then(|| {
                let l = n.unwrap();
                let mut table: Vec<MatchKind> = w.libs[l]
                    .iter()
                    .flat_map(|(_, pm)| pm.table.iter().flatten().cloned())
                    .collect();
                for _ in 0..rng.below(3) {
                    table.push(kinds(rng));
                }
                TestKnown {
                    ops_name: format!("lib{l}"),
                    envelope: ProviderMatch {
                        table: Some(table),
                        ..prov("", None)
                    },
                }
            }));
        }
        RandomKnown(v)
    }
}

impl NameHints for RandomKnown {
    fn known(&mut self, pos: usize, _: &ProviderName) -> Option<&dyn Known> {
        self.0[pos].as_ref().map(|k| k as &dyn Known)
    }
}

/// Ours: registry + plan + session, with a fake dlopen that registers under the load context.
fn lazy(w: &World) -> (Outcome, usize) {
    lazy_with(w, &mut RandomKnown(vec![None; w.names.len()]))
}

fn lazy_with(w: &World, hints: &mut RandomKnown) -> (Outcome, usize) {
    let reg = Registry::new();
    let plan = Plan::new();
    let loaded: RefCell<HashSet<usize>> = RefCell::new(HashSet::new());
    let token_lib: HashMap<usize, usize> = w
        .libs
        .iter()
        .enumerate()
        .flat_map(|(l, ps)| ps.iter().map(move |(t, _)| (*t, l)))
        .collect();
    let load = |l: usize| {
        if loaded.borrow_mut().insert(l) {
            for (t, pm) in &w.libs[l] {
                reg.register(*t, 34, pm.clone());
            }
        }
    };
    for &l in &w.early {
        load(l);
    }
    let mut opens = 0;
    let mut open = |pos: usize, _: &ProviderName| {
        opens += 1;
        if let Some(l) = w.names[pos] {
            with_load_context(pos, || load(l));
            let mine: Vec<usize> = reg
                .movable_tokens(pos)
                .into_iter()
                .filter(|t| token_lib[t] == l)
                .collect();
            reg.adopt(&mine, pos);
        }
    };
    let list = || ProviderList {
        names: (0..w.names.len())
            .map(|i| ProviderName {
                name: OsString::from(format!("n{}", w.first[i].unwrap_or(i))),
                origin: Origin::Env {
                    var: "RDMAV_DRIVERS",
                    index: i,
                },
                first: w.first[i],
            })
            .collect(),
        diagnostics: vec![],
    };
    let mut h = Script {
        callback: w.callback.clone(),
        alloc_fails: w.alloc_fails.clone(),
        ..Default::default()
    };
    let mut results = Vec::new();
    for (app, devs) in &w.rounds {
        if let Some(l) = app {
            load(*l);
        }
        let mut states = vec![MatchState::default(); devs.len()];
        let res: Vec<Option<(Arc<DriverEntry>, usize)>> = match_devices_with(
            devs,
            &mut states,
            &reg,
            &plan,
            list,
            &mut open,
            hints,
            &mut h,
        );
        results.push(res.into_iter().map(|r| r.map(|(p, _)| p.token)).collect());
    }
    ((results, h.trace, h.warnings), opens)
}

#[test]
fn lazy_loading_matches_rdma_core() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut saved, mut total) = (0, 0);
    for case in 0..20_000 {
        let w = random_world(&mut rng);
        let want = eager(&w);
        let (got, opens) = lazy(&w);
        assert_eq!(got.0, want.0, "case {case}: winners");
        assert_eq!(got.1, want.1, "case {case}: provider calls");
        assert_eq!(got.2, want.2, "case {case}: warnings");
        assert!(opens <= w.names.len());
        total += w.names.len();
        saved += w.names.len() - opens;
    }
    assert!(
        saved > total / 10,
        "lazy loading should skip some dlopens ({saved} of {total})"
    );
}

#[test]
fn known_names_match_rdma_core() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut opens_plain, mut opens_known) = (0, 0);
    for case in 0..20_000 {
        let w = random_world(&mut rng);
        let mut known = RandomKnown::new(&w, &mut rng, [0, 50, 90, 100][case % 4], random_kind);
        let want = eager(&w);
        let (got, opens) = lazy_with(&w, &mut known);
        assert_eq!(got.0, want.0, "case {case}: winners");
        assert_eq!(got.1, want.1, "case {case}: provider calls");
        assert_eq!(got.2, want.2, "case {case}: warnings");
        opens_known += opens;
        opens_plain += lazy(&w).1;
    }
    assert!(
        opens_known < opens_plain,
        "known names should save dlopens ({opens_known} vs {opens_plain})"
    );
}

/// A world of `n` names, name i opening a library whose one provider claims driver id i + 1.
fn id_provider(i: usize) -> ProviderMatch {
    ProviderMatch {
        name: format!("p{i}"),
        min_abi: 1,
        max_abi: 1,
        table: Some(vec![MatchKind::DriverId(i as u64 + 1)]),
        has_match_device: false,
    }
}

fn id_names(n: usize) -> ProviderList {
    ProviderList {
        names: (0..n)
            .map(|i| ProviderName {
                name: OsString::from(format!("n{i}")),
                origin: Origin::Env {
                    var: "RDMAV_DRIVERS",
                    index: i,
                },
                first: None,
            })
            .collect(),
        diagnostics: vec![],
    }
}

#[test]
fn concurrent_rounds_load_each_name_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    const N: usize = 6;
    let reg = Arc::new(Registry::new());
    let plan = Arc::new(Plan::new());
    let opens: Arc<Vec<AtomicUsize>> = Arc::new((0..N).map(|_| AtomicUsize::new(0)).collect());
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let (reg, plan, opens) = (reg.clone(), plan.clone(), opens.clone());
            std::thread::spawn(move || {
                let mut open = |pos: usize, _: &ProviderName| {
                    opens[pos].fetch_add(1, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(3));
                    with_load_context(pos, || reg.register(1000 + pos, 34, id_provider(pos)));
                };
                let ids: Vec<u32> = (0..3).map(|k| ((t * 3 + k) % N) as u32 + 1).collect();
                let devs: Vec<Device> = ids
                    .iter()
                    .map(|id| dev(&format!("d{t}_{id}"), Some(*id), None))
                    .collect();
                let mut states = vec![MatchState::default(); devs.len()];
                let mut h = Script::default();
                let r = match_devices(
                    &devs,
                    &mut states,
                    &reg,
                    &plan,
                    || id_names(N),
                    &mut open,
                    &mut h,
                );
                let got: Vec<_> = r.iter().map(|w| w.as_ref().map(|(p, _)| p.token)).collect();
                let want: Vec<_> = ids.iter().map(|id| Some(1000 + *id as usize - 1)).collect();
                assert_eq!(got, want);
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    for (i, o) in opens.iter().enumerate() {
        assert!(o.load(Ordering::SeqCst) <= 1, "name {i} opened twice");
    }
}

#[test]
fn discovery_from_inside_a_load_does_not_wait_for_itself() {
    let reg = Registry::new();
    let plan = Plan::new();
    let nested = RefCell::new(None);
    let mut open = |pos: usize, _: &ProviderName| {
        with_load_context(pos, || {
            reg.register(1000 + pos, 34, id_provider(pos));
            // A constructor that enumerates devices: sees only what is registered so far.
            let devs = [dev("inner", Some(3), None)];
            let mut states = [MatchState::default()];
            let mut inner_open = |_: usize, _: &ProviderName| panic!("nested load");
            let r = match_devices(
                &devs,
                &mut states,
                &reg,
                &plan,
                || id_names(4),
                &mut inner_open,
                &mut Script::default(),
            );
            if nested.borrow().is_none() {
                *nested.borrow_mut() = Some(r[0].as_ref().map(|(p, _)| p.token));
            }
        });
    };
    let devs = [dev("outer", Some(3), None)];
    let mut states = [MatchState::default()];
    let r = match_devices(
        &devs,
        &mut states,
        &reg,
        &plan,
        || id_names(4),
        &mut open,
        &mut Script::default(),
    );
    assert_eq!(r[0].as_ref().map(|(p, _)| p.token), Some(1002));
    assert_eq!(*nested.borrow(), Some(None));
}
