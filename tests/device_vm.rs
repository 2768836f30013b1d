//! Enumeration against a real RDMA kernel. Ignored by default; run inside the soft-RoCE guest:
//!   cargo test --release --test device_vm --no-run
//!   /work/main/tools/rdma-vm -- target/release/deps/device_vm-<hash> --ignored --nocapture
//! It prints both paths' records and checks them against `ibv_devices`, `ibv_devinfo` and
//! `rdma dev` (rdma-core's own tools, installed on this machine).
use std::process::Command;

use ibverbs::device::scan::format_guid;
use ibverbs::device::{self, Source, Transport, sysfs};

fn run(cmd: &str, args: &[&str]) -> String {
    let out = Command::new(cmd)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{cmd}: {e}"));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
#[ignore = "needs a machine with RDMA devices (tools/rdma-vm)"]
fn enumerate_real_devices() {
    let root = sysfs::sysfs_path();
    let nl = device::enumerate(root, true).expect("netlink enumeration");
    let walk = device::enumerate(root, false).expect("sysfs enumeration");
    for (label, e) in [("netlink", &nl), ("sysfs", &walk)] {
        println!(
            "== {label}: source {:?}, netlink_error {:?}, kernel_abi_ver {:?}",
            e.source, e.netlink_error, e.kernel_abi_ver
        );
        for d in &e.devices {
            println!("{d:#?}");
            println!(
                "   -> {} {} guid {} node_type {:?} transport {:?} cdev {}:{}",
                d.ibdev_name.to_string_lossy(),
                d.sysfs_name.to_string_lossy(),
                d.node_guid.map(format_guid).unwrap_or_default(),
                d.node_type,
                d.transport(),
                d.cdev_major(),
                d.cdev_minor()
            );
        }
        for s in &e.skipped {
            println!("   skipped {}: {}", s.name, s.message);
        }
        for w in &e.warnings {
            println!("   warning {}: {}", w.name, w.message);
        }
    }
    println!("== check_abi_version: {:?}", sysfs::check_abi_version(root));

    assert_eq!(nl.source, Source::Netlink, "{:?}", nl.netlink_error);
    assert_eq!(walk.source, Source::Sysfs);
    assert!(!nl.devices.is_empty());
    assert_eq!(nl.devices.len(), walk.devices.len());

    let ibv_devices = run("ibv_devices", &[]);
    let ibv_devinfo = run("ibv_devinfo", &[]);
    let rdma_dev = run("rdma", &["dev"]);
    println!("== ibv_devices\n{ibv_devices}== rdma dev\n{rdma_dev}");
    for d in &nl.devices {
        let w = walk
            .devices
            .iter()
            .find(|w| w.sysfs_name == d.sysfs_name)
            .expect("same device in the walk");
        assert_eq!(
            (&w.ibdev_name, w.node_guid, w.node_type, w.sysfs_cdev),
            (&d.ibdev_name, d.node_guid, d.node_type, d.sysfs_cdev)
        );
        assert_eq!(w.abi_ver, d.abi_ver);
        let name = d
            .ibdev_name
            .to_str()
            .expect("a kernel device name is ASCII");
        // ibv_devices: "<name> <16 hex digits of the GUID>"
        let guid_hex = format!("{:016x}", d.node_guid.unwrap());
        assert!(
            ibv_devices
                .lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>() == [name, guid_hex.as_str()]),
            "{name} {guid_hex} not in ibv_devices"
        );
        // ibv_devinfo: hca_id, transport, node_guid
        let block = ibv_devinfo
            .split("hca_id:")
            .find(|b| b.trim_start().starts_with(name))
            .expect("hca block");
        assert!(block.contains(&format_guid(d.node_guid.unwrap())));
        let transport = match d.transport() {
            Transport::Ib => "InfiniBand (0)",
            Transport::Iwarp => "iWARP (1)",
            _ => "",
        };
        assert!(block.contains(transport), "{block}");
        // rdma dev: "<idx>: <name>: node_type ca node_guid …"
        let idx_line = format!("{}: {name}: ", d.ibdev_idx.unwrap());
        assert!(
            rdma_dev.lines().any(|l| l.starts_with(&idx_line)),
            "{idx_line} not in rdma dev"
        );
        assert!(d.cdev_path.exists());
    }
}
