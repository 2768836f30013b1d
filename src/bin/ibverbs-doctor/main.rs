//! `ibverbs-doctor`: explains why RDMA does or does not work on this host, from the same code the
//! library decides with: the device scan (`ibverbs::device`: RDMA netlink, then the sysfs walk),
//! the provider configuration, directories and matching facts (`ibverbs::provider`, with
//! `provider::explain` giving each device's verdict and `provider::elfneed` the provider ABI a
//! file was built for), the environment as the library reads it (`ibverbs::env`) and the memlock
//! figures (`ibverbs::sys::limits`). rdma-core has no counterpart.
//!
//! It reports every RDMA device, its uverbs node and whether this user can open it, the provider
//! that would take it or why none would, the memlock limit, the fork-safety mode, the variables
//! in effect and the provider directories searched. Exit status: 0 when at least one device is
//! usable, 1 when none is, 2 for a usage error. It loads no provider and writes no file.
#![forbid(unsafe_code)]

mod devices;
mod host;

use std::ffi::OsString;
use std::path::PathBuf;

const USAGE: &str = "usage: ibverbs-doctor [--sysfs DIR] [--dev-dir DIR] [--no-netlink]

Explains this host's RDMA set-up as libibverbs (ibverbs-rs) sees it: every device (RDMA netlink
and sysfs), its uverbs node and whether this user can open it, the provider that takes it or why
none does, the memlock limit, fork safety, the environment variables in effect and the provider
directories searched. Exit status 0 when at least one device is usable, 1 when none is.

  --sysfs DIR     the sysfs root to read (default: SYSFS_PATH as the library reads it, else /sys)
  --dev-dir DIR   where the uverbs nodes are (default /dev/infiniband)
  --no-netlink    scan sysfs only, as the library does when RDMA netlink is unavailable
";

/// What the command line asked for.
pub struct Options {
    pub sysfs: PathBuf,
    pub dev_dir: PathBuf,
    pub netlink: bool,
}

fn parse(args: Vec<OsString>) -> Result<Options, String> {
    let mut o = Options {
        sysfs: ibverbs::device::sysfs::sysfs_path().to_path_buf(),
        dev_dir: PathBuf::from(ibverbs::device::RDMA_CDEV_DIR),
        netlink: true,
    };
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.to_str() {
            Some("--sysfs") => o.sysfs = it.next().ok_or("--sysfs needs a directory")?.into(),
            Some("--dev-dir") => o.dev_dir = it.next().ok_or("--dev-dir needs a directory")?.into(),
            Some("--no-netlink") => o.netlink = false,
            Some("-h" | "--help") => {
                print!("{USAGE}");
                std::process::exit(0);
            }
            Some("--version") => {
                println!("ibverbs-doctor {}", env!("CARGO_PKG_VERSION"));
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {}", a.to_string_lossy())),
        }
    }
    Ok(o)
}

fn main() {
    let o = match parse(std::env::args_os().skip(1).collect()) {
        Ok(o) => o,
        Err(e) => {
            eprint!("ibverbs-doctor: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let abis: Vec<String> = ibverbs::provider::SUPPORTED_PROVIDER_ABIS
        .iter()
        .map(u32::to_string)
        .collect();
    println!(
        "ibverbs-doctor {} (libibverbs.so.1 from ibverbs-rs; provider ABIs {})",
        env!("CARGO_PKG_VERSION"),
        abis.join(", ")
    );
    let providers = host::Providers::read();
    let usable = devices::report(&o, &providers);
    host::report_memlock();
    host::report_fork();
    host::report_environment();
    providers.report();
    println!();
    match usable {
        0 => {
            println!("verdict: no usable RDMA device");
            std::process::exit(1);
        }
        n => println!(
            "verdict: {n} usable RDMA device{}",
            if n == 1 { "" } else { "s" }
        ),
    }
}
