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

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::sync::Arc;

use super::config::ProviderName;
use super::known::{self, Contradiction, KnownProvider};
use super::loader::{DirListing, listing};
use super::matcher::ProviderMatch;
use super::session::{Known, NameHints, PLAN};

/// [`known`] for the names whose file is in a provider directory.
pub struct StaticHints<'a> {
    dirs: &'a [OsString],
    listings: Option<Vec<Arc<DirListing>>>,
    /// Per configured position: the answer, once asked.
    memo: Vec<Option<Option<&'static KnownProvider>>>,
    /// Per configured position: whether its name has a file, once asked.
    presence: Vec<Option<bool>>,
}

impl<'a> StaticHints<'a> {
    /// For the provider directories `dirs` (none: nothing is known). The directories are listed
    /// when a walk first asks about a known name.
    pub fn new(dirs: &'a [OsString]) -> StaticHints<'a> {
        StaticHints {
            dirs,
            listings: None,
            memo: Vec::new(),
            presence: Vec::new(),
        }
    }

    /// With a listing made elsewhere (tests).
    pub fn with_listing(listing: Arc<DirListing>) -> StaticHints<'static> {
        StaticHints {
            dirs: &[],
            listings: Some(vec![listing]),
            memo: Vec::new(),
            presence: Vec::new(),
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

    /// [`StaticHints::present`] for the name at configured position `pos`, asked once.
    fn present_at(&mut self, pos: usize, name: &ProviderName) -> bool {
        if let Some(Some(p)) = self.presence.get(pos) {
            return *p;
        }
        let p = self.present(name.name.as_bytes());
        // Sized by the configured names: without room, asked again next time.
        let len = self.presence.len();
        if len <= pos && self.presence.try_reserve(pos + 1 - len).is_ok() {
            self.presence.resize(pos + 1, None);
        }
        if let Some(slot) = self.presence.get_mut(pos) {
            *slot = Some(p);
        }
        p
    }

    fn lookup(&mut self, pos: usize, name: &ProviderName) -> Option<&'static KnownProvider> {
        // The entry's config name is the name's bytes.
        let k = known::by_config_name(name.name.as_bytes())?;
        self.present_at(pos, name).then_some(k)
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
                let k = self.lookup(pos, name);
                self.memo[pos] = Some(k);
                k
            }
        };
        k.map(|k| k as &dyn Known)
    }

    fn loads_quietly(&mut self, pos: usize, name: &ProviderName) -> bool {
        self.present_at(pos, name)
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
