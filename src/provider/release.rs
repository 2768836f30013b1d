//! Which layout a provider of provider ABI 59 was built with: rdma-core v59 to v61's, or v62 and
//! v63's (layout 62 in `abi::driver::pabi`).
//!
//! rdma-core v62 and v63 kept `IBVERBS_PABI_VERSION` 59 (files `lib<name>-rdmav59.so`, symbols at
//! `IBVERBS_PRIVATE_59`) but inserted `dm_export_dmabuf_fd` and `query_port_speed` into
//! `struct verbs_context_ops` and `dm_export_dmabuf_fd` in front of `struct verbs_context`
//! (driver.h and verbs.h of v62.0, commits a97fb539f and f824da4bc), and added
//! `ibv_cmd_export_dmabuf_fd` and `ibv_cmd_query_port_speed` to `IBVERBS_PRIVATE_59`. Nothing in a
//! provider's name or version nodes tells the two apart, so this reads the evidence, strongest
//! first:
//! 1. the provider file imports one of those two names at `IBVERBS_PRIVATE_59` (only v62 and later
//!    have them there; rdma-core's mlx5 calls both): layout 62;
//! 2. the rdma-core release installed with the provider: rdma-core installs its library as
//!    `libibverbs.so.1.<minor>.<release>` (`libibverbs.so.1.16.62.0` for v62.0) in the directory
//!    that holds the provider directory `libibverbs/` (or, in a build tree, beside the
//!    providers): the link `libibverbs.so.1` names the installed one, else the newest file of a
//!    PABI-59 release (59 to 63) there decides; v62 or v63: layout 62, else 59;
//! 3. otherwise layout 59 (v59 to v61: Ubuntu 26.04's 61.0).
//!
//! rdma-core has no counterpart (one build loads only its own providers). Called by
//! `verbs::devlist` when a PABI-59 provider registers, and by `explain` and `ibverbs-doctor`.
#![forbid(unsafe_code)]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::abi::driver::pabi::{LAYOUT_V62, NODE_V62};

use super::elfneed::{self, ElfError};

/// The names `IBVERBS_PRIVATE_59` gained in rdma-core v62 (and providers built by it import).
pub const V62_PRIVATE_NAMES: [&[u8]; 2] =
    [b"ibv_cmd_export_dmabuf_fd", b"ibv_cmd_query_port_speed"];

/// The rdma-core releases of provider ABI 59, and the first that built layout 62.
const RELEASES: core::ops::RangeInclusive<u32> = 59..=63;
const FIRST_V62: u32 = 62;

/// Why a layout was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// The provider imports this name at `IBVERBS_PRIVATE_59`.
    Imports(String),
    /// The rdma-core library file beside the provider directory says its release.
    Release { file: PathBuf, release: u32 },
    /// Nothing told: the file's imports (or why they could not be read), no release found.
    Default { imports: Option<ElfError> },
}

/// The layout of a PABI-59 provider file and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detection {
    /// `pabi::NODE_V62` (59) or `pabi::LAYOUT_V62` (62).
    pub layout: u32,
    pub evidence: Evidence,
}

impl std::fmt::Display for Detection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.layout == LAYOUT_V62 {
            write!(f, "rdma-core v62/v63 layout (layout {LAYOUT_V62})")?;
        } else {
            write!(f, "rdma-core v59-v61 layout")?;
        }
        match &self.evidence {
            Evidence::Imports(n) => write!(f, ": it imports {n}@IBVERBS_PRIVATE_59"),
            Evidence::Release { file, release } => write!(
                f,
                ": rdma-core {release} is installed with it ({})",
                file.display()
            ),
            Evidence::Default { imports: None } => write!(
                f,
                ": no v62 import and no rdma-core library beside its directory"
            ),
            Evidence::Default { imports: Some(e) } => write!(
                f,
                ": its imports cannot be read ({e}) and no rdma-core library is beside its directory"
            ),
        }
    }
}

/// The layout of the PABI-59 provider file at `path` (see the module's comment).
pub fn detect(path: &Path) -> Detection {
    let imports = match elfneed::file_libibverbs_imports(path) {
        Ok(v) => {
            let node = format!("IBVERBS_PRIVATE_{NODE_V62}");
            if let Some(i) = v.iter().find(|i| {
                i.node == node.as_bytes() && V62_PRIVATE_NAMES.contains(&i.name.as_slice())
            }) {
                return Detection {
                    layout: LAYOUT_V62,
                    evidence: Evidence::Imports(String::from_utf8_lossy(&i.name).into_owned()),
                };
            }
            None
        }
        Err(e) => Some(e),
    };
    if let Some((file, release)) = path.parent().and_then(release_beside) {
        return Detection {
            layout: if release >= FIRST_V62 {
                LAYOUT_V62
            } else {
                NODE_V62
            },
            evidence: Evidence::Release { file, release },
        };
    }
    Detection {
        layout: NODE_V62,
        evidence: Evidence::Default { imports },
    }
}

/// The PABI-59 rdma-core release installed with the providers of directory `dir`: in `dir`
/// itself (a build tree), else, when `dir` is a `libibverbs` directory, in its parent.
pub fn release_beside(dir: &Path) -> Option<(PathBuf, u32)> {
    if let Some(r) = release_in(dir) {
        return Some(r);
    }
    if dir.file_name() == Some(OsStr::new("libibverbs")) {
        return release_in(dir.parent()?);
    }
    None
}

/// The PABI-59 rdma-core release whose library is in `dir`: the one `libibverbs.so.1` links to,
/// else the newest `libibverbs.so.1.<minor>.<release>.<n>` of such a release.
fn release_in(dir: &Path) -> Option<(PathBuf, u32)> {
    if let Ok(target) = std::fs::read_link(dir.join("libibverbs.so.1"))
        && let Some(name) = target.file_name()
        && let Some(r) = release_of(name.as_bytes()).filter(|r| RELEASES.contains(r))
    {
        return Some((dir.join(name), r));
    }
    let rd = std::fs::read_dir(dir).ok()?;
    rd.map_while(Result::ok)
        .take(1 << 16)
        .filter_map(|e| {
            let r = release_of(e.file_name().as_bytes()).filter(|r| RELEASES.contains(r))?;
            Some((e.path(), r))
        })
        .max_by_key(|(_, r)| *r)
}

/// The rdma-core release (its major version) a library file name
/// `libibverbs.so.1.<minor>.<release>.<n>` says; None for any other name.
pub fn release_of(name: &[u8]) -> Option<u32> {
    let rest = name.strip_prefix(b"libibverbs.so.1.")?;
    let parts: Vec<&[u8]> = rest.split(|&c| c == b'.').collect();
    let num = |p: &[u8]| -> Option<u32> {
        if p.is_empty() || p.len() > 9 || !p.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(p).ok()?.parse().ok()
    };
    match parts.as_slice() {
        [minor, release, n] => {
            num(minor)?;
            num(n)?;
            num(release)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::elfneed::tests::provider_59;

    fn tmp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("pabi59-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("libibverbs")).unwrap();
        d
    }

    #[test]
    fn release_names() {
        assert_eq!(release_of(b"libibverbs.so.1.15.62.0"), Some(62));
        assert_eq!(release_of(b"libibverbs.so.1.16.63.1"), Some(63));
        assert_eq!(release_of(b"libibverbs.so.1.14.44.0"), Some(44));
        assert_eq!(release_of(b"libibverbs.so.1"), None);
        assert_eq!(release_of(b"libibverbs.so.1.15.62"), None);
        assert_eq!(release_of(b"libibverbs.so.1.15.x.0"), None);
        assert_eq!(release_of(b"libibverbs.so.1.15.62.0.1"), None);
        assert_eq!(release_of(b"libmlx5.so.1.25.62.0"), None);
    }

    /// The provider's imports decide first; then the release beside the provider directory
    /// (the link, else the newest PABI-59 file); otherwise v59-v61.
    #[test]
    fn evidence_in_order() {
        let d = tmp("order");
        let dir = d.join("libibverbs");
        let p = dir.join("libmlx5-rdmav59.so");
        std::fs::write(&p, provider_59(true, true, &["ibv_cmd_query_port_speed"])).unwrap();
        let got = detect(&p);
        assert_eq!(got.layout, LAYOUT_V62);
        assert_eq!(
            got.evidence,
            Evidence::Imports("ibv_cmd_query_port_speed".into())
        );
        assert!(
            got.to_string()
                .contains("imports ibv_cmd_query_port_speed@IBVERBS_PRIVATE_59")
        );

        // No marking import: nothing beside it yet.
        let q = dir.join("librxe-rdmav59.so");
        std::fs::write(&q, provider_59(true, true, &[])).unwrap();
        assert_eq!(detect(&q).layout, NODE_V62);
        assert_eq!(detect(&q).evidence, Evidence::Default { imports: None });
        // Another release's library and ours (65) are no evidence.
        std::fs::write(d.join("libibverbs.so.1.14.44.0"), b"").unwrap();
        std::fs::write(d.join("libibverbs.so.1.18.65.0"), b"").unwrap();
        assert_eq!(detect(&q).layout, NODE_V62);
        // v62 installed in the parent: layout 62.
        std::fs::write(d.join("libibverbs.so.1.15.62.0"), b"").unwrap();
        let got = detect(&q);
        assert_eq!(got.layout, LAYOUT_V62);
        assert_eq!(
            got.evidence,
            Evidence::Release {
                file: d.join("libibverbs.so.1.15.62.0"),
                release: 62
            }
        );
        assert!(
            got.to_string()
                .contains("rdma-core 62 is installed with it")
        );
        // The link names the installed one, even beside a newer leftover.
        std::fs::write(d.join("libibverbs.so.1.15.61.0"), b"").unwrap();
        std::os::unix::fs::symlink("libibverbs.so.1.15.61.0", d.join("libibverbs.so.1")).unwrap();
        assert_eq!(detect(&q).layout, NODE_V62);
        assert!(matches!(
            detect(&q).evidence,
            Evidence::Release { release: 61, .. }
        ));
        // The import still beats the release.
        assert_eq!(detect(&p).layout, LAYOUT_V62);
        // A build tree: the library beside the providers.
        let b = tmp("build");
        let r = b.join("librxe-rdmav59.so");
        std::fs::write(&r, provider_59(false, false, &[])).unwrap();
        std::fs::write(b.join("libibverbs.so.1.16.63.0"), b"").unwrap();
        assert_eq!(detect(&r).layout, LAYOUT_V62);
        // An unreadable file with nothing beside it: the default, saying why.
        let e = tmp("empty");
        let gone = e.join("libibverbs/libnone-rdmav59.so");
        let got = detect(&gone);
        assert_eq!(got.layout, NODE_V62);
        assert_eq!(
            got.evidence,
            Evidence::Default {
                imports: Some(ElfError::Io(libc::ENOENT))
            }
        );
        assert!(got.to_string().contains("cannot be read"), "{got}");
        for t in [d, b, e] {
            let _ = std::fs::remove_dir_all(t);
        }
    }
}
