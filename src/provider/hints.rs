//! The names a walk may leave unloaded: a configured name `known` describes whose file is in the
//! provider directory. Ours, not rdma-core's (it loads every name; see `matcher` for why the
//! result is the same).
//!
//! "In a provider directory" (the built-in one or a standard one, see `loader`) is what keeps
//! stderr equal: a name whose file is missing gets
//! rdma-core's "couldn't load driver" warning, so it must really be loaded, and at rdma-core's
//! load moment (`session` loads every name that does not [`NameHints::loads_quietly`] then). The
//! directory is listed once per process (one `getdents` pass, no file opened); a
//! `lib<name>-rdmav<ABI>.so` entry counts when it is a regular file, or a symlink to one (one
//! `stat`, only for names asked about). A name reached only through the dynamic loader's search
//! path, a path name, the empty name, or no provider directory at all: not quiet, not known,
//! loaded at the load moment as rdma-core would. Accepted limit: a file that exists but that
//! `dlopen` refuses (another architecture, a newer glibc) is taken as quiet; rdma-core would
//! warn about it, we warn only if a walk needs it.
//!
//! Nothing is written anywhere: the only state is this process's memory.
#![forbid(unsafe_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::sync::{Arc, Mutex};

use super::config::ProviderName;
use super::known::{self, Contradiction, KnownProvider};
use super::loader::PROVIDER_ABIS;
use super::matcher::ProviderMatch;
use super::session::{Known, NameHints, PLAN};

/// A provider directory's entries, sorted by name; each is known to be a regular file (`true`)
/// or needs a `stat` to tell (`false`: a symlink, or a file system without `d_type`).
#[derive(Debug, Default)]
pub struct DirListing {
    dir: OsString,
    entries: Vec<(OsString, bool)>,
    /// The directory could be listed (else nothing is known of it: its files are tried blindly).
    listed: bool,
}

impl DirListing {
    /// List `dir` (an unreadable directory lists as empty: every name is then loaded in order).
    pub fn read(dir: &OsStr) -> DirListing {
        let rd = std::fs::read_dir(dir);
        let listed = rd.is_ok();
        let mut entries: Vec<(OsString, bool)> = rd
            .map(|rd| {
                rd.map_while(Result::ok)
                    .filter(|e| e.file_name().as_bytes().starts_with(b"lib"))
                    .map(|e| (e.file_name(), e.file_type().is_ok_and(|t| t.is_file())))
                    .collect()
            })
            .unwrap_or_default();
        entries.sort_unstable();
        DirListing {
            dir: dir.to_owned(),
            entries,
            listed,
        }
    }

    /// Whether the entry `file` is a regular file here (through symlinks).
    fn is_file(&self, file: &OsStr) -> bool {
        match self
            .entries
            .binary_search_by(|(n, _)| n.as_os_str().cmp(file))
        {
            Ok(i) if self.entries[i].1 => true,
            Ok(_) => {
                let path = [self.dir.as_bytes(), b"/", file.as_bytes()].concat();
                std::fs::metadata(OsStr::from_bytes(&path)).is_ok_and(|m| m.is_file())
            }
            Err(_) => false,
        }
    }

    /// Whether `lib<name><suffix>` is a regular file here (through symlinks) for some provider ABI
    /// we load.
    pub fn has_provider(&self, name: &[u8]) -> bool {
        PROVIDER_ABIS.iter().any(|abi| {
            let file = OsString::from_vec([b"lib", name, abi.suffix().as_bytes()].concat());
            self.is_file(&file)
        })
    }

    /// Whether the file `file` may be here: it is, or the directory could not be listed.
    pub fn may_have(&self, file: &OsStr) -> bool {
        !self.listed || self.is_file(file)
    }

    /// The files `lib<name>-rdmav<N>.so` here whose N is a provider ABI this library lacks, with
    /// their paths.
    pub fn foreign_abis(&self, name: &[u8]) -> Vec<(OsString, u32)> {
        let prefix = [b"lib".as_slice(), name, b"-rdmav"].concat();
        let start = self
            .entries
            .partition_point(|(n, _)| n.as_bytes() < prefix.as_slice());
        self.entries[start..]
            .iter()
            .take_while(|(n, _)| n.as_bytes().starts_with(&prefix))
            .filter_map(|(n, _)| {
                let abi = super::loader::file_abi(n.as_bytes(), name)?;
                let ours = PROVIDER_ABIS.iter().any(|a| a.version == abi);
                let path = [self.dir.as_bytes(), b"/", n.as_bytes()].concat();
                (!ours).then(|| (OsString::from_vec(path), abi))
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

/// [`known`] for the names whose file is in a provider directory.
pub struct StaticHints<'a> {
    dirs: &'a [OsString],
    listings: Option<Vec<Arc<DirListing>>>,
    /// Per configured position: the answer, once asked.
    memo: Vec<Option<Option<&'static KnownProvider>>>,
}

impl<'a> StaticHints<'a> {
    /// For the provider directories `dirs` (none: nothing is known). The directories are listed
    /// when a walk first asks about a known name.
    pub fn new(dirs: &'a [OsString]) -> StaticHints<'a> {
        StaticHints {
            dirs,
            listings: None,
            memo: Vec::new(),
        }
    }

    /// With a listing made elsewhere (tests).
    pub fn with_listing(listing: Arc<DirListing>) -> StaticHints<'static> {
        StaticHints {
            dirs: &[],
            listings: Some(vec![listing]),
            memo: Vec::new(),
        }
    }

    /// Whether `name` has a file in a provider directory (a plain name only).
    fn present(&mut self, name: &[u8]) -> bool {
        if name.is_empty() || name.contains(&b'/') {
            return false;
        }
        let dirs = self.dirs;
        let l = self
            .listings
            .get_or_insert_with(|| dirs.iter().map(|d| listing(d)).collect());
        l.iter().any(|l| l.has_provider(name))
    }

    fn lookup(&mut self, name: &ProviderName) -> Option<&'static KnownProvider> {
        let k = known::by_config_name(name.name.as_bytes())?;
        self.present(k.config_name.as_bytes()).then_some(k)
    }
}

impl NameHints for StaticHints<'_> {
    fn known(&mut self, pos: usize, name: &ProviderName) -> Option<&dyn Known> {
        if self.memo.len() <= pos {
            self.memo.resize(pos + 1, None);
        }
        let k = match self.memo[pos] {
            Some(k) => k,
            None => {
                let k = self.lookup(name);
                self.memo[pos] = Some(k);
                k
            }
        };
        k.map(|k| k as &dyn Known)
    }

    fn loads_quietly(&mut self, _: usize, name: &ProviderName) -> bool {
        self.present(name.name.as_bytes())
    }
}

/// [`known::audit`] for a provider's matching data, read when matching first needs it (rdma-core
/// reads a provider's table only then): checked against the entry for the configured name it
/// registered while loading (`loaded_as`, a config position, if any) and the entry for the
/// provider's own name.
pub fn audit_registration(loaded_as: Option<usize>, m: &ProviderMatch) -> Option<Contradiction> {
    let loaded_as = loaded_as.and_then(|pos| {
        PLAN.names()
            .and_then(|l| l.names.get(pos).map(|n| n.name.clone()))
    });
    known::audit(loaded_as.as_deref().map(OsStrExt::as_bytes), m)
}
