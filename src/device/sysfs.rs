//! The sysfs root, sysfs file reading, and the sysfs walk over `class/infiniband_verbs`.
//!
//! Answers to rdma-core's `libibverbs/sysfs.c` (`ibv_get_sysfs_path`, `ibv_read_sysfs_file_at`,
//! `ibv_read_sysfs_file`, `ibv_read_ibdev_sysfs_file`) and the sysfs half of
//! `libibverbs/init.c` (`find_sysfs_devs`, `setup_sysfs_dev`, `setup_sysfs_uverbs`,
//! `check_abi_version`) plus `find_uverbs_sysfs` of `libibverbs/ibdev_nl.c`.
//!
//! Paths are formed as strings the way rdma-core's `"%s/%s"` does (an empty root gives
//! `/class/…`), and every fixed C buffer size is enforced, so a record always fits the C struct.
//! Values are bytes, read as C reads them: a buffer's contents up to its first NUL (`"rxe4\0junk"`
//! is `rxe4`), numbers scanned by `strtoul`/`sscanf` rules that stop at the first byte that is not
//! part of one (`"2\xff"` is 2). Names need not be UTF-8; they are kept as the bytes they are.
#![forbid(unsafe_code)]

use crate::sys::sync::OnceLock;
use std::ffi::{CStr, OsStr, OsString};
use std::fs::File;
use std::io::Read;
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::node::decode_knode_type;
use super::scan;
use super::{
    Enumeration, FoundBy, IB_USER_VERBS_MAX_ABI_VERSION, IB_USER_VERBS_MIN_ABI_VERSION,
    IBV_SYSFS_NAME_MAX, IBV_SYSFS_PATH_MAX, MODALIAS_MAX, NodeType, Source, SysfsDev, Timespec,
};
use crate::errno::Errno;
use crate::sys::dir::{self, DirStream};

/// Buffer rdma-core reads small numeric attributes into (`char value[32]`).
const VALUE_BUF: usize = 32;
/// Buffer of `check_abi_version` (`char value[8]`).
const ABI_BUF: usize = 8;
/// Buffer of `ibv_get_device_guid` (`char attr[24]`).
const GUID_BUF: usize = 24;

/// The sysfs root: `SYSFS_PATH` from the environment unless in secure execution
/// ([`crate::env::trusted`]: set-uid, set-gid, file capabilities), else `/sys`. Computed once,
/// like rdma-core's `ibv_get_sysfs_path`.
pub fn sysfs_path() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        sysfs_path_from(
            std::env::var_os("SYSFS_PATH").as_deref(),
            crate::env::trusted(),
        )
    })
}

/// The rule of [`sysfs_path`] on given inputs: the environment value is used only when
/// `trusted`, cut to `IBV_SYSFS_PATH_MAX` bytes (rdma-core's `strndup`), with every trailing `/`
/// removed (so `/` becomes the empty root).
pub fn sysfs_path_from(env: Option<&OsStr>, trusted: bool) -> PathBuf {
    let Some(env) = env.filter(|_| trusted) else {
        return PathBuf::from("/sys");
    };
    let mut b = env.as_bytes();
    b = &b[..b.len().min(IBV_SYSFS_PATH_MAX)];
    while let [rest @ .., b'/'] = b {
        b = rest;
    }
    PathBuf::from(OsStr::from_bytes(b))
}

/// Why a sysfs file read failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// `open` or `read` failed with this errno.
    Os(Errno),
    /// The contents fill the whole buffer with no newline to drop, so no room for the NUL.
    /// rdma-core returns -1 here and leaves `errno` as it was.
    TooLong,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Os(e) => f.write_str(&super::errno_text(*e)),
            ReadError::TooLong => f.write_str("value too long"),
        }
    }
}

/// `ibv_read_sysfs_file_at` on a full path: one `read` of at most `buf.len()` bytes. A trailing
/// newline becomes the NUL (and is not counted); otherwise a NUL is appended if there is room,
/// else [`ReadError::TooLong`]. An empty file gives `Ok(0)` and leaves `buf` untouched, as in C.
pub fn read_sysfs_file_into(path: &Path, buf: &mut [u8]) -> Result<usize, ReadError> {
    let mut f = File::open(path).map_err(|e| ReadError::Os(super::io_errno(&e)))?;
    let len = loop {
        match f.read(buf) {
            Ok(n) => break n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Os(super::io_errno(&e))),
        }
    };
    terminate(buf, len)
}

/// The end of a sysfs read of `len` bytes into `buf`: a trailing newline becomes the NUL,
/// otherwise a NUL is appended if there is room, else [`ReadError::TooLong`].
fn terminate(buf: &mut [u8], mut len: usize) -> Result<usize, ReadError> {
    if len > 0 {
        if buf[len - 1] == b'\n' {
            len -= 1;
            buf[len] = 0;
        } else if len < buf.len() {
            buf[len] = 0;
        } else {
            return Err(ReadError::TooLong);
        }
    }
    Ok(len)
}

/// `ibv_read_sysfs_file(dir, file, buf, size)`: reads `"<dir>/<file>"` with
/// [`read_sysfs_file_into`] (a relative `dir` is relative to the working directory).
pub fn read_sysfs_file(dir: &Path, file: &OsStr, buf: &mut [u8]) -> Result<usize, ReadError> {
    read_sysfs_file_into(&join(dir, file), buf)
}

/// `ibv_read_ibdev_sysfs_file(buf, size, sysfs_dev, fmt, …)` once the C side has formatted the
/// relative path: reads `"<ibdev_path>/<rel>"`. (A NULL `sysfs_dev` is `EINVAL`, in the glue.)
pub fn read_ibdev_sysfs_file(
    ibdev_path: &Path,
    rel: &OsStr,
    buf: &mut [u8],
) -> Result<usize, ReadError> {
    read_sysfs_file(ibdev_path, rel, buf)
}

/// An attribute read through a C buffer of `size` bytes (the acceptance rules of
/// [`read_sysfs_file_into`]): the value as C code then sees it, the bytes up to the first NUL,
/// and how many bytes the read returned (rdma-core tests that count, not the string).
pub fn read_value(path: &Path, size: usize) -> Result<(Vec<u8>, usize), String> {
    let mut buf = vec![0u8; size];
    let n = read_sysfs_file_into(path, &mut buf)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    buf.truncate(n);
    if let Some(nul) = buf.iter().position(|&b| b == 0) {
        buf.truncate(nul);
    }
    Ok((buf, n))
}

/// [`read_value`]'s C string alone.
pub fn read_attr(path: &Path, size: usize) -> Result<Vec<u8>, String> {
    read_value(path, size).map(|(v, _)| v)
}

/// A value for a diagnostic: printable, bytes that are not UTF-8 escaped.
fn shown(v: &[u8]) -> String {
    v.escape_ascii().to_string()
}

/// The node GUID from `<ibdev_path>/node_guid` (`xxxx:xxxx:xxxx:xxxx`), host order, read the
/// way `ibv_get_device_guid` does (24-byte buffer, `%hx` fields).
pub fn read_node_guid(ibdev_path: &Path) -> Result<u64, String> {
    let mut buf = [0u8; GUID_BUF];
    let n = read_in(ibdev_path, b"node_guid", &mut buf)
        .map_err(|e| format!("cannot read {}/node_guid: {e}", ibdev_path.display()))?;
    let v = scan::c_str(&buf[..n]);
    scan::parse_node_guid(v).ok_or_else(|| format!("malformed node_guid \"{}\"", shown(v)))
}

/// Why the global uverbs ABI check failed (`check_abi_version`; either way the C result is `ENOSYS`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AbiVersionError {
    /// `<sysfs>/class/infiniband_verbs/abi_version` could not be read.
    Unreadable(String),
    /// The value (as C's `strtol` into an `int` gives it) is outside 3..=6. rdma-core keeps it
    /// in its global anyway, so later calls skip the check.
    OutOfRange(i32),
}

/// rdma-core's `check_abi_version`: read `<root>/class/infiniband_verbs/abi_version` (8-byte
/// buffer), `strtol` it, and require `IB_USER_VERBS_MIN_ABI_VERSION..=IB_USER_VERBS_MAX_ABI_VERSION`.
pub fn check_abi_version(root: &Path) -> Result<i32, AbiVersionError> {
    let path = join(root, OsStr::new("class/infiniband_verbs/abi_version"));
    let mut buf = [0u8; ABI_BUF];
    let n = read_sysfs_file_into(&path, &mut buf)
        .map_err(|e| AbiVersionError::Unreadable(format!("cannot read {}: {e}", path.display())))?;
    let (v, _) = scan::strtol10_int(scan::c_str(buf.get(..n).unwrap_or_default()));
    if !(IB_USER_VERBS_MIN_ABI_VERSION..=IB_USER_VERBS_MAX_ABI_VERSION).contains(&v) {
        return Err(AbiVersionError::OutOfRange(v));
    }
    Ok(v)
}

/// rdma-core's `find_sysfs_devs`: one record per usable entry of `<root>/class/infiniband_verbs`.
/// `Err(ENOSYS)` when that directory cannot be opened, `Err(ENOMEM)` when its path would not fit
/// `IBV_SYSFS_PATH_MAX`. Entries starting with `.` and the `abi_version` file are ignored;
/// every other entry is a device or a [`Diagnostic`](super::Diagnostic) in `skipped`.
///
/// Per device it reads what rdma-core reads: the entry opened as a directory (which also says
/// whether it is one), `ibdev`, `dev` and `abi_version` relative to it, the `stat` of the IB
/// device directory, its `node_type`, and the `stat` of the character device. `node_guid` and
/// `device/modalias` are left for when they are asked for ([`read_node_guid`],
/// [`read_modalias`]).
pub fn find_sysfs_devs(root: &Path, cdev_dir: &Path) -> Result<Enumeration, Errno> {
    let class = CPath::new(&[root.as_os_str().as_bytes(), b"/class/infiniband_verbs"])
        .ok_or(Errno::ENOMEM)?;
    if class.len() >= IBV_SYSFS_PATH_MAX {
        return Err(Errno::ENOMEM);
    }
    let mut dir = DirStream::open(class.cstr()).map_err(|_| Errno::ENOSYS)?;
    let mut en = Enumeration::new(Source::Sysfs);
    let mut name = [0u8; dir::NAME_BUF];
    while let Some(n) = dir.next_into(&mut name) {
        if name[0] == b'.' {
            continue;
        }
        let name_c = CStr::from_bytes_until_nul(&name).unwrap_or_default();
        let uverbs = OsStr::from_bytes(&name[..n]);
        let uv = match dir::open_dir_at(dir.fd(), name_c) {
            Ok(fd) => fd,
            Err(e) => {
                // rdma-core's openat(O_DIRECTORY) fails and the entry is silently passed over.
                if uverbs.as_bytes() != b"abi_version" {
                    en.skip(
                        uverbs,
                        format!(
                            "{}/{} cannot be opened as a directory: {}",
                            class.path().display(),
                            uverbs.to_string_lossy(),
                            super::errno_text(e)
                        ),
                    );
                }
                continue;
            }
        };
        match setup_sysfs_dev(root, cdev_dir, uv.as_fd(), uverbs, &mut en) {
            Ok(dev) => {
                if en.devices.try_reserve(1).is_err() {
                    return Err(Errno::ENOMEM);
                }
                en.devices.push(dev);
            }
            Err(reason) => en.skip(uverbs, reason),
        }
    }
    Ok(en)
}

/// One device of the sysfs walk (`setup_sysfs_dev`); `uv` is its opened uverbs directory.
fn setup_sysfs_dev(
    root: &Path,
    cdev_dir: &Path,
    uv: BorrowedFd<'_>,
    uverbs: &OsStr,
    en: &mut Enumeration,
) -> Result<SysfsDev, String> {
    let mut buf = [0u8; IBV_SYSFS_NAME_MAX];
    let n = read_at_into(uv, c"ibdev", &mut buf)
        .map_err(|e| format!("cannot read {}/ibdev: {e}", uverbs.to_string_lossy()))?;
    let ibdev_name = scan::c_str(&buf[..n]);
    if ibdev_name.is_empty() {
        // rdma-core goes on with an empty name: the path is the class directory itself.
        en.warn(
            uverbs,
            format!("{}/ibdev is empty", uverbs.to_string_lossy()),
        );
    }
    let ibdev_name = OsStr::from_bytes(ibdev_name).to_owned();
    let ibdev_path = ibdev_path(root, &ibdev_name)?;
    let mut dev = empty_dev(ibdev_name, ibdev_path, FoundBy::SysfsWalk);
    setup_sysfs_uverbs(uv, uverbs, &mut dev, en)?;

    // rdma-core: a read of at least one byte is `strtoul`ed, whatever the bytes.
    let mut v = [0u8; VALUE_BUF];
    match read_in(&dev.ibdev_path, b"node_type", &mut v) {
        Ok(n) if n > 0 => {
            let v = scan::c_str(&v[..n]);
            let (raw, _) = scan::strtoul10(v);
            if scan::scan_ulong(v, 10).is_none() {
                en.warn(
                    uverbs,
                    format!("node_type \"{}\" is not a number; taken as 0", shown(v)),
                );
            }
            dev.node_type_raw = Some(raw as u32);
            dev.node_type = decode_knode_type(raw as u32);
        }
        Ok(_) => en.warn(
            uverbs,
            format!(
                "{}/node_type is empty; node type unknown",
                dev.ibdev_path.display()
            ),
        ),
        Err(e) => en.warn(
            uverbs,
            format!(
                "cannot read {}/node_type: {e}; node type unknown",
                dev.ibdev_path.display()
            ),
        ),
    }

    finish_dev(root, cdev_dir, &mut dev)?;
    Ok(dev)
}

/// `setup_sysfs_uverbs`: fill the uverbs side of `dev` from the uverbs class directory `uv`
/// named `uverbs`: name, `time_created` (mtime of `ibdev_path`), the `dev` number, `abi_version`.
pub(crate) fn setup_sysfs_uverbs(
    uv: BorrowedFd<'_>,
    uverbs: &OsStr,
    dev: &mut SysfsDev,
    en: &mut Enumeration,
) -> Result<(), String> {
    if uverbs.len() >= IBV_SYSFS_NAME_MAX {
        return Err(format!(
            "uverbs name {uverbs:?} longer than {} bytes",
            IBV_SYSFS_NAME_MAX - 1
        ));
    }
    dev.sysfs_name = uverbs.to_owned();

    let md = std::fs::metadata(&dev.ibdev_path)
        .map_err(|e| format!("cannot stat {}: {e}", dev.ibdev_path.display()))?;
    dev.time_created = Timespec {
        sec: md.mtime(),
        nsec: md.mtime_nsec(),
    };

    let mut buf = [0u8; VALUE_BUF];
    let n = read_at_into(uv, c"dev", &mut buf)
        .map_err(|e| format!("cannot read {}/dev: {e}", uverbs.to_string_lossy()))?;
    let v = scan::c_str(&buf[..n]);
    let (major, minor) = scan::scan_major_minor(v).ok_or_else(|| {
        format!(
            "{}/dev is \"{}\", not major:minor",
            uverbs.to_string_lossy(),
            shown(v)
        )
    })?;
    dev.sysfs_cdev = scan::makedev(major, minor);

    // rdma-core only overwrites abi_ver when the read returned bytes; garbage parses as 0.
    let mut buf = [0u8; VALUE_BUF];
    match read_at_into(uv, c"abi_version", &mut buf) {
        Ok(n) if n > 0 => {
            let v = scan::c_str(&buf[..n]);
            let (abi, clean) = scan::strtoul10(v);
            if !clean {
                en.warn(
                    uverbs,
                    format!(
                        "abi_version \"{}\" is not a clean number; taken as {}",
                        shown(v),
                        abi as u32
                    ),
                );
            }
            dev.abi_ver = abi as u32;
        }
        Ok(_) => en.warn(uverbs, "abi_version is empty; ABI left as 0"),
        Err(e) => en.warn(
            uverbs,
            format!(
                "cannot read {}/abi_version: {e}; ABI left as 0",
                uverbs.to_string_lossy()
            ),
        ),
    }
    Ok(())
}

/// `find_uverbs_sysfs`: the uverbs node of a netlink-found device from the first entry of
/// `<ibdev_path>/device/infiniband_verbs` (only the first is tried, as in rdma-core).
pub(crate) fn find_uverbs_sysfs(dev: &mut SysfsDev, en: &mut Enumeration) -> Result<(), String> {
    let dir_path = CPath::new(&[
        dev.ibdev_path.as_os_str().as_bytes(),
        b"/device/infiniband_verbs",
    ])
    .filter(|p| p.len() < IBV_SYSFS_PATH_MAX)
    .ok_or_else(|| {
        format!(
            "{}/device/infiniband_verbs is too long",
            dev.ibdev_path.display()
        )
    })?;
    let mut dir = DirStream::open(dir_path.cstr()).map_err(|e| {
        format!(
            "cannot open {}: {}",
            dir_path.path().display(),
            super::errno_text(e)
        )
    })?;
    let mut name = [0u8; dir::NAME_BUF];
    while let Some(n) = dir.next_into(&mut name) {
        if name[0] == b'.' {
            continue;
        }
        let name_c = CStr::from_bytes_until_nul(&name).unwrap_or_default();
        let uverbs = OsStr::from_bytes(&name[..n]);
        let uv = dir::open_dir_at(dir.fd(), name_c).map_err(|e| {
            format!(
                "{}/{} cannot be opened as a directory: {}",
                dir_path.path().display(),
                uverbs.to_string_lossy(),
                super::errno_text(e)
            )
        })?;
        return setup_sysfs_uverbs(uv.as_fd(), uverbs, dev, en);
    }
    Err(format!("no uverbs device in {}", dir_path.path().display()))
}

/// What both paths do last: `sysfs_path` and `cdev_path`, and the access check.
pub(crate) fn finish_dev(root: &Path, cdev_dir: &Path, dev: &mut SysfsDev) -> Result<(), String> {
    let sysfs_path = CPath::new(&[
        root.as_os_str().as_bytes(),
        b"/class/infiniband_verbs/",
        dev.sysfs_name.as_bytes(),
    ])
    .filter(|p| p.len() < IBV_SYSFS_PATH_MAX)
    .ok_or_else(|| {
        format!(
            "{}/class/infiniband_verbs/{} is longer than {} bytes",
            root.display(),
            dev.sysfs_name.to_string_lossy(),
            IBV_SYSFS_PATH_MAX - 1
        )
    })?;
    let cdev = CPath::new(&[
        cdev_dir.as_os_str().as_bytes(),
        b"/",
        dev.sysfs_name.as_bytes(),
    ])
    .ok_or_else(|| {
        format!(
            "{}/{} is too long",
            cdev_dir.display(),
            dev.sysfs_name.to_string_lossy()
        )
    })?;
    // rdma-core's try_access_device: can the node be stat'ed?
    std::fs::metadata(cdev.path())
        .map_err(|e| format!("cannot access {}: {e}", cdev.path().display()))?;
    dev.sysfs_path = sysfs_path.path().to_owned();
    dev.cdev_path = cdev.path().to_owned();
    Ok(())
}

/// The device's `device/modalias` as rdma-core's `match_modalias_device` reads it when a
/// provider's table first needs it (`MODALIAS_MAX` buffer): None when it cannot be read or is
/// empty. `ibdev_path` is the record's `ibdev_path` bytes.
pub fn read_modalias(ibdev_path: &[u8]) -> Option<Vec<u8>> {
    let mut buf = [0u8; MODALIAS_MAX];
    let n = read_in(
        Path::new(OsStr::from_bytes(ibdev_path)),
        b"device/modalias",
        &mut buf,
    )
    .ok()?;
    let v = scan::c_str(&buf[..n]);
    if v.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    out.try_reserve_exact(v.len()).ok()?;
    out.extend_from_slice(v);
    Some(out)
}

/// `ibv_read_sysfs_file_at` relative to an open directory: the acceptance rules of
/// [`read_sysfs_file_into`].
fn read_at_into(dir: BorrowedFd<'_>, name: &CStr, buf: &mut [u8]) -> Result<usize, ReadError> {
    let len = dir::read_at(dir, name, buf).map_err(ReadError::Os)?;
    terminate(buf, len)
}

/// `"<dir>/<file>"` read with [`read_sysfs_file_into`], the path formed on the stack.
fn read_in(dir: &Path, file: &[u8], buf: &mut [u8]) -> Result<usize, ReadError> {
    let p = CPath::new(&[dir.as_os_str().as_bytes(), b"/", file])
        .ok_or(ReadError::Os(Errno(libc::ENAMETOOLONG)))?;
    read_sysfs_file_into(p.path(), buf)
}

/// Room for any path the walk forms: two `IBV_SYSFS_PATH_MAX` parts and a file name.
const CPATH_MAX: usize = 2 * IBV_SYSFS_PATH_MAX + 64;

/// A path formed on the stack by concatenation, as C's `"%s/%s"` forms it, NUL-terminated.
struct CPath {
    buf: [u8; CPATH_MAX],
    len: usize,
}

impl CPath {
    /// The parts one after the other; None when they do not fit.
    fn new(parts: &[&[u8]]) -> Option<CPath> {
        let mut p = CPath {
            buf: [0; CPATH_MAX],
            len: 0,
        };
        for part in parts {
            let end = p.len.checked_add(part.len()).filter(|e| *e < CPATH_MAX)?;
            p.buf.get_mut(p.len..end)?.copy_from_slice(part);
            p.len = end;
        }
        Some(p)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn path(&self) -> &Path {
        Path::new(OsStr::from_bytes(&self.buf[..self.len]))
    }

    /// As a C string: up to the first NUL, as C would see the formatted buffer.
    fn cstr(&self) -> &CStr {
        CStr::from_bytes_until_nul(&self.buf).unwrap_or_default()
    }
}

/// `<root>/class/infiniband/<name>`, refused when longer than `IBV_SYSFS_PATH_MAX - 1`.
pub(crate) fn ibdev_path(root: &Path, ibdev_name: &OsStr) -> Result<PathBuf, String> {
    match CPath::new(&[
        root.as_os_str().as_bytes(),
        b"/class/infiniband/",
        ibdev_name.as_bytes(),
    ]) {
        Some(p) if p.len() < IBV_SYSFS_PATH_MAX => Ok(p.path().to_owned()),
        _ => Err(format!(
            "{}/class/infiniband/{} is longer than {} bytes",
            root.display(),
            ibdev_name.to_string_lossy(),
            IBV_SYSFS_PATH_MAX - 1
        )),
    }
}

/// A record with only the IB device identity filled.
pub(crate) fn empty_dev(ibdev_name: OsString, ibdev_path: PathBuf, found_by: FoundBy) -> SysfsDev {
    SysfsDev {
        sysfs_name: OsString::new(),
        sysfs_cdev: 0,
        cdev_path: PathBuf::new(),
        ibdev_name,
        ibdev_path,
        sysfs_path: PathBuf::new(),
        modalias: None,
        node_guid: None,
        driver_id: None,
        node_type_raw: None,
        node_type: NodeType::Unknown,
        ibdev_idx: None,
        num_ports: 0,
        abi_ver: 0,
        time_created: Timespec::default(),
        flags: 0,
        found_by,
    }
}

/// `"<dir>/<file>"` as a string, like C's `"%s/%s"`.
pub(crate) fn join(dir: &Path, file: &OsStr) -> PathBuf {
    let mut s = dir.as_os_str().to_owned();
    s.push("/");
    s.push(file);
    PathBuf::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysfs_path_rules() {
        let p = |e: Option<&str>, trusted| sysfs_path_from(e.map(OsStr::new), trusted);
        assert_eq!(p(None, true), Path::new("/sys"));
        assert_eq!(p(Some("/tmp/fake"), true), Path::new("/tmp/fake"));
        assert_eq!(p(Some("/tmp/fake///"), true), Path::new("/tmp/fake"));
        assert_eq!(p(Some("/"), true), Path::new(""));
        assert_eq!(p(Some("/tmp/fake"), false), Path::new("/sys")); // secure execution: ignored
        let long = format!("/{}", "a".repeat(300));
        assert_eq!(p(Some(&long), true).as_os_str().len(), IBV_SYSFS_PATH_MAX);
    }

    #[test]
    fn join_is_string_concatenation() {
        assert_eq!(
            join(Path::new(""), OsStr::new("class/x")),
            Path::new("/class/x")
        );
        assert_eq!(
            join(Path::new("/sys"), OsStr::new("class/x")),
            Path::new("/sys/class/x")
        );
    }
}
