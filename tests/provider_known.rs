//! The built-in provider table (`provider::known`), the provider-directory check
//! (`provider::hints`), and the walk with them over rdma-core's real provider names: the device
//! list and bindings equal rdma-core's load-everything algorithm, including the fallbacks (an
//! unknown driver id from a netlink reply, a configured name that is not rdma-core's, a name
//! whose file is missing, a name not configured).

use std::cell::RefCell;
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ibverbs::abi::uapi::rdma_driver_id;
use ibverbs::device::{self, nldev::NlTransport};
use ibverbs::errno::Errno;
use ibverbs::provider::config::{Origin, ProviderList, ProviderName};
use ibverbs::provider::hints::StaticHints;
use ibverbs::provider::known::{self, KNOWN};
use ibverbs::provider::loader::DirListing;
use ibverbs::provider::matcher::{
    Device, Hooks, Loaded, MatchKind, MatchState, Provider, ProviderMatch, try_drivers,
};
use ibverbs::provider::registry::{Registry, with_load_context};
use ibverbs::provider::session::{Plan, match_devices_with};

const RXE: u32 = rdma_driver_id::RDMA_DRIVER_RXE as u32;

#[test]
fn driver_id_table() {
    let names = |id: u32| {
        known::claimants(id)
            .map(|k| k.config_name)
            .collect::<Vec<_>>()
    };
    assert_eq!(names(RXE), ["rxe"]);
    assert_eq!(names(rdma_driver_id::RDMA_DRIVER_MLX5 as u32), ["mlx5"]);
    assert_eq!(
        names(rdma_driver_id::RDMA_DRIVER_VMW_PVRDMA as u32),
        ["vmw_pvrdma"]
    );
    assert_eq!(
        names(rdma_driver_id::RDMA_DRIVER_QIB as u32),
        ["ipathverbs"]
    );
    assert_eq!(
        names(rdma_driver_id::RDMA_DRIVER_I40IW as u32),
        ["i40iw", "irdma"]
    );
    // Ids no rdma-core provider claims (mthca and hns match by PCI id only).
    for id in [0, 3, 5, 8, 12, 13, 22, 99] {
        assert!(names(id).is_empty(), "id {id}");
    }
    // Every other id of the kernel enum has exactly one claimant.
    let one = (1..=21).filter(|id| names(*id).len() == 1).count();
    assert_eq!(one, 21 - 6);
    assert_eq!(known::driver_id_name(RXE), Some("RXE"));
    assert_eq!(known::driver_id_name(9), Some("IRDMA"));
    assert_eq!(known::driver_id_name(22), None);
    assert_eq!(
        known::by_config_name(b"vmw_pvrdma").unwrap().ops_name,
        "pvrdma"
    );
    assert!(known::by_config_name(b"/usr/lib/x86_64-linux-gnu/libibverbs/librxe").is_none());
    assert!(known::by_config_name(b"").is_none());
    assert_eq!(KNOWN.len(), 19);
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

#[test]
fn what_a_device_may_be_claimed_by() {
    let may = |d: &Device| {
        KNOWN
            .iter()
            .filter(|k| k.may_match(d))
            .map(|k| k.config_name)
            .collect::<Vec<_>>()
    };
    // By driver id, by name.
    assert_eq!(may(&dev("rxe0", Some(RXE), None)), ["rxe"]);
    assert_eq!(may(&dev("rxe0", None, None)), ["rxe"]);
    assert_eq!(may(&dev("siw0", None, None)), Vec::<&str>::new());
    // By PCI vendor: every provider serving Mellanox devices.
    assert_eq!(
        may(&dev("mlx5_0", None, Some(MLX5_MODALIAS))),
        ["mlx4", "mlx5", "mthca"]
    );
    assert_eq!(
        may(&dev(
            "x",
            None,
            Some("pci:v00008086d00001572sv00008086sd00000000bc02sc00i00")
        )),
        ["hfi1verbs", "i40iw", "irdma"]
    );
    // Modalias patterns.
    assert_eq!(
        may(&dev(
            "x",
            None,
            Some("vmbus:3daf2e8ca732094bab99bd1f1c86b501")
        )),
        ["mlx4"]
    );
    assert_eq!(may(&dev("x", None, Some("acpi:HISI00D1:"))), ["hns"]);
    // A lower-case vendor is not what the kernel writes, and not what rdma-core's pattern matches.
    assert_eq!(
        may(&dev("x", None, Some("pci:v000015b3d00001017sv0"))),
        Vec::<&str>::new()
    );
}

fn pm(name: &str, table: Vec<MatchKind>) -> ProviderMatch {
    ProviderMatch {
        name: name.into(),
        min_abi: 1,
        max_abi: 2,
        table: Some(table),
        has_match_device: false,
    }
}

/// The provider a release of rdma-core registers for a known name: inside the entry's envelope.
fn real_provider(k: &known::KnownProvider) -> ProviderMatch {
    let mut t: Vec<MatchKind> = k
        .driver_ids
        .iter()
        .map(|d| MatchKind::DriverId(*d as u64))
        .collect();
    t.extend(k.names.iter().map(|n| MatchKind::name(n)));
    // Only mlx5 serves the ConnectX-5 id used below.
    let device = if k.ops_name == "mlx5" { 0x1017 } else { 0xfff0 };
    t.extend(
        k.pci_vendors
            .iter()
            .map(|v| MatchKind::Pci { vendor: *v, device }),
    );
    t.extend(
        k.modalias
            .iter()
            .map(|m| MatchKind::Modalias(m.as_bytes().to_vec())),
    );
    pm(k.ops_name, t)
}

#[test]
fn audit_of_registrations() {
    for k in KNOWN {
        assert_eq!(k.uncovered(&real_provider(k)), None, "{}", k.config_name);
    }
    let rxe = known::by_config_name(b"rxe").unwrap();
    assert!(
        rxe.uncovered(&pm("rxe", vec![MatchKind::DriverId(1)]))
            .is_some()
    );
    assert!(
        rxe.uncovered(&pm(
            "rxe",
            vec![MatchKind::Pci {
                vendor: 1,
                device: 2
            }]
        ))
        .is_some()
    );
    assert!(
        rxe.uncovered(&pm("rxe", vec![MatchKind::name("siw")]))
            .is_some()
    );
    let mut cb = pm("rxe", vec![]);
    cb.has_match_device = true;
    assert!(rxe.uncovered(&cb).is_some());
    assert!(
        rxe.uncovered(&ProviderMatch {
            table: None,
            ..pm("rxe", vec![])
        })
        .is_some()
    );
    // A contradiction stops the entry from being used in this process.
    // (i40iw: not used by the other tests of this binary, which run in parallel.)
    let c = known::audit(Some(b"i40iw"), &pm("noti40iw", vec![])).unwrap();
    assert_eq!(c.config_name, "i40iw");
    assert!(known::by_config_name(b"i40iw").is_none());
    assert_eq!(known::audit(Some(b"nosuch"), &pm("nosuch", vec![])), None);
    assert_eq!(known::audit(None, &real_provider(rxe)), None);
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ibverbs-rs-known-{}-{}", std::process::id(), tag));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A provider directory holding `lib<n>-rdmav34.so` for each name (empty files).
fn provider_dir(tag: &str, names: &[&str]) -> PathBuf {
    let d = scratch(tag);
    for n in names {
        std::fs::write(d.join(format!("lib{n}-rdmav34.so")), b"").unwrap();
    }
    d
}

fn pname(n: &str, pos: usize, first: Option<usize>) -> ProviderName {
    ProviderName {
        name: OsString::from(n),
        origin: Origin::File {
            path: PathBuf::from("/etc/libibverbs.d/x.driver"),
            line: pos + 1,
        },
        first,
    }
}

#[test]
fn provider_directory_listing() {
    let d = provider_dir("listing", &["rxe"]);
    std::fs::write(d.join("libsiw-rdmav65.so"), b"").unwrap();
    std::fs::write(d.join("real.so"), b"").unwrap();
    std::os::unix::fs::symlink(d.join("real.so"), d.join("libmlx5-rdmav34.so")).unwrap();
    std::os::unix::fs::symlink(d.join("gone.so"), d.join("libefa-rdmav34.so")).unwrap();
    std::fs::create_dir(d.join("libhns-rdmav34.so")).unwrap();
    std::fs::write(d.join("libmana-rdmav33.so"), b"").unwrap();
    let l = Arc::new(DirListing::read(d.as_os_str()));
    for (n, want) in [
        ("rxe", true),
        ("siw", true),
        ("mlx5", true),
        ("efa", false),
        ("hns", false),
        ("mana", false),
        ("cxgb4", false),
    ] {
        assert_eq!(l.has_provider(n.as_bytes()), want, "{n}");
    }
    use ibverbs::provider::session::NameHints;
    let mut h = StaticHints::with_listing(l.clone());
    let names: Vec<ProviderName> = ["rxe", "efa", "mlx5", "/abs/librxe", "", "mystery"]
        .iter()
        .enumerate()
        .map(|(i, n)| pname(n, i, None))
        .collect();
    let got: Vec<(bool, bool)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (h.known(i, n).is_some(), h.loads_quietly(i, n)))
        .collect();
    assert_eq!(
        got,
        [
            (true, true),
            (false, false),
            (true, true),
            (false, false),
            (false, false),
            (false, false)
        ]
    );
    // An unreadable directory lists as empty: nothing is known.
    let none = DirListing::read(d.join("nope").as_os_str());
    assert!(!none.has_provider(b"rxe"));
    std::fs::remove_dir_all(&d).unwrap();
}

// ---------------------------------------------------------------------------------------------
// rdma-core's real names over a scripted world: one library per name, what it registers, whether
// its file is there. `eager` is rdma-core's algorithm; `ours` is the session with StaticHints.

struct World {
    /// Per configured name: (name, what its library registers; None = its dlopen fails).
    names: Vec<(String, Option<ProviderMatch>)>,
    devices: Vec<Device>,
}

#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    winners: Vec<Option<String>>,
    trace: Vec<String>,
    stderr: Vec<String>,
}

#[derive(Default)]
struct Record {
    trace: Vec<String>,
    stderr: Vec<String>,
}

impl<P: Provider> Hooks<P> for Record {
    type Out = ();
    fn match_device(&mut self, _: &P, _: &Device, _: &MatchState) -> bool {
        unreachable!("no callbacks here")
    }
    fn alloc_device(&mut self, p: &P, d: &Device, st: &MatchState) -> Option<()> {
        let n = String::from_utf8_lossy(&d.ibdev_name).into_owned();
        self.trace.push(format!(
            "alloc {} {n} {:?}",
            p.matching().name,
            st.current.map(|m| m.entry)
        ));
        Some(())
    }
    fn warn(&mut self, text: Vec<u8>) {
        self.stderr
            .push(String::from_utf8_lossy(&text).into_owned());
    }
}

fn load_warning(name: &str) -> String {
    format!("Warning: couldn't load driver 'lib{name}-rdmav34.so'")
}

fn eager(w: &World) -> Outcome {
    let mut list: Vec<(usize, ProviderMatch)> = Vec::new();
    let mut h = Record::default();
    for (i, (n, lib)) in w.names.iter().enumerate() {
        match lib {
            // A name loaded twice registers once.
            Some(p) if !w.names[..i].iter().any(|(m, _)| m == n) => list.push((i, p.clone())),
            Some(_) => {}
            None => h.stderr.push(load_warning(n)),
        }
    }
    let winners = w
        .devices
        .iter()
        .map(|d| {
            let mut st = MatchState::default();
            try_drivers(d, &mut st, &mut Loaded(&list), &mut h).map(|(p, _)| p.1.name)
        })
        .collect();
    Outcome {
        winners,
        trace: h.trace,
        stderr: h.stderr,
    }
}

/// Ours; also returns the names opened.
fn ours(w: &World, dir: &Path) -> (Outcome, Vec<String>) {
    let reg = Registry::new();
    let plan = Plan::new();
    let opened = RefCell::new(Vec::new());
    let h = RefCell::new(Record::default());
    let mut open = |pos: usize, name: &ProviderName| {
        let n = name.name.to_string_lossy().into_owned();
        opened.borrow_mut().push(n.clone());
        match &w.names[pos].1 {
            Some(p) if name.first.is_none() => {
                with_load_context(pos, || reg.register(1000 + pos, 34, p.clone()));
            }
            Some(_) => {}
            None => h.borrow_mut().stderr.push(load_warning(&n)),
        }
    };
    let list = || ProviderList {
        names: w
            .names
            .iter()
            .enumerate()
            .map(|(i, (n, _))| pname(n, i, w.names[..i].iter().position(|(m, _)| m == n)))
            .collect(),
        diagnostics: vec![],
    };
    let mut states = vec![MatchState::default(); w.devices.len()];
    let mut hints = StaticHints::with_listing(Arc::new(DirListing::read(dir.as_os_str())));
    let mut hooks = Record::default();
    let r = match_devices_with(
        &w.devices,
        &mut states,
        &reg,
        &plan,
        list,
        &mut open,
        &mut hints,
        &mut hooks,
    );
    // Keep the two sources of stderr in the order they happened: loads (at the load moment) come
    // before any matching warning in these worlds.
    let mut stderr = std::mem::take(&mut h.borrow_mut().stderr);
    stderr.extend(hooks.stderr);
    let winners = r
        .into_iter()
        .map(|x| x.map(|(p, _)| p.matching().name.clone()))
        .collect();
    (
        Outcome {
            winners,
            trace: hooks.trace,
            stderr,
        },
        opened.into_inner(),
    )
}

/// Debian 12's /etc/libibverbs.d in the order this machine's readdir gave it to rdma-core.
const DEBIAN: &[&str] = &[
    "vmw_pvrdma",
    "siw",
    "qedr",
    "ocrdma",
    "mthca",
    "mlx5",
    "mlx4",
    "mana",
    "irdma",
    "ipathverbs",
    "hns",
    "hfi1verbs",
    "erdma",
    "efa",
    "cxgb4",
    "bnxt_re",
    "rxe",
];

fn debian_world(devices: Vec<Device>) -> World {
    World {
        names: DEBIAN
            .iter()
            .map(|n| {
                (
                    n.to_string(),
                    Some(real_provider(known::by_config_name(n.as_bytes()).unwrap())),
                )
            })
            .collect(),
        devices,
    }
}

/// Ours against rdma-core's algorithm; the names ours opened.
fn check(tag: &str, w: &World, present: &[&str]) -> Vec<String> {
    check_winners(tag, w, present).1
}

/// The same, also giving the winners.
fn check_winners(tag: &str, w: &World, present: &[&str]) -> (Vec<Option<String>>, Vec<String>) {
    let d = provider_dir(tag, present);
    let want = eager(w);
    let (got, opened) = ours(w, &d);
    assert_eq!(got, want, "{tag}");
    std::fs::remove_dir_all(&d).unwrap();
    (got.winners, opened)
}

fn won(name: &str) -> Vec<Option<String>> {
    vec![Some(name.to_string())]
}

/// One device from a netlink reply captured in the rdma-vm guest (rxe0 on dummy0), with the
/// driver id attribute set to `driver_id`, through the real netlink enumeration.
fn netlink_device(driver_id: u32) -> Device {
    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }
    /// The captured (x86_64, little-endian) messages in this host's order, as its kernel would
    /// send them: netlink headers and numeric attributes are native-endian. Attribute types
    /// holding strings (DEV_NAME 2, DEV_PROTOCOL 67, CHARDEV_NAME 70) keep their bytes; every
    /// other 2-, 4- or 8-byte payload is a number. NLMSG_DONE carries one i32.
    fn native(mut b: Vec<u8>) -> Vec<u8> {
        fn swap(b: &mut [u8]) {
            if cfg!(target_endian = "big") {
                b.reverse();
            }
        }
        let mut at = 0;
        while at < b.len() {
            let len = u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
            let ty = u16::from_le_bytes(b[at + 4..at + 6].try_into().unwrap());
            for (o, n) in [(0, 4), (4, 2), (6, 2), (8, 4), (12, 4)] {
                swap(&mut b[at + o..at + o + n]);
            }
            let mut a = at + 16;
            if ty == 3 {
                swap(&mut b[a..a + 4]);
                a = at + len;
            }
            while a < at + len {
                let alen = u16::from_le_bytes(b[a..a + 2].try_into().unwrap()) as usize;
                let aty = u16::from_le_bytes(b[a + 2..a + 4].try_into().unwrap());
                swap(&mut b[a..a + 2]);
                swap(&mut b[a + 2..a + 4]);
                if !matches!(aty, 2 | 67 | 70) && matches!(alen - 4, 2 | 4 | 8) {
                    swap(&mut b[a + 4..a + alen]);
                }
                a += alen.next_multiple_of(4);
            }
            at += len.next_multiple_of(4);
        }
        b
    }
    struct Replay(Vec<Vec<Vec<u8>>>, Vec<Vec<u8>>);
    impl NlTransport for Replay {
        fn send(&mut self, _: &[u8]) -> Result<(), Errno> {
            let a = if self.0.is_empty() {
                return Err(Errno::EIO);
            } else {
                self.0.remove(0)
            };
            self.1.extend(a);
            Ok(())
        }
        fn recv(&mut self) -> Result<Vec<u8>, Errno> {
            if self.1.is_empty() {
                Err(Errno::EAGAIN)
            } else {
                Ok(self.1.remove(0))
            }
        }
    }
    const DUMP: &str = "6c000000011402000100000080000000080001000000000009000200727865300000000008000300010000000c000400763c2201000000000c000600e534f5fefff9c9d80c000700e534f5fefff9c9d805000e0001000000050054000000000009004300726f636500000000";
    const DONE: &str = "1400000003000200010000008000000000000000";
    // RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID (73) is the first attribute: bytes 20..24 hold its value.
    const CHARDEV: &str = "3c0000000f1400000200000080000000080049000e0000000c004800c0e70000000000000c00470002000000000000000c0046007576657262733000";
    let mut chardev = native(hex(CHARDEV));
    chardev[20..24].copy_from_slice(&driver_id.to_ne_bytes());
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-sysfs/two-devices");
    let mut t = Replay(
        vec![vec![native(hex(DUMP)), native(hex(DONE))], vec![chardev]],
        Vec::new(),
    );
    let e = device::enumerate_with(
        &base.join("sys"),
        &base.join("dev/infiniband"),
        Some(&mut t),
    )
    .unwrap();
    assert_eq!(e.devices.len(), 1);
    let r = &e.devices[0];
    Device {
        ibdev_name: r.ibdev_name.as_bytes().to_vec(),
        ibdev_path: r.ibdev_path.as_os_str().as_bytes().to_vec(),
        driver_id: r.driver_id,
        modalias: r.modalias.as_ref().map(|m| m.as_bytes().to_vec()),
        abi_ver: r.abi_ver,
        read_modalias: None,
    }
}

#[test]
fn one_rxe_device_opens_only_rxe() {
    let d = netlink_device(RXE);
    assert_eq!(d.driver_id, Some(RXE));
    assert_eq!(
        check_winners("rxe", &debian_world(vec![d.clone()]), DEBIAN),
        (won("rxe"), vec!["rxe".into()])
    );
    // Without a driver id (sysfs): by name, still only rxe.
    let w = debian_world(vec![dev("rxe0", None, None)]);
    assert_eq!(
        check_winners("rxe-sysfs", &w, DEBIAN),
        (won("rxe"), vec!["rxe".into()])
    );
    // A Mellanox device found through sysfs: every name serving that vendor, in order.
    let w = debian_world(vec![dev("mlx5_0", None, Some(MLX5_MODALIAS))]);
    assert_eq!(
        check_winners("mlx5-sysfs", &w, DEBIAN),
        (won("mlx5"), vec!["mthca".into(), "mlx5".into()])
    );
}

#[test]
fn unknown_driver_id_from_netlink() {
    let d = netlink_device(99);
    assert_eq!(d.driver_id, Some(99));
    // No rdma-core provider claims it and its name is not "rxe*": nobody binds it, as in rdma-core
    // (which loads all 17 names to find that out; we need none).
    let mut w = debian_world(vec![d.clone()]);
    w.devices[0].ibdev_name = b"newdev0".to_vec();
    assert_eq!(check("unknown-id", &w, DEBIAN), Vec::<String>::new());
    // A configured provider rdma-core does not ship that claims the id: loaded, and it binds.
    let mut w = debian_world(vec![w.devices[0].clone()]);
    w.names.insert(
        9,
        (
            "newprov".into(),
            Some(pm("newprov", vec![MatchKind::DriverId(99)])),
        ),
    );
    assert_eq!(
        check_winners("unknown-id-extra", &w, DEBIAN),
        (won("newprov"), vec!["newprov".into()])
    );
    // Named "rxe0" with an unknown id: pass 1 finds nobody, pass 2 binds rxe by name.
    let w = debian_world(vec![d]);
    assert_eq!(
        check_winners("unknown-id-rxe-name", &w, DEBIAN),
        (won("rxe"), vec!["rxe".into()])
    );
}

#[test]
fn extra_provider_claiming_the_same_driver_id() {
    let d = netlink_device(RXE);
    let extra = || {
        (
            "/opt/vendor/libmyrxe".to_string(),
            Some(pm("myrxe", vec![MatchKind::DriverId(RXE as u64)])),
        )
    };
    // Before rxe in the order: it wins, as in rdma-core.
    let mut w = debian_world(vec![d.clone()]);
    w.names.insert(3, extra());
    assert_eq!(check("extra-before", &w, DEBIAN), ["/opt/vendor/libmyrxe"]);
    assert_eq!(eager(&w).winners, [Some("myrxe".to_string())]);
    // After rxe: rxe wins; the path name was loaded at the load moment (it might have warned).
    let mut w = debian_world(vec![d.clone()]);
    w.names.push(extra());
    assert_eq!(
        check("extra-after", &w, DEBIAN),
        ["/opt/vendor/libmyrxe", "rxe"]
    );
    assert_eq!(eager(&w).winners, [Some("rxe".to_string())]);
    // A plain extra name whose file is in the provider directory is loaded only when reached.
    let mut w = debian_world(vec![d.clone()]);
    w.names.push(("myrxe".into(), extra().1));
    let mut present = DEBIAN.to_vec();
    present.push("myrxe");
    assert_eq!(check("extra-plain-after", &w, &present), ["rxe"]);
    let mut w = debian_world(vec![d]);
    w.names.insert(0, ("myrxe".into(), extra().1));
    assert_eq!(check("extra-plain-before", &w, &present), ["myrxe"]);
}

#[test]
fn missing_and_unconfigured_names() {
    let d = netlink_device(RXE);
    // efa's file is missing: rdma-core warns when it loads everything; so do we, although the
    // device needs only rxe.
    let mut w = debian_world(vec![d.clone()]);
    let efa = w.names.iter().position(|(n, _)| n == "efa").unwrap();
    w.names[efa].1 = None;
    let present: Vec<&str> = DEBIAN.iter().copied().filter(|n| *n != "efa").collect();
    assert_eq!(check("missing-efa", &w, &present), ["efa", "rxe"]);
    // rxe not configured: nothing binds rxe0, nothing is loaded.
    let mut w = debian_world(vec![d.clone()]);
    w.names.retain(|(n, _)| n != "rxe");
    assert_eq!(check("no-rxe", &w, DEBIAN), Vec::<String>::new());
    // rxe configured twice: loaded once.
    let mut w = debian_world(vec![d.clone()]);
    w.names.insert(0, w.names[16].clone());
    assert_eq!(check("rxe-twice", &w, DEBIAN), ["rxe"]);
    // rxe refuses the device (its ABI): it is asked in pass 1 and again in pass 2, as rdma-core
    // asks it, with its warning each time; the other names still need no loading.
    let mut w = debian_world(vec![d.clone()]);
    w.devices[0].abi_ver = 3;
    let want = eager(&w);
    assert_eq!(want.stderr.len(), 2, "{:?}", want.stderr);
    assert_eq!(
        check_winners("rxe-refuses", &w, DEBIAN),
        (vec![None], vec!["rxe".into()])
    );
    // The provider directory lacks every file (e.g. the providers come from the library path):
    // every name is loaded at the load moment, as rdma-core does.
    let w = debian_world(vec![d]);
    assert_eq!(check("no-dir", &w, &[]).len(), DEBIAN.len());
}

#[test]
fn names_are_bytes() {
    // A configured name that is not UTF-8 is simply unknown.
    let n = OsString::from_vec(vec![b'r', 0xff, b'e']);
    let mut h = StaticHints::with_listing(Arc::new(DirListing::default()));
    use ibverbs::provider::session::NameHints;
    let p = ProviderName {
        name: n,
        origin: Origin::Env {
            var: "RDMAV_DRIVERS",
            index: 0,
        },
        first: None,
    };
    assert!(h.known(0, &p).is_none());
    assert!(!h.loads_quietly(0, &p));
}
