//! Turning a provider name into files to `dlopen` (rdma-core: dynamic_driver.c `load_driver`;
//! unchanged from v44 to v65).
//!
//! rdma-core, for a name N and its one suffix S (`-rdmav34.so` at provider ABI 34, `-rdmav65.so`
//! at v65):
//! - N starting with '/': only `N` + S (so `driver /opt/p/libfoo` opens `/opt/p/libfoo-rdmav34.so`);
//! - otherwise `VERBS_PROVIDER_DIR/libN` + S (skipped when that build setting is empty), then
//!   `libN` + S through the dynamic loader's search (LD_LIBRARY_PATH, ld.so.cache, system dirs).
//!   A name with a '/' that is not absolute yields a relative path, which dlopen resolves against
//!   the working directory.
//! - Only the final failure is reported: `couldn't load driver '<last path>': <dlerror>`; an
//!   earlier failure in the provider directory is silent.
//!
//! The provider directory is compiled in; rdma-core reads no variable for it. Ours: the built-in
//! one (Debian's multiarch directory, or the build-time `IBVERBS_PROVIDER_DIR`), then the other
//! distributions' standard ones ([`STANDARD_DIRS`]: `/usr/lib/<multiarch>/libibverbs`,
//! `/usr/lib64/libibverbs` of Fedora, RHEL and SUSE, `/usr/lib/libibverbs`), so one binary finds
//! the providers of any layout; at run time (not in secure execution) the one directory
//! [`crate::env::IBVERBS_RS_PROVIDER_DIR`] replaces them all (empty: none).
//!
//! Several provider ABIs: [`PROVIDER_ABIS`] lists every ABI this library speaks, newest first; for
//! each place (each directory, then the search path) every ABI is tried before moving to the next
//! place, so a newer provider beats an older one in the same place, and the directories still
//! beat the search path as in rdma-core. In a directory, only the files its listing shows are
//! tried (no failed `open` for the ABIs a provider was not built for); a directory that cannot be
//! listed is tried blindly. Which file opened (and its ABI) is logged at debug level
//! (VERBS_LOG_LEVEL=4). A file `lib<name>-rdmav<N>.so` of an ABI this library lacks is named in a
//! warning with the node it needs (`IBVERBS_PRIVATE_<N>`) when the name loads nothing.
#![forbid(unsafe_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use super::config::ProviderName;
use super::registry::{Registry, with_load_context};
use crate::sys::dl::{self, Library};
use crate::sys::sync::Mutex;

/// A provider ABI we can load (its providers' files are `lib<name>-rdmav<version>.so`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProviderAbi {
    pub version: u32,
}

impl ProviderAbi {
    /// The file suffix of this ABI's providers: `-rdmav<version>.so`.
    pub fn suffix(&self) -> String {
        format!("-rdmav{}.so", self.version)
    }
}

/// Every provider ABI this library loads (`abi::driver::pabi::PROVIDER_ABIS`), newest first.
pub const PROVIDER_ABIS: [ProviderAbi; crate::abi::driver::pabi::PROVIDER_ABIS.len()] = {
    let all = crate::abi::driver::pabi::PROVIDER_ABIS;
    let mut out = [ProviderAbi { version: 0 }; crate::abi::driver::pabi::PROVIDER_ABIS.len()];
    let mut i = 0;
    while i < all.len() {
        out[i] = ProviderAbi {
            version: all[all.len() - 1 - i],
        };
        i += 1;
    }
    out
};

/// The provider ABI of a file name `lib<name>-rdmav<N>.so` whose name is `name`, whatever N.
pub fn file_abi(file: &[u8], name: &[u8]) -> Option<u32> {
    split_provider_file(file)
        .filter(|(n, _, _)| *n == name)
        .map(|(_, abi, _)| abi)
}

#[cfg(all(target_arch = "x86_64", target_env = "gnu"))]
const MULTIARCH_DIR: &str = "/usr/lib/x86_64-linux-gnu/libibverbs";
#[cfg(all(target_arch = "aarch64", target_env = "gnu"))]
const MULTIARCH_DIR: &str = "/usr/lib/aarch64-linux-gnu/libibverbs";
#[cfg(all(
    target_arch = "powerpc64",
    target_endian = "little",
    target_env = "gnu"
))]
const MULTIARCH_DIR: &str = "/usr/lib/powerpc64le-linux-gnu/libibverbs";
#[cfg(all(target_arch = "s390x", target_env = "gnu"))]
const MULTIARCH_DIR: &str = "/usr/lib/s390x-linux-gnu/libibverbs";
#[cfg(all(target_arch = "riscv64", target_env = "gnu"))]
const MULTIARCH_DIR: &str = "/usr/lib/riscv64-linux-gnu/libibverbs";
#[cfg(not(any(
    all(target_arch = "x86_64", target_env = "gnu"),
    all(target_arch = "aarch64", target_env = "gnu"),
    all(
        target_arch = "powerpc64",
        target_endian = "little",
        target_env = "gnu"
    ),
    all(target_arch = "s390x", target_env = "gnu"),
    all(target_arch = "riscv64", target_env = "gnu"),
)))]
const MULTIARCH_DIR: &str = "/usr/lib/libibverbs";

/// Built-in provider directory (build-time `IBVERBS_PROVIDER_DIR`, else Debian's path).
pub const DEFAULT_PROVIDER_DIR: &str = match option_env!("IBVERBS_PROVIDER_DIR") {
    Some(d) => d,
    None => MULTIARCH_DIR,
};

/// The distributions' provider directories, searched after the built-in one: Debian's and
/// Ubuntu's multiarch directory, Fedora's, RHEL's and SUSE's `lib64`, and plain `lib`.
pub const STANDARD_DIRS: [&str; 3] = [
    MULTIARCH_DIR,
    "/usr/lib64/libibverbs",
    "/usr/lib/libibverbs",
];

/// The provider directories to search, in order: the run-time override alone (none if it is
/// empty), else the built-in one and the standard ones (each once).
pub fn provider_dirs(get: impl Fn(&str) -> Option<OsString>, trusted: bool) -> Vec<OsString> {
    if let Some(d) = crate::env::provider_dir_override(get, trusted) {
        return if d.is_empty() { Vec::new() } else { vec![d] };
    }
    let mut v: Vec<OsString> = Vec::with_capacity(1 + STANDARD_DIRS.len());
    for d in core::iter::once(DEFAULT_PROVIDER_DIR).chain(STANDARD_DIRS) {
        if !d.is_empty() && !v.iter().any(|x| x == d) {
            v.push(OsString::from(d));
        }
    }
    v
}

/// Where a candidate path points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The configured name was an absolute path.
    Absolute,
    /// In the provider directory.
    ProviderDir,
    /// A bare file name for the dynamic loader's search.
    SearchPath,
}

/// One file to try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub path: OsString,
    pub abi: u32,
    pub place: Place,
    /// The file's name in its directory (`lib<name>-rdmav<N>.so`), and which directory (an
    /// index into the list given to [`candidates`]) for [`Place::ProviderDir`].
    pub file: OsString,
    pub dir: usize,
}

fn cat(parts: &[&[u8]]) -> OsString {
    OsString::from_vec(parts.concat())
}

/// The files to try for `name`, in order: in each directory every ABI (newest first), then every
/// ABI through the dynamic loader's search path; an absolute name only as itself.
pub fn candidates(name: &OsStr, dirs: &[OsString], abis: &[ProviderAbi]) -> Vec<Candidate> {
    candidates_where(name, dirs, abis, |_, _| true)
}

/// [`candidates`] without the provider-directory ones `keep(dir index, abi)` refuses (never
/// formatted).
pub fn candidates_where(
    name: &OsStr,
    dirs: &[OsString],
    abis: &[ProviderAbi],
    keep: impl Fn(usize, u32) -> bool,
) -> Vec<Candidate> {
    let n = name.as_bytes();
    if n.first() == Some(&b'/') {
        return abis
            .iter()
            .map(|a| Candidate {
                path: cat(&[n, a.suffix().as_bytes()]),
                abi: a.version,
                place: Place::Absolute,
                file: OsString::new(),
                dir: 0,
            })
            .collect();
    }
    let mut v = Vec::new();
    for (i, d) in dirs.iter().enumerate() {
        for a in abis.iter().filter(|a| keep(i, a.version)) {
            let file = cat(&[b"lib", n, a.suffix().as_bytes()]);
            v.push(Candidate {
                path: cat(&[d.as_bytes(), b"/", file.as_bytes()]),
                abi: a.version,
                place: Place::ProviderDir,
                file,
                dir: i,
            });
        }
    }
    for a in abis {
        let file = cat(&[b"lib", n, a.suffix().as_bytes()]);
        v.push(Candidate {
            path: file.clone(),
            abi: a.version,
            place: Place::SearchPath,
            file,
            dir: 0,
        });
    }
    v
}

/// What happened to one name.
#[derive(Debug)]
pub struct LoadOutcome<L> {
    /// The candidate that opened, and its handle.
    pub loaded: Option<(Candidate, L)>,
    /// Every candidate that failed before (or instead of) that, with the loader's reason.
    pub failures: Vec<(Candidate, String)>,
    /// Files of the name in the directories built for a provider ABI this library lacks.
    pub foreign: Vec<(OsString, u32)>,
}

impl<L> LoadOutcome<L> {
    /// rdma-core's warning when nothing opened (without "libibverbs: " and newline).
    pub fn warning(&self) -> Option<String> {
        if self.loaded.is_some() {
            return None;
        }
        self.failures.last().map(|(c, e)| {
            format!(
                "Warning: couldn't load driver '{}': {}",
                c.path.to_string_lossy(),
                e
            )
        })
    }

    /// Ours, beside it when nothing opened: each file of the name built for a provider ABI this
    /// library lacks, and the version node it needs.
    pub fn foreign_warnings(&self) -> Vec<String> {
        if self.loaded.is_some() {
            return Vec::new();
        }
        let have: Vec<String> = crate::abi::driver::pabi::PROVIDER_ABIS
            .iter()
            .map(u32::to_string)
            .collect();
        self.foreign
            .iter()
            .map(|(path, abi)| {
                format!(
                    "Warning: provider '{}' is built for provider ABI {abi} (it needs IBVERBS_PRIVATE_{abi}), which this libibverbs does not have (it has {})",
                    path.to_string_lossy(),
                    have.join(", ")
                )
            })
            .collect()
    }
}

/// Try candidates in order until one opens.
pub fn try_candidates<L>(
    cands: Vec<Candidate>,
    mut open: impl FnMut(&Candidate) -> Result<L, String>,
) -> LoadOutcome<L> {
    let mut failures = Vec::new();
    for c in cands {
        match open(&c) {
            Ok(l) => {
                return LoadOutcome {
                    loaded: Some((c, l)),
                    failures,
                    foreign: Vec::new(),
                };
            }
            Err(e) => failures.push((c, e)),
        }
    }
    LoadOutcome {
        loaded: None,
        failures,
        foreign: Vec::new(),
    }
}

/// Load config name #`pos` for real: dlopen each candidate with this thread marked as loading
/// `pos` (so the provider's constructor registers at that position), then move any Late entries
/// living in the opened object to `pos` (see `registry`). Holds no lock across dlopen. The handle
/// is kept open for the life of the process, as rdma-core does.
pub fn load_name(
    registry: &Registry,
    pos: usize,
    name: &ProviderName,
    dirs: &[OsString],
) -> LoadOutcome<Library> {
    let listings: Vec<_> = dirs.iter().map(|d| listing(d)).collect();
    let n = name.name.as_bytes();
    // In a listed directory, only the files it has (a symlink or unknown entry is tried).
    let cands = candidates_where(&name.name, dirs, &PROVIDER_ABIS, |i, abi| {
        listings.get(i).is_none_or(|l| l.may_have(n, abi))
    });
    let mut out = try_candidates(cands, |c| {
        with_load_context(pos, || Library::open(c.path.as_bytes()))
    });
    if out.loaded.is_none() && !n.is_empty() && !n.contains(&b'/') {
        for l in &listings {
            out.foreign.extend(l.foreign_abis(n));
        }
    }
    if let Some((_, lib)) = &out.loaded {
        let late = registry.movable_tokens(pos);
        if !late.is_empty()
            && let Some(obj) = lib.object_id()
        {
            let mine: Vec<usize> = late
                .into_iter()
                .filter(|t| dl::object_containing(*t) == Some(obj))
                .collect();
            if !mine.is_empty() {
                registry.adopt(&mine, pos);
            }
        }
    }
    out
}

/// What a listing knows of an entry's type: a regular file, not one (a directory, a device...),
/// or a `stat` must tell (a symlink, or a file system without `d_type`), asked once.
const KIND_FILE: u8 = 1;
const KIND_OTHER: u8 = 2;
const KIND_ASK: u8 = 0;

/// One entry `lib<name>-rdmav<N>.so` of a provider directory.
#[derive(Debug)]
struct ProviderFile {
    /// [`name_key`] of `<name>`: most comparisons end here.
    key: u64,
    /// Where the entry's whole name is in [`DirListing::names`], and its length.
    start: u32,
    len: u8,
    /// The length of `<name>`.
    name_len: u8,
    abi: u32,
    /// N is written as [`ProviderAbi::suffix`] writes it (no leading zero): the file a
    /// candidate of that ABI names.
    exact: bool,
    /// `KIND_*`; a `stat`'s answer is kept here.
    kind: AtomicU8,
}

/// A provider directory's entries of the form `lib<name>-rdmav<N>.so` (every other entry is
/// dropped while reading), in one byte buffer with an index sorted by the name's first eight
/// bytes, then ABI newest first: asking about a name is a binary search and a look at the few
/// entries of its key, with no file name formatted or allocated.
#[derive(Debug, Default)]
pub struct DirListing {
    dir: OsString,
    names: Vec<u8>,
    files: Vec<ProviderFile>,
    /// The directory could be listed (else nothing is known of it: its files are tried blindly).
    listed: bool,
}

/// The first eight bytes of a name, zero-padded, as a number whose order is theirs: names
/// (which hold no NUL) compare as (key, bytes) in the order of their bytes.
fn name_key(name: &[u8]) -> u64 {
    let mut k = [0u8; 8];
    let n = name.len().min(8);
    k[..n].copy_from_slice(&name[..n]);
    u64::from_be_bytes(k)
}

/// `lib<name>-rdmav<N>.so` split into `<name>` and N, and whether N has no leading zero.
fn split_provider_file(file: &[u8]) -> Option<(&[u8], u32, bool)> {
    let rest = file.strip_prefix(b"lib")?.strip_suffix(b".so")?;
    let digits = rest.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    let (head, n) = rest.split_at(rest.len() - digits);
    let name = head.strip_suffix(b"-rdmav")?;
    if n.is_empty() || n.len() > 9 {
        return None;
    }
    let abi = n.iter().fold(0u32, |a, d| a * 10 + u32::from(d - b'0'));
    Some((name, abi, n.len() == 1 || n[0] != b'0'))
}

impl DirListing {
    /// List `dir` (an unreadable directory lists as empty: every name is then loaded in order).
    pub fn read(dir: &OsStr) -> DirListing {
        let mut l = DirListing {
            dir: dir.to_owned(),
            ..DirListing::default()
        };
        let Ok(path) = std::ffi::CString::new(dir.as_bytes()) else {
            return l;
        };
        let Ok(mut rd) = crate::sys::dir::DirStream::open(&path) else {
            return l;
        };
        l.listed = true;
        // Room for a distribution's directory (Debian 12's: 17 files, 350 bytes of names) or
        // two, without growing; more grows as needed.
        if l.names.try_reserve(2048).is_err() || l.files.try_reserve(64).is_err() {
            return DirListing::unlisted(dir);
        }
        let mut buf = [0u8; crate::sys::dir::NAME_BUF];
        while let Some((n, t)) = rd.next_entry(&mut buf) {
            let file = &buf[..n];
            let Some((name, abi, exact)) = split_provider_file(file) else {
                continue;
            };
            let kind = match t {
                libc::DT_REG => KIND_FILE,
                libc::DT_LNK | libc::DT_UNKNOWN => KIND_ASK,
                _ => KIND_OTHER,
            };
            let (Ok(start), Ok(len), Ok(name_len)) = (
                u32::try_from(l.names.len()),
                u8::try_from(n),
                u8::try_from(name.len()),
            ) else {
                // Past 4 GiB of names, or a name longer than any file system's: as unreadable.
                return DirListing::unlisted(dir);
            };
            if l.names.try_reserve(n).is_err() || l.files.try_reserve(1).is_err() {
                return DirListing::unlisted(dir);
            }
            l.names.extend_from_slice(file);
            l.files.push(ProviderFile {
                key: name_key(name),
                start,
                len,
                name_len,
                abi,
                exact,
                kind: AtomicU8::new(kind),
            });
        }
        // By key, then newest ABI first: a name's entries are the ones of its key with its name
        // (names longer than eight bytes may share a key), in ABI order.
        l.files
            .sort_unstable_by_key(|f| (f.key, core::cmp::Reverse(f.abi)));
        l
    }

    /// A directory that could not be listed (its files are tried blindly).
    fn unlisted(dir: &OsStr) -> DirListing {
        DirListing {
            dir: dir.to_owned(),
            ..DirListing::default()
        }
    }

    /// Whether an entry's name, whose key is `name`'s, is `name`: for up to eight bytes the key
    /// holds all of them (and names hold no NUL), so the lengths tell.
    fn same_name(&self, f: &ProviderFile, name: &[u8]) -> bool {
        if name.len() <= 8 {
            return usize::from(f.name_len) == name.len();
        }
        Self::name_in(&self.names, f) == name
    }

    fn entry_in<'n>(names: &'n [u8], f: &ProviderFile) -> &'n [u8] {
        let s = f.start as usize;
        names.get(s..s + usize::from(f.len)).unwrap_or_default()
    }

    fn name_in<'n>(names: &'n [u8], f: &ProviderFile) -> &'n [u8] {
        Self::entry_in(names, f)
            .get(3..3 + usize::from(f.name_len))
            .unwrap_or_default()
    }

    /// The entries of `name`, newest ABI first.
    fn of<'s>(&'s self, name: &'s [u8]) -> impl Iterator<Item = &'s ProviderFile> + 's {
        let key = name_key(name);
        let lo = self.files.partition_point(|f| f.key < key);
        self.files[lo..]
            .iter()
            .take_while(move |f| f.key == key)
            .filter(move |f| self.same_name(f, name))
    }

    /// Whether the entry is a regular file (through symlinks): `stat`ed once when its type needs it.
    fn is_file(&self, f: &ProviderFile) -> bool {
        match f.kind.load(Ordering::Relaxed) {
            KIND_FILE => true,
            KIND_OTHER => false,
            _ => {
                let path = [self.dir.as_bytes(), b"/", Self::entry_in(&self.names, f)].concat();
                let yes = std::fs::metadata(OsStr::from_bytes(&path)).is_ok_and(|m| m.is_file());
                let k = if yes { KIND_FILE } else { KIND_OTHER };
                f.kind.store(k, Ordering::Relaxed);
                yes
            }
        }
    }

    /// Whether `lib<name>-rdmav<abi>.so` is a regular file here (through symlinks).
    fn has_file(&self, name: &[u8], abi: u32) -> bool {
        self.of(name)
            .any(|f| f.abi == abi && f.exact && self.is_file(f))
    }

    /// Whether `lib<name>-rdmav<N>.so` is a regular file here (through symlinks) for some
    /// provider ABI we load.
    pub fn has_provider(&self, name: &[u8]) -> bool {
        self.of(name)
            .any(|f| f.exact && PROVIDER_ABIS.iter().any(|a| a.version == f.abi) && self.is_file(f))
    }

    /// Whether the file of `name` for provider ABI `abi` may be here: it is, or the directory
    /// could not be listed.
    pub fn may_have(&self, name: &[u8], abi: u32) -> bool {
        !self.listed || self.has_file(name, abi)
    }

    /// The files `lib<name>-rdmav<N>.so` here whose N is a provider ABI this library lacks, with
    /// their paths.
    pub fn foreign_abis(&self, name: &[u8]) -> Vec<(OsString, u32)> {
        self.of(name)
            .filter(|f| !PROVIDER_ABIS.iter().any(|a| a.version == f.abi))
            .map(|f| {
                let path = [self.dir.as_bytes(), b"/", Self::entry_in(&self.names, f)].concat();
                (OsString::from_vec(path), f.abi)
            })
            .collect()
    }
}

/// This process's listing of `dir`, read on first use (each directory once; read again only if
/// the set of directories changes).
pub fn listing(dir: &OsStr) -> Arc<DirListing> {
    static SEEN: Mutex<Vec<Arc<DirListing>>> = Mutex::new(Vec::new());
    let mut g = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = g.iter().find(|l| l.dir == dir) {
        return l.clone();
    }
    let l = Arc::new(DirListing::read(dir));
    // A handful of directories at most (the built-in and the standard ones, or one override).
    if g.len() >= 8 {
        g.clear();
    }
    if g.try_reserve(1).is_ok() {
        g.push(l.clone());
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &[ProviderAbi] = &[ProviderAbi { version: 65 }, ProviderAbi { version: 34 }];

    fn paths(v: &[Candidate]) -> Vec<String> {
        v.iter()
            .map(|c| c.path.to_string_lossy().into_owned())
            .collect()
    }

    fn dirs(d: &[&str]) -> Vec<OsString> {
        d.iter().map(OsString::from).collect()
    }

    #[test]
    fn every_abi_newest_first() {
        let v: Vec<u32> = PROVIDER_ABIS.iter().map(|a| a.version).collect();
        assert_eq!(v, [65, 64, 59, 57, 34]);
        assert_eq!(PROVIDER_ABIS[2].suffix(), "-rdmav59.so");
        assert_eq!(file_abi(b"libmlx5-rdmav66.so", b"mlx5"), Some(66));
        assert_eq!(file_abi(b"libmlx5-rdmav34.so", b"mlx4"), None);
        assert_eq!(file_abi(b"libmlx5-rdmav.so", b"mlx5"), None);
        assert_eq!(file_abi(b"libmlx5-rdmav3x.so", b"mlx5"), None);
        assert_eq!(file_abi(b"libmlx5-rdmav99999999999.so", b"mlx5"), None);
    }

    #[test]
    fn order() {
        let d = dirs(&["/usr/lib/x86_64-linux-gnu/libibverbs"]);
        assert_eq!(
            paths(&candidates(OsStr::new("mlx5"), &d, TWO)),
            [
                "/usr/lib/x86_64-linux-gnu/libibverbs/libmlx5-rdmav65.so",
                "/usr/lib/x86_64-linux-gnu/libibverbs/libmlx5-rdmav34.so",
                "libmlx5-rdmav65.so",
                "libmlx5-rdmav34.so"
            ]
        );
        assert_eq!(
            paths(&candidates(OsStr::new("mlx5"), &[], TWO)),
            ["libmlx5-rdmav65.so", "libmlx5-rdmav34.so"]
        );
        assert_eq!(
            paths(&candidates(OsStr::new("/opt/p/libfoo"), &d, TWO)),
            ["/opt/p/libfoo-rdmav65.so", "/opt/p/libfoo-rdmav34.so"]
        );
        assert_eq!(
            paths(&candidates(OsStr::new("sub/x"), &dirs(&["/d"]), TWO)),
            [
                "/d/libsub/x-rdmav65.so",
                "/d/libsub/x-rdmav34.so",
                "libsub/x-rdmav65.so",
                "libsub/x-rdmav34.so"
            ]
        );
        assert_eq!(
            paths(&candidates(OsStr::new(""), &dirs(&["/d"]), &TWO[1..])),
            ["/d/lib-rdmav34.so", "lib-rdmav34.so"]
        );
        // Every directory (each ABI, newest first), then the search path.
        let c = candidates(OsStr::new("rxe"), &dirs(&["/d", "/e"]), TWO);
        assert_eq!(
            paths(&c),
            [
                "/d/librxe-rdmav65.so",
                "/d/librxe-rdmav34.so",
                "/e/librxe-rdmav65.so",
                "/e/librxe-rdmav34.so",
                "librxe-rdmav65.so",
                "librxe-rdmav34.so"
            ]
        );
        assert_eq!(
            c.iter().map(|c| (c.abi, c.dir)).collect::<Vec<_>>(),
            [(65, 0), (34, 0), (65, 1), (34, 1), (65, 0), (34, 0)]
        );
        assert_eq!(c[2].file, "librxe-rdmav65.so");
        assert_eq!(
            paths(&candidates(OsStr::new("/a/b"), &[], TWO)),
            ["/a/b-rdmav65.so", "/a/b-rdmav34.so"]
        );
        // Only what the filter keeps, in the same order (the search path always).
        let c = candidates_where(OsStr::new("rxe"), &dirs(&["/d", "/e"]), TWO, |i, abi| {
            (i, abi) != (0, 65) && (i, abi) != (1, 34)
        });
        assert_eq!(
            paths(&c),
            [
                "/d/librxe-rdmav34.so",
                "/e/librxe-rdmav65.so",
                "librxe-rdmav65.so",
                "librxe-rdmav34.so"
            ]
        );
        assert_eq!(c[1].dir, 1);
        // All five ABIs.
        assert_eq!(
            candidates(OsStr::new("x"), &dirs(&["/d"]), &PROVIDER_ABIS).len(),
            10
        );
    }

    #[test]
    fn outcome_reports_last_failure() {
        let cands = candidates(OsStr::new("x"), &dirs(&["/d"]), &PROVIDER_ABIS);
        let out = try_candidates(cands.clone(), |c| {
            Err::<(), _>(format!("no {}", c.path.to_string_lossy()))
        });
        assert_eq!(out.failures.len(), 10);
        assert_eq!(
            out.warning().unwrap(),
            "Warning: couldn't load driver 'libx-rdmav34.so': no libx-rdmav34.so"
        );
        let out = try_candidates(cands, |c| {
            if c.place == Place::SearchPath {
                Ok(7)
            } else {
                Err("e".into())
            }
        });
        assert_eq!(out.loaded.as_ref().unwrap().1, 7);
        assert_eq!(out.warning(), None);
    }

    #[test]
    fn foreign_abi_warning_names_the_node() {
        let mut out = try_candidates(Vec::new(), |_| Err::<(), _>("x".into()));
        out.foreign
            .push((OsString::from("/d/libfoo-rdmav66.so"), 66));
        let w = out.foreign_warnings();
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("'/d/libfoo-rdmav66.so'"), "{}", w[0]);
        assert!(w[0].contains("IBVERBS_PRIVATE_66"), "{}", w[0]);
        assert!(w[0].ends_with("(it has 34, 57, 59, 64, 65)"), "{}", w[0]);
    }

    #[test]
    fn provider_file_names() {
        assert_eq!(
            split_provider_file(b"libmlx5-rdmav34.so"),
            Some((&b"mlx5"[..], 34, true))
        );
        assert_eq!(
            split_provider_file(b"libfoo-rdmav3-rdmav065.so"),
            Some((&b"foo-rdmav3"[..], 65, false))
        );
        assert_eq!(
            split_provider_file(b"lib-rdmav0.so"),
            Some((&b""[..], 0, true))
        );
        assert_eq!(
            split_provider_file(b"libx-rdmav999999999.so"),
            Some((&b"x"[..], 999_999_999, true))
        );
        for bad in [
            &b"libx-rdmav.so"[..],
            b"libx-rdmav1234567890.so",
            b"libx-rdmav3x.so",
            b"libx-rdmav34.so.1",
            b"x-rdmav34.so",
            b"libx.so",
            b"lib",
            b"",
        ] {
            assert_eq!(split_provider_file(bad), None, "{:?}", bad);
        }
    }

    #[test]
    fn name_keys_keep_byte_order() {
        let names: [&[u8]; 9] = [
            b"",
            b"a",
            b"ab",
            b"abcdefgh",
            b"abcdefgh0",
            b"abcdefgi",
            b"b",
            b"mlx4",
            b"mlx5",
        ];
        for a in names {
            for b in names {
                let by_key = name_key(a).cmp(&name_key(b)).then_with(|| a.cmp(b));
                assert_eq!(by_key, a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn listing_index() {
        let d = std::env::temp_dir().join(format!("ibverbs-rs-listing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        for f in [
            "librxe-rdmav34.so",
            "librxe-rdmav65.so",
            "librxe-rdmav66.so",
            "librxe-rdmav064.so",
            "libmlx5-rdmav59.so",
            "libmlx5.so.1",
            "README",
            "libsiw-rdmav57.so",
        ] {
            std::fs::write(d.join(f), b"").unwrap();
        }
        std::os::unix::fs::symlink("libmlx5.so.1", d.join("libmlx5-rdmav64.so")).unwrap();
        std::os::unix::fs::symlink("gone", d.join("libefa-rdmav34.so")).unwrap();
        std::fs::create_dir(d.join("libhns-rdmav34.so")).unwrap();
        let l = DirListing::read(d.as_os_str());
        assert!(l.listed);
        // Only provider files are kept, by name then newest ABI first.
        assert_eq!(l.files.len(), 9);
        let order: Vec<(Vec<u8>, u32)> = l
            .files
            .iter()
            .map(|f| (DirListing::name_in(&l.names, f).to_vec(), f.abi))
            .collect();
        assert_eq!(order[0], (b"efa".to_vec(), 34));
        assert_eq!(order[2], (b"mlx5".to_vec(), 64));
        assert_eq!(order[3], (b"mlx5".to_vec(), 59));
        assert_eq!(
            order[4..8].iter().map(|o| o.1).collect::<Vec<_>>(),
            [66, 65, 64, 34]
        );
        for (name, want) in [
            ("rxe", true),
            ("mlx5", true),
            ("siw", true),
            ("efa", false),
            ("hns", false),
            ("mlx", false),
            ("mlx55", false),
            ("", false),
        ] {
            assert_eq!(l.has_provider(name.as_bytes()), want, "{name}");
        }
        assert!(l.may_have(b"rxe", 65));
        assert!(l.may_have(b"mlx5", 64));
        // "064" is not the file a candidate of ABI 64 names.
        assert!(!l.may_have(b"rxe", 64));
        assert!(!l.may_have(b"efa", 34));
        let foreign = l.foreign_abis(b"rxe");
        assert_eq!(foreign.len(), 1);
        assert_eq!(foreign[0].1, 66);
        assert_eq!(foreign[0].0, d.join("librxe-rdmav66.so").into_os_string());
        assert!(l.foreign_abis(b"mlx5").is_empty());
        // A directory that cannot be listed: nothing known, everything may be there.
        let none = DirListing::read(d.join("nope").as_os_str());
        assert!(!none.listed && !none.has_provider(b"rxe") && none.may_have(b"rxe", 34));
        let nul = DirListing::read(OsStr::from_bytes(b"/tmp\0x"));
        assert!(!nul.listed);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn dir_setting() {
        let none = |_: &str| None;
        let all = provider_dirs(none, true);
        assert_eq!(all[0], DEFAULT_PROVIDER_DIR);
        for d in STANDARD_DIRS {
            assert_eq!(all.iter().filter(|x| *x == d).count(), 1, "{d}");
        }
        assert!(all.iter().any(|d| d == "/usr/lib64/libibverbs"));
        let empty = |k: &str| (k == crate::env::IBVERBS_RS_PROVIDER_DIR).then(OsString::new);
        assert!(provider_dirs(empty, true).is_empty());
        assert_eq!(provider_dirs(empty, false), all);
        let one =
            |k: &str| (k == crate::env::IBVERBS_RS_PROVIDER_DIR).then(|| OsString::from("/x"));
        assert_eq!(provider_dirs(one, true), [OsString::from("/x")]);
    }
}
