//! The device part of the report: each device the library's scan finds (or skips), its uverbs
//! node and the provider verdict.

use std::ffi::OsStr;
use std::io::ErrorKind;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;

use ibverbs::device::{self, FoundBy, SysfsDev, nldev, sysfs};
use ibverbs::provider::explain::{Reason, Verdict, assess};
use ibverbs::provider::matcher::{Device, ReadModalias};

use crate::Options;
use crate::host::Providers;

/// Print the device section; the number of usable devices.
pub fn report(o: &Options, providers: &Providers) -> usize {
    println!();
    println!(
        "== devices (sysfs {}, nodes in {})",
        o.sysfs.display(),
        o.dev_dir.display()
    );
    let en = if o.netlink {
        match nldev::KernelTransport::open() {
            Ok(mut t) => device::enumerate_with(&o.sysfs, &o.dev_dir, Some(&mut t)),
            Err(e) => {
                println!(
                    "RDMA netlink: unavailable ({}); the library then walks sysfs",
                    std::io::Error::from_raw_os_error(e.0)
                );
                device::enumerate_with(&o.sysfs, &o.dev_dir, None)
            }
        }
    } else {
        println!("RDMA netlink: not asked (--no-netlink); walking sysfs");
        device::enumerate_with(&o.sysfs, &o.dev_dir, None)
    };
    let en = match en {
        Ok(en) => en,
        Err(e) => {
            println!(
                "no devices: {}/class/infiniband_verbs cannot be read ({}): the kernel has no uverbs devices here (is ib_uverbs loaded? does this container see the host's sysfs?)",
                o.sysfs.display(),
                std::io::Error::from_raw_os_error(e.0)
            );
            return 0;
        }
    };
    if let Some(why) = &en.netlink_error {
        println!("RDMA netlink: the device dump failed ({why}); the library then walks sysfs");
    }
    let dev_dir_missing = !o.dev_dir.is_dir();
    if dev_dir_missing {
        println!(
            "{} does not exist: no device can be opened. In a container, pass the devices in (docker run --device=/dev/infiniband/uverbs0 ..., or -v /dev/infiniband:/dev/infiniband); on a host, load ib_uverbs",
            o.dev_dir.display()
        );
    }
    if !en.devices.is_empty() {
        let global = match en.kernel_abi_ver {
            Some(v) => Ok(v),
            None => sysfs::check_abi_version(&o.sysfs),
        };
        match global {
            Ok(v) => println!("kernel uverbs ABI: {v} (the library accepts 3 to 6)"),
            Err(sysfs::AbiVersionError::OutOfRange(v)) => {
                println!(
                    "kernel uverbs ABI: {v}, outside the 3 to 6 the library accepts: ibv_get_device_list fails (ENOSYS)"
                );
                return 0;
            }
            Err(sysfs::AbiVersionError::Unreadable(e)) => {
                println!("kernel uverbs ABI: unreadable ({e}): ibv_get_device_list fails (ENOSYS)");
                return 0;
            }
        }
    }
    let mut usable = 0;
    for d in &en.devices {
        if one_device(d, providers) {
            usable += 1;
        }
    }
    for s in &en.skipped {
        println!();
        println!("{}: skipped by the library: {}", s.name, s.message);
    }
    for w in &en.warnings {
        println!("  note ({}): {}", w.name, w.message);
    }
    kernel_only(&o.sysfs, &en.devices);
    if en.devices.is_empty() && en.skipped.is_empty() {
        println!("no RDMA device with a uverbs node");
    }
    usable
}

/// One device; whether it is usable.
fn one_device(d: &SysfsDev, providers: &Providers) -> bool {
    println!();
    let by = match d.found_by {
        FoundBy::Netlink => "netlink",
        FoundBy::NetlinkThenSysfs => "netlink, uverbs node from sysfs",
        FoundBy::SysfsWalk => "sysfs walk",
    };
    println!(
        "{} ({}, found by {by})",
        d.ibdev_name.to_string_lossy(),
        d.sysfs_name.to_string_lossy()
    );
    let dev = as_match_device(d);
    println!("  {}", ibverbs::provider::explain::describe(&dev));
    println!(
        "  {}, transport {}, uverbs ABI {}",
        node_type_text(d.node_type),
        transport_text(d.transport()),
        d.abi_ver
    );
    let node_ok = node(&d.cdev_path, d);
    let provider_ok = match assess(&dev, &providers.seen()) {
        Verdict::Chosen { provider, file, or } => {
            match file {
                Some(f) => match &f.layout {
                    Some(l) => println!(
                        "  provider: {provider}, from {} (provider ABI {}, {l})",
                        f.path.display(),
                        f.abi
                    ),
                    None => println!(
                        "  provider: {provider}, from {} (provider ABI {})",
                        f.path.display(),
                        f.abi
                    ),
                },
                None => println!("  provider: {provider}"),
            }
            if !or.is_empty() {
                println!(
                    "  (claimed by PCI vendor only, as are {}: the device ids in their match tables decide which takes it)",
                    or.join(", ")
                );
            }
            true
        }
        Verdict::Unknown { names } => {
            println!(
                "  provider: none of rdma-core's providers claims it; configured names rdma-core does not ship ({}) might (only loading them tells)",
                names.join(", ")
            );
            false
        }
        Verdict::None(r) => {
            println!("  provider: none: {r}");
            if let Reason::OtherAbi { .. } = r {
                println!(
                    "  (providers come from your distribution's ibverbs-providers, or a build of rdma-core; IBVERBS_RS_PROVIDER_DIR points the library at another set)"
                );
            }
            false
        }
    };
    let ok = node_ok && provider_ok;
    println!("  usable: {}", if ok { "yes" } else { "no" });
    ok
}

/// The uverbs node: what it is and whether this user can open it read-write.
fn node(path: &Path, d: &SysfsDev) -> bool {
    let md = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            println!("  node {}: {e}", path.display());
            return false;
        }
    };
    let kind = if md.file_type().is_char_device() {
        let (maj, min) = (d.cdev_major(), d.cdev_minor());
        let rdev = md.rdev();
        let same = libc::major(rdev) == maj && libc::minor(rdev) == min;
        format!(
            "character device {}:{}{}",
            libc::major(rdev),
            libc::minor(rdev),
            if same {
                ""
            } else {
                " (sysfs says another number)"
            }
        )
    } else {
        "not a character device".into()
    };
    let mode = md.permissions().mode() & 0o7777;
    let owner = format!("uid {} gid {}", md.uid(), md.gid());
    match std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
    {
        Ok(_) => {
            println!(
                "  node {}: {kind}, mode {mode:04o}, {owner}: this user can open it",
                path.display()
            );
            true
        }
        Err(e) => {
            let hint = if e.kind() == ErrorKind::PermissionDenied {
                " (make it readable and writable for this user: the rdma group, or a udev rule such as rdma-core's 90-rdma-umad/uverbs rules)"
            } else {
                ""
            };
            println!(
                "  node {}: {kind}, mode {mode:04o}, {owner}: this user cannot open it: {e}{hint}",
                path.display()
            );
            false
        }
    }
}

/// IB devices in sysfs without a uverbs node (kernel-only: ib_uverbs not loaded or unbound).
fn kernel_only(sysfs: &Path, listed: &[SysfsDev]) {
    let Ok(rd) = std::fs::read_dir(sysfs.join("class/infiniband")) else {
        return;
    };
    let mut names: Vec<_> = rd.map_while(Result::ok).map(|e| e.file_name()).collect();
    names.sort();
    for n in names {
        if listed.iter().any(|d| d.ibdev_name == n) {
            continue;
        }
        let has_uverbs = sysfs
            .join("class/infiniband")
            .join(&n)
            .join("device/infiniband_verbs")
            .is_dir();
        if !has_uverbs {
            println!();
            println!(
                "{}: an RDMA device without a uverbs node: programs cannot use it (is ib_uverbs loaded?)",
                n.to_string_lossy()
            );
        }
    }
}

fn node_type_text(n: device::NodeType) -> &'static str {
    use device::NodeType::*;
    match n {
        Ca => "channel adapter",
        Switch => "switch",
        Router => "router",
        Rnic => "RNIC",
        Usnic => "usNIC",
        UsnicUdp => "usNIC UDP",
        Unspecified => "unspecified node type",
        Unknown => "unknown node type",
    }
}

fn transport_text(t: device::Transport) -> &'static str {
    use device::Transport::*;
    match t {
        Ib => "InfiniBand or RoCE",
        Iwarp => "iWARP",
        Usnic => "usNIC",
        UsnicUdp => "usNIC UDP",
        Unspecified => "unspecified",
        Unknown => "unknown",
    }
}

fn as_match_device(r: &SysfsDev) -> Device {
    Device {
        ibdev_name: r.ibdev_name.as_bytes().to_vec(),
        ibdev_path: r.ibdev_path.as_os_str().as_bytes().to_vec(),
        driver_id: r.driver_id,
        modalias: r.modalias.as_ref().map(|m| OsStr::as_bytes(m).to_vec()),
        abi_ver: r.abi_ver,
        read_modalias: Some(ReadModalias::new(sysfs::read_modalias)),
    }
}
