//! What each provider file registered when last loaded, kept across processes so pass 1 of
//! `try_drivers` can skip names that cannot claim a device's driver id (see `matcher`).
//!
//! Not an rdma-core feature: rdma-core loads every name. A record says: the file at `path`, with
//! this identity (st_dev, st_ino, size, mtime in ns, after following symlinks), registered exactly
//! one provider, whose `DriverId` entries are `ids`. A record is used only if the file still has
//! that identity (a fresh stat) and only for the name's first candidate path (the one rdma-core
//! dlopens first: an absolute name or the provider directory); anything else is "unknown", and an
//! unknown name is loaded as before. The file is an optimisation only: unreadable, unwritable or
//! garbled means "no records", never an error.
//!
//! Format (text, one record a line, tab-separated):
//! `providers-v1` header, then `path dev ino size mtime_ns ids` with ids comma-separated
//! (possibly empty). Paths with a tab or newline are never recorded.
#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::config::ProviderName;
use super::loader::{Candidate, LoadOutcome, PROVIDER_ABIS, Place, candidates};
use super::matcher::MatchKind;
use super::registry::{Registry, Slot};
use super::session::NameHints;

const HEADER: &str = "providers-v1";

/// A file's identity as stat gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime_ns: i128,
}

impl FileId {
    /// stat (following symlinks, as dlopen does); None if it fails.
    pub fn of(path: &Path) -> Option<FileId> {
        let m = std::fs::metadata(path).ok()?;
        Some(FileId {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime_ns: m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128,
        })
    }
}

/// One record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub id: FileId,
    pub ids: Vec<u64>,
}

/// The records by path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cache {
    pub records: HashMap<OsString, Record>,
    /// Changed since read.
    pub dirty: bool,
}

impl Cache {
    /// Parse the file's text; bad lines are ignored, a wrong header gives an empty cache.
    pub fn parse(text: &[u8]) -> Cache {
        let mut c = Cache::default();
        let mut lines = text.split(|b| *b == b'\n');
        if lines.next() != Some(HEADER.as_bytes()) {
            return c;
        }
        for line in lines {
            let f: Vec<&[u8]> = line.split(|b| *b == b'\t').collect();
            if f.len() != 6 || f[0].is_empty() {
                continue;
            }
            let num = |b: &[u8]| std::str::from_utf8(b).ok()?.parse::<u64>().ok();
            let (Some(dev), Some(ino), Some(size)) = (num(f[1]), num(f[2]), num(f[3])) else {
                continue;
            };
            let Some(mtime_ns) = std::str::from_utf8(f[4]).ok().and_then(|s| s.parse().ok())
            else {
                continue;
            };
            let ids: Option<Vec<u64>> = if f[5].is_empty() {
                Some(Vec::new())
            } else {
                f[5].split(|b| *b == b',').map(num).collect()
            };
            let Some(ids) = ids else { continue };
            c.records.insert(
                OsString::from_vec(f[0].to_vec()),
                Record { id: FileId { dev, ino, size, mtime_ns }, ids },
            );
        }
        c
    }

    /// The file's text (records sorted by path).
    pub fn serialize(&self) -> Vec<u8> {
        let mut out = format!("{HEADER}\n").into_bytes();
        let mut keys: Vec<&OsString> = self.records.keys().collect();
        keys.sort();
        for k in keys {
            let r = &self.records[k];
            out.extend_from_slice(k.as_bytes());
            let ids: Vec<String> = r.ids.iter().map(u64::to_string).collect();
            out.extend_from_slice(
                format!(
                    "\t{}\t{}\t{}\t{}\t{}\n",
                    r.id.dev,
                    r.id.ino,
                    r.id.size,
                    r.id.mtime_ns,
                    ids.join(",")
                )
                .as_bytes(),
            );
        }
        out
    }

    /// The driver ids `path` registered, if a record exists and `now` (a fresh stat) matches it.
    pub fn lookup(&self, path: &OsStr, now: Option<FileId>) -> Option<&[u64]> {
        let r = self.records.get(path)?;
        (Some(r.id) == now).then_some(r.ids.as_slice())
    }

    /// Remember what loading `path` (identity `id`) registered. Paths that the format cannot
    /// hold are ignored.
    pub fn record(&mut self, path: &OsStr, id: FileId, ids: Vec<u64>) {
        let b = path.as_bytes();
        if b.is_empty() || b.contains(&b'\t') || b.contains(&b'\n') {
            return;
        }
        let r = Record { id, ids };
        if self.records.get(path) != Some(&r) {
            self.records.insert(path.to_owned(), r);
            self.dirty = true;
        }
    }

    /// Read the file; missing or unreadable gives an empty cache.
    pub fn load(file: &Path) -> Cache {
        std::fs::read(file).map(|t| Cache::parse(&t)).unwrap_or_default()
    }

    /// Write the file if changed (temporary file + rename); errors are ignored.
    pub fn store(&mut self, file: &Path) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        let Some(dir) = file.parent() else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let tmp = dir.join(format!(".providers-v1.{}", std::process::id()));
        if std::fs::write(&tmp, self.serialize()).is_ok() && std::fs::rename(&tmp, file).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// Where the cache file lives: `$XDG_CACHE_HOME/ibverbs-rs/providers-v1`, else
/// `$HOME/.cache/ibverbs-rs/providers-v1`; none unless uid == euid (relative values ignored), and
/// none when `IBVERBS_RS_PROVIDER_CACHE=0` (then every name loads as rdma-core loads it).
pub fn cache_file(get: impl Fn(&str) -> Option<OsString>, uid_is_euid: bool) -> Option<PathBuf> {
    if !uid_is_euid || get(crate::env::IBVERBS_RS_PROVIDER_CACHE).is_some_and(|v| v == "0") {
        return None;
    }
    let abs = |v: OsString| {
        let p = PathBuf::from(v);
        p.is_absolute().then_some(p)
    };
    let base = get("XDG_CACHE_HOME")
        .and_then(abs)
        .or_else(|| get("HOME").and_then(abs).map(|h| h.join(".cache")))?;
    Some(base.join("ibverbs-rs").join(HEADER))
}

/// The path a cache record for `name` may describe: the first candidate, unless that is a bare
/// file name for the dynamic loader's search (which the cache cannot identify).
fn first_path(name: &ProviderName, dir: Option<&OsStr>) -> Option<Candidate> {
    candidates(&name.name, dir, PROVIDER_ABIS).into_iter().next().filter(|c| c.place != Place::SearchPath)
}

/// [`NameHints`] from a cache: each name's first candidate is stat'ed once per process.
pub struct CacheHints<'a> {
    pub cache: &'a dyn Fn() -> Option<&'a std::sync::Mutex<Cache>>,
    pub dir: Option<&'a OsStr>,
    known: HashMap<usize, Option<Vec<u64>>>,
}

impl<'a> CacheHints<'a> {
    /// `cache` gives the process's cache (read on first call), None when there is none.
    pub fn new(
        cache: &'a dyn Fn() -> Option<&'a std::sync::Mutex<Cache>>,
        dir: Option<&'a OsStr>,
    ) -> CacheHints<'a> {
        CacheHints { cache, dir, known: HashMap::new() }
    }
}

impl NameHints for CacheHints<'_> {
    fn may_claim_id(&mut self, pos: usize, name: &ProviderName, id: u32) -> bool {
        let (cache, dir) = (self.cache, self.dir);
        let ids = self.known.entry(pos).or_insert_with(|| {
            let c = first_path(name, dir)?;
            let now = FileId::of(Path::new(&c.path));
            let g = cache()?.lock().unwrap_or_else(|e| e.into_inner());
            g.lookup(&c.path, now).map(<[u64]>::to_vec)
        });
        ids.as_ref().is_none_or(|ids| ids.contains(&(id as u64)))
    }
}

/// After loading name `pos`: if its first candidate opened and exactly one provider is now filed
/// at `pos`, remember that provider's `DriverId` entries for the file.
pub fn note_load<L>(
    cache: &mut Cache,
    registry: &Registry,
    pos: usize,
    name: &ProviderName,
    dir: Option<&OsStr>,
    out: &LoadOutcome<L>,
) {
    let (Some((opened, _)), Some(first)) = (&out.loaded, first_path(name, dir)) else { return };
    if !out.failures.is_empty() || opened.path != first.path {
        return;
    }
    let mine: Vec<_> =
        registry.snapshot().into_iter().filter(|e| e.slot == Slot::Config(pos)).collect();
    let ([e], Some(id)) = (mine.as_slice(), FileId::of(Path::new(&first.path))) else { return };
    let ids = e
        .matching
        .table
        .iter()
        .flatten()
        .filter_map(|k| if let MatchKind::DriverId(d) = k { Some(*d) } else { None })
        .collect();
    cache.record(&first.path, id, ids);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_validation() {
        let mut c = Cache::default();
        let id = FileId { dev: 1, ino: 2, size: 3, mtime_ns: 4_000_000_005 };
        c.record(OsStr::new("/d/librxe-rdmav34.so"), id, vec![14]);
        c.record(OsStr::new("/d/libmlx4-rdmav34.so"), FileId { ino: 9, ..id }, vec![]);
        c.record(OsStr::new("/bad\tpath"), id, vec![1]);
        assert!(c.dirty);
        let text = c.serialize();
        let d = Cache::parse(&text);
        assert_eq!(d.records, c.records);
        assert_eq!(d.lookup(OsStr::new("/d/librxe-rdmav34.so"), Some(id)), Some(&[14u64][..]));
        let stale = FileId { mtime_ns: 1, ..id };
        assert_eq!(d.lookup(OsStr::new("/d/librxe-rdmav34.so"), Some(stale)), None);
        assert_eq!(d.lookup(OsStr::new("/d/librxe-rdmav34.so"), None), None);
        assert_eq!(d.lookup(OsStr::new("/d/libmlx4-rdmav34.so"), Some(FileId { ino: 9, ..id })), Some(&[][..]));
        assert!(Cache::parse(b"providers-v0\n/x\t1\t2\t3\t4\t5\n").records.is_empty());
        assert_eq!(Cache::parse(b"providers-v1\n/x\t1\t2\tz\t4\t5\n/y\t1\t2\t3\t4\t5,6\n").records.len(), 1);
    }

    #[test]
    fn location() {
        let env = |k: &str| match k {
            "HOME" => Some(OsString::from("/home/u")),
            "XDG_CACHE_HOME" => Some(OsString::from("rel")),
            _ => None,
        };
        assert_eq!(cache_file(env, true), Some(PathBuf::from("/home/u/.cache/ibverbs-rs/providers-v1")));
        assert_eq!(cache_file(env, false), None);
        let off = |k: &str| match k {
            "HOME" => Some(OsString::from("/home/u")),
            "IBVERBS_RS_PROVIDER_CACHE" => Some(OsString::from("0")),
            _ => None,
        };
        assert_eq!(cache_file(off, true), None);
        let xdg = |k: &str| (k == "XDG_CACHE_HOME").then(|| OsString::from("/c"));
        assert_eq!(cache_file(xdg, true), Some(PathBuf::from("/c/ibverbs-rs/providers-v1")));
    }
}
