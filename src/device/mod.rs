//! Device enumeration: which RDMA devices this process can use, as plain Rust records.
//!
//! Answers to rdma-core's `libibverbs/init.c` (`find_sysfs_devs`, `setup_sysfs_dev`,
//! `setup_sysfs_uverbs`, `try_access_device`, `decode_knode_type`, `check_abi_version`,
//! `same_sysfs_dev`, the transport switch of `try_driver`) and `libibverbs/ibdev_nl.c`
//! (`find_sysfs_devs_nl`). Submodules:
//! - [`sysfs`]: `libibverbs/sysfs.c` (sysfs root, file reading) and the sysfs walk;
//! - [`netlink`]: the RDMA netlink wire format (pure encode/decode, no I/O);
//! - [`nldev`]: the netlink enumeration (`ibdev_nl.c` with `util/rdma_nl.c`);
//! - [`node`]: node type decoding and transport derivation;
//! - [`scan`]: the C number-scanning rules (`strtoul`, `sscanf("%u")`, `sscanf("%hx")`);
//! - [`records`]: the listed devices across rescans, keyed by their uverbs identity;
//! - [`rtnl`], [`neigh`], [`rtnl_io`]: the NETLINK_ROUTE codec, the layer-2 resolution of
//!   `ibv_resolve_eth_l2_from_gid` (`libibverbs/neigh.c`) and its kernel transport.
//!
//! # What the C glue does with this
//!
//! `ibv_get_device_list` (rdma-core's `ibverbs_get_device_list`) runs, under its list lock:
//! 1. `enumerate(sysfs::sysfs_path(), true)`; `Err(e)` means the call fails with `errno = e`
//!    (`ENOSYS` when neither netlink nor `<sysfs>/class/infiniband_verbs` is there).
//!    `skipped` and `warnings` go to the verbs log; nothing else depends on them.
//! 2. If `devices` is not empty and the process-wide kernel ABI is still unknown (0): take
//!    `kernel_abi_ver` when netlink reported it, else [`sysfs::check_abi_version`]. rdma-core
//!    stores the value it read even when it is out of range and then fails with `ENOSYS`; the
//!    next call sees a non-zero value and does not check again. Any failure: `errno = ENOSYS`.
//! 3. Rescan ([`records::Records::rescan`], linear in the number of devices): an existing
//!    `verbs_device` whose record is [`same_sysfs_dev`] as a new one is kept (the new record
//!    dropped); existing devices with no match are released. A device is its uverbs node, never
//!    its IB device name (several nodes may name one).
//! 4. Each remaining record is offered to the providers (driver id first, then name, then
//!    modalias). A new `verbs_sysfs_dev` is filled field for field from [`SysfsDev`]:
//!    `sysfs_name`, `sysfs_cdev`, `ibdev_name`, `ibdev_path`, `modalias` (empty when `None`),
//!    `node_guid` (host order, see below), `driver_id` (`None` → `RDMA_DRIVER_UNKNOWN`),
//!    `node_type` (`NodeType as i32`), `ibdev_idx` (`None` → -1), `num_ports`, `abi_ver`,
//!    `time_created`, `flags`. The `ibv_device` gets `dev_name = sysfs_name`,
//!    `dev_path = sysfs_path`, `name = ibdev_name`, `ibdev_path`, `node_type` and
//!    `transport_type = node::transport_of(node_type)`.
//! 5. The list order is `devices` order (the order the kernel or `readdir` reported them; rdma-core
//!    reverses twice through list heads, so its first scan shows the same order). New records are
//!    offered to the providers in reverse order, and on a rescan the devices bound then go before
//!    the kept ones (rdma-core prepends each).
//!
//! `ibv_get_device_guid` returns `node_guid.to_be()` when `flags` has
//! [`VSYSFS_READ_NODE_GUID`]; otherwise it re-reads `node_guid` with [`sysfs::read_node_guid`]
//! (0 when that fails), exactly like rdma-core's lazy read.
#![forbid(unsafe_code)]

pub mod neigh;
pub mod netlink;
pub mod nldev;
pub mod node;
pub mod query;
pub mod records;
pub mod rtnl;
pub mod rtnl_io;
pub mod scan;
pub mod sysfs;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::errno::Errno;
pub use node::{NodeType, Transport};

/// `IBV_SYSFS_NAME_MAX`: size of the name buffers, terminating NUL included.
pub const IBV_SYSFS_NAME_MAX: usize = 64;
/// `IBV_SYSFS_PATH_MAX`: size of the path buffers, terminating NUL included.
pub const IBV_SYSFS_PATH_MAX: usize = 256;
/// Size of `verbs_sysfs_dev.modalias`, terminating NUL included.
pub const MODALIAS_MAX: usize = 512;
/// Oldest global uverbs ABI the library accepts (`IB_USER_VERBS_MIN_ABI_VERSION`).
pub const IB_USER_VERBS_MIN_ABI_VERSION: i32 = 3;
/// Newest global uverbs ABI the library accepts (`IB_USER_VERBS_MAX_ABI_VERSION`).
pub const IB_USER_VERBS_MAX_ABI_VERSION: i32 = 6;
/// The global uverbs ABI a kernel implies when it answers `GET_CHARDEV` for "uverbs".
pub const NETLINK_UVERBS_ABI_VERSION: i32 = 6;
/// `verbs_sysfs_dev.flags`: `modalias` has been read (possibly as empty).
pub const VSYSFS_READ_MODALIAS: u32 = 1 << 0;
/// `verbs_sysfs_dev.flags`: `node_guid` holds the GUID.
pub const VSYSFS_READ_NODE_GUID: u32 = 1 << 1;
/// `RDMA_DRIVER_UNKNOWN` of `enum rdma_driver_id`.
pub const RDMA_DRIVER_UNKNOWN: u32 = 0;
/// Where the uverbs character devices live (`RDMA_CDEV_DIR`; not under the sysfs root).
pub const RDMA_CDEV_DIR: &str = "/dev/infiniband";

/// A `struct timespec` as plain integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Timespec {
    pub sec: i64,
    pub nsec: i64,
}

/// How a record's uverbs character device was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoundBy {
    /// The sysfs walk of `<sysfs>/class/infiniband_verbs`.
    SysfsWalk,
    /// Netlink `GET_CHARDEV`.
    Netlink,
    /// Netlink device dump, uverbs node from `<ibdev_path>/device/infiniband_verbs`.
    NetlinkThenSysfs,
}

/// One usable RDMA device: everything rdma-core's `struct verbs_sysfs_dev` holds except the
/// list linkage and the provider's fields (`provider_data`, `match`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SysfsDev {
    /// The uverbs class device name, `uverbsN` (`ibv_device.dev_name`): bytes, as the directory
    /// entry or the netlink reply gave them.
    pub sysfs_name: OsString,
    /// The character device number as glibc's `dev_t` (`makedev(major, minor)`).
    pub sysfs_cdev: u64,
    /// `/dev/infiniband/<sysfs_name>`, the node the context will open.
    pub cdev_path: PathBuf,
    /// The IB device name, e.g. `rxe0` or `mlx5_0` (`ibv_device.name`): the bytes of `ibdev` up to
    /// its first NUL, as C reads them.
    pub ibdev_name: OsString,
    /// `<sysfs>/class/infiniband/<ibdev_name>` (`ibv_device.ibdev_path`).
    pub ibdev_path: PathBuf,
    /// `<sysfs>/class/infiniband_verbs/<sysfs_name>` (`ibv_device.dev_path`).
    pub sysfs_path: PathBuf,
    /// `<ibdev_path>/device/modalias` if it could be read (PCI devices: `pci:v…d…sv…`).
    pub modalias: Option<OsString>,
    /// The node GUID in host byte order, as rdma-core keeps it in `verbs_sysfs_dev.node_guid`
    /// (a plain `uint64_t`; `ibv_get_device_guid` converts to big endian on return). `None`
    /// when neither netlink nor `node_guid` in sysfs gave a well-formed value.
    pub node_guid: Option<u64>,
    /// `RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID` (`enum rdma_driver_id`); netlink only.
    pub driver_id: Option<u32>,
    /// The kernel's node type number (`RDMA_NODE_*`), if it could be read.
    pub node_type_raw: Option<u32>,
    /// `node_type_raw` decoded; [`NodeType::Unknown`] when unreadable or not a known value.
    pub node_type: NodeType,
    /// The kernel's device index (netlink only; `-1` in C otherwise).
    pub ibdev_idx: Option<u32>,
    /// Number of ports as netlink reports it; 0 from the sysfs walk, as in rdma-core.
    pub num_ports: u32,
    /// The per-device uverbs ABI (`abi_version` of the uverbs device, or netlink's).
    pub abi_ver: u32,
    /// mtime of `ibdev_path` when the uverbs node came from sysfs, else zero; rdma-core uses it
    /// to notice a device re-created under the same name when there is no index.
    pub time_created: Timespec,
    /// `VSYSFS_READ_*` bits describing which lazily-read fields are already filled.
    pub flags: u32,
    /// Which path produced this record.
    pub found_by: FoundBy,
}

impl SysfsDev {
    /// Major number of `sysfs_cdev`.
    pub fn cdev_major(&self) -> u32 {
        scan::dev_major(self.sysfs_cdev)
    }

    /// Minor number of `sysfs_cdev`.
    pub fn cdev_minor(&self) -> u32 {
        scan::dev_minor(self.sysfs_cdev)
    }

    /// `ibdev_idx` as the C `int` rdma-core stores (-1 when there is none).
    pub fn ibdev_idx_c(&self) -> i32 {
        self.ibdev_idx.map_or(-1, |i| i as i32)
    }

    /// The transport rdma-core derives from the node type.
    pub fn transport(&self) -> Transport {
        node::transport_of(self.node_type)
    }
}

/// A device left out, or an oddity noticed, with the reason in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The uverbs or IB device name the message is about (bytes that are not UTF-8 shown as U+FFFD).
    pub name: String,
    pub message: String,
}

/// Where the device list came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Netlink,
    Sysfs,
}

/// The result of one scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// Usable devices, in discovery order.
    pub devices: Vec<SysfsDev>,
    /// Devices rdma-core would silently drop, with why.
    pub skipped: Vec<Diagnostic>,
    /// Values rdma-core tolerates (device kept) that were not clean: garbage numbers, malformed GUID.
    pub warnings: Vec<Diagnostic>,
    pub source: Source,
    /// Why netlink was not used (when `source` is `Sysfs` and netlink was asked for), when the
    /// socket opened but the device dump failed.
    pub netlink_error: Option<String>,
    /// The errno of opening the `NETLINK_RDMA` socket, when that failed (kept as a number: it
    /// is the usual case without RDMA netlink, and only the debug log words it).
    pub netlink_socket_error: Option<Errno>,
    /// The global uverbs ABI implied by netlink (`Some(6)` once any `GET_CHARDEV` answered).
    pub kernel_abi_ver: Option<i32>,
}

impl Enumeration {
    fn new(source: Source) -> Enumeration {
        Enumeration {
            devices: Vec::new(),
            skipped: Vec::new(),
            warnings: Vec::new(),
            source,
            netlink_error: None,
            netlink_socket_error: None,
            kernel_abi_ver: None,
        }
    }

    fn skip(&mut self, name: impl AsRef<OsStr>, message: impl Into<String>) {
        self.skipped.push(Diagnostic {
            name: name.as_ref().to_string_lossy().into_owned(),
            message: message.into(),
        });
    }

    fn warn(&mut self, name: impl AsRef<OsStr>, message: impl Into<String>) {
        self.warnings.push(Diagnostic {
            name: name.as_ref().to_string_lossy().into_owned(),
            message: message.into(),
        });
    }
}

/// Scan for devices under the sysfs root `root`, with the real `/dev/infiniband` and, when
/// `use_netlink`, a real `NETLINK_RDMA` socket.
///
/// Fallback rule (rdma-core's `ibverbs_get_device_list`): netlink is tried first. If the socket
/// cannot be opened (`EPROTONOSUPPORT` without the RDMA core, a seccomp filter…) or the device
/// dump fails as a whole (send/receive error, an `NLMSG_ERROR` such as `EOPNOTSUPP`/`EINVAL`
/// from a kernel without `RDMA_NLDEV_CMD_GET`, a malformed reply), whatever netlink found is
/// discarded and the sysfs walk decides alone, including its `ENOSYS` when
/// `class/infiniband_verbs` is missing. A successful dump is final even with zero devices. Per
/// device, a failed `GET_CHARDEV` falls back to `<ibdev_path>/device/infiniband_verbs`
/// (see [`nldev`]).
pub fn enumerate(root: &Path, use_netlink: bool) -> Result<Enumeration, Errno> {
    let cdev_dir = Path::new(RDMA_CDEV_DIR);
    if use_netlink {
        match nldev::KernelTransport::open() {
            Ok(mut t) => return enumerate_with(root, cdev_dir, Some(&mut t)),
            Err(e) => {
                let mut en = sysfs::find_sysfs_devs(root, cdev_dir)?;
                en.netlink_socket_error = Some(e);
                return Ok(en);
            }
        }
    }
    sysfs::find_sysfs_devs(root, cdev_dir)
}

/// [`enumerate`] with the character device directory and the netlink transport injected
/// (tests use a directory of plain files and canned netlink replies).
pub fn enumerate_with(
    root: &Path,
    cdev_dir: &Path,
    nl: Option<&mut dyn nldev::NlTransport>,
) -> Result<Enumeration, Errno> {
    if let Some(t) = nl {
        match nldev::find_sysfs_devs_nl(root, cdev_dir, t) {
            Ok(en) => return Ok(en),
            Err(reason) => {
                let mut en = sysfs::find_sysfs_devs(root, cdev_dir)?;
                en.netlink_error = Some(reason);
                return Ok(en);
            }
        }
    }
    sysfs::find_sysfs_devs(root, cdev_dir)
}

/// rdma-core's `try_access_device`: can `<cdev_dir>/<sysfs_name>` be `stat`ed? The real errno on
/// failure (rdma-core only tests for non-zero).
pub fn try_access_device(cdev_dir: &Path, sysfs_name: impl AsRef<OsStr>) -> Result<(), Errno> {
    let path = cdev_path(cdev_dir, sysfs_name.as_ref());
    std::fs::metadata(&path)
        .map(|_| ())
        .map_err(|e| io_errno(&e))
}

/// rdma-core's `same_sysfs_dev`: does a rescan's record denote an already known device? Same
/// uverbs name and index, and without an index also the same creation time.
pub fn same_sysfs_dev(a: &SysfsDev, b: &SysfsDev) -> bool {
    a.sysfs_name == b.sysfs_name
        && a.ibdev_idx == b.ibdev_idx
        && (a.ibdev_idx.is_some() || a.time_created == b.time_created)
}

/// `<cdev_dir>/<sysfs_name>`, formed as a string like rdma-core's `"%s/%s"`.
pub(crate) fn cdev_path(cdev_dir: &Path, sysfs_name: &OsStr) -> PathBuf {
    let mut s = cdev_dir.as_os_str().to_owned();
    s.push("/");
    s.push(sysfs_name);
    PathBuf::from(s)
}

/// The errno of an I/O error (`EIO` if it carries none).
pub(crate) fn io_errno(e: &std::io::Error) -> Errno {
    Errno(e.raw_os_error().unwrap_or(libc::EIO))
}

/// An errno in words, for diagnostics: "No such file or directory (os error 2)".
pub(crate) fn errno_text(e: Errno) -> String {
    std::io::Error::from_raw_os_error(e.0).to_string()
}
