//! The dlopen wrapper and the real loader path, without real providers (their constructors need
//! our `verbs_register_driver_34`, which the C glue adds later).

use std::ffi::OsString;
use std::path::PathBuf;

use ibverbs::provider::config::{Origin, ProviderName};
use ibverbs::provider::loader::{self, Place};
use ibverbs::provider::matcher::ProviderMatch;
use ibverbs::provider::registry::{Registry, Slot};
use ibverbs::sys::dl::{self, Library};

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ibverbs-rs-dl-{}-{}", std::process::id(), tag));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn pname(n: &str) -> ProviderName {
    ProviderName {
        name: OsString::from(n),
        origin: Origin::Env {
            var: "RDMAV_DRIVERS",
            index: 0,
        },
        first: None,
    }
}

/// A shared library every glibc system has, found through the loader's search path.
const LIBM: &str = "libm.so.6";

#[test]
fn missing_file() {
    let e = Library::open(b"/nonexistent/dir/libnope-rdmav34.so").unwrap_err();
    assert_eq!(
        e,
        "/nonexistent/dir/libnope-rdmav34.so: cannot open shared object file: No such file or directory"
    );
    let e = Library::open(b"libnope-rdmav34.so").unwrap_err();
    assert!(
        e.starts_with("libnope-rdmav34.so: cannot open shared object file"),
        "{e}"
    );
    let e = Library::open(b"a\0b").unwrap_err();
    assert!(e.contains("NUL"));
}

#[test]
fn not_an_elf_file() {
    let d = scratch("nonelf");
    let f = d.join("libjunk-rdmav34.so");
    std::fs::write(
        &f,
        "this is a text file, not a shared object; it is long enough to hold an ELF header\n",
    )
    .unwrap();
    let e = Library::open(f.as_os_str().as_encoded_bytes()).unwrap_err();
    assert!(e.starts_with(&format!("{}: ", f.display())), "{e}");
    assert!(e.contains("invalid ELF header"), "{e}");
    let short = d.join("libshort-rdmav34.so");
    std::fs::write(&short, "x").unwrap();
    let e = Library::open(short.as_os_str().as_encoded_bytes()).unwrap_err();
    assert!(e.contains("file too short"), "{e}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn real_library_symbols_and_objects() {
    let lib = Library::open(LIBM.as_bytes()).unwrap();
    let cos = lib.symbol("cos").unwrap();
    let e = lib.symbol("no_such_symbol_in_libm").unwrap_err();
    assert!(
        e.contains("undefined symbol: no_such_symbol_in_libm"),
        "{e}"
    );
    let obj = lib.object_id().unwrap();
    assert_eq!(dl::object_containing(cos.as_ptr() as usize), Some(obj));
    assert!(
        dl::object_name_containing(cos.as_ptr() as usize)
            .unwrap()
            .contains("libm")
    );
    // Our own code lives in another object.
    let here = real_library_symbols_and_objects as fn() as usize;
    assert_ne!(dl::object_containing(here), Some(obj));
    assert_eq!(dl::object_containing(0), None);
    // A second open gives the same object.
    let again = Library::open(LIBM.as_bytes()).unwrap();
    assert_eq!(again.object_id(), Some(obj));
    again.close().unwrap();
}

#[test]
fn load_name_failure_reports_like_rdma_core() {
    let d = scratch("loadfail");
    std::fs::write(
        d.join("libjunk-rdmav34.so"),
        "not an ELF object, only text. ".repeat(4),
    )
    .unwrap();
    // A build for a provider ABI this library lacks, beside it.
    let u = loader::PROVIDER_ABIS[0].version + 1;
    std::fs::write(d.join(format!("libjunk-rdmav{u}.so")), "x").unwrap();
    let reg = Registry::new();
    let dirs = [d.clone().into_os_string()];
    let out = loader::load_name(&reg, 0, &pname("junk"), &dirs);
    assert!(out.loaded.is_none());
    // In the provider dir only the file its listing has (ABI 34); then every ABI, newest first, on
    // the search path.
    assert_eq!(out.failures.len(), 1 + loader::PROVIDER_ABIS.len());
    assert_eq!(out.failures[0].0.place, Place::ProviderDir);
    assert_eq!(out.failures[0].0.abi, 34);
    assert!(
        out.failures[0].1.contains("invalid ELF header"),
        "{}",
        out.failures[0].1
    );
    assert_eq!(out.failures[1].0.place, Place::SearchPath);
    assert_eq!(out.failures[1].0.abi, loader::PROVIDER_ABIS[0].version);
    assert_eq!(out.failures.last().unwrap().0.place, Place::SearchPath);
    assert_eq!(
        out.warning().unwrap(),
        "Warning: couldn't load driver 'libjunk-rdmav34.so': libjunk-rdmav34.so: cannot open shared object file: No such file or directory"
    );
    // And ours: the file of the unknown ABI, with the node it needs.
    let w = out.foreign_warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains(&format!("libjunk-rdmav{u}.so"))
            && w[0].contains(&format!("IBVERBS_PRIVATE_{u}"))
    );
    // An absolute name is tried once per ABI, with the suffix appended.
    let abs = d.join("libjunk");
    let out = loader::load_name(
        &reg,
        0,
        &pname(abs.to_str().unwrap()),
        &[OsString::from("/nonexistent")],
    );
    assert_eq!(out.failures.len(), 5);
    assert_eq!(out.failures[4].0.place, Place::Absolute);
    assert!(out.foreign_warnings().is_empty());
    assert!(out.warning().unwrap().starts_with(&format!(
        "Warning: couldn't load driver '{}-rdmav34.so': {}-rdmav34.so: invalid ELF header",
        abs.display(),
        abs.display()
    )));
    assert!(reg.is_empty());
    std::fs::remove_dir_all(&d).unwrap();
}

/// A loaded object's path as the kernel sees it. Under qemu-user (the cross runs) the loader
/// names a target library by its path in the target's root (`QEMU_LD_PREFIX`), which qemu
/// prefixes when the program opens it but the kernel does not when it follows a symlink.
fn host_path(path: PathBuf) -> PathBuf {
    let Some(prefix) = std::env::var_os("QEMU_LD_PREFIX") else {
        return path;
    };
    let inside = PathBuf::from(prefix).join(path.strip_prefix("/").unwrap_or(&path));
    if inside.exists() { inside } else { path }
}

#[test]
fn late_registration_is_adopted_by_the_name_that_opens_its_object() {
    // Stand-in for a provider the application dlopened itself after loading started: libm, made
    // to look like a provider file through a symlink in a scratch provider directory.
    let d = scratch("adopt");
    let target = Library::open(LIBM.as_bytes()).unwrap();
    let cos = target.symbol("cos").unwrap().as_ptr() as usize;
    let path = host_path(dl::object_name_containing(cos).unwrap().into());
    std::os::unix::fs::symlink(&path, d.join("libfakem-rdmav34.so")).unwrap();

    let reg = Registry::new();
    let pm = |n: &str| ProviderMatch {
        name: n.into(),
        min_abi: 0,
        max_abi: 99,
        table: None,
        has_match_device: false,
    };
    reg.register(1, 34, pm("early"));
    assert!(reg.start_loading());
    assert_eq!(reg.register(cos, 34, pm("app-loaded")), Slot::Late);
    assert_eq!(reg.register(2, 34, pm("other-late")), Slot::Late);

    let out = loader::load_name(&reg, 4, &pname("fakem"), &[d.clone().into_os_string()]);
    let (cand, lib) = out.loaded.as_ref().unwrap();
    assert_eq!(cand.place, Place::ProviderDir);
    assert_eq!(lib.object_id(), target.object_id());
    let snap = reg.snapshot();
    let slots: Vec<_> = snap
        .iter()
        .map(|e| (e.matching().name.as_str(), e.slot))
        .collect();
    assert_eq!(
        slots,
        [
            ("early", Slot::Early),
            ("app-loaded", Slot::Config(4)),
            ("other-late", Slot::Late)
        ]
    );
    std::fs::remove_dir_all(&d).unwrap();
}
