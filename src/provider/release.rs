//! Which layout a provider of a provider ABI rdma-core changed in place was built with (the
//! layouts of [`abi::driver::pabi::OTHER_LAYOUTS`](crate::abi::driver::pabi::OTHER_LAYOUTS)).
//!
//! - Provider ABI 34 (files `lib<name>-rdmav34.so`, node `IBVERBS_PRIVATE_34`) was built by
//!   rdma-core v34 to v56: v34 with 73 ops and a `verbs_sysfs_dev` without `num_ports`, v35 with
//!   75 ops (driver.h of v34.0 and v35.0; commits 889ddbafd and ac3bd682d in v35, 5bb091aa7 in
//!   v36), v36 to v53 with the ABI's own tables, v54 to v56 with them and an eight-argument
//!   `ibv_cmd_reg_dmabuf_mr` (4c461218d). The providers import nothing that tells them apart.
//! - Provider ABI 59 was built by v59 to v63. v62 and v63 inserted `dm_export_dmabuf_fd` and
//!   `query_port_speed` into `struct verbs_context_ops` and `dm_export_dmabuf_fd` in front of
//!   `struct verbs_context` (driver.h and verbs.h of v62.0, commits a97fb539f and f824da4bc), and
//!   added `ibv_cmd_export_dmabuf_fd` and `ibv_cmd_query_port_speed` to `IBVERBS_PRIVATE_59`.
//!
//! Nothing in a provider's name or version nodes says its release, so this reads the evidence,
//! strongest first:
//! 1. (ABI 59) the provider file imports one of those two names at `IBVERBS_PRIVATE_59` (only v62
//!    and later have them there; rdma-core's mlx5 calls both): layout 62;
//! 2. the rdma-core release installed with the provider: rdma-core installs its library as
//!    `libibverbs.so.1.<minor>.<release>` (`libibverbs.so.1.16.62.0` for v62.0) in the directory
//!    that holds the provider directory `libibverbs/` (or, in a build tree, beside the
//!    providers): the link `libibverbs.so.1` names the installed one (beside the providers, else
//!    in the parent of a `libibverbs` directory), else the newest file of a release of that ABI
//!    there decides;
//! 3. otherwise the ABI's own layout (v36 to v53 for 34, v59 to v61 for 59: Ubuntu 26.04's 61.0).
//!
//! rdma-core has no counterpart (one build loads only its own providers). Called by
//! `verbs::devlist` when a provider of such an ABI registers, and by `explain` and
//! `ibverbs-doctor`.
#![forbid(unsafe_code)]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::abi::driver::pabi::{LAYOUT_V34, LAYOUT_V35, LAYOUT_V54, LAYOUT_V62, NODE_V62};

use super::elfneed::{self, ElfError};

/// The names `IBVERBS_PRIVATE_59` gained in rdma-core v62 (and providers built by it import).
pub const V62_PRIVATE_NAMES: [&[u8]; 2] =
    [b"ibv_cmd_export_dmabuf_fd", b"ibv_cmd_query_port_speed"];

/// The rdma-core releases that built provider ABI `abi`, for the ABIs with several layouts.
fn releases(abi: u32) -> Option<core::ops::RangeInclusive<u32>> {
    match abi {
        34 => Some(34..=56),
        NODE_V62 => Some(59..=63),
        _ => None,
    }
}

/// The layout rdma-core release `release` built for provider ABI `abi`.
fn layout_of_release(abi: u32, release: u32) -> u32 {
    match (abi, release) {
        (34, 34) => LAYOUT_V34,
        (34, 35) => LAYOUT_V35,
        (34, 54..) => LAYOUT_V54,
        (NODE_V62, 62..) => LAYOUT_V62,
        _ => abi,
    }
}

/// A layout's name for people.
pub fn layout_name(layout: u32) -> &'static str {
    match layout {
        LAYOUT_V34 => "rdma-core v34 layout",
        LAYOUT_V35 => "rdma-core v35 layout",
        34 => "rdma-core v36-v53 layout",
        LAYOUT_V54 => "rdma-core v54-v56 layout",
        NODE_V62 => "rdma-core v59-v61 layout",
        LAYOUT_V62 => "rdma-core v62/v63 layout (layout 62)",
        _ => "its provider ABI's layout",
    }
}

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

/// The layout of a provider file and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detection {
    /// The provider ABI the file was looked at as.
    pub abi: u32,
    /// A layout of that ABI (`pabi::LAYOUTS`).
    pub layout: u32,
    pub evidence: Evidence,
}

impl std::fmt::Display for Detection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", layout_name(self.layout))?;
        match &self.evidence {
            Evidence::Imports(n) => write!(f, ": it imports {n}@IBVERBS_PRIVATE_{}", self.abi),
            Evidence::Release { file, release } => write!(
                f,
                ": rdma-core {release} is installed with it ({})",
                file.display()
            ),
            Evidence::Default { imports: None } if self.abi == NODE_V62 => write!(
                f,
                ": no v62 import and no rdma-core library beside its directory"
            ),
            Evidence::Default { imports: None } => {
                write!(f, ": no rdma-core library beside its directory")
            }
            Evidence::Default { imports: Some(e) } => write!(
                f,
                ": its imports cannot be read ({e}) and no rdma-core library is beside its directory"
            ),
        }
    }
}

/// The layout of the provider file at `path` of provider ABI `abi` (see the module's comment);
/// an ABI with one layout is its own.
pub fn detect(path: &Path, abi: u32) -> Detection {
    let Some(range) = releases(abi) else {
        return Detection {
            abi,
            layout: abi,
            evidence: Evidence::Default { imports: None },
        };
    };
    let mut imports = None;
    if abi == NODE_V62 {
        match elfneed::file_libibverbs_imports(path) {
            Ok(v) => {
                let node = format!("IBVERBS_PRIVATE_{NODE_V62}");
                if let Some(i) = v.iter().find(|i| {
                    i.node == node.as_bytes() && V62_PRIVATE_NAMES.contains(&i.name.as_slice())
                }) {
                    return Detection {
                        abi,
                        layout: LAYOUT_V62,
                        evidence: Evidence::Imports(String::from_utf8_lossy(&i.name).into_owned()),
                    };
                }
            }
            Err(e) => imports = Some(e),
        }
    }
    if let Some((file, release)) = path.parent().and_then(|d| release_beside(d, &range)) {
        return Detection {
            abi,
            layout: layout_of_release(abi, release),
            evidence: Evidence::Release { file, release },
        };
    }
    Detection {
        abi,
        layout: abi,
        evidence: Evidence::Default { imports },
    }
}

/// The rdma-core release (in `range`) installed with the providers of directory `dir`, looked
/// for in `dir` itself (a build tree) and, when `dir` is a `libibverbs` directory, in its parent:
/// the link `libibverbs.so.1` in either, else the newest library file of such a release in either.
pub fn release_beside(
    dir: &Path,
    range: &core::ops::RangeInclusive<u32>,
) -> Option<(PathBuf, u32)> {
    let parent = dir
        .parent()
        .filter(|_| dir.file_name() == Some(OsStr::new("libibverbs")));
    let dirs = [Some(dir), parent];
    dirs.iter()
        .flatten()
        .find_map(|d| linked_in(d, range))
        .or_else(|| dirs.iter().flatten().find_map(|d| newest_in(d, range)))
}

/// The layout of the provider file at `path` of provider ABI `abi` as the link
/// `libibverbs.so.1` beside it (or in the parent of its `libibverbs` directory) says, without
/// allocating (a provider's registration: `verbs::ctxlayout`). None when that does not decide
/// (no such link, another ABI's release, or ABI 59, whose imports come first): then [`detect`].
pub fn layout_by_link(path: &[u8], abi: u32) -> Option<u32> {
    if abi == NODE_V62 {
        return None;
    }
    let range = releases(abi)?;
    let dir = &path[..path.iter().rposition(|&c| c == b'/')?];
    let linked = |d: &[u8]| -> Option<u32> {
        let mut buf = [0u8; 256];
        let target = crate::sys::file::readlink_in(d, b"libibverbs.so.1", &mut buf)?;
        let name = target.rsplit(|&c| c == b'/').next()?;
        release_of(name).filter(|r| range.contains(r))
    };
    let release = linked(dir).or_else(|| {
        let (parent, last) = dir.split_at(dir.iter().rposition(|&c| c == b'/')?);
        (last == b"/libibverbs").then(|| linked(parent)).flatten()
    })?;
    Some(layout_of_release(abi, release))
}

/// The rdma-core release (in `range`) `dir`'s `libibverbs.so.1` links to.
fn linked_in(dir: &Path, range: &core::ops::RangeInclusive<u32>) -> Option<(PathBuf, u32)> {
    let target = std::fs::read_link(dir.join("libibverbs.so.1")).ok()?;
    let name = target.file_name()?;
    let r = release_of(name.as_bytes()).filter(|r| range.contains(r))?;
    Some((dir.join(name), r))
}

/// The newest rdma-core release (in `range`) with a `libibverbs.so.1.<minor>.<release>.<n>` in
/// `dir`.
fn newest_in(dir: &Path, range: &core::ops::RangeInclusive<u32>) -> Option<(PathBuf, u32)> {
    let rd = std::fs::read_dir(dir).ok()?;
    rd.map_while(Result::ok)
        .take(1 << 16)
        .filter_map(|e| {
            let r = release_of(e.file_name().as_bytes()).filter(|r| range.contains(r))?;
            Some((e.path(), r))
        })
        .max_by_key(|(_, r)| *r)
}

/// The rdma-core release (its major version) a library file name
/// `libibverbs.so.1.<minor>.<release>.<n>` says; None for any other name.
pub fn release_of(name: &[u8]) -> Option<u32> {
    let rest = name.strip_prefix(b"libibverbs.so.1.")?;
    let num = |p: &[u8]| -> Option<u32> {
        if p.is_empty() || p.len() > 9 || !p.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(p.iter().fold(0, |v, &d| v * 10 + u32::from(d - b'0')))
    };
    let mut parts = rest.split(|&c| c == b'.');
    let (minor, release, n) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    num(minor)?;
    num(n)?;
    num(release)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::elfneed::tests::provider_59;

    /// Our library's file name, `libibverbs.so.<VERSION>` (the file VERSION is its one home).
    fn ours() -> String {
        format!("libibverbs.so.{}", include_str!("../../VERSION").trim())
    }

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
        let got = detect(&p, 59);
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
        assert_eq!(detect(&q, 59).layout, NODE_V62);
        assert_eq!(detect(&q, 59).evidence, Evidence::Default { imports: None });
        // Another release's library and ours (65) are no evidence.
        std::fs::write(d.join("libibverbs.so.1.14.44.0"), b"").unwrap();
        std::fs::write(d.join(ours()), b"").unwrap();
        assert_eq!(detect(&q, 59).layout, NODE_V62);
        // v62 installed in the parent: layout 62.
        std::fs::write(d.join("libibverbs.so.1.15.62.0"), b"").unwrap();
        let got = detect(&q, 59);
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
        assert_eq!(detect(&q, 59).layout, NODE_V62);
        assert!(matches!(
            detect(&q, 59).evidence,
            Evidence::Release { release: 61, .. }
        ));
        // The import still beats the release.
        assert_eq!(detect(&p, 59).layout, LAYOUT_V62);
        // A build tree: the library beside the providers.
        let b = tmp("build");
        let r = b.join("librxe-rdmav59.so");
        std::fs::write(&r, provider_59(false, false, &[])).unwrap();
        std::fs::write(b.join("libibverbs.so.1.16.63.0"), b"").unwrap();
        assert_eq!(detect(&r, 59).layout, LAYOUT_V62);
        // An unreadable file with nothing beside it: the default, saying why.
        let e = tmp("empty");
        let gone = e.join("libibverbs/libnone-rdmav59.so");
        let got = detect(&gone, 59);
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

    /// Provider ABI 34: only the release beside tells (v34, v35, v36-v53, v54-v56); a release of
    /// another ABI is no evidence; nothing beside: the ABI's own layout.
    #[test]
    fn abi_34_by_release() {
        let d = tmp("abi34");
        let dir = d.join("libibverbs");
        let p = dir.join("libmlx5-rdmav34.so");
        std::fs::write(&p, provider_59(true, true, &[])).unwrap();
        let got = detect(&p, 34);
        assert_eq!(
            (got.layout, &got.evidence),
            (34, &Evidence::Default { imports: None })
        );
        assert!(got.to_string().contains("v36-v53"), "{got}");
        // A PABI-59 release and ours are no evidence for ABI 34.
        std::fs::write(d.join("libibverbs.so.1.15.61.0"), b"").unwrap();
        std::fs::write(d.join(ours()), b"").unwrap();
        assert_eq!(detect(&p, 34).layout, 34);
        for (file, release, layout) in [
            ("libibverbs.so.1.11.34.0", 34, LAYOUT_V34),
            ("libibverbs.so.1.12.35.0", 35, LAYOUT_V35),
            ("libibverbs.so.1.14.44.0", 44, 34),
            ("libibverbs.so.1.14.53.1", 53, 34),
            ("libibverbs.so.1.14.54.0", 54, LAYOUT_V54),
            ("libibverbs.so.1.14.56.1", 56, LAYOUT_V54),
        ] {
            let _ = std::fs::remove_file(d.join("libibverbs.so.1"));
            std::fs::write(d.join(file), b"").unwrap();
            std::os::unix::fs::symlink(file, d.join("libibverbs.so.1")).unwrap();
            let got = detect(&p, 34);
            assert_eq!(got.layout, layout, "{file}");
            assert_eq!(
                got.evidence,
                Evidence::Release {
                    file: d.join(file),
                    release
                }
            );
        }
        assert!(
            detect(&p, 34)
                .to_string()
                .starts_with("rdma-core v54-v56 layout: rdma-core 56 is installed")
        );
        // Link to ours (65): the newest ABI-34 file there decides.
        let _ = std::fs::remove_file(d.join("libibverbs.so.1"));
        std::os::unix::fs::symlink(ours(), d.join("libibverbs.so.1")).unwrap();
        assert_eq!(detect(&p, 34).layout, LAYOUT_V54);
        // An ABI with one layout is its own, whatever is beside it.
        assert_eq!(detect(&p, 64).layout, 64);
        // The allocation-free reading of the link agrees where the link decides, and leaves the
        // rest to detect: the link to ours (65) does not decide.
        let pb = p.as_os_str().as_bytes();
        assert_eq!(layout_by_link(pb, 34), None);
        let _ = std::fs::remove_file(d.join("libibverbs.so.1"));
        std::os::unix::fs::symlink("libibverbs.so.1.12.35.0", d.join("libibverbs.so.1")).unwrap();
        assert_eq!(layout_by_link(pb, 34), Some(LAYOUT_V35));
        assert_eq!(detect(&p, 34).layout, LAYOUT_V35);
        // A link beside the provider (a build tree) comes first.
        std::os::unix::fs::symlink("libibverbs.so.1.14.54.0", dir.join("libibverbs.so.1")).unwrap();
        assert_eq!(layout_by_link(pb, 34), Some(LAYOUT_V54));
        assert_eq!(detect(&p, 34).layout, LAYOUT_V54);
        // ABI 59 reads the provider's imports first; a file with no directory, nothing.
        assert_eq!(layout_by_link(pb, 59), None);
        assert_eq!(layout_by_link(b"librxe-rdmav34.so", 34), None);
        let _ = std::fs::remove_dir_all(d);
    }
}
