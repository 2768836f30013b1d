//! Why a device has a provider or none, in words: the one explanation the library logs when a
//! device is left without a provider (`verbs::devlist`, at VERBS_LOG_LEVEL warn) and
//! `ibverbs-doctor` prints for every device. rdma-core has no counterpart (it says "no userspace
//! device-specific driver found" under IBV_SHOW_WARNINGS, and nothing about why).
//!
//! Inputs are facts anyone can look at without loading a provider: the device (driver id, name,
//! modalias, uverbs ABI), the configured names ([`super::config`]), the provider directory and the
//! loader's search directories, what [`super::known`] says rdma-core's providers claim and which
//! kernel uverbs ABIs they accept, which provider files exist, and which `IBVERBS_PRIVATE_<N>`
//! node each needs ([`super::elfneed`]). The library adds what it has registered; a registered
//! provider whose table matches is judged by its own ABI range.
//!
//! [`assess`] walks the candidates in rdma-core's order (providers claiming the device's driver
//! id first, then every configured name in load order) and returns the first that would take the
//! device ([`Verdict::Chosen`]), else the reason for the most relevant candidate
//! ([`Verdict::None`]): a provider that claims it but refuses its kernel ABI, is not installed,
//! is installed only for a provider ABI we lack, or is not configured; or that nothing claims it.
//! A configured name rdma-core does not ship (a third-party provider) can only be judged by
//! loading it: it is named in [`Verdict::Unknown`].
#![forbid(unsafe_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use super::SUPPORTED_PROVIDER_ABIS;
use super::config::ProviderName;
use super::elfneed::{self, ElfError};
use super::known::{self, KnownProvider};
use super::loader::{self, PROVIDER_ABIS, Place};
use super::matcher::{Device, MatchState, ProviderMatch, table_match};

/// What a process knows about providers when it explains a device.
pub struct Seen<'a> {
    /// The configured names in load order (environment names first).
    pub names: &'a [ProviderName],
    /// The configuration directory the names were read from (for messages).
    pub config_dir: &'a Path,
    /// The provider directories, in the loader's order (the override alone, else the built-in
    /// directory and the distributions' standard ones: `loader::provider_dirs`).
    pub provider_dirs: &'a [OsString],
    /// Where the dynamic loader looks for a bare file name ([`loader_search_dirs`]).
    pub search_dirs: &'a [PathBuf],
    /// Providers registered in this process (the library's registry; empty in the doctor).
    pub registered: &'a [ProviderMatch],
}

/// A provider file found for a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub path: PathBuf,
    /// The ABI its file name says (`-rdmav<N>.so`).
    pub abi: u32,
    /// The `IBVERBS_PRIVATE_<N>` nodes it needs, or why they could not be read.
    pub needs: Result<Vec<u32>, ElfError>,
    /// For a file of a provider ABI with several layouts: the layout it was built with, and why
    /// ([`super::release`]); for ABI 34 only when it is not the ABI's own.
    pub layout: Option<super::release::Detection>,
}

impl Found {
    /// Loadable by us: its suffix is an ABI we support and so is every node it needs.
    pub fn loadable(&self) -> bool {
        SUPPORTED_PROVIDER_ABIS.contains(&self.abi)
            && self
                .needs
                .as_ref()
                .is_ok_and(|n| n.iter().all(|a| SUPPORTED_PROVIDER_ABIS.contains(a)))
    }
}

/// Why a device has no provider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// `provider` claims the device but accepts kernel uverbs ABIs `min..=max` only.
    KernelAbi {
        provider: String,
        abi: u32,
        min: u32,
        max: u32,
    },
    /// Registered provider `provider` matched the device but its code refused it.
    Refused { provider: String },
    /// `provider` claims the device, is configured, and has no file for any provider ABI: none of
    /// `files` (file names, or absolute paths) in any of `dirs`.
    NotInstalled {
        provider: String,
        files: Vec<String>,
        dirs: Vec<PathBuf>,
    },
    /// `provider` claims the device; its only files are for provider ABIs we lack (or need nodes
    /// we lack).
    OtherAbi { provider: String, files: Vec<Found> },
    /// `provider` (one rdma-core ships) claims the device, but no configured name loads it.
    NotConfigured {
        provider: &'static str,
        config_dir: PathBuf,
    },
    /// `provider` claims it and a loadable file exists, yet it did not register (the library
    /// only: its load failed, see the warning printed then).
    NotLoaded { provider: String, path: PathBuf },
    /// `provider`, loaded, serves the device's PCI vendor but its table does not list the device
    /// (the library only).
    NotInTable { provider: String },
    /// No provider rdma-core ships claims the device.
    NoMatch { device: String },
}

/// What [`assess`] concludes for one device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `provider` would take it, from `file` (None: already registered in this process).
    /// `or` names other providers that may take it instead: all of them claim it by PCI vendor
    /// only, and their tables' device ids decide (the order is the walk's).
    Chosen {
        provider: String,
        file: Option<Found>,
        or: Vec<String>,
    },
    /// Only these configured names, which rdma-core does not ship, might take it.
    Unknown {
        names: Vec<String>,
    },
    None(Reason),
}

/// The device as messages name it: IB name, driver id, modalias.
pub fn describe(dev: &Device) -> String {
    let mut s = format!("{}", String::from_utf8_lossy(&dev.ibdev_name));
    match dev.known_driver_id() {
        Some(id) => {
            let n = known::driver_id_name(id).unwrap_or("?");
            s += &format!(", kernel driver id {id} (RDMA_DRIVER_{n})");
        }
        None => s += ", no kernel driver id (netlink did not give one)",
    }
    match dev.modalias() {
        Some(m) => s += &format!(", modalias {}", String::from_utf8_lossy(m)),
        None => s += ", no modalias",
    }
    s
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::KernelAbi {
                provider,
                abi,
                min,
                max,
            } => write!(
                f,
                "provider {provider} claims it but supports kernel uverbs ABI {min} to {max}; the device has {abi} (a kernel driver and provider from different releases)"
            ),
            Reason::Refused { provider } => write!(
                f,
                "provider {provider} matched it but refused it (its match_device or alloc_device failed)"
            ),
            Reason::NotInstalled {
                provider,
                files,
                dirs,
            } => {
                let d: Vec<String> = dirs.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "provider {provider} claims it but is not installed (no {} in {}; Debian: apt install ibverbs-providers)",
                    files.join(" or "),
                    d.join(" ")
                )
            }
            Reason::OtherAbi { provider, files } => {
                write!(
                    f,
                    "provider {provider} claims it but is built for a provider ABI this library lacks (it loads "
                )?;
                write!(f, "{})", abi_list(SUPPORTED_PROVIDER_ABIS))?;
                for x in files {
                    write!(f, ": {} ", x.path.display())?;
                    match &x.needs {
                        Ok(n) if !n.is_empty() => {
                            let nodes: Vec<String> =
                                n.iter().map(|a| format!("IBVERBS_PRIVATE_{a}")).collect();
                            write!(f, "needs {} from libibverbs.so.1", nodes.join(", "))?
                        }
                        Ok(_) => write!(f, "needs no IBVERBS_PRIVATE node")?,
                        Err(e) => write!(f, "cannot be read: {e}")?,
                    }
                }
                Ok(())
            }
            Reason::NotConfigured {
                provider,
                config_dir,
            } => write!(
                f,
                "provider {provider} would claim it but no file in {} says \"driver {provider}\" (Debian: apt install ibverbs-providers)",
                config_dir.display()
            ),
            Reason::NotLoaded { provider, path } => write!(
                f,
                "provider {provider} claims it and {} exists, but it did not load (see the \"couldn't load driver\" warning)",
                path.display()
            ),
            Reason::NotInTable { provider } => write!(
                f,
                "provider {provider} is loaded and serves this PCI vendor, but its match table does not list this device (a device newer than the provider: update the providers)"
            ),
            Reason::NoMatch { device } => write!(
                f,
                "no provider claims it ({device}): no rdma-core provider has this driver id, name or modalias in its match table"
            ),
        }
    }
}

fn abi_list(abis: &[u32]) -> String {
    let v: Vec<String> = abis.iter().map(u32::to_string).collect();
    match v.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("provider ABI {} and {last}", rest.join(", "))
        }
        _ => format!("provider ABI {}", v.join("")),
    }
}

/// The directories the dynamic loader searches for a bare `lib<name>-rdmav<N>.so`, in its order:
/// `LD_LIBRARY_PATH` (when `trusted`), the directories of `/etc/ld.so.conf` and its
/// `include`d files (what `ldconfig` puts in the cache), then the default directories.
pub fn loader_search_dirs(get: impl Fn(&str) -> Option<OsString>, trusted: bool) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut add = |p: PathBuf| {
        if p.is_absolute() && !out.contains(&p) {
            out.push(p);
        }
    };
    if let Some(v) = trusted.then(|| get("LD_LIBRARY_PATH")).flatten() {
        for d in v.as_bytes().split(|c| *c == b':' || *c == b';') {
            if !d.is_empty() {
                add(PathBuf::from(OsString::from_vec(d.to_vec())));
            }
        }
    }
    let mut conf = Vec::new();
    ld_so_conf(Path::new("/etc/ld.so.conf"), &mut conf, 0);
    conf.into_iter().for_each(&mut add);
    let multiarch = Path::new(loader::DEFAULT_PROVIDER_DIR)
        .parent()
        .map(Path::to_path_buf);
    for d in ["/lib", "/usr/lib"] {
        if let Some(m) = multiarch.as_ref().and_then(|m| m.file_name()) {
            add(Path::new(d).join(m));
        }
        add(PathBuf::from(d));
    }
    out
}

/// The directories one ld.so.conf file names, following `include` (depth-limited).
fn ld_so_conf(file: &Path, out: &mut Vec<PathBuf>, depth: u32) {
    let Ok(text) = std::fs::read(file) else {
        return;
    };
    if depth > 4 || text.len() > 1 << 20 {
        return;
    }
    for line in text.split(|c| *c == b'\n') {
        let line = line
            .split(|c| *c == b'#')
            .next()
            .unwrap_or(b"")
            .trim_ascii();
        if let Some(pat) = line.strip_prefix(b"include").map(<[u8]>::trim_ascii) {
            for f in glob_files(pat) {
                ld_so_conf(&f, out, depth + 1);
            }
        } else if line.first() == Some(&b'/') {
            out.push(PathBuf::from(OsStr::from_bytes(line)));
        }
    }
}

/// The files `dir/pattern` names for the one-`*` patterns ld.so.conf uses (`/etc/ld.so.conf.d/*.conf`).
fn glob_files(pattern: &[u8]) -> Vec<PathBuf> {
    let p = Path::new(OsStr::from_bytes(pattern));
    let (Some(dir), Some(name)) = (p.parent(), p.file_name()) else {
        return Vec::new();
    };
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .map_while(Result::ok)
        .filter(|e| crate::sys::fnmatch::fnmatch(name.as_bytes(), e.file_name().as_bytes()))
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

/// Every `lib<name>-rdmav<N>.so` for this configured name: where the loader would try it for the
/// ABIs we load (provider directory, then search directories), and in those directories any
/// other `N`. Also the file names and directories looked in, for "not installed".
pub fn provider_files(name: &OsStr, seen: &Seen<'_>) -> (Vec<Found>, Vec<String>, Vec<PathBuf>) {
    let mut names: Vec<String> = Vec::new();
    let mut dirs: Vec<PathBuf> = Vec::new();
    let add_dir = |d: &Path, dirs: &mut Vec<PathBuf>| {
        if !dirs.iter().any(|x| x == d) {
            dirs.push(d.to_path_buf());
        }
    };
    for c in loader::candidates(name, seen.provider_dirs, &PROVIDER_ABIS) {
        let p = PathBuf::from(&c.path);
        let file = p
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !names.contains(&file) {
            names.push(file);
        }
        match c.place {
            Place::Absolute | Place::ProviderDir => {
                if let Some(d) = p.parent() {
                    add_dir(d, &mut dirs);
                }
            }
            Place::SearchPath => {
                for d in seen.search_dirs {
                    add_dir(d, &mut dirs);
                }
            }
        }
    }
    let base = Path::new(name)
        .file_name()
        .map(|b| b.as_bytes().to_vec())
        .unwrap_or_default();
    let prefix = if name.as_bytes().first() == Some(&b'/') {
        [base.as_slice(), b"-rdmav"].concat()
    } else {
        [b"lib", base.as_slice(), b"-rdmav"].concat()
    };
    let mut found = Vec::new();
    for d in &dirs {
        let Ok(rd) = std::fs::read_dir(d) else {
            continue;
        };
        let mut here: Vec<(u32, PathBuf)> = rd
            .map_while(Result::ok)
            .filter_map(|e| {
                let f = e.file_name();
                let n = f.as_bytes().strip_prefix(prefix.as_slice())?;
                let n = n.strip_suffix(b".so")?;
                let abi = std::str::from_utf8(n).ok()?.parse::<u32>().ok()?;
                e.path().is_file().then(|| (abi, e.path()))
            })
            .collect();
        // The loader's order: newest ABI first.
        here.sort_by_key(|(abi, _)| std::cmp::Reverse(*abi));
        for (abi, path) in here {
            let needs = elfneed::file_needed_private_abis(&path);
            // ABI 59's layout is always said; 34's when it is not the ABI's own (v34, v35,
            // v54-v56: most providers of 34 are v36-v53's).
            let layout = crate::abi::driver::pabi::has_other_layouts(abi)
                .then(|| super::release::detect(&path, abi))
                .filter(|d| abi == crate::abi::driver::pabi::NODE_V62 || d.layout != abi);
            found.push(Found {
                path,
                abi,
                needs,
                layout,
            });
        }
    }
    (found, names, dirs)
}

/// The registered provider whose table matches `dev`, if any (rdma-core's step 1).
fn registered_match<'a>(dev: &Device, seen: &'a Seen<'_>) -> Option<&'a ProviderMatch> {
    let by_id = seen
        .registered
        .iter()
        .find(|p| super::matcher::match_driver_id(p, dev).is_some());
    by_id.or_else(|| {
        seen.registered.iter().find(|p| {
            let mut st = MatchState::default();
            table_match(p, dev, &mut st).is_some()
        })
    })
}

/// The known providers that may claim `dev`, driver-id claimants first, then in the configured
/// order, then the unconfigured ones; each with its configured name if configured.
fn candidates<'a>(
    dev: &Device,
    seen: &'a Seen<'_>,
) -> Vec<(&'static KnownProvider, Option<&'a ProviderName>)> {
    let configured = |k: &KnownProvider| {
        seen.names
            .iter()
            .find(|n| n.name.as_bytes() == k.config_name.as_bytes())
    };
    let mut v: Vec<(&'static KnownProvider, Option<&ProviderName>)> = known::KNOWN
        .iter()
        .filter(|k| k.may_match(dev))
        .map(|k| (k, configured(k)))
        .collect();
    let pos = |n: Option<&ProviderName>| {
        n.and_then(|n| seen.names.iter().position(|m| std::ptr::eq(m, n)))
            .unwrap_or(usize::MAX)
    };
    let by_id = |k: &KnownProvider| !dev.known_driver_id().is_some_and(|id| k.may_claim_id(id));
    v.sort_by_key(|(k, n)| (by_id(k), pos(*n)));
    v
}

/// What happens to `dev`: the provider that would take it, or why none would.
pub fn assess(dev: &Device, seen: &Seen<'_>) -> Verdict {
    if let Some(p) = registered_match(dev, seen) {
        return registered_verdict(dev, p);
    }
    let mut chosen: Option<(String, Found)> = None;
    let mut or = Vec::new();
    let mut first: Option<Reason> = None;
    for (k, name) in candidates(dev, seen) {
        let file = match candidate_file(dev, k, name, seen) {
            Ok(file) => file,
            Err(r) => {
                keep_first(r, &mut first);
                continue;
            }
        };
        let vendor = k.by_vendor_only(dev);
        match &chosen {
            None if !vendor => {
                return Verdict::Chosen {
                    provider: k.ops_name.to_string(),
                    file: Some(file),
                    or: Vec::new(),
                };
            }
            None => chosen = Some((k.ops_name.to_string(), file)),
            Some(_) if vendor => or.push(k.ops_name.to_string()),
            Some(_) => {}
        }
    }
    if let Some((provider, file)) = chosen {
        return Verdict::Chosen {
            provider,
            file: Some(file),
            or,
        };
    }
    none_chosen(dev, seen, first)
}

/// [`assess`] of a device a registered provider matches: chosen, unless the device's kernel ABI
/// is outside the provider's range.
fn registered_verdict(dev: &Device, p: &ProviderMatch) -> Verdict {
    if dev.abi_ver < p.min_abi || dev.abi_ver > p.max_abi {
        return Verdict::None(Reason::KernelAbi {
            provider: p.name.clone(),
            abi: dev.abi_ver,
            min: p.min_abi,
            max: p.max_abi,
        });
    }
    Verdict::Chosen {
        provider: p.name.clone(),
        file: None,
        or: Vec::new(),
    }
}

/// Keep `r` as the reason [`assess`] gives, unless one is kept already: a configured
/// candidate's reason beats "not configured".
fn keep_first(r: Reason, first: &mut Option<Reason>) {
    let weak = |r: &Reason| matches!(r, Reason::NotConfigured { .. });
    if first.as_ref().is_none_or(|f| weak(f) && !weak(&r)) {
        *first = Some(r);
    }
}

/// The file a known provider that may match `dev` would load from, or why it would not take
/// the device: not configured, not installed, built for another provider ABI, or outside its
/// kernel ABI range.
fn candidate_file(
    dev: &Device,
    k: &'static KnownProvider,
    name: Option<&ProviderName>,
    seen: &Seen<'_>,
) -> Result<Found, Reason> {
    let Some(name) = name else {
        return Err(Reason::NotConfigured {
            provider: k.config_name,
            config_dir: seen.config_dir.to_path_buf(),
        });
    };
    let (files, names, dirs) = provider_files(&name.name, seen);
    let Some(file) = files.iter().find(|f| f.loadable()).cloned() else {
        return Err(if files.is_empty() {
            Reason::NotInstalled {
                provider: k.config_name.to_string(),
                files: names,
                dirs,
            }
        } else {
            Reason::OtherAbi {
                provider: k.config_name.to_string(),
                files,
            }
        });
    };
    let range = known::kernel_abi_range(k.config_name);
    if let Some((min, max)) = range.filter(|&(min, max)| dev.abi_ver < min || dev.abi_ver > max) {
        return Err(Reason::KernelAbi {
            provider: k.ops_name.to_string(),
            abi: dev.abi_ver,
            min,
            max,
        });
    }
    Ok(file)
}

/// [`assess`] when no candidate was chosen: the first reason kept, else the configured names
/// this library does not know, else no provider matches the device at all.
fn none_chosen(dev: &Device, seen: &Seen<'_>, first: Option<Reason>) -> Verdict {
    let unknown: Vec<String> = seen
        .names
        .iter()
        .filter(|n| known::by_config_name(n.name.as_bytes()).is_none() && n.first.is_none())
        .filter(|n| !n.name.is_empty())
        .map(|n| n.name.to_string_lossy().into_owned())
        .collect();
    match first {
        Some(r) => Verdict::None(r),
        None if !unknown.is_empty() => Verdict::Unknown { names: unknown },
        None => Verdict::None(Reason::NoMatch {
            device: describe(dev),
        }),
    }
}

/// The reason the library logs for a device no provider took: [`assess`], where a provider that
/// would have been chosen is one that matched and refused (registered) or did not load.
pub fn why_unmatched(dev: &Device, seen: &Seen<'_>) -> String {
    let r = match assess(dev, seen) {
        Verdict::Chosen {
            provider,
            file: None,
            ..
        } => Reason::Refused { provider },
        Verdict::Chosen { provider, .. } if seen.registered.iter().any(|p| p.name == provider) => {
            Reason::NotInTable { provider }
        }
        Verdict::Chosen {
            provider,
            file: Some(f),
            ..
        } => Reason::NotLoaded {
            provider,
            path: f.path,
        },
        Verdict::Unknown { names } => {
            return format!(
                "no provider rdma-core ships claims it ({}); the other configured names ({}) did not take it",
                describe(dev),
                names.join(", ")
            );
        }
        Verdict::None(r) => r,
    };
    r.to_string()
}

#[cfg(test)]
#[path = "explain_tests.rs"]
mod tests;
