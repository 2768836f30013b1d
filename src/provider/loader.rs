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

use super::config::ProviderName;
use super::registry::{Registry, with_load_context};
use crate::sys::dl::{self, Library};

mod listing;
use listing::split_provider_file;
pub use listing::{DirListing, listing};

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

/// Every provider ABI this library loads
/// ([`abi::driver::pabi::PROVIDER_ABIS`](crate::abi::driver::pabi::PROVIDER_ABIS)), newest first.
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
        if let Some(obj) = (!late.is_empty()).then(|| lib.object_id()).flatten() {
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
        let mut oldest_first = crate::abi::driver::pabi::PROVIDER_ABIS.to_vec();
        oldest_first.reverse();
        assert_eq!(v, oldest_first);
        assert_eq!(PROVIDER_ABIS[2].suffix(), format!("-rdmav{}.so", v[2]));
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
        // Every ABI: the search directory and the search path each.
        assert_eq!(
            candidates(OsStr::new("x"), &dirs(&["/d"]), &PROVIDER_ABIS).len(),
            2 * PROVIDER_ABIS.len()
        );
    }

    #[test]
    fn outcome_reports_last_failure() {
        let cands = candidates(OsStr::new("x"), &dirs(&["/d"]), &PROVIDER_ABIS);
        let out = try_candidates(cands.clone(), |c| {
            Err::<(), _>(format!("no {}", c.path.to_string_lossy()))
        });
        assert_eq!(out.failures.len(), 2 * PROVIDER_ABIS.len());
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
        let have: Vec<String> = crate::abi::driver::pabi::PROVIDER_ABIS
            .iter()
            .map(u32::to_string)
            .collect();
        let tail = format!("(it has {})", have.join(", "));
        assert!(w[0].ends_with(&tail), "{}", w[0]);
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
