//! What each provider file registered when last loaded, kept across processes so pass 1 of
//! `try_drivers` can skip names that cannot claim a device's driver id (see `matcher`).
//!
//! Not an rdma-core feature: rdma-core loads every name. The file is an optimisation only:
//! unreadable, unwritable or garbled means "no records", never an error, and a record that cannot
//! be shown valid makes its name "unknown", which is loaded as before.
//!
//! A record, keyed by the name's first candidate path (see `loader::candidates`; never a bare file
//! name for the dynamic loader's search), says: the candidate that opened was `opened`, every
//! candidate before it (same directory, other provider ABI suffixes) did not exist (`lstat` gave
//! ENOENT), `opened` had this identity (st_dev, st_ino, size, mtime and ctime in ns, following
//! symlinks) and whether it was itself a symlink, and the one provider it registered has these
//! `DriverId` entries.
//!
//! Validation, per process and per record, without a syscall in the common case:
//! - The directory holding the candidates ("its directory") has a stored identity (st_dev,
//!   st_ino, mtime and ctime in ns, through symlinks), written only when every record under it was
//!   valid at that identity. One `stat` of the directory per process: if it matches, no entry of it
//!   was added, removed or renamed since (any of those changes the directory's mtime), so the
//!   earlier candidates are still absent and `opened` is the same inode; if `opened` was a symlink
//!   its target may have changed elsewhere, so it is `stat`ed and compared.
//! - Otherwise (directory changed, or no identity stored): per file, `lstat` of every earlier
//!   candidate must fail with ENOENT and a `stat` of `opened` must match. The cache is then
//!   rewritten: the directory is `stat`ed, every record under it re-checked per file (failures
//!   dropped) and that identity stored.
//! - Racy timestamps: an identity whose mtime or ctime is less than [`RACY_NS`] before the
//!   current time (or in the future) is not stored, so a change within the same timestamp tick
//!   as the identity cannot go unseen.
//!
//! Accepted limit: a regular provider file rewritten *in place* (same inode: `cp` over it,
//! `dd`), while its directory keeps its identity, is not noticed; its name keeps the recorded
//! driver ids until the directory changes. Package managers and `install` replace files (new
//! inode, directory changed), which is noticed. `IBVERBS_RS_PROVIDER_CACHE=0`, removing the
//! cache file or touching the directory makes every name load or re-check again.
//!
//! Format (text, one item a line, tab-separated): `providers-v2` header, then
//! `dir PATH dev ino mtime_ns ctime_ns` and
//! `rec FIRST OPENED dev ino size mtime_ns ctime_ns link ids` (link 0/1, ids comma-separated,
//! possibly empty). Paths with a tab or newline are never recorded.
#![forbid(unsafe_code)]

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::config::ProviderName;
use super::loader::{Candidate, LoadOutcome, PROVIDER_ABIS, Place, candidates};
use super::matcher::MatchKind;
use super::registry::{Registry, Slot};
use super::session::NameHints;

const HEADER: &str = "providers-v2";

/// How old (ns) a directory's mtime and ctime must be before its identity is stored.
pub const RACY_NS: i128 = 2_000_000_000;

fn ns(sec: i64, nsec: i64) -> i128 {
    sec as i128 * 1_000_000_000 + nsec as i128
}

/// A file's identity as stat gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
}

impl FileId {
    /// stat (following symlinks, as dlopen does); None if it fails.
    pub fn of(path: &Path) -> Option<FileId> {
        let m = std::fs::metadata(path).ok()?;
        Some(FileId {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime_ns: ns(m.mtime(), m.mtime_nsec()),
            ctime_ns: ns(m.ctime(), m.ctime_nsec()),
        })
    }
}

/// A directory's identity (through symlinks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirId {
    pub dev: u64,
    pub ino: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
}

impl DirId {
    /// stat of a directory; None if it fails or is not a directory.
    pub fn of(path: &Path) -> Option<DirId> {
        let m = std::fs::metadata(path).ok().filter(|m| m.is_dir())?;
        Some(DirId {
            dev: m.dev(),
            ino: m.ino(),
            mtime_ns: ns(m.mtime(), m.mtime_nsec()),
            ctime_ns: ns(m.ctime(), m.ctime_nsec()),
        })
    }

    /// Whether both timestamps are at least [`RACY_NS`] before `now` (and not after it).
    pub fn settled(&self, now: SystemTime) -> bool {
        let Ok(d) = now.duration_since(SystemTime::UNIX_EPOCH) else { return false };
        let now = d.as_nanos() as i128;
        self.mtime_ns.max(self.ctime_ns) <= now - RACY_NS
    }
}

/// One record (see the module header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub opened: OsString,
    pub id: FileId,
    /// `opened` was a symlink when recorded.
    pub link: bool,
    pub ids: Vec<u64>,
}

/// The records by first candidate path, and the stored directory identities.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cache {
    pub records: HashMap<OsString, Record>,
    pub dirs: HashMap<OsString, DirId>,
    /// Changed since read (or a directory needs its identity refreshed).
    pub dirty: bool,
    /// This process's stat of each directory consulted (None: stat failed). Not stored.
    seen: HashMap<OsString, Option<DirId>>,
    /// Records made by this process (checked per file when made). Not stored.
    fresh: HashSet<OsString>,
    /// Records [`Cache::lookup`] found valid in this process. Not stored.
    valid: HashSet<OsString>,
}

/// The directory part of a path (`/a/b` → `/a`), as bytes; None without a '/'.
fn parent(p: &OsStr) -> Option<&OsStr> {
    let b = p.as_bytes();
    let k = b.iter().rposition(|c| *c == b'/')?;
    Some(OsStr::from_bytes(if k == 0 { b"/" } else { &b[..k] }))
}

fn storable(p: &OsStr) -> bool {
    let b = p.as_bytes();
    !b.is_empty() && !b.contains(&b'\t') && !b.contains(&b'\n')
}

/// lstat says there is no such entry.
fn absent(p: &OsStr) -> bool {
    matches!(std::fs::symlink_metadata(p), Err(e) if e.kind() == std::io::ErrorKind::NotFound)
}

/// The candidates up to and including `opened`, if `opened` is one and none of them is a
/// search-path name.
fn prefix_to(cands: &[Candidate], opened: &OsStr) -> Option<usize> {
    let k = cands.iter().position(|c| c.path == opened)?;
    cands[..=k].iter().all(|c| c.place != Place::SearchPath).then_some(k)
}

impl Cache {
    /// Parse the file's text; bad lines are ignored, a wrong header gives an empty cache.
    pub fn parse(text: &[u8]) -> Cache {
        let mut c = Cache::default();
        let mut lines = text.split(|b| *b == b'\n');
        if lines.next() != Some(HEADER.as_bytes()) {
            return c;
        }
        let num = |b: &[u8]| std::str::from_utf8(b).ok()?.parse::<u64>().ok();
        let time = |b: &[u8]| std::str::from_utf8(b).ok()?.parse::<i128>().ok();
        let os = |b: &[u8]| OsString::from_vec(b.to_vec());
        for line in lines {
            let f: Vec<&[u8]> = line.split(|b| *b == b'\t').collect();
            match f.as_slice() {
                [b"dir", p, dev, ino, m, ct] if !p.is_empty() => {
                    let (Some(dev), Some(ino), Some(mtime_ns), Some(ctime_ns)) =
                        (num(dev), num(ino), time(m), time(ct))
                    else {
                        continue;
                    };
                    c.dirs.insert(os(p), DirId { dev, ino, mtime_ns, ctime_ns });
                }
                [b"rec", first, opened, dev, ino, size, m, ct, link, ids]
                    if !first.is_empty() && !opened.is_empty() =>
                {
                    let (Some(dev), Some(ino), Some(size), Some(mtime_ns), Some(ctime_ns)) =
                        (num(dev), num(ino), num(size), time(m), time(ct))
                    else {
                        continue;
                    };
                    let link = match *link {
                        b"0" => false,
                        b"1" => true,
                        _ => continue,
                    };
                    let ids: Option<Vec<u64>> = if ids.is_empty() {
                        Some(Vec::new())
                    } else {
                        ids.split(|b| *b == b',').map(num).collect()
                    };
                    let Some(ids) = ids else { continue };
                    let id = FileId { dev, ino, size, mtime_ns, ctime_ns };
                    c.records.insert(os(first), Record { opened: os(opened), id, link, ids });
                }
                _ => {}
            }
        }
        c
    }

    /// The file's text (directories, then records, each sorted by path).
    pub fn serialize(&self) -> Vec<u8> {
        let mut out = format!("{HEADER}\n").into_bytes();
        let mut dirs: Vec<&OsString> = self.dirs.keys().collect();
        dirs.sort();
        for k in dirs {
            let d = &self.dirs[k];
            out.extend_from_slice(b"dir\t");
            out.extend_from_slice(k.as_bytes());
            out.extend_from_slice(
                format!("\t{}\t{}\t{}\t{}\n", d.dev, d.ino, d.mtime_ns, d.ctime_ns).as_bytes(),
            );
        }
        let mut keys: Vec<&OsString> = self.records.keys().collect();
        keys.sort();
        for k in keys {
            let r = &self.records[k];
            out.extend_from_slice(b"rec\t");
            out.extend_from_slice(k.as_bytes());
            out.push(b'\t');
            out.extend_from_slice(r.opened.as_bytes());
            let ids: Vec<String> = r.ids.iter().map(u64::to_string).collect();
            let i = &r.id;
            out.extend_from_slice(
                format!(
                    "\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                    i.dev,
                    i.ino,
                    i.size,
                    i.mtime_ns,
                    i.ctime_ns,
                    u8::from(r.link),
                    ids.join(",")
                )
                .as_bytes(),
            );
        }
        out
    }

    /// This process's identity of directory `d` (one stat per process).
    fn dir_now(&mut self, d: &OsStr) -> Option<DirId> {
        if let Some(v) = self.seen.get(d) {
            return *v;
        }
        let v = DirId::of(Path::new(d));
        self.seen.insert(d.to_owned(), v);
        v
    }

    /// Whether `d`'s stored identity is this process's (stat once per process). A mismatch
    /// marks the cache dirty (see below), so that the next store re-checks and refreshes it.
    fn dir_valid(&mut self, d: &OsStr) -> bool {
        let now = self.dir_now(d);
        let ok = now.is_some() && self.dirs.get(d).copied() == now;
        // Rewrite when the stored identity is wrong, or none is stored and one could be now.
        if !ok && (self.dirs.contains_key(d) || now.is_some_and(|n| n.settled(SystemTime::now()))) {
            self.dirty = true;
        }
        ok
    }

    /// Per-file check of record `r` against candidates `cands[..=k]`.
    fn file_valid(cands: &[Candidate], k: usize, r: &Record) -> bool {
        cands[..k].iter().all(|c| absent(&c.path)) && FileId::of(Path::new(&r.opened)) == Some(r.id)
    }

    /// The driver ids name `name`'s providers register, if a record exists and is valid now.
    pub fn lookup(&mut self, name: &OsStr, dir: Option<&OsStr>) -> Option<Vec<u64>> {
        let cands = candidates(name, dir, PROVIDER_ABIS);
        let first = cands.first().filter(|c| c.place != Place::SearchPath)?;
        let r = self.records.get(&first.path)?.clone();
        let k = prefix_to(&cands, &r.opened)?;
        let d = parent(&r.opened)?;
        let ok = if self.dir_valid(d) {
            !r.link || FileId::of(Path::new(&r.opened)) == Some(r.id)
        } else {
            Self::file_valid(&cands, k, &r)
        };
        if ok {
            self.valid.insert(first.path.clone());
        }
        ok.then_some(r.ids)
    }

    /// Remember that name `first` (its first candidate path) opened `opened` (identity `id`,
    /// `link` if a symlink) and registered `ids`. Paths the format cannot hold are ignored.
    pub fn record(&mut self, first: &OsStr, opened: &OsStr, id: FileId, link: bool, ids: Vec<u64>) {
        if !storable(first) || !storable(opened) || parent(opened).is_none() {
            return;
        }
        let r = Record { opened: opened.to_owned(), id, link, ids };
        self.fresh.insert(first.to_owned());
        if self.records.get(first) != Some(&r) {
            self.records.insert(first.to_owned(), r);
            self.dirty = true;
        }
    }

    /// Bring the directory identities up to date before writing: for every directory holding a
    /// record, stat it; if that differs from the stored identity (or from what this process saw
    /// before recording), re-check its records per file (dropping failures, except records this
    /// process made while the directory kept the identity it saw) and store the identity if it is
    /// settled at `now`, else none.
    pub fn refresh(&mut self, now: SystemTime) {
        let mut dirs: Vec<OsString> =
            self.records.values().filter_map(|r| parent(&r.opened)).map(OsStr::to_owned).collect();
        dirs.sort();
        dirs.dedup();
        for d in &dirs {
            let cur = DirId::of(Path::new(d));
            let stored = self.dirs.get(d).copied();
            let seen = self.seen.get(d).copied().flatten();
            if cur.is_some() && stored == cur && seen.is_none_or(|s| Some(s) == cur) {
                continue;
            }
            // Fresh records were checked per file while the directory was `seen`; still good
            // if it has not changed since.
            let fresh_ok = seen.is_some() && seen == cur;
            let keys: Vec<OsString> = self
                .records
                .iter()
                .filter(|(_, r)| parent(&r.opened) == Some(d.as_os_str()))
                .map(|(k, _)| k.clone())
                .collect();
            for k in keys {
                if fresh_ok && self.fresh.contains(&k) {
                    continue;
                }
                let r = self.records[&k].clone();
                let cands = candidates_for_first(&k, &r.opened);
                let keep = cands.as_ref().is_some_and(|(c, i)| Self::file_valid(c, *i, &r));
                if !keep {
                    self.records.remove(&k);
                }
            }
            match cur.filter(|c| c.settled(now)) {
                Some(c) => self.dirs.insert(d.clone(), c),
                None => self.dirs.remove(d),
            };
            self.dirty = true;
        }
        let before = self.dirs.len();
        self.dirs.retain(|d, _| dirs.contains(d));
        if self.dirs.len() != before {
            self.dirty = true;
        }
    }

    /// Read the file; missing or unreadable gives an empty cache.
    pub fn load(file: &Path) -> Cache {
        std::fs::read(file).map(|t| Cache::parse(&t)).unwrap_or_default()
    }

    /// Write the file if changed (temporary file + rename); errors are ignored.
    pub fn store(&mut self, file: &Path) {
        self.store_at(file, SystemTime::now());
    }

    /// [`Cache::store`] with the current time given (tests).
    pub fn store_at(&mut self, file: &Path, now: SystemTime) {
        if !self.dirty {
            return;
        }
        self.refresh(now);
        self.dirty = false;
        self.fresh.clear();
        let Some(dir) = file.parent() else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let tmp = dir.join(format!(".{HEADER}.{}", std::process::id()));
        if std::fs::write(&tmp, self.serialize()).is_ok() && std::fs::rename(&tmp, file).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// The candidates a record keyed by `first` went through: those of the same place, in the
/// loader's order, that share `first`'s directory and name stem (the provider ABI suffixes), up
/// to `opened`. Rebuilt from the paths alone (the name and provider directory are not stored).
fn candidates_for_first(first: &OsStr, opened: &OsStr) -> Option<(Vec<Candidate>, usize)> {
    let suffix = PROVIDER_ABIS[0].suffix.as_bytes();
    let stem = first.as_bytes().strip_suffix(suffix)?;
    let cands: Vec<Candidate> = PROVIDER_ABIS
        .iter()
        .map(|a| Candidate {
            path: OsString::from_vec([stem, a.suffix.as_bytes()].concat()),
            abi: a.version,
            place: Place::Absolute,
        })
        .collect();
    let k = cands.iter().position(|c| c.path == opened)?;
    Some((cands, k))
}

/// Where the cache file lives: `$XDG_CACHE_HOME/ibverbs-rs/providers-v2`, else
/// `$HOME/.cache/ibverbs-rs/providers-v2`; none in secure execution (relative values ignored), and
/// none when `IBVERBS_RS_PROVIDER_CACHE=0` (then every name loads as rdma-core loads it).
pub fn cache_file(get: impl Fn(&str) -> Option<OsString>, trusted: bool) -> Option<PathBuf> {
    if !trusted || get(crate::env::IBVERBS_RS_PROVIDER_CACHE).is_some_and(|v| v == "0") {
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

/// [`NameHints`] from a cache: each name is looked up once per process.
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
            let mut g = cache()?.lock().unwrap_or_else(|e| e.into_inner());
            g.lookup(&name.name, dir)
        });
        ids.as_ref().is_none_or(|ids| ids.contains(&(id as u64)))
    }
}

/// After loading name `pos`: if a candidate outside the search path opened, every candidate
/// before it is absent, and exactly one provider is now filed at `pos`, remember that provider's
/// `DriverId` entries for the name.
pub fn note_load<L>(
    cache: &mut Cache,
    registry: &Registry,
    pos: usize,
    name: &ProviderName,
    dir: Option<&OsStr>,
    out: &LoadOutcome<L>,
) {
    let Some((opened, _)) = &out.loaded else { return };
    let cands = candidates(&name.name, dir, PROVIDER_ABIS);
    let Some(k) = prefix_to(&cands, &opened.path) else { return };
    // Found valid earlier in this process and the same file opened: nothing new to learn.
    if cache.valid.contains(&cands[0].path)
        && cache.records.get(&cands[0].path).is_some_and(|r| r.opened == opened.path)
    {
        return;
    }
    let Some(d) = parent(&opened.path) else { return };
    // The directory as it was before the per-file checks below (see `Cache::refresh`).
    cache.dir_now(d);
    let mine: Vec<_> =
        registry.snapshot().into_iter().filter(|e| e.slot == Slot::Config(pos)).collect();
    let [e] = mine.as_slice() else { return };
    if !cands[..k].iter().all(|c| absent(&c.path)) {
        return;
    }
    let Some(id) = FileId::of(Path::new(&opened.path)) else { return };
    let link = std::fs::symlink_metadata(&opened.path).is_ok_and(|m| m.file_type().is_symlink());
    let ids = e
        .matching()
        .table
        .iter()
        .flatten()
        .filter_map(|k| if let MatchKind::DriverId(d) = k { Some(*d) } else { None })
        .collect();
    cache.record(&cands[0].path, &opened.path, id, link, ids);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn id(ino: u64) -> FileId {
        FileId { dev: 1, ino, size: 3, mtime_ns: 4_000_000_005, ctime_ns: 6 }
    }

    #[test]
    fn round_trip() {
        let mut c = Cache::default();
        c.record(OsStr::new("/d/librxe-rdmav65.so"), OsStr::new("/d/librxe-rdmav34.so"), id(2), false, vec![14]);
        c.record(OsStr::new("/d/libmlx4-rdmav65.so"), OsStr::new("/d/libmlx4-rdmav65.so"), id(9), true, vec![]);
        c.record(OsStr::new("/bad\tpath-rdmav65.so"), OsStr::new("/x"), id(1), false, vec![1]);
        c.dirs.insert("/d".into(), DirId { dev: 1, ino: 7, mtime_ns: -5, ctime_ns: 8 });
        assert!(c.dirty);
        let d = Cache::parse(&c.serialize());
        assert_eq!(d.records, c.records);
        assert_eq!(d.dirs, c.dirs);
        assert_eq!(d.records.len(), 2);
        assert!(Cache::parse(b"providers-v1\n/x\t1\t2\t3\t4\t5\n").records.is_empty());
        let t = b"providers-v2\nrec\t/a\t/b\t1\t2\tz\t4\t5\t0\t\nrec\t/y\t/z\t1\t2\t3\t4\t5\t1\t5,6\ndir\t/q\t1\t2\t3\n";
        let p = Cache::parse(t);
        assert_eq!(p.records.len(), 1);
        assert_eq!(p.records[OsStr::new("/y")].ids, [5, 6]);
        assert!(p.dirs.is_empty());
    }

    #[test]
    fn location() {
        let env = |k: &str| match k {
            "HOME" => Some(OsString::from("/home/u")),
            "XDG_CACHE_HOME" => Some(OsString::from("rel")),
            _ => None,
        };
        assert_eq!(cache_file(env, true), Some(PathBuf::from("/home/u/.cache/ibverbs-rs/providers-v2")));
        assert_eq!(cache_file(env, false), None);
        let off = |k: &str| match k {
            "HOME" => Some(OsString::from("/home/u")),
            "IBVERBS_RS_PROVIDER_CACHE" => Some(OsString::from("0")),
            _ => None,
        };
        assert_eq!(cache_file(off, true), None);
        let xdg = |k: &str| (k == "XDG_CACHE_HOME").then(|| OsString::from("/c"));
        assert_eq!(cache_file(xdg, true), Some(PathBuf::from("/c/ibverbs-rs/providers-v2")));
    }

    #[test]
    fn settled_rule() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(100);
        let d = DirId { dev: 1, ino: 1, mtime_ns: 97_000_000_000, ctime_ns: 98_000_000_000 };
        assert!(d.settled(t));
        assert!(!DirId { ctime_ns: 98_500_000_000, ..d }.settled(t));
        assert!(!DirId { mtime_ns: 101_000_000_000, ..d }.settled(t));
    }

    /// A scratch provider directory with `names` as 34 files (plain bytes).
    struct Scratch {
        root: PathBuf,
    }

    impl Scratch {
        fn new(tag: &str) -> Scratch {
            let root = std::env::temp_dir().join(format!("ibverbs-rs-cache-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&root);
            std::fs::create_dir_all(root.join("p")).unwrap();
            Scratch { root }
        }
        fn dir(&self) -> OsString {
            self.root.join("p").into_os_string()
        }
        fn file(&self, name: &str) -> PathBuf {
            self.root.join("p").join(name)
        }
        fn cache_path(&self) -> PathBuf {
            self.root.join("cache").join(HEADER)
        }
        /// Record `name` as opened from its -rdmav34.so file, registering `ids`, as note_load
        /// does, and store the cache with a clock far enough ahead that the directory is settled.
        fn record_and_store(&self, c: &mut Cache, name: &str, ids: Vec<u64>) {
            let cands = candidates(OsStr::new(name), Some(&self.dir()), PROVIDER_ABIS);
            let opened = &cands[1];
            c.dir_now(parent(&opened.path).unwrap());
            assert!(absent(&cands[0].path));
            let fid = FileId::of(Path::new(&opened.path)).unwrap();
            c.record(&cands[0].path, &opened.path, fid, false, ids);
            c.store_at(&self.cache_path(), later());
        }
        /// A new process: read the cache file.
        fn reload(&self) -> Cache {
            Cache::load(&self.cache_path())
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }

    fn later() -> SystemTime {
        SystemTime::now() + Duration::from_secs(10)
    }

    /// Make the directory's mtime differ from what the cache stored (changes within one
    /// timestamp tick are what the settled rule exists for; tests step around them).
    fn tick() {
        std::thread::sleep(Duration::from_millis(30));
    }

    #[test]
    fn dir_identity_makes_lookups_stat_free_and_stale_dir_falls_back_per_file() {
        let s = Scratch::new("stale");
        std::fs::write(s.file("librxe-rdmav34.so"), b"rxe").unwrap();
        std::fs::write(s.file("libmlx4-rdmav34.so"), b"mlx4").unwrap();
        let mut c = Cache::default();
        s.record_and_store(&mut c, "rxe", vec![14]);
        s.record_and_store(&mut c, "mlx4", vec![]);
        let mut n = s.reload();
        assert_eq!(n.dirs.len(), 1, "settled directory identity stored");
        let d = s.dir();
        assert_eq!(n.lookup(OsStr::new("rxe"), Some(&d)), Some(vec![14]));
        assert_eq!(n.lookup(OsStr::new("mlx4"), Some(&d)), Some(vec![]));
        assert!(!n.dirty);
        // An unrelated file appears: the directory is stale, records still pass per file.
        tick();
        std::fs::write(s.file("unrelated"), b"x").unwrap();
        let mut n = s.reload();
        assert_eq!(n.lookup(OsStr::new("rxe"), Some(&d)), Some(vec![14]));
        assert!(n.dirty, "stale directory identity is refreshed on the next store");
        n.store_at(&s.cache_path(), later());
        let n2 = s.reload();
        assert_eq!(n2.dirs.get(&d), DirId::of(Path::new(&d)).as_ref());
        assert_eq!(n2.records.len(), 2);
        // Under a valid identity, an in-place rewrite is the accepted blind spot...
        std::fs::write(s.file("librxe-rdmav34.so"), b"rxe, rewritten").unwrap();
        let mut n3 = s.reload();
        assert_eq!(n3.lookup(OsStr::new("rxe"), Some(&d)), Some(vec![14]));
        // ...but not once the directory is stale: then the file's own identity is checked.
        tick();
        std::fs::write(s.file("other"), b"x").unwrap();
        let mut n4 = s.reload();
        assert_eq!(n4.lookup(OsStr::new("rxe"), Some(&d)), None);
        assert_eq!(n4.lookup(OsStr::new("mlx4"), Some(&d)), Some(vec![]));
        n4.store_at(&s.cache_path(), later());
        assert!(!s.reload().records.contains_key(&s.file("librxe-rdmav65.so").into_os_string()));
    }

    #[test]
    fn added_earlier_candidate_invalidates() {
        let s = Scratch::new("added");
        std::fs::write(s.file("librxe-rdmav34.so"), b"rxe").unwrap();
        let mut c = Cache::default();
        s.record_and_store(&mut c, "rxe", vec![14]);
        let d = s.dir();
        assert_eq!(s.reload().lookup(OsStr::new("rxe"), Some(&d)), Some(vec![14]));
        // A newer-ABI build of the provider is installed next to it: the loader would open it
        // first, so the record no longer describes the name.
        tick();
        std::fs::write(s.file("librxe-rdmav65.so"), b"rxe 65").unwrap();
        let mut n = s.reload();
        assert_eq!(n.lookup(OsStr::new("rxe"), Some(&d)), None);
        n.store_at(&s.cache_path(), later());
        assert!(s.reload().records.is_empty());
        // Even a dangling symlink there counts (lstat, not stat).
        std::fs::remove_file(s.file("librxe-rdmav65.so")).unwrap();
        let mut c = s.reload();
        s.record_and_store(&mut c, "rxe", vec![14]);
        tick();
        std::os::unix::fs::symlink("nowhere", s.file("librxe-rdmav65.so")).unwrap();
        assert_eq!(s.reload().lookup(OsStr::new("rxe"), Some(&d)), None);
    }

    #[test]
    fn removed_or_replaced_file_invalidates() {
        let s = Scratch::new("removed");
        std::fs::write(s.file("librxe-rdmav34.so"), b"rxe").unwrap();
        std::fs::write(s.file("libsiw-rdmav34.so"), b"siw").unwrap();
        let mut c = Cache::default();
        s.record_and_store(&mut c, "rxe", vec![14]);
        s.record_and_store(&mut c, "siw", vec![15]);
        let d = s.dir();
        tick();
        std::fs::remove_file(s.file("librxe-rdmav34.so")).unwrap();
        // Replaced by rename (as package managers do): same name, new inode.
        std::fs::write(s.file(".new"), b"siw").unwrap();
        std::fs::rename(s.file(".new"), s.file("libsiw-rdmav34.so")).unwrap();
        let mut n = s.reload();
        assert_eq!(n.lookup(OsStr::new("rxe"), Some(&d)), None);
        assert_eq!(n.lookup(OsStr::new("siw"), Some(&d)), None);
        n.store_at(&s.cache_path(), later());
        let n = s.reload();
        assert!(n.records.is_empty());
        // Directory gone entirely: nothing is trusted.
        std::fs::remove_dir_all(s.root.join("p")).unwrap();
        assert_eq!(s.reload().lookup(OsStr::new("rxe"), Some(&d)), None);
    }

    #[test]
    fn symlinked_provider_is_checked_through_the_link() {
        let s = Scratch::new("link");
        std::fs::write(s.root.join("libmlx5.so.1.0"), b"mlx5 v1").unwrap();
        std::os::unix::fs::symlink("../libmlx5.so.1.0", s.file("libmlx5-rdmav34.so")).unwrap();
        let cands = candidates(OsStr::new("mlx5"), Some(&s.dir()), PROVIDER_ABIS);
        let mut c = Cache::default();
        c.dir_now(OsStr::new(&s.dir()));
        let fid = FileId::of(Path::new(&cands[1].path)).unwrap();
        c.record(&cands[0].path, &cands[1].path, fid, true, vec![1]);
        c.store_at(&s.cache_path(), later());
        let d = s.dir();
        assert_eq!(s.reload().lookup(OsStr::new("mlx5"), Some(&d)), Some(vec![1]));
        // The target is replaced outside the provider directory: the provider directory keeps
        // its identity, the link's target does not.
        std::fs::write(s.root.join(".n"), b"mlx5 v2").unwrap();
        std::fs::rename(s.root.join(".n"), s.root.join("libmlx5.so.1.0")).unwrap();
        let mut n = s.reload();
        assert!(n.dir_valid(&d));
        assert_eq!(n.lookup(OsStr::new("mlx5"), Some(&d)), None);
    }

    #[test]
    fn unsettled_directory_identity_is_not_stored() {
        let s = Scratch::new("racy");
        std::fs::write(s.file("librxe-rdmav34.so"), b"rxe").unwrap();
        let cands = candidates(OsStr::new("rxe"), Some(&s.dir()), PROVIDER_ABIS);
        let mut c = Cache::default();
        let fid = FileId::of(Path::new(&cands[1].path)).unwrap();
        c.record(&cands[0].path, &cands[1].path, fid, false, vec![14]);
        c.store_at(&s.cache_path(), SystemTime::now());
        let mut n = s.reload();
        assert!(n.dirs.is_empty(), "directory just changed: no identity");
        // Per-file validation still works.
        assert_eq!(n.lookup(OsStr::new("rxe"), Some(&s.dir())), Some(vec![14]));
        // Names whose first candidate is a search-path name have no records.
        assert_eq!(n.lookup(OsStr::new("rxe"), None), None);
    }
}
