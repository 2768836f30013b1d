//! Tests of `explain`: one world per cause, built in a temporary directory (provider files are
//! hand-made ELF images needing the node their case wants).

use super::*;
use crate::provider::config::Origin;
use crate::provider::elfneed::tests::provider_like;
use crate::provider::matcher::MatchKind;

struct World {
    dir: PathBuf,
}

impl World {
    fn new(tag: &str) -> World {
        let dir = std::env::temp_dir().join(format!("explain-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("providers")).unwrap();
        std::fs::create_dir_all(dir.join("search")).unwrap();
        World { dir }
    }
    fn provider(&self, file: &str, node: u32) {
        std::fs::write(
            self.dir.join("providers").join(file),
            provider_like(true, true, &format!("IBVERBS_PRIVATE_{node}")),
        )
        .unwrap();
    }
    fn pdir(&self) -> OsString {
        self.dir.join("providers").into_os_string()
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn names(list: &[&str]) -> Vec<ProviderName> {
    list.iter()
        .enumerate()
        .map(|(index, n)| ProviderName {
            name: OsString::from(n),
            origin: Origin::Env {
                var: "RDMAV_DRIVERS",
                index,
            },
            first: None,
        })
        .collect()
}

fn rxe(abi: u32) -> Device {
    Device {
        ibdev_name: b"rxe0".to_vec(),
        ibdev_path: b"/sys/class/infiniband/rxe0".to_vec(),
        driver_id: Some(crate::abi::uapi::rdma_driver_id::RDMA_DRIVER_RXE as u32),
        modalias: None,
        abi_ver: abi,
        read_modalias: None,
    }
}

fn assess_in(
    w: &World,
    dev: &Device,
    configured: &[&str],
    registered: &[ProviderMatch],
) -> Verdict {
    let n = names(configured);
    let pdir = w.pdir();
    let search = [w.dir.join("search")];
    let seen = Seen {
        names: &n,
        config_dir: Path::new("/etc/libibverbs.d"),
        provider_dirs: core::slice::from_ref(&pdir),
        search_dirs: &search,
        registered,
    };
    assess(dev, &seen)
}

#[test]
fn chosen_when_installed_for_an_abi_we_load() {
    let w = World::new("chosen");
    w.provider("libmlx5-rdmav34.so", 34);
    w.provider("librxe-rdmav34.so", 34);
    match assess_in(&w, &rxe(2), &["mlx5", "rxe"], &[]) {
        Verdict::Chosen {
            provider,
            file: Some(f),
            ..
        } => {
            assert_eq!(provider, "rxe");
            assert_eq!(f.abi, 34);
            assert_eq!(f.needs, Ok(vec![34]));
        }
        v => panic!("{v:?}"),
    }
    // The newest ABI wins where both files exist.
    w.provider("librxe-rdmav65.so", 65);
    match assess_in(&w, &rxe(2), &["rxe"], &[]) {
        Verdict::Chosen { file: Some(f), .. } => assert_eq!(f.abi, 65),
        v => panic!("{v:?}"),
    }
}

#[test]
fn not_installed() {
    let w = World::new("missing");
    let v = assess_in(&w, &rxe(2), &["rxe"], &[]);
    let Verdict::None(r @ Reason::NotInstalled { .. }) = v else {
        panic!("{v:?}")
    };
    let text = r.to_string();
    // Every provider ABI's file, newest first.
    let files: Vec<String> = SUPPORTED_PROVIDER_ABIS
        .iter()
        .rev()
        .map(|a| format!("librxe-rdmav{a}.so"))
        .collect();
    let want = format!(
        "provider rxe claims it but is not installed (no {} in ",
        files.join(" or ")
    );
    assert!(text.contains(&want), "{text}");
    assert!(
        text.contains("/providers ") && text.contains("/search; Debian"),
        "{text}"
    );
}

#[test]
fn built_for_an_abi_we_lack_names_the_node() {
    let w = World::new("otherabi");
    // An ABI this library lacks: the one after the newest.
    let u = SUPPORTED_PROVIDER_ABIS[SUPPORTED_PROVIDER_ABIS.len() - 1] + 1;
    w.provider(&format!("librxe-rdmav{u}.so"), u);
    let v = assess_in(&w, &rxe(2), &["rxe"], &[]);
    let Verdict::None(r @ Reason::OtherAbi { .. }) = v else {
        panic!("{v:?}")
    };
    let text = r.to_string();
    let needs = format!("librxe-rdmav{u}.so needs IBVERBS_PRIVATE_{u} from libibverbs.so.1");
    assert!(text.contains(&needs), "{text}");
    let all: Vec<String> = SUPPORTED_PROVIDER_ABIS.iter().map(u32::to_string).collect();
    let (last, rest) = all.split_last().unwrap();
    let loads = format!("it loads provider ABI {} and {last}", rest.join(", "));
    assert!(text.contains(&loads), "{text}");
    // A file with our suffix that needs another node is no better.
    let w = World::new("otherabi2");
    w.provider("librxe-rdmav34.so", 25);
    let v = assess_in(&w, &rxe(2), &["rxe"], &[]);
    assert!(
        matches!(&v, Verdict::None(r @ Reason::OtherAbi { .. }) if r.to_string().contains("needs IBVERBS_PRIVATE_25")),
        "{v:?}"
    );
}

#[test]
fn kernel_abi_outside_the_providers_range() {
    let w = World::new("kabi");
    w.provider("librxe-rdmav34.so", 34);
    let v = assess_in(&w, &rxe(6), &["rxe"], &[]);
    assert_eq!(
        v,
        Verdict::None(Reason::KernelAbi {
            provider: "rxe".into(),
            abi: 6,
            min: 1,
            max: 2
        })
    );
    // A registered provider is judged by its own range.
    let reg = ProviderMatch {
        name: "rxe".into(),
        min_abi: 1,
        max_abi: 1,
        table: Some(vec![MatchKind::name("rxe")]),
        has_match_device: false,
    };
    let v = assess_in(&w, &rxe(2), &["rxe"], std::slice::from_ref(&reg));
    assert!(
        matches!(
            &v,
            Verdict::None(Reason::KernelAbi {
                min: 1,
                max: 1,
                abi: 2,
                ..
            })
        ),
        "{v:?}"
    );
    assert!(matches!(
        assess_in(&w, &rxe(1), &["rxe"], &[reg]),
        Verdict::Chosen { file: None, .. }
    ));
}

#[test]
fn not_configured() {
    let w = World::new("noconf");
    w.provider("librxe-rdmav34.so", 34);
    let v = assess_in(&w, &rxe(2), &[], &[]);
    let Verdict::None(r @ Reason::NotConfigured { .. }) = v else {
        panic!("{v:?}")
    };
    assert!(
        r.to_string()
            .contains("no file in /etc/libibverbs.d says \"driver rxe\"")
    );
}

#[test]
fn no_match_names_driver_id_and_modalias() {
    let w = World::new("nomatch");
    let dev = Device {
        ibdev_name: b"odd0".to_vec(),
        ibdev_path: b"/sys/class/infiniband/odd0".to_vec(),
        driver_id: None,
        modalias: Some(b"pci:v00001234d00005678sv00000000sd00000000bc02sc00i00".to_vec()),
        abi_ver: 1,
        read_modalias: None,
    };
    let v = assess_in(&w, &dev, &["mlx5", "rxe"], &[]);
    let Verdict::None(r @ Reason::NoMatch { .. }) = v else {
        panic!("{v:?}")
    };
    let t = r.to_string();
    assert!(t.contains("odd0, no kernel driver id"), "{t}");
    assert!(t.contains("modalias pci:v00001234d00005678"), "{t}");
    // With a driver id no rdma-core provider claims (USNIC = 13).
    let dev = Device {
        driver_id: Some(13),
        modalias: None,
        ..dev
    };
    let t = why_unmatched(
        &dev,
        &Seen {
            names: &names(&["rxe"]),
            config_dir: Path::new("/etc/libibverbs.d"),
            provider_dirs: &[],
            search_dirs: &[],
            registered: &[],
        },
    );
    assert!(t.contains("kernel driver id 13 (RDMA_DRIVER_USNIC)"), "{t}");
}

#[test]
fn third_party_names_are_unknown() {
    let w = World::new("third");
    let dev = Device {
        ibdev_name: b"odd0".to_vec(),
        driver_id: None,
        modalias: None,
        ..rxe(1)
    };
    assert_eq!(
        assess_in(&w, &dev, &["rxe", "vendorx"], &[]),
        Verdict::Unknown {
            names: vec!["vendorx".into()]
        }
    );
}

#[test]
fn the_library_says_refused_or_not_loaded() {
    let w = World::new("lib");
    w.provider("librxe-rdmav34.so", 34);
    let n = names(&["rxe"]);
    let pdir = w.pdir();
    let mk = |registered: &[ProviderMatch]| {
        why_unmatched(
            &rxe(2),
            &Seen {
                names: &n,
                config_dir: Path::new("/etc/libibverbs.d"),
                provider_dirs: core::slice::from_ref(&pdir),
                search_dirs: &[],
                registered,
            },
        )
    };
    assert!(
        mk(&[]).contains("exists, but it did not load"),
        "{}",
        mk(&[])
    );
    let reg = ProviderMatch {
        name: "rxe".into(),
        min_abi: 1,
        max_abi: 2,
        table: Some(vec![MatchKind::name("rxe")]),
        has_match_device: false,
    };
    assert!(mk(&[reg]).contains("matched it but refused it"));
}

#[test]
fn search_dirs_follow_ld_library_path_first() {
    let get = |k: &str| (k == "LD_LIBRARY_PATH").then(|| OsString::from("/opt/a::/opt/b:rel"));
    let d = loader_search_dirs(get, true);
    assert_eq!(d[0], Path::new("/opt/a"));
    assert_eq!(d[1], Path::new("/opt/b"));
    assert!(d.iter().any(|p| p == Path::new("/usr/lib")));
    assert!(!loader_search_dirs(get, false).contains(&PathBuf::from("/opt/a")));
}

#[test]
fn a_pci_vendor_shared_by_providers_names_them_all() {
    let w = World::new("vendor");
    w.provider("libmthca-rdmav34.so", 34);
    w.provider("libmlx4-rdmav34.so", 34);
    w.provider("libmlx5-rdmav34.so", 34);
    let dev = Device {
        ibdev_name: b"mlx5_0".to_vec(),
        ibdev_path: b"/sys/class/infiniband/mlx5_0".to_vec(),
        driver_id: None,
        modalias: Some(b"pci:v000015B3d0000101Bsv000015B3sd00000008bc02sc00i00".to_vec()),
        abi_ver: 1,
        read_modalias: None,
    };
    // ABI 1: mlx4 (2 to 4) cannot take it; mthca (0 to 1) and mlx5 (1) may.
    match assess_in(&w, &dev, &["mthca", "mlx4", "mlx5"], &[]) {
        Verdict::Chosen { provider, or, .. } => {
            assert_eq!(provider, "mthca");
            assert_eq!(or, vec!["mlx5".to_string()]);
        }
        v => panic!("{v:?}"),
    }
    // With netlink's driver id, mlx5 alone.
    let dev = Device {
        driver_id: Some(crate::abi::uapi::rdma_driver_id::RDMA_DRIVER_MLX5 as u32),
        ..dev
    };
    match assess_in(&w, &dev, &["mthca", "mlx4", "mlx5"], &[]) {
        Verdict::Chosen { provider, or, .. } => {
            assert_eq!(provider, "mlx5");
            assert!(or.is_empty());
        }
        v => panic!("{v:?}"),
    }
    // The library, with mlx5 loaded and its table not listing the device.
    let reg = ProviderMatch {
        name: "mlx5".into(),
        min_abi: 1,
        max_abi: 1,
        table: Some(vec![MatchKind::Pci {
            vendor: 0x15b3,
            device: 0x1017,
        }]),
        has_match_device: false,
    };
    let dev = Device {
        driver_id: None,
        ..dev
    };
    let n = names(&["mlx5"]);
    let pdir = w.pdir();
    let t = why_unmatched(
        &dev,
        &Seen {
            names: &n,
            config_dir: Path::new("/etc/libibverbs.d"),
            provider_dirs: core::slice::from_ref(&pdir),
            search_dirs: &[],
            registered: &[reg],
        },
    );
    assert!(t.contains("provider mlx5 is loaded and serves this PCI vendor, but its match table does not list this device"), "{t}");
}
