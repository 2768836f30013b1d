//! The process's device list and the provider glue behind it (rdma-core: device.c
//! `ibv_get_device_list`'s list, init.c `ibverbs_init`, `ibverbs_get_device_list`, `try_driver`,
//! `ibverbs_device_hold`/`ibverbs_device_put`; `verbs_register_driver` is in [`register`]).
//!
//! Not exports: the exports in `device.rs` and `driver.rs` call in here. This is the one place that
//! turns the plain records of [`crate::device`] and the decisions of [`crate::provider`] into the C
//! objects providers walk (`verbs_sysfs_dev`, `verbs_device`), so its `unsafe` is the FFI edge.
//!
//! Locking: [`LIST`] is held only to read or splice the list, never across a provider call or a
//! dlopen (a provider's constructor registers itself from inside dlopen, and `alloc_device` may do
//! anything). Two threads rescanning at once may both offer a new device to its provider; the
//! second to splice finds the device already listed and releases its copy.
//!
//! Called by [`capi::device`](crate::capi::device) (the list exports),
//! [`capi::driver`](crate::capi::driver) (registration) and
//! [`verbs::context`](crate::verbs::context); calls `device`, `provider`, `fork` and `log`.
use core::ffi::{CStr, c_char};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};

use crate::sys::sync::{Mutex, MutexGuard, OnceLock};

use crate::abi::ctype::CEnum;
use crate::abi::driver::pabi;
use crate::abi::driver::{verbs_device, verbs_device_ops, verbs_sysfs_dev};
use crate::abi::verbs::ibv_device;
use crate::device::records::Records;
use crate::device::{self, SysfsDev, sysfs};
use crate::errno::{Errno, Result};
use crate::log;
use crate::provider::config::{ProviderList, ProviderName};
use crate::provider::matcher::{Device, Hooks, MatchState, ReadModalias};
use crate::provider::registry::{DriverEntry, REGISTRY};
use crate::provider::{config, hints, loader, session};

/// rdma-core's prefix for what it prints on stderr.
mod register;
pub(crate) use register::{ops_abi, register_driver};

const PFX: &str = "libibverbs: ";

/// A provider-allocated device. Raw, because the provider owns the memory and may free it in
/// `uninit_device`; we only ever hold the pointer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct VdevPtr(pub *mut verbs_device);
// SAFETY: a verbs_device is shared by every thread of the process in rdma-core too; its refcount
// is atomic and the rest is immutable after try_driver.
unsafe impl Send for VdevPtr {}

/// The listed devices, keyed by their uverbs identity ([`device::records`]).
static LIST: Mutex<Records<VdevPtr>> = Mutex::new(Records::new());

/// The process-wide uverbs ABI (rdma-core's static `abi_ver`): 0 until read once.
static KERNEL_ABI: AtomicI32 = AtomicI32::new(0);

fn list() -> MutexGuard<'static, Records<VdevPtr>> {
    LIST.lock().unwrap_or_else(|e| e.into_inner())
}

/// `ibverbs_init`, once per process: environment switches, the memlock warning.
fn init_once() {
    static INIT: OnceLock<()> = OnceLock::new();
    INIT.get_or_init(|| {
        // helgrind: the library's static flags are atomics, not races.
        crate::sys::sync::atomic_static(&KERNEL_ABI);
        crate::sys::sync::atomic_static(&register::ANY_NEWER);
        crate::fork::atomics_for_helgrind();
        crate::provider::known::atomics_for_helgrind();
        let get = crate::env::real;
        if crate::env::fork_safe(get) && crate::fork::fork_init().is_err() {
            eprintln!("{PFX}Warning: fork()-safety requested but init failed");
        }
        if crate::env::allow_disassoc_destroy(get) {
            crate::verbs::disassoc::set_allow_disassociate_destroy(true);
        }
        check_memlock_limit();
        // The verbs log reads its environment on first use; touch it now as rdma-core does.
        let _ = log::enabled(log::VERBS_LOG_ERR);
    });
}

/// rdma-core's `check_memlock_limit`: a warning on stderr for non-root with a tiny limit.
fn check_memlock_limit() {
    if crate::sys::ids::geteuid() == 0 {
        return;
    }
    match crate::sys::memlock_limit() {
        None => eprint!("{PFX}Warning: getrlimit(RLIMIT_MEMLOCK) failed."),
        Some(cur) if cur <= 32768 => eprintln!(
            "{PFX}Warning: RLIMIT_MEMLOCK is {cur} bytes.\n    This will severely limit memory registrations."
        ),
        Some(_) => {}
    }
}

/// rdma-core's `check_abi_version`, with netlink's answer taken when it gave one.
fn check_abi_version(root: &Path, from_netlink: Option<i32>) -> Result<()> {
    if KERNEL_ABI.load(Ordering::Acquire) != 0 {
        return Ok(());
    }
    let v = match from_netlink {
        Some(v) => v,
        None => match sysfs::check_abi_version(root) {
            Ok(v) => v,
            Err(sysfs::AbiVersionError::Unreadable(_)) => return Err(Errno::ENOSYS),
            Err(sysfs::AbiVersionError::OutOfRange(v)) => {
                // Stored anyway: rdma-core's next call does not check again.
                KERNEL_ABI.store(v, Ordering::Release);
                eprintln!(
                    "{PFX}Fatal: kernel ABI version {v} doesn't match library version {}.",
                    device::IB_USER_VERBS_MAX_ABI_VERSION
                );
                return Err(Errno::ENOSYS);
            }
        },
    };
    KERNEL_ABI.store(v, Ordering::Release);
    Ok(())
}

/// The devices of one `ibv_get_device_list` call, each held once for the caller.
pub(crate) fn get_device_list() -> Result<Vec<*mut ibv_device>> {
    init_once();
    let root = sysfs::sysfs_path();
    let en = device::enumerate(root, true)
        .inspect_err(|e| super::explain::no_devices(root, Some(*e)))?;
    for d in &en.skipped {
        log::log(
            log::VERBS_LOG_WARN,
            format_args!("libibverbs: skipping device {}: {}", d.name, d.message),
        );
    }
    for d in &en.warnings {
        log::log(
            log::VERBS_LOG_INFO,
            format_args!("libibverbs: device {}: {}", d.name, d.message),
        );
    }
    if en.devices.is_empty() {
        super::explain::no_devices(root, None);
    }
    if let Some(why) = &en.netlink_error {
        log::log(
            log::VERBS_LOG_DEBUG,
            format_args!("libibverbs: netlink not used: {why}"),
        );
    }
    if let Some(e) = en.netlink_socket_error {
        log::log(
            log::VERBS_LOG_DEBUG,
            format_args!(
                "libibverbs: netlink not used: cannot open a NETLINK_RDMA socket: {}",
                std::io::Error::from_raw_os_error(e.0)
            ),
        );
    }
    if !en.devices.is_empty() {
        check_abi_version(root, en.kernel_abi_ver)?;
    }

    // Rescan: keep what is still there, release what vanished, offer the rest to providers.
    let scan = list().rescan(en.devices)?;
    for v in scan.gone {
        device_put(v);
    }
    let mut fresh = scan.new;

    // rdma-core offers new devices to the providers last-discovered first (its scan list is built
    // by prepending) and prepends each device it binds: a rescan's new devices come before the
    // kept ones, in discovery order, and per-device warnings come out in reverse order.
    fresh.reverse();
    let matched = match_new(root, &fresh);
    let bound: Vec<(SysfsDev, VdevPtr)> = fresh
        .into_iter()
        .zip(matched)
        .filter_map(|(rec, vdev)| Some((rec, vdev?)))
        .collect();
    // Devices another thread listed meanwhile come back: keep theirs.
    let dup = list().prepend(bound);
    for v in dup {
        device_put(v);
    }
    let l = list();
    let mut out = Vec::new();
    out.try_reserve_exact(l.len()).map_err(|_| Errno::ENOMEM)?;
    out.extend(l.iter().map(|(_, v)| {
        device_hold(*v);
        // SAFETY: `device` is the first member of a live verbs_device.
        unsafe { &raw mut (*v.0).device }
    }));
    Ok(out)
}

/// Offer each new device to the providers; None where no provider took it.
fn match_new(root: &Path, recs: &[SysfsDev]) -> Vec<Option<VdevPtr>> {
    if recs.is_empty() {
        return Vec::new();
    }
    let devices: Vec<Device> = recs.iter().map(as_match_device).collect();
    let mut states = vec![MatchState::default(); recs.len()];
    let mut hooks = CHooks {
        root,
        recs,
        base: devices.as_ptr() as usize,
        sysfs: recs.iter().map(|_| None).collect(),
    };
    let provider_dirs = loader::provider_dirs(crate::env::real, crate::env::trusted());
    let mut open = |pos: usize, name: &ProviderName| open_provider(pos, name, &provider_dirs);
    let mut hints = hints::StaticHints::new(&provider_dirs);
    let results = session::match_devices_with(
        &devices,
        &mut states,
        &REGISTRY,
        &session::PLAN,
        read_config,
        &mut open,
        &mut hints,
        &mut hooks,
    );
    let show = crate::env::show_warnings(crate::env::real);
    let mut out = Vec::with_capacity(recs.len());
    for (i, (r, rec)) in results.into_iter().zip(recs).enumerate() {
        match r {
            Some((_, vdev)) => out.push(Some(vdev)),
            None => {
                unmatched(i, rec, &devices, &mut hooks.sysfs, show, &provider_dirs);
                out.push(None);
            }
        }
    }
    out
}

/// Load the provider `name` (the `pos`th of the load order) for [`match_new`], and tell what
/// happened: rdma-core's warning on stderr when nothing loaded, a warning for each file of a
/// provider ABI this library lacks, and the loaded file at debug level.
fn open_provider(pos: usize, name: &ProviderName, provider_dirs: &[std::ffi::OsString]) {
    let out = loader::load_name(&REGISTRY, pos, name, provider_dirs);
    if let Some(w) = out.warning() {
        eprintln!("{PFX}{w}");
    }
    for w in out.foreign_warnings() {
        eprintln!("{PFX}{w}");
        log::log(log::VERBS_LOG_WARN, format_args!("libibverbs: {w}"));
    }
    if let Some((c, _)) = &out.loaded {
        log::log(
            log::VERBS_LOG_DEBUG,
            format_args!(
                "libibverbs: loaded provider {} (provider ABI {})",
                c.path.to_string_lossy(),
                c.abi
            ),
        );
    }
}

/// The provider names to load, for [`match_new`], read when it first needs them: the config
/// directory and the environment, each warning on stderr (and its detail in the log).
fn read_config() -> ProviderList {
    let dir = config::config_dir(crate::env::real, crate::env::trusted());
    let names = config::discover(&dir, crate::env::real, crate::env::trusted());
    for d in &names.diagnostics {
        eprintln!("{PFX}{}", d.text);
        log::log(
            log::VERBS_LOG_WARN,
            format_args!("libibverbs: {}", d.detail),
        );
    }
    names
}

/// The `i`th new device no provider took, for [`match_new`]: rdma-core's warning (when
/// warnings show), our explanation, and its sysfs record freed.
fn unmatched(
    i: usize,
    rec: &SysfsDev,
    devices: &[Device],
    sysfs: &mut [Option<*mut verbs_sysfs_dev>],
    show: bool,
    provider_dirs: &[std::ffi::OsString],
) {
    if show {
        // The name's bytes as they are, as rdma-core's fprintf("%s") writes them.
        let mut line =
            format!("{PFX}Warning: no userspace device-specific driver found for ").into_bytes();
        line.extend_from_slice(rec.ibdev_name.as_bytes());
        line.push(b'\n');
        let _ = std::io::Write::write_all(&mut std::io::stderr(), &line);
    }
    if let Some(d) = devices.get(i) {
        super::explain::no_provider(d, provider_dirs);
    }
    if let Some(p) = sysfs.get_mut(i).and_then(Option::take) {
        // SAFETY: allocated by alloc_sysfs_dev, not handed to any provider device.
        unsafe { libc::free(p.cast()) };
    }
}

fn as_match_device(r: &SysfsDev) -> Device {
    Device {
        ibdev_name: r.ibdev_name.as_bytes().to_vec(),
        ibdev_path: r.ibdev_path.as_os_str().as_bytes().to_vec(),
        driver_id: r.driver_id,
        modalias: r.modalias.as_ref().map(|m| m.as_bytes().to_vec()),
        abi_ver: r.abi_ver,
        read_modalias: Some(ReadModalias::new(sysfs::read_modalias)),
    }
}

/// Copy `s` into a fixed C char array, NUL-terminated, truncated to fit.
pub(crate) fn fill_cstr(dst: &mut [c_char], s: &[u8]) {
    let n = s.len().min(dst.len().saturating_sub(1));
    for (d, b) in dst.iter_mut().zip(&s[..n]) {
        *d = *b as c_char;
    }
    if let Some(z) = dst.get_mut(n) {
        *z = 0;
    }
}

/// A device's sysfs record as this library allocates it: the `verbs_sysfs_dev` providers see,
/// then the port count again, where no provider looks (a provider of rdma-core v34's layout reads
/// `abi_ver` in the `num_ports` slot: `CHooks::sysfs_for`).
#[repr(C)]
struct SysfsRecord {
    c: verbs_sysfs_dev,
    num_ports: u32,
}

/// The port count of a device's sysfs record (NULL: 0).
///
/// # Safety
/// `s` is NULL or a record this library made (every listed device's `sysfs` is), live.
#[inline(always)]
pub(crate) unsafe fn sysfs_num_ports(s: *const verbs_sysfs_dev) -> u32 {
    // SAFETY: the caller's contract: NULL or the start of a live SysfsRecord.
    unsafe { s.cast::<SysfsRecord>().as_ref() }.map_or(0, |r| r.num_ports)
}

/// A zeroed `verbs_sysfs_dev` (the start of a [`SysfsRecord`]) from libc's allocator (rdma-core
/// frees it with free()).
fn alloc_sysfs_dev(r: &SysfsDev) -> Option<*mut verbs_sysfs_dev> {
    // SAFETY: calloc of one zeroed struct; all-zero is a valid SysfsRecord.
    let p = unsafe { libc::calloc(1, size_of::<SysfsRecord>()) }.cast::<SysfsRecord>();
    if p.is_null() {
        return None;
    }
    // SAFETY: p is a fresh, exclusive allocation of the right size.
    unsafe { (*p).num_ports = r.num_ports };
    let p = p.cast::<verbs_sysfs_dev>();
    // SAFETY: p is a fresh, exclusive allocation of the right size.
    let s = unsafe { &mut *p };
    fill_cstr(&mut s.sysfs_name, r.sysfs_name.as_bytes());
    s.sysfs_cdev = r.sysfs_cdev as libc::dev_t;
    fill_cstr(&mut s.ibdev_name, r.ibdev_name.as_bytes());
    fill_cstr(
        &mut s.ibdev_path,
        r.ibdev_path.as_os_str().as_encoded_bytes(),
    );
    fill_cstr(
        &mut s.modalias,
        r.modalias.as_deref().map_or(&[][..], OsStr::as_bytes),
    );
    s.node_guid = r.node_guid.unwrap_or(0);
    s.driver_id = r.driver_id.unwrap_or(device::RDMA_DRIVER_UNKNOWN);
    s.node_type = CEnum::new(r.node_type as i32 as u32);
    s.ibdev_idx = r.ibdev_idx_c();
    s.num_ports = r.num_ports;
    s.abi_ver = r.abi_ver;
    s.time_created = libc::timespec {
        tv_sec: r.time_created.sec,
        tv_nsec: r.time_created.nsec,
    };
    s.flags = r.flags;
    Some(p)
}

/// The provider calls of `try_driver`.
struct CHooks<'a> {
    root: &'a Path,
    recs: &'a [SysfsDev],
    /// The address of the matcher's `Device` slice (`recs[i]` is its `i`th element).
    base: usize,
    /// The C record of each device, made when a provider first looks at it.
    sysfs: Vec<Option<*mut verbs_sysfs_dev>>,
}

impl CHooks<'_> {
    /// Which record `dev` is: its place in the slice the matcher walks, not its name or path
    /// (several uverbs nodes may name one IB device).
    fn index(&self, dev: &Device) -> usize {
        (core::ptr::from_ref(dev) as usize).wrapping_sub(self.base) / size_of::<Device>()
    }

    /// The device's C record, brought up to date with the matcher's state.
    fn sysfs_for(
        &mut self,
        p: &DriverEntry,
        dev: &Device,
        st: &MatchState,
    ) -> Option<*mut verbs_sysfs_dev> {
        let i = self.index(dev);
        let rec = self.recs.get(i)?;
        let slot = self.sysfs.get_mut(i)?;
        if slot.is_none() {
            *slot = alloc_sysfs_dev(rec);
        }
        let s = (*slot)?;
        let ops = p.token as *const verbs_device_ops;
        // SAFETY: s is ours (exclusive until a provider device takes it).
        let sr = unsafe { &mut *s };
        sr.r#match = match st.current {
            Some(m) if m.provider == p.token => {
                // SAFETY: ops is a registered provider's static ops table.
                let table = unsafe { (*ops).match_table };
                // SAFETY: `entry` indexes that match table below its sentinel.
                unsafe { table.add(m.entry) }
            }
            _ => core::ptr::null(),
        };
        // rdma-core v34's verbs_sysfs_dev has no num_ports: its abi_ver sits there (v35
        // inserted num_ports before abi_ver), so a provider of that layout gets abi_ver in it.
        sr.num_ports = if ops_abi(ops) == pabi::LAYOUT_V34 {
            rec.abi_ver
        } else {
            rec.num_ports
        };
        if st.modalias_read {
            sr.flags |= device::VSYSFS_READ_MODALIAS;
            let m = st.modalias(dev).unwrap_or(b"");
            fill_cstr(&mut sr.modalias, m);
        }
        Some(s)
    }
}

impl Hooks<Arc<DriverEntry>> for CHooks<'_> {
    type Out = VdevPtr;

    fn match_device(&mut self, p: &Arc<DriverEntry>, dev: &Device, st: &MatchState) -> bool {
        let Some(s) = self.sysfs_for(p, dev, st) else {
            return false;
        };
        let ops = p.token as *const verbs_device_ops;
        // SAFETY: ops is a registered provider's static ops table.
        let match_device = unsafe { (*ops).match_device };
        // SAFETY: the provider's op, on the sysfs record it takes.
        match_device.is_some_and(|f| unsafe { f(s) })
    }

    fn alloc_device(
        &mut self,
        p: &Arc<DriverEntry>,
        dev: &Device,
        st: &MatchState,
    ) -> Option<VdevPtr> {
        let s = self.sysfs_for(p, dev, st)?;
        let ops = p.token as *const verbs_device_ops;
        let i = self.index(dev);
        let rec = self.recs.get(i)?;
        // SAFETY: ops is a registered provider's static ops table.
        let alloc = unsafe { (*ops).alloc_device };
        // SAFETY: the provider's op takes the sysfs record and returns a verbs_device it
        // allocated (or NULL).
        let vdev = alloc.map_or(core::ptr::null_mut(), |f| unsafe { f(s) });
        if vdev.is_null() {
            self.warn(
                b"Fatal: couldn't allocate device for "
                    .iter()
                    .chain(&dev.ibdev_path)
                    .copied()
                    .collect(),
            );
            return None;
        }
        let mut dev_path = self.root.as_os_str().to_owned();
        dev_path.push("/class/infiniband_verbs/");
        dev_path.push(&rec.sysfs_name);
        if dev_path.len() >= crate::abi::verbs::IBV_SYSFS_PATH_MAX as usize {
            // SAFETY: ops is a registered provider's static ops table.
            if let Some(u) = unsafe { (*ops).uninit_device } {
                // SAFETY: rdma-core's error path: hand the fresh device back to its provider.
                unsafe { u(vdev) };
            }
            return None;
        }
        // SAFETY: vdev is the provider's fresh device, not shared yet; the core fills its
        // ibv_device part.
        let vd = unsafe { &mut *vdev };
        {
            vd.ops = ops;
            vd.refcount = 1; // not shared yet: published later under the list lock
            let d = &mut vd.device;
            d.node_type = CEnum::new(rec.node_type as i32 as u32);
            d.transport_type = CEnum::new(rec.transport() as i32 as u32);
            fill_cstr(&mut d.dev_name, rec.sysfs_name.as_bytes());
            fill_cstr(&mut d.dev_path, dev_path.as_bytes());
            fill_cstr(&mut d.name, rec.ibdev_name.as_bytes());
            fill_cstr(
                &mut d.ibdev_path,
                rec.ibdev_path.as_os_str().as_encoded_bytes(),
            );
            vd.sysfs = s;
        }
        // The device owns the record now.
        if let Some(slot) = self.sysfs.get_mut(i) {
            *slot = None;
        }
        log::log(
            log::VERBS_LOG_DEBUG,
            format_args!(
                "libibverbs: device {} bound to provider {}",
                rec.ibdev_name.to_string_lossy(),
                p.matching().name
            ),
        );
        Some(VdevPtr(vdev))
    }

    fn warn(&mut self, text: Vec<u8>) {
        let mut line = PFX.as_bytes().to_vec();
        line.extend_from_slice(&text);
        line.push(b'\n');
        let _ = std::io::Write::write_all(&mut std::io::stderr(), &line);
    }
}

/// `ibverbs_device_hold`.
pub(crate) fn device_hold(v: VdevPtr) {
    // SAFETY: v is a live device (the caller holds a reference or the list lock).
    let count = unsafe { &raw mut (*v.0).refcount };
    // SAFETY: its reference count, only ever accessed atomically once the device is listed.
    unsafe { AtomicI32::from_ptr(count) }.fetch_add(1, Ordering::AcqRel);
}

/// `ibverbs_device_put`: the last reference frees the sysfs record and gives the device back to
/// its provider.
pub(crate) fn device_put(v: VdevPtr) {
    // SAFETY: v is live until its count reaches zero, which only this call can observe.
    let count = unsafe { &raw mut (*v.0).refcount };
    // SAFETY: its reference count, only ever accessed atomically once the device is listed.
    if unsafe { AtomicI32::from_ptr(count) }.fetch_sub(1, Ordering::AcqRel) != 1 {
        return;
    }
    // SAFETY: the last reference: nobody else reads the device any more.
    let d = unsafe { &*v.0 };
    let (sysfs, ops) = (d.sysfs, d.ops);
    // SAFETY: the record this library calloc'ed for the device (or NULL).
    unsafe { libc::free(sysfs.cast()) };
    // SAFETY: NULL, or the registered provider's static ops table.
    if let Some(u) = unsafe { ops.as_ref() }.and_then(|o| o.uninit_device) {
        // SAFETY: hand the device back to the provider that allocated it.
        unsafe { u(v.0) };
    }
}

/// The `verbs_device` around a public `ibv_device` (its first member).
pub(crate) fn vdev_of(dev: *mut ibv_device) -> VdevPtr {
    VdevPtr(dev.cast())
}

/// `ibv_get_device_guid`'s value in host order: read once, then remembered in the record.
pub(crate) fn device_guid(v: VdevPtr) -> Option<u64> {
    // The list lock stands in for rdma-core's dev_list_lock around the cached value.
    let _l = list();
    // SAFETY: a held device; its sysfs record is ours and only touched under the list lock.
    let s = unsafe { (*v.0).sysfs };
    if s.is_null() {
        return None;
    }
    // SAFETY: `s` is not NULL: the record this library allocated for the held device `v`, freed
    // only with its last reference; its cached GUID is read and written only under the list
    // lock, which `_l` holds until this reference is gone, so no other reference to it is live.
    let sr = unsafe { &mut *s };
    if sr.flags & device::VSYSFS_READ_NODE_GUID != 0 {
        return Some(sr.node_guid);
    }
    // SAFETY: a live record.
    let guid = sysfs::read_node_guid(&unsafe { sysfs_ibdev_path(s) }).ok()?;
    sr.node_guid = guid;
    sr.flags |= device::VSYSFS_READ_NODE_GUID;
    Some(guid)
}

/// The `ibdev_path` of a sysfs record (`/sys/class/infiniband/<ibdev>`).
///
/// # Safety
/// `s` is a live sysfs record (its `ibdev_path` is NUL-terminated).
pub(crate) unsafe fn sysfs_ibdev_path(s: *const verbs_sysfs_dev) -> std::path::PathBuf {
    // SAFETY: the caller's contract: a live record.
    let path = unsafe { (&raw const (*s).ibdev_path).cast::<core::ffi::c_char>() };
    // SAFETY: its ibdev_path is NUL-terminated.
    let b = unsafe { CStr::from_ptr(path) }.to_bytes();
    std::path::PathBuf::from(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b))
}
