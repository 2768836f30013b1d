//! The sysfs walk, the sysfs file helpers and the access check, against the fake trees in
//! tests/fake-sysfs (see its README).
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use ibverbs::device::scan::makedev;
use ibverbs::device::sysfs::{self, AbiVersionError, ReadError};
use ibverbs::device::{
    self, Enumeration, FoundBy, NodeType, Source, SysfsDev, Timespec, Transport,
    VSYSFS_READ_NODE_GUID,
};
use ibverbs::errno::Errno;

fn tree(name: &str) -> (PathBuf, PathBuf) {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake-sysfs")
        .join(name);
    (base.join("sys"), base.join("dev/infiniband"))
}

fn walk(name: &str) -> Result<Enumeration, Errno> {
    let (root, cdev) = tree(name);
    device::enumerate_with(&root, &cdev, None)
}

fn by_name<'a>(e: &'a Enumeration, uverbs: &str) -> &'a SysfsDev {
    e.devices
        .iter()
        .find(|d| d.sysfs_name == uverbs)
        .unwrap_or_else(|| panic!("{uverbs} not found in {e:#?}"))
}

fn skip_reason<'a>(e: &'a Enumeration, name: &str) -> &'a str {
    &e.skipped
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("{name} not skipped: {e:#?}"))
        .message
}

fn names(e: &Enumeration) -> Vec<String> {
    let mut v: Vec<String> = e
        .devices
        .iter()
        .map(|d| d.sysfs_name.to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn two_devices() {
    let (root, cdev) = tree("two-devices");
    let e = walk("two-devices").expect("walk");
    assert_eq!(e.source, Source::Sysfs);
    assert_eq!(names(&e), ["uverbs0", "uverbs1"]);
    assert!(e.skipped.is_empty(), "{:?}", e.skipped);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    assert_eq!(e.kernel_abi_ver, None);

    let rxe = by_name(&e, "uverbs0");
    assert_eq!(rxe.ibdev_name, "rxe0");
    assert_eq!(rxe.ibdev_path, root.join("class/infiniband/rxe0"));
    assert_eq!(rxe.sysfs_path, root.join("class/infiniband_verbs/uverbs0"));
    assert_eq!(rxe.cdev_path, cdev.join("uverbs0"));
    assert_eq!(rxe.sysfs_cdev, makedev(231, 192));
    assert_eq!((rxe.cdev_major(), rxe.cdev_minor()), (231, 192));
    assert_eq!(rxe.node_type_raw, Some(1));
    assert_eq!(rxe.node_type, NodeType::Ca);
    assert_eq!(rxe.transport(), Transport::Ib);
    // node_guid and the modalias are read when asked for, as rdma-core reads them.
    assert_eq!(rxe.node_guid, None);
    assert_eq!(
        sysfs::read_node_guid(&rxe.ibdev_path),
        Ok(0x7021_abff_fe8a_f353)
    );
    assert_eq!(
        sysfs::read_modalias(rxe.ibdev_path.as_os_str().as_bytes()),
        None
    );
    assert_eq!(rxe.abi_ver, 2);
    assert_eq!(rxe.modalias, None);
    assert_eq!(rxe.driver_id, None);
    assert_eq!(rxe.ibdev_idx, None);
    assert_eq!(rxe.ibdev_idx_c(), -1);
    assert_eq!(rxe.num_ports, 0);
    assert_eq!(rxe.flags, 0);
    assert_eq!(rxe.found_by, FoundBy::SysfsWalk);
    assert_ne!(rxe.time_created, Timespec::default());

    let mlx = by_name(&e, "uverbs1");
    assert_eq!(mlx.ibdev_name, "mlx5_0");
    assert_eq!(mlx.sysfs_cdev, makedev(231, 193));
    assert_eq!(mlx.modalias, None);
    assert_eq!(
        sysfs::read_modalias(mlx.ibdev_path.as_os_str().as_bytes()).as_deref(),
        Some(&b"pci:v000015B3d0000101Bsv000015B3sd00000008bc02sc00i00"[..])
    );
    assert_eq!(
        sysfs::read_node_guid(&mlx.ibdev_path),
        Ok(0x0c42_a103_0065_8f2e)
    );
    assert_eq!(mlx.abi_ver, 1);

    assert_eq!(sysfs::check_abi_version(&root), Ok(6));
}

#[test]
fn time_created_is_the_ibdev_dir_mtime() {
    use std::os::unix::fs::MetadataExt;
    let (root, _) = tree("two-devices");
    let e = walk("two-devices").expect("walk");
    let md = std::fs::metadata(root.join("class/infiniband/mlx5_0")).expect("stat");
    let t = by_name(&e, "uverbs1").time_created;
    assert_eq!((t.sec, t.nsec), (md.mtime(), md.mtime_nsec()));
}

#[test]
fn missing_files_skip_with_reasons() {
    let e = walk("missing-files").expect("walk");
    assert_eq!(names(&e), ["uverbs0"]);
    assert_eq!(e.skipped.len(), 3, "{:?}", e.skipped);
    let r = skip_reason(&e, "uverbs1");
    assert!(
        r.contains("uverbs1/ibdev") && r.contains("No such file"),
        "{r}"
    );
    let r = skip_reason(&e, "uverbs2");
    assert!(
        r.starts_with("cannot access ")
            && r.contains("dev/infiniband/uverbs2")
            && r.contains("os error 2"),
        "{r}"
    );
    let r = skip_reason(&e, "uverbs3");
    assert!(
        r.contains("uverbs3/dev") && r.contains("No such file"),
        "{r}"
    );
}

#[test]
fn garbage_values() {
    let (root, _) = tree("garbage");
    let e = walk("garbage").expect("walk");
    // rdma-core keeps a device with a garbage abi_version (as 0) and a bad node_guid.
    assert_eq!(names(&e), ["uverbs0", "uverbs2"]);

    let d0 = by_name(&e, "uverbs0");
    assert_eq!(d0.abi_ver, 0);
    assert_eq!(d0.node_guid, None);
    assert_eq!(d0.flags & VSYSFS_READ_NODE_GUID, 0);
    assert!(
        sysfs::read_node_guid(&d0.ibdev_path)
            .unwrap_err()
            .contains("malformed node_guid \"zz:not:a:guid\""),
    );
    let w0: Vec<&str> = e
        .warnings
        .iter()
        .filter(|w| w.name == "uverbs0")
        .map(|w| w.message.as_str())
        .collect();
    assert!(
        w0.iter().any(|m| m.contains("abi_version \"xyz\"")),
        "{w0:?}"
    );

    let d2 = by_name(&e, "uverbs2");
    assert_eq!(d2.node_type, NodeType::Unknown);
    assert_eq!(d2.node_type_raw, Some(0));
    assert_eq!(d2.transport(), Transport::Unknown);
    assert!(
        e.warnings
            .iter()
            .any(|w| w.name == "uverbs2" && w.message.contains("node_type \"bogus\""))
    );

    let r = skip_reason(&e, "uverbs1");
    assert!(r.contains("\"garbage\", not major:minor"), "{r}");
    let r = skip_reason(&e, "uverbs3");
    assert!(r.contains("value too long"), "{r}");

    assert_eq!(
        sysfs::check_abi_version(&root),
        Err(AbiVersionError::OutOfRange(0))
    );
}

#[test]
fn global_abi_version_range() {
    assert_eq!(
        sysfs::check_abi_version(&tree("abi-too-new").0),
        Err(AbiVersionError::OutOfRange(7))
    );
    assert_eq!(
        sysfs::check_abi_version(&tree("abi-too-old").0),
        Err(AbiVersionError::OutOfRange(2))
    );
    assert!(matches!(
        sysfs::check_abi_version(&tree("empty").0),
        Err(AbiVersionError::Unreadable(_))
    ));
    // No devices at all is not an error of the walk itself.
    let e = walk("abi-too-new").expect("walk");
    assert!(e.devices.is_empty() && e.skipped.is_empty());
}

#[test]
fn missing_ibdev_dir() {
    let e = walk("no-ibdev-dir").expect("walk");
    assert!(e.devices.is_empty());
    let r = skip_reason(&e, "uverbs0");
    assert!(
        r.starts_with("cannot stat ") && r.contains("class/infiniband/ghost0"),
        "{r}"
    );
}

#[test]
fn empty_tree_is_enosys() {
    assert_eq!(walk("empty"), Err(Errno::ENOSYS));
    assert_eq!(
        device::enumerate(&tree("empty").0, false),
        Err(Errno::ENOSYS)
    );
}

#[test]
fn overlong_root_is_enomem() {
    let root = PathBuf::from(format!("/{}", "r".repeat(240)));
    assert_eq!(
        device::enumerate_with(&root, Path::new("/nonexistent"), None),
        Err(Errno::ENOMEM)
    );
}

#[test]
fn real_dev_dir_access_check() {
    // With the real /dev/infiniband (absent on a machine without RDMA) the fake devices are
    // skipped by the access check, with the real errno in the reason.
    if Path::new("/dev/infiniband/uverbs0").exists() {
        return;
    }
    let e = device::enumerate(&tree("two-devices").0, false).expect("walk");
    assert!(e.devices.is_empty());
    assert_eq!(e.skipped.len(), 2);
    assert!(
        e.skipped
            .iter()
            .all(|s| s.message.contains("/dev/infiniband/uverbs")),
        "{:?}",
        e.skipped
    );
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ibverbs-device-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

#[test]
fn read_sysfs_file_semantics() {
    let d = scratch("read");
    std::fs::write(d.join("nl"), "abc\n").unwrap();
    std::fs::write(d.join("plain"), "abc").unwrap();
    std::fs::write(d.join("full"), "abcd").unwrap();
    std::fs::write(d.join("empty"), "").unwrap();

    let mut buf = [0xffu8; 4];
    assert_eq!(
        sysfs::read_sysfs_file(&d, OsStr::new("nl"), &mut buf),
        Ok(3)
    );
    assert_eq!(&buf, b"abc\0");
    let mut buf = [0xffu8; 4];
    assert_eq!(
        sysfs::read_sysfs_file(&d, OsStr::new("plain"), &mut buf),
        Ok(3)
    );
    assert_eq!(&buf, b"abc\0");
    let mut buf = [0xffu8; 4];
    assert_eq!(
        sysfs::read_sysfs_file(&d, OsStr::new("full"), &mut buf),
        Err(ReadError::TooLong)
    );
    let mut buf = [0xffu8; 5];
    assert_eq!(
        sysfs::read_sysfs_file(&d, OsStr::new("full"), &mut buf),
        Ok(4)
    );
    assert_eq!(&buf, b"abcd\0");
    // "abc\n" into 3 bytes: reads "abc", no newline, no room for the NUL.
    let mut buf = [0xffu8; 3];
    assert_eq!(
        sysfs::read_sysfs_file(&d, OsStr::new("nl"), &mut buf),
        Err(ReadError::TooLong)
    );
    let mut buf = [0xffu8; 4];
    assert_eq!(
        sysfs::read_sysfs_file(&d, OsStr::new("empty"), &mut buf),
        Ok(0)
    );
    assert_eq!(
        buf, [0xff; 4],
        "an empty file leaves the buffer alone, as in C"
    );
    assert_eq!(
        sysfs::read_sysfs_file(&d, OsStr::new("missing"), &mut buf),
        Err(ReadError::Os(Errno::ENOENT))
    );
    let _ = std::fs::remove_dir_all(&d);

    let (root, _) = tree("two-devices");
    let mut buf = [0u8; 512];
    let n = sysfs::read_ibdev_sysfs_file(
        &root.join("class/infiniband/mlx5_0"),
        OsStr::new("ports/2/link_layer"),
        &mut buf,
    )
    .expect("read");
    assert_eq!(&buf[..=n], b"InfiniBand\0");
    assert_eq!(
        sysfs::read_node_guid(&root.join("class/infiniband/rxe0")),
        Ok(0x7021_abff_fe8a_f353)
    );
}

#[test]
fn access_check_returns_the_real_errno() {
    let d = scratch("access");
    std::fs::write(d.join("uverbs0"), "").unwrap();
    std::fs::write(d.join("file"), "").unwrap();
    assert_eq!(device::try_access_device(&d, "uverbs0"), Ok(()));
    assert_eq!(device::try_access_device(&d, "uverbs9"), Err(Errno::ENOENT));
    assert_eq!(
        device::try_access_device(&d.join("file"), "uverbs0"),
        Err(Errno(libc::ENOTDIR))
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn rescan_identity() {
    let e = walk("two-devices").expect("walk");
    let a = by_name(&e, "uverbs0").clone();
    let mut b = a.clone();
    assert!(device::same_sysfs_dev(&a, &b));
    b.time_created.nsec += 1; // re-created device, no index: different
    assert!(!device::same_sysfs_dev(&a, &b));
    let (mut x, mut y) = (a.clone(), b.clone());
    x.ibdev_idx = Some(3);
    y.ibdev_idx = Some(3); // with an index the time does not matter
    assert!(device::same_sysfs_dev(&x, &y));
    y.ibdev_idx = Some(4);
    assert!(!device::same_sysfs_dev(&x, &y));
    let mut z = a.clone();
    z.sysfs_name = "uverbs7".into();
    assert!(!device::same_sysfs_dev(&a, &z));
}

#[test]
fn bad_bytes_are_read_as_c_reads_them() {
    // Each value here was refused for not being UTF-8 (the device dropped, or the value taken as
    // 0); rdma-core reads bytes: a NUL ends the string, a stray byte ends the number.
    let e = walk("bad-bytes").unwrap();
    let names: Vec<&[u8]> = {
        let mut v: Vec<&[u8]> = e.devices.iter().map(|d| d.sysfs_name.as_bytes()).collect();
        v.sort();
        v
    };
    assert_eq!(
        names,
        [
            &b"uverbs0"[..],
            b"uverbs1",
            b"uverbs2",
            b"uverbs3",
            b"uverbs4",
            b"uverbs5",
            b"uverbs7",
            b"uverbs9",
            b"uverbs\xff6"
        ]
    );
    assert_eq!(by_name(&e, "uverbs0").node_type_raw, Some(1)); // "1: CA\xff"
    assert_eq!(by_name(&e, "uverbs0").node_type, NodeType::Ca);
    assert_eq!(by_name(&e, "uverbs1").abi_ver, 2); // "2\xff"
    assert_eq!(by_name(&e, "uverbs2").sysfs_cdev, makedev(231, 194)); // "231:194\xff"
    assert_eq!(
        sysfs::read_node_guid(&by_name(&e, "uverbs3").ibdev_path),
        Ok(0x0002_c903_0000_1234)
    );
    assert_eq!(by_name(&e, "uverbs4").ibdev_name, "rxe_nul"); // "rxe_nul\0junk"
    assert!(
        by_name(&e, "uverbs4")
            .ibdev_path
            .ends_with("class/infiniband/rxe_nul")
    );
    assert_eq!(
        by_name(&e, "uverbs5").ibdev_name.as_bytes(),
        b"rxe_\xff\xfe"
    );
    let uv6 = e
        .devices
        .iter()
        .find(|d| d.sysfs_name.as_bytes() == b"uverbs\xff6")
        .unwrap();
    assert_eq!(uv6.ibdev_name, "rxe_uv");
    assert!(
        uv6.cdev_path
            .as_os_str()
            .as_bytes()
            .ends_with(b"/uverbs\xff6")
    );
    // A read of bytes that starts with NUL: strtoul("") is 0 (rdma-core decodes that as unknown).
    assert_eq!(by_name(&e, "uverbs7").node_type_raw, Some(0));
    assert_eq!(by_name(&e, "uverbs7").abi_ver, 0);
    // "0002:c903" before the NUL: three fields short of a GUID.
    assert!(sysfs::read_node_guid(&by_name(&e, "uverbs9").ibdev_path).is_err());
    // "231:" before the NUL: no minor, the device is dropped.
    assert!(skip_reason(&e, "uverbs8").contains("not major:minor"));
}
