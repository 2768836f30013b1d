//! Config directory parsing against fixtures and the machine's real /etc/libibverbs.d.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use ibverbs::provider::config::{self, DiagKind, Origin, ProviderList};
use ibverbs::provider::loader;

const DEBIAN_NAMES: [&str; 17] = [
    "bnxt_re",
    "cxgb4",
    "efa",
    "erdma",
    "hfi1verbs",
    "hns",
    "ipathverbs",
    "irdma",
    "mana",
    "mlx4",
    "mlx5",
    "mthca",
    "ocrdma",
    "qedr",
    "rxe",
    "siw",
    "vmw_pvrdma",
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn no_env(_: &str) -> Option<OsString> {
    None
}

fn names(l: &ProviderList) -> Vec<String> {
    l.names
        .iter()
        .map(|n| String::from_utf8_lossy(n.name.as_bytes()).into_owned())
        .collect()
}

/// Files of `dir` in readdir order (what rdma-core iterates), with their driver lines.
fn readdir_order(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect()
}

fn file_of(o: &Origin) -> &Path {
    match o {
        Origin::File { path, .. } => path,
        Origin::Env { .. } => panic!("not from a file"),
    }
}

/// A fresh scratch directory for one test.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ibverbs-rs-{}-{}", std::process::id(), tag));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Copy a fixture directory, keeping symlinks as symlinks.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        let ft = e.file_type().unwrap();
        if ft.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(e.path()).unwrap(), dst).unwrap();
        } else if ft.is_dir() {
            copy_dir(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), dst).unwrap();
        }
    }
}

#[test]
fn debian_fixture_order_is_reverse_readdir() {
    let dir = fixture("ibverbs.d-debian");
    let l = config::discover(&dir, no_env, true);
    assert!(l.diagnostics.is_empty(), "{:?}", l.diagnostics);
    let set: BTreeSet<_> = names(&l).into_iter().collect();
    assert_eq!(set, DEBIAN_NAMES.iter().map(|s| s.to_string()).collect());
    // One name per file, so load order = reverse readdir order of the files.
    let mut files = readdir_order(&dir);
    files.reverse();
    let got: Vec<_> = l
        .names
        .iter()
        .map(|n| file_of(&n.origin).to_path_buf())
        .collect();
    assert_eq!(got, files);
    for n in &l.names {
        assert!(matches!(n.origin, Origin::File { line: 1, .. }));
        assert_eq!(n.first, None);
    }
}

#[test]
fn real_machine_config() {
    let dir = Path::new("/etc/libibverbs.d");
    if !dir.is_dir() {
        eprintln!("no /etc/libibverbs.d here; skipped");
        return;
    }
    let l = config::discover(dir, no_env, true);
    assert!(l.diagnostics.is_empty(), "{:?}", l.diagnostics);
    let got: BTreeSet<_> = names(&l).into_iter().collect();
    let want: BTreeSet<_> = DEBIAN_NAMES.iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want);
    // Debian ships each provider in the multiarch provider directory.
    if Path::new(loader::DEFAULT_PROVIDER_DIR).is_dir() {
        for n in &l.names {
            let c = loader::candidates(
                &n.name,
                &[loader::DEFAULT_PROVIDER_DIR.into()],
                &loader::PROVIDER_ABIS,
            );
            // Some provider ABI's file is there (Debian 12: -rdmav34.so; sid: -rdmav65.so).
            let in_dir: Vec<_> = c
                .iter()
                .filter(|c| c.place == loader::Place::ProviderDir)
                .collect();
            assert_eq!(in_dir.len(), loader::PROVIDER_ABIS.len());
            assert!(
                in_dir.iter().any(|c| Path::new(&c.path).exists()),
                "{:?}",
                in_dir
            );
        }
    }
}

#[test]
fn garbage_fixture() {
    let dir = fixture("ibverbs.d-garbage");
    let l = config::discover(&dir, no_env, true);
    let mixed = dir.join("mixed.driver");
    // Names from mixed.driver, in load order (reversed file order).
    let from_mixed: Vec<(String, usize)> = l
        .names
        .iter()
        .filter(|n| file_of(&n.origin) == mixed)
        .map(|n| {
            let Origin::File { line, .. } = n.origin else {
                unreachable!()
            };
            (
                String::from_utf8_lossy(n.name.as_bytes()).into_owned(),
                line,
            )
        })
        .collect();
    let want: Vec<(String, usize)> = [
        ("theta", 15),
        ("eta\r", 12),
        ("", 11),
        ("zeta", 10),
        ("/opt/providers/libepsilon", 9),
        ("beta", 5),
        ("alpha", 4),
    ]
    .iter()
    .map(|(n, l)| (n.to_string(), *l))
    .collect();
    assert_eq!(from_mixed, want);
    // Every regular file is read: dotfiles and README too.
    let all: BTreeSet<_> = names(&l).into_iter().collect();
    assert!(all.contains("hidden"));
    assert!(all.contains("iota"));
    assert!(!all.contains("x"));
    // alpha appears twice (dup.driver and mixed.driver): the later copy points at the first.
    let alphas: Vec<_> = l
        .names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.name == "alpha")
        .collect();
    assert_eq!(alphas.len(), 2);
    assert_eq!(alphas[1].1.first, Some(alphas[0].0));
    // Warnings, exact rdma-core text.
    let texts: BTreeSet<_> = l.diagnostics.iter().map(|d| d.text.clone()).collect();
    let m = mixed.display();
    let want: BTreeSet<String> = [
        format!("Warning: ignoring bad config directive 'Driver' in file '{m}'."),
        format!("Warning: ignoring bad config directive 'drivers' in file '{m}'."),
        format!("Warning: ignoring bad config directive 'foo' in file '{m}'."),
        format!(
            "Warning: ignoring bad config directive 'garbage' in file '{}'.",
            dir.join("README").display()
        ),
        format!(
            "Warning: ignoring bad config directive 'dri' in file '{}'.",
            dir.join("nul.driver").display()
        ),
    ]
    .into_iter()
    .collect();
    assert_eq!(texts, want);
    assert!(
        l.diagnostics
            .iter()
            .all(|d| d.kind == DiagKind::BadDirective)
    );
    // Warnings of one file come in line order.
    let mixed_diags: Vec<_> = l
        .diagnostics
        .iter()
        .filter(|d| d.text.contains("mixed.driver"))
        .map(|d| d.detail.clone())
        .collect();
    assert!(
        mixed_diags[0].contains(":6:")
            && mixed_diags[1].contains(":7:")
            && mixed_diags[2].contains(":8:")
    );
}

#[test]
fn empty_files_give_nothing() {
    let l = config::discover(&fixture("ibverbs.d-empty"), no_env, true);
    assert!(l.names.is_empty());
    assert!(l.diagnostics.is_empty());
}

#[test]
fn special_entries() {
    let dir = scratch("special");
    copy_dir(&fixture("ibverbs.d-special"), &dir);
    // A FIFO is not a regular file: skipped silently (and never opened, which would block).
    let st = std::process::Command::new("mkfifo")
        .arg(dir.join("fifo.driver"))
        .status();
    let have_fifo = st.is_ok_and(|s| s.success());
    // A file we may not read: root reads it anyway, everyone else gets a warning.
    let locked = dir.join("locked.driver");
    std::fs::write(&locked, "driver lambda\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable = std::fs::File::open(&locked).is_ok();

    let l = config::discover(&dir, no_env, true);
    let mut got = names(&l);
    got.sort();
    let mut want = vec!["kappa", "kappa"];
    if readable {
        want.push("lambda");
    }
    want.sort();
    assert_eq!(got, want);
    let kinds: Vec<_> = l.diagnostics.iter().map(|d| d.kind).collect();
    let mut want_kinds = vec![DiagKind::Stat];
    if !readable {
        want_kinds.push(DiagKind::ReadFile);
    }
    let mut k2 = kinds.clone();
    k2.sort_by_key(|k| *k as u8);
    want_kinds.sort_by_key(|k| *k as u8);
    assert_eq!(k2, want_kinds, "{:?}", l.diagnostics);
    let stat = l
        .diagnostics
        .iter()
        .find(|d| d.kind == DiagKind::Stat)
        .unwrap();
    assert_eq!(
        stat.text,
        format!(
            "Warning: couldn't stat config file '{}'.",
            dir.join("dangling.driver").display()
        )
    );
    if !readable {
        let r = l
            .diagnostics
            .iter()
            .find(|d| d.kind == DiagKind::ReadFile)
            .unwrap();
        assert_eq!(
            r.text,
            format!("Warning: couldn't read config file {}.", locked.display())
        );
    }
    if !have_fifo {
        eprintln!("mkfifo unavailable; FIFO case not covered");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_directory() {
    let dir = Path::new("/nonexistent/libibverbs.d");
    let l = config::discover(dir, no_env, true);
    assert!(l.names.is_empty());
    assert_eq!(l.diagnostics.len(), 1);
    assert_eq!(l.diagnostics[0].kind, DiagKind::OpenDir);
    assert_eq!(
        l.diagnostics[0].text,
        "Warning: couldn't open config directory '/nonexistent/libibverbs.d'."
    );
}

#[test]
fn environment_names_come_first() {
    let dir = fixture("ibverbs.d-debian");
    let env = |k: &str| match k {
        "RDMAV_DRIVERS" => Some(OsString::from("rxe;/opt/x/libfoo:")),
        "IBV_DRIVERS" => Some(OsString::from("ignored")),
        _ => None,
    };
    let l = config::discover(&dir, env, true);
    assert_eq!(&names(&l)[..3], ["rxe", "/opt/x/libfoo", ""]);
    assert_eq!(l.names.len(), 20);
    assert_eq!(
        l.names[0].origin,
        Origin::Env {
            var: "RDMAV_DRIVERS",
            index: 0
        }
    );
    // rxe from the config now repeats the environment's rxe.
    let rxe_again = l.names.iter().skip(3).find(|n| n.name == "rxe").unwrap();
    assert_eq!(rxe_again.first, Some(0));
    // setuid: environment ignored.
    let l = config::discover(&dir, env, false);
    assert_eq!(l.names.len(), 17);
    // IBV_DRIVERS when RDMAV_DRIVERS is unset.
    let env2 = |k: &str| (k == "IBV_DRIVERS").then(|| OsString::from("a:b"));
    let l = config::discover(&dir, env2, true);
    assert_eq!(&names(&l)[..2], ["a", "b"]);
    assert_eq!(
        l.names[1].origin,
        Origin::Env {
            var: "IBV_DRIVERS",
            index: 1
        }
    );
}

#[test]
fn config_dir_choice() {
    assert_eq!(
        config::config_dir(no_env, true),
        PathBuf::from(config::DEFAULT_CONFIG_DIR)
    );
    let env = |k: &str| (k == "IBVERBS_RS_CONFIG_DIR").then(|| OsString::from("/tmp/x"));
    assert_eq!(config::config_dir(env, true), PathBuf::from("/tmp/x"));
    assert_eq!(
        config::config_dir(env, false),
        PathBuf::from(config::DEFAULT_CONFIG_DIR)
    );
}
