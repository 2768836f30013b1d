//! The host part of the report: memlock, fork safety, the environment, the provider
//! configuration and directories.

use std::ffi::OsString;
use std::path::PathBuf;

use ibverbs::env::{self, Secure};
use ibverbs::provider::config::{self, ProviderList};
use ibverbs::provider::explain::{Seen, loader_search_dirs};
use ibverbs::provider::{SUPPORTED_PROVIDER_ABIS, elfneed, loader, release};
use ibverbs::sys::limits::{Memlock, bytes_text};

/// The provider set-up as the library would read it.
pub struct Providers {
    config_dir: PathBuf,
    names: ProviderList,
    provider_dirs: Vec<OsString>,
    search: Vec<PathBuf>,
}

impl Providers {
    pub fn read() -> Providers {
        let (get, trusted) = (env::real, env::trusted());
        let config_dir = config::config_dir(get, trusted);
        let names = config::discover(&config_dir, get, trusted);
        Providers {
            provider_dirs: loader::provider_dirs(get, trusted),
            search: loader_search_dirs(get, trusted),
            config_dir,
            names,
        }
    }

    pub fn seen(&self) -> Seen<'_> {
        Seen {
            names: &self.names.names,
            config_dir: &self.config_dir,
            provider_dirs: &self.provider_dirs,
            search_dirs: &self.search,
            registered: &[],
        }
    }

    pub fn report(&self) {
        println!();
        println!("== providers");
        let from = if env::real(env::IBVERBS_RS_CONFIG_DIR).is_some() && env::trusted() {
            "IBVERBS_RS_CONFIG_DIR"
        } else {
            "built in"
        };
        let names: Vec<String> = self
            .names
            .names
            .iter()
            .map(|n| n.name.to_string_lossy().into_owned())
            .collect();
        println!(
            "configuration: {} ({from}): {} name{}, load order: {}",
            self.config_dir.display(),
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            if names.is_empty() {
                "(none)".into()
            } else {
                names.join(" ")
            }
        );
        for d in &self.names.diagnostics {
            println!("  {}", d.detail);
        }
        let from = if env::real(env::IBVERBS_RS_PROVIDER_DIR).is_some() && env::trusted() {
            "IBVERBS_RS_PROVIDER_DIR"
        } else {
            "built in"
        };
        if self.provider_dirs.is_empty() {
            println!("provider directories: none ({from} is empty)");
        }
        for (i, d) in self.provider_dirs.iter().enumerate() {
            let path = PathBuf::from(d);
            if i > 0 && !path.is_dir() {
                continue;
            }
            let what = if i == 0 { from } else { "standard" };
            println!("provider directory: {} ({what})", d.to_string_lossy());
            list_files(&path);
        }
        let s: Vec<String> = self
            .search
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        println!(
            "then the dynamic loader's search path for lib<name>-rdmav<N>.so: {}",
            s.join(" ")
        );
    }
}

/// The provider files in `dir`, with the ABI each was built for.
fn list_files(dir: &PathBuf) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        println!("  cannot be read");
        return;
    };
    let mut files: Vec<PathBuf> = rd
        .map_while(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("lib") && n.contains("-rdmav") && n.ends_with(".so"))
        })
        .collect();
    files.sort();
    let mut lacking = 0;
    for f in &files {
        let needs = elfneed::file_needed_private_abis(f);
        let text = match &needs {
            Ok(n) if n.iter().all(|a| SUPPORTED_PROVIDER_ABIS.contains(a)) && !n.is_empty() => {
                // Provider ABI 59 has two layouts (rdma-core v62/v63 changed it in place), 34
                // four (v34, v35 and v54-v56 built other ones than its own: said when chosen).
                if n.contains(&ibverbs::abi::driver::pabi::NODE_V62) {
                    println!("  {}: {}", f.display(), release::detect(f, 59));
                } else if n.contains(&34) {
                    let d = release::detect(f, 34);
                    if d.layout != 34 {
                        println!("  {}: {d}", f.display());
                    }
                }
                continue;
            }
            Ok(n) if n.is_empty() => "needs no IBVERBS_PRIVATE node".to_string(),
            Ok(n) => {
                lacking += 1;
                let v: Vec<String> = n.iter().map(|a| format!("IBVERBS_PRIVATE_{a}")).collect();
                format!("needs {}, which this library lacks", v.join(", "))
            }
            Err(e) => format!("cannot be read: {e}"),
        };
        println!("  {}: {text}", f.display());
    }
    println!(
        "  {} provider file{}, {} for a provider ABI this library lacks",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        lacking
    );
}

pub fn report_memlock() {
    println!();
    println!("== memory locking (registering memory pins it)");
    let m = Memlock::now();
    let text = |v: Option<u64>| v.map_or_else(|| "unknown".into(), bytes_text);
    println!(
        "RLIMIT_MEMLOCK: {} (hard limit {}); pinned now: {}; CAP_IPC_LOCK: {}",
        text(m.soft),
        text(m.hard),
        text(m.pinned),
        if m.cap_ipc_lock { "yes" } else { "no" }
    );
    match m.headroom() {
        None => println!("no limit applies to pinning: memory registration is limited by RAM only"),
        Some(h) if h <= 64 << 10 => println!(
            "too small: ibv_reg_mr of more than {} fails with ENOMEM, and so can ibv_create_cq and ibv_create_qp (their rings are pinned too); raise it: ulimit -l unlimited (hard limit: /etc/security/limits.conf), LimitMEMLOCK=infinity (systemd), --ulimit memlock=-1 (docker)",
            bytes_text(h)
        ),
        Some(h) => println!(
            "registrations in total beyond {} fail with ENOMEM (raise with ulimit -l, LimitMEMLOCK=, --ulimit memlock=)",
            bytes_text(h)
        ),
    }
}

pub fn report_fork() {
    println!();
    println!("== fork safety");
    let get = env::real;
    let on = env::fork_safe(get);
    println!(
        "RDMAV_FORK_SAFE/IBV_FORK_SAFE: {}",
        if on {
            "set: ibv_get_device_list turns fork protection on (registered pages are marked MADV_DONTFORK)"
        } else {
            "unset: fork protection only if the program calls ibv_fork_init()"
        }
    );
    if env::hugepages_safe(get) {
        println!("RDMAV_HUGEPAGES_SAFE: set: protection rounds to huge pages");
    }
    if ibverbs::fork::query_copy_on_fork() {
        println!(
            "kernel: copy-on-fork for pinned pages (Linux 5.13 and later): a child's fork() never corrupts registered memory; ibv_fork_init is not needed (ibv_is_fork_initialized says IBV_FORK_UNNEEDED)"
        );
    } else {
        println!(
            "kernel: no copy-on-fork report over RDMA netlink: a program that forks after registering memory must call ibv_fork_init() or set RDMAV_FORK_SAFE=1, or the parent's registered pages may be corrupted"
        );
    }
}

pub fn report_environment() {
    println!();
    println!("== environment (as the library reads it)");
    let trusted = env::trusted();
    if !trusted {
        println!(
            "secure execution (set-uid, set-gid or capabilities): variables choosing files are ignored"
        );
    }
    let mut any = false;
    for v in env::VARS {
        let Some(val) = env::real(v.name) else {
            continue;
        };
        any = true;
        let note = match v.secure {
            Secure::Ignored { .. } if !trusted => " (ignored: secure execution)",
            _ => "",
        };
        println!("{}={}{note}", v.name, val.to_string_lossy());
    }
    for name in ["LD_LIBRARY_PATH", "LD_PRELOAD"] {
        if let Some(val) = env::real(name) {
            any = true;
            println!(
                "{name}={} (which libibverbs.so.1 and providers load)",
                val.to_string_lossy()
            );
        }
    }
    if !any {
        println!("none of the library's variables is set");
    }
    let s = env::log_settings(env::real, trusted);
    if s.level == 0 {
        println!(
            "verbs log: off (VERBS_LOG_LEVEL=2 shows why a device has no provider, and ENOMEM's memlock figures)"
        );
    } else if let Some(f) = &s.file {
        println!("verbs log: level {} into {}", s.level, f.to_string_lossy());
    } else {
        println!("verbs log: level {} on standard error", s.level);
    }
}
