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
//! - Only the final failure is reported: "couldn't load driver '<last path>': <dlerror>"; an
//!   earlier failure in the provider directory is silent.
//!
//! The provider directory is compiled in; rdma-core reads no variable for it. Ours defaults to
//! Debian's multiarch directory, can be set at build time with `IBVERBS_PROVIDER_DIR`, and at run
//! time (not in secure execution, empty = none) with [`crate::env::IBVERBS_RS_PROVIDER_DIR`].
//!
//! Several provider ABIs: [`PROVIDER_ABIS`] lists (ABI, suffix) pairs newest first; for each place
//! (directory, then search path) every ABI is tried before moving to the next place, so a newer
//! provider in the provider directory beats an older one, and the directory still beats the search
//! path as in rdma-core. Supported: ABI 65 (rdma-core v65, `verbs_register_driver_65`), then 34
//! (v34-v56): newest first, so where both builds of a provider are installed the newer one is
//! used; which file opened (and its ABI) is logged at debug level (VERBS_LOG_LEVEL=4).
#![forbid(unsafe_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};

use super::config::ProviderName;
use super::registry::{Registry, with_load_context};
use crate::sys::dl::{self, Library};

/// A provider ABI we can load and the file suffix its providers use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProviderAbi {
    pub version: u32,
    pub suffix: &'static str,
}

/// Supported provider ABIs, newest first.
pub const PROVIDER_ABIS: &[ProviderAbi] = &[
    ProviderAbi {
        version: 65,
        suffix: "-rdmav65.so",
    },
    ProviderAbi {
        version: 34,
        suffix: "-rdmav34.so",
    },
];

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

/// The provider directory to use, or None for "search path only".
pub fn provider_dir(get: impl Fn(&str) -> Option<OsString>, trusted: bool) -> Option<OsString> {
    let d = crate::env::provider_dir_override(get, trusted)
        .unwrap_or_else(|| OsString::from(DEFAULT_PROVIDER_DIR));
    if d.is_empty() { None } else { Some(d) }
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
}

fn cat(parts: &[&[u8]]) -> OsString {
    OsString::from_vec(parts.concat())
}

/// The files to try for `name`, in order.
pub fn candidates(name: &OsStr, dir: Option<&OsStr>, abis: &[ProviderAbi]) -> Vec<Candidate> {
    let n = name.as_bytes();
    if n.first() == Some(&b'/') {
        return abis
            .iter()
            .map(|a| Candidate {
                path: cat(&[n, a.suffix.as_bytes()]),
                abi: a.version,
                place: Place::Absolute,
            })
            .collect();
    }
    let mut v = Vec::new();
    if let Some(d) = dir {
        for a in abis {
            v.push(Candidate {
                path: cat(&[d.as_bytes(), b"/lib", n, a.suffix.as_bytes()]),
                abi: a.version,
                place: Place::ProviderDir,
            });
        }
    }
    for a in abis {
        v.push(Candidate {
            path: cat(&[b"lib", n, a.suffix.as_bytes()]),
            abi: a.version,
            place: Place::SearchPath,
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
                };
            }
            Err(e) => failures.push((c, e)),
        }
    }
    LoadOutcome {
        loaded: None,
        failures,
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
    dir: Option<&OsStr>,
) -> LoadOutcome<Library> {
    let cands = candidates(&name.name, dir, PROVIDER_ABIS);
    let out = try_candidates(cands, |c| {
        with_load_context(pos, || Library::open(c.path.as_bytes()))
    });
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

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &[ProviderAbi] = &[
        ProviderAbi {
            version: 65,
            suffix: "-rdmav65.so",
        },
        ProviderAbi {
            version: 34,
            suffix: "-rdmav34.so",
        },
    ];

    fn paths(v: &[Candidate]) -> Vec<String> {
        v.iter()
            .map(|c| c.path.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn order() {
        let d = OsStr::new("/usr/lib/x86_64-linux-gnu/libibverbs");
        assert_eq!(
            paths(&candidates(OsStr::new("mlx5"), Some(d), PROVIDER_ABIS)),
            [
                "/usr/lib/x86_64-linux-gnu/libibverbs/libmlx5-rdmav65.so",
                "/usr/lib/x86_64-linux-gnu/libibverbs/libmlx5-rdmav34.so",
                "libmlx5-rdmav65.so",
                "libmlx5-rdmav34.so"
            ]
        );
        assert_eq!(
            paths(&candidates(OsStr::new("mlx5"), None, PROVIDER_ABIS)),
            ["libmlx5-rdmav65.so", "libmlx5-rdmav34.so"]
        );
        assert_eq!(
            paths(&candidates(
                OsStr::new("/opt/p/libfoo"),
                Some(d),
                PROVIDER_ABIS
            )),
            ["/opt/p/libfoo-rdmav65.so", "/opt/p/libfoo-rdmav34.so"]
        );
        assert_eq!(
            paths(&candidates(
                OsStr::new("sub/x"),
                Some(OsStr::new("/d")),
                TWO
            )),
            [
                "/d/libsub/x-rdmav65.so",
                "/d/libsub/x-rdmav34.so",
                "libsub/x-rdmav65.so",
                "libsub/x-rdmav34.so"
            ]
        );
        assert_eq!(
            paths(&candidates(
                OsStr::new(""),
                Some(OsStr::new("/d")),
                &TWO[1..]
            )),
            ["/d/lib-rdmav34.so", "lib-rdmav34.so"]
        );
        let c = candidates(OsStr::new("rxe"), Some(OsStr::new("/d")), TWO);
        assert_eq!(
            paths(&c),
            [
                "/d/librxe-rdmav65.so",
                "/d/librxe-rdmav34.so",
                "librxe-rdmav65.so",
                "librxe-rdmav34.so"
            ]
        );
        assert_eq!(
            c.iter().map(|c| c.abi).collect::<Vec<_>>(),
            [65, 34, 65, 34]
        );
        assert_eq!(
            paths(&candidates(OsStr::new("/a/b"), None, TWO)),
            ["/a/b-rdmav65.so", "/a/b-rdmav34.so"]
        );
    }

    #[test]
    fn outcome_reports_last_failure() {
        let cands = candidates(OsStr::new("x"), Some(OsStr::new("/d")), PROVIDER_ABIS);
        let out = try_candidates(cands.clone(), |c| {
            Err::<(), _>(format!("no {}", c.path.to_string_lossy()))
        });
        assert_eq!(out.failures.len(), 4);
        assert_eq!(PROVIDER_ABIS, TWO);
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
    fn dir_setting() {
        let none = |_: &str| None;
        assert_eq!(
            provider_dir(none, true),
            Some(OsString::from(DEFAULT_PROVIDER_DIR))
        );
        let empty = |k: &str| (k == crate::env::IBVERBS_RS_PROVIDER_DIR).then(OsString::new);
        assert_eq!(provider_dir(empty, true), None);
        assert_eq!(
            provider_dir(empty, false),
            Some(OsString::from(DEFAULT_PROVIDER_DIR))
        );
    }
}
