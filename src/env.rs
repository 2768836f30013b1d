//! Every environment variable the library reads, with rdma-core's semantics (libibverbs/init.c,
//! dynamic_driver.c, sysfs.c, memory.c and util/util.c at v44 and v65 — identical in both).
//!
//! Secure execution. rdma-core uses plain `getenv` everywhere and never `secure_getenv`; it
//! consults the two variables that choose files to load or read (`RDMAV_DRIVERS`/`IBV_DRIVERS`
//! and `SYSFS_PATH`) only when `getuid() == geteuid()`, a test blind to set-gid programs and file
//! capabilities (a set-gid program loads the caller's `RDMAV_DRIVERS` libraries), and it opens
//! (creates) `VERBS_LOG_FILE` in a set-uid program, as its effective user. Here the test is
//! [`crate::sys::ids::secure_execution`] (`getauxval(AT_SECURE)`, or differing real and effective
//! ids), and in secure execution no variable that picks code, files or directories is honoured:
//! the table below says, per variable, what secure execution does ([`Secure`]). What was set and
//! ignored is listed once, at debug level, to the log ([`ignored_in_secure_mode`]).
//!
//! The log in secure execution: `VERBS_LOG_FILE` is never opened, so no file the caller names is
//! created or written with the program's privileges. Divergence: with `VERBS_LOG_LEVEL` set, the
//! log goes to the standard error the caller gave the program (rdma-core writes providers'
//! messages into the file it created, and nowhere when it has none).
//!
//! Three kinds of boolean exist:
//! - `check_env` flags: on when set to anything except exactly `"0"`; `""`, `"00"`, `"no"` and
//!   `"false"` all turn them on ([`flag`]).
//! - presence flags: on when set at all, even to `"0"` ([`present`]).
//! - values parsed with C's `strtol(v, NULL, 0)` ([`c_strtol`]).
//!
//! Every reader takes a lookup closure so it can be tested; [`real`] and [`trusted`] are the
//! process environment and whether it may choose files.
#![forbid(unsafe_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};

/// Turns on fork protection (`ibv_fork_init`) at init; a `check_env` flag.
pub const RDMAV_FORK_SAFE: &str = "RDMAV_FORK_SAFE";
/// Older spelling of [`RDMAV_FORK_SAFE`]; either one is enough.
pub const IBV_FORK_SAFE: &str = "IBV_FORK_SAFE";
/// Presence flag read by every `ibv_fork_init` call: protect whole huge pages.
pub const RDMAV_HUGEPAGES_SAFE: &str = "RDMAV_HUGEPAGES_SAFE";
/// Lets destroy verbs succeed after a device is disassociated; a `check_env` flag.
pub const RDMAV_ALLOW_DISASSOC_DESTROY: &str = "RDMAV_ALLOW_DISASSOC_DESTROY";
/// mlx4's older name for [`RDMAV_ALLOW_DISASSOC_DESTROY`]; either one is enough.
pub const MLX4_DEVICE_FATAL_CLEANUP: &str = "MLX4_DEVICE_FATAL_CLEANUP";
/// Presence flag: warn about devices no provider claimed.
pub const IBV_SHOW_WARNINGS: &str = "IBV_SHOW_WARNINGS";
/// Provider log threshold, `strtol(v, NULL, 0)` into a `uint32_t`.
pub const VERBS_LOG_LEVEL: &str = "VERBS_LOG_LEVEL";
/// Provider log file, opened for append; only read when the level is non-zero, never in secure
/// execution.
pub const VERBS_LOG_FILE: &str = "VERBS_LOG_FILE";
/// Extra providers to load first, `:` or `;` separated; not in secure execution.
pub const RDMAV_DRIVERS: &str = "RDMAV_DRIVERS";
/// Used instead of [`RDMAV_DRIVERS`] only when that is unset; same rules.
pub const IBV_DRIVERS: &str = "IBV_DRIVERS";
/// Root of sysfs (default `/sys`); not in secure execution.
pub const SYSFS_PATH: &str = "SYSFS_PATH";
/// Ours, not rdma-core's: replaces the compiled-in config directory; not in secure execution.
pub const IBVERBS_RS_CONFIG_DIR: &str = "IBVERBS_RS_CONFIG_DIR";
/// Ours, not rdma-core's: replaces the compiled-in provider directory (empty = none); not in
/// secure execution.
pub const IBVERBS_RS_PROVIDER_DIR: &str = "IBVERBS_RS_PROVIDER_DIR";

/// How a variable's value is interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Set and not exactly "0".
    Flag,
    /// Set at all.
    Presence,
    /// `strtol(v, NULL, 0)`.
    Number,
    /// Used as a path or list.
    Text,
}

/// What a variable does in secure execution (set-uid, set-gid, file capabilities).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Secure {
    /// Honoured, as by rdma-core: it chooses no code, file or directory.
    Honoured,
    /// Ignored: it would choose code, files or directories. `rdma_core` says when rdma-core
    /// honours it there all the same.
    Ignored { rdma_core: &'static str },
}

/// One row of the inventory.
#[derive(Clone, Copy, Debug)]
pub struct Var {
    pub name: &'static str,
    pub kind: Kind,
    /// In secure execution.
    pub secure: Secure,
    /// False for our own additions.
    pub rdma_core: bool,
    /// When rdma-core reads it.
    pub read_when: &'static str,
}

/// Every variable read by libibverbs/ and util/ in rdma-core (v44 .. v65), plus ours.
/// Providers read their own (MLX5_*, CXGB4_*, ...) with their own `getenv`; not listed.
pub const VARS: &[Var] = &[
    Var {
        name: RDMAV_FORK_SAFE,
        kind: Kind::Flag,
        secure: Secure::Honoured,
        rdma_core: true,
        read_when: "first ibv_get_device_list (ibverbs_init)",
    },
    Var {
        name: IBV_FORK_SAFE,
        kind: Kind::Flag,
        secure: Secure::Honoured,
        rdma_core: true,
        read_when: "first ibv_get_device_list (ibverbs_init)",
    },
    Var {
        name: RDMAV_HUGEPAGES_SAFE,
        kind: Kind::Presence,
        secure: Secure::Honoured,
        rdma_core: true,
        read_when: "every ibv_fork_init call",
    },
    Var {
        name: RDMAV_ALLOW_DISASSOC_DESTROY,
        kind: Kind::Flag,
        secure: Secure::Honoured,
        rdma_core: true,
        read_when: "first ibv_get_device_list (ibverbs_init)",
    },
    Var {
        name: MLX4_DEVICE_FATAL_CLEANUP,
        kind: Kind::Flag,
        secure: Secure::Honoured,
        rdma_core: true,
        read_when: "first ibv_get_device_list (ibverbs_init)",
    },
    Var {
        name: IBV_SHOW_WARNINGS,
        kind: Kind::Presence,
        secure: Secure::Honoured,
        rdma_core: true,
        read_when: "each device left without a provider",
    },
    Var {
        name: VERBS_LOG_LEVEL,
        kind: Kind::Number,
        secure: Secure::Honoured,
        rdma_core: true,
        read_when: "first ibv_get_device_list (ibverbs_init)",
    },
    Var {
        name: VERBS_LOG_FILE,
        kind: Kind::Text,
        secure: Secure::Ignored {
            rdma_core: "always: creates the file as the effective user (set-uid root: a root-owned file where the caller chose); providers log into it",
        },
        rdma_core: true,
        read_when: "ibverbs_init, only if the level is non-zero",
    },
    Var {
        name: RDMAV_DRIVERS,
        kind: Kind::Text,
        secure: Secure::Ignored {
            rdma_core: "when uid == euid: set-gid and file-capability programs load the named libraries",
        },
        rdma_core: true,
        read_when: "when providers are loaded (once)",
    },
    Var {
        name: IBV_DRIVERS,
        kind: Kind::Text,
        secure: Secure::Ignored {
            rdma_core: "when uid == euid, as RDMAV_DRIVERS",
        },
        rdma_core: true,
        read_when: "when providers are loaded, if RDMAV_DRIVERS is unset",
    },
    Var {
        name: SYSFS_PATH,
        kind: Kind::Text,
        secure: Secure::Ignored {
            rdma_core: "when uid == euid: set-gid and file-capability programs read the named tree",
        },
        rdma_core: true,
        read_when: "first ibv_get_sysfs_path (ibverbs_init); cached",
    },
    Var {
        name: IBVERBS_RS_CONFIG_DIR,
        kind: Kind::Text,
        secure: Secure::Ignored {
            rdma_core: "(ours only)",
        },
        rdma_core: false,
        read_when: "when providers are loaded (once)",
    },
    Var {
        name: IBVERBS_RS_PROVIDER_DIR,
        kind: Kind::Text,
        secure: Secure::Ignored {
            rdma_core: "(ours only)",
        },
        rdma_core: false,
        read_when: "when providers are loaded (once)",
    },
];

/// `IBV_SYSFS_PATH_MAX` from verbs.h: `SYSFS_PATH` is cut to this many bytes.
pub const IBV_SYSFS_PATH_MAX: usize = 256;

/// The process environment.
pub fn real(name: &str) -> Option<OsString> {
    std::env::var_os(name)
}

/// Whether the environment may choose files, directories and code: false in secure execution
/// ([`crate::sys::ids::secure_execution`]). Decided once per process.
pub fn trusted() -> bool {
    static TRUSTED: crate::sys::sync::OnceLock<bool> = crate::sys::sync::OnceLock::new();
    *TRUSTED.get_or_init(|| !crate::sys::ids::secure_execution())
}

/// The variables set in the environment that secure execution ignores (empty when `trusted`).
pub fn ignored_in_secure_mode(
    get: impl Fn(&str) -> Option<OsString>,
    trusted: bool,
) -> Vec<&'static str> {
    if trusted {
        return Vec::new();
    }
    VARS.iter()
        .filter(|v| matches!(v.secure, Secure::Ignored { .. }) && get(v.name).is_some())
        .map(|v| v.name)
        .collect()
}

/// rdma-core's `check_env`: set, and not exactly the string "0".
pub fn flag(value: Option<&OsStr>) -> bool {
    value.is_some_and(|v| v.as_bytes() != b"0")
}

/// Set to anything, "0" and "" included.
pub fn present(value: Option<&OsStr>) -> bool {
    value.is_some()
}

/// C's `strtol(s, NULL, base)` for base 0 or 2..=36: leading C whitespace, optional sign, optional
/// `0x`/`0X` (base 16 or 0), leading `0` means octal for base 0; stops at the first bad digit;
/// saturates at `i64::MIN`/`i64::MAX` (LP64 `long`). No digits gives 0.
pub fn c_strtol(s: &[u8], base: u32) -> i64 {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    let mut base = base;
    let hex_prefix = i + 1 < s.len()
        && s[i] == b'0'
        && (s[i + 1] | 0x20) == b'x'
        && s.get(i + 2)
            .is_some_and(|c| (*c as char).is_ascii_hexdigit());
    if (base == 0 || base == 16) && hex_prefix {
        base = 16;
        i += 2;
    } else if base == 0 {
        base = if s.get(i) == Some(&b'0') { 8 } else { 10 };
    }
    let mut acc: i128 = 0;
    let mut overflow = false;
    while let Some(d) = s.get(i).and_then(|c| (*c as char).to_digit(base)) {
        if !overflow {
            acc = acc * base as i128 + d as i128;
            if acc > i64::MAX as i128 + 1 {
                overflow = true;
            }
        }
        i += 1;
    }
    let v = if neg { -acc } else { acc };
    if overflow || v > i64::MAX as i128 {
        if neg { i64::MIN } else { i64::MAX }
    } else if v < i64::MIN as i128 {
        i64::MIN
    } else {
        v as i64
    }
}

/// `RDMAV_FORK_SAFE || IBV_FORK_SAFE` (both `check_env`).
pub fn fork_safe(get: impl Fn(&str) -> Option<OsString>) -> bool {
    flag(get(RDMAV_FORK_SAFE).as_deref()) || flag(get(IBV_FORK_SAFE).as_deref())
}

/// `RDMAV_HUGEPAGES_SAFE` is set (any value).
pub fn hugepages_safe(get: impl Fn(&str) -> Option<OsString>) -> bool {
    present(get(RDMAV_HUGEPAGES_SAFE).as_deref())
}

/// `RDMAV_ALLOW_DISASSOC_DESTROY || MLX4_DEVICE_FATAL_CLEANUP` (both `check_env`).
pub fn allow_disassoc_destroy(get: impl Fn(&str) -> Option<OsString>) -> bool {
    flag(get(RDMAV_ALLOW_DISASSOC_DESTROY).as_deref())
        || flag(get(MLX4_DEVICE_FATAL_CLEANUP).as_deref())
}

/// `IBV_SHOW_WARNINGS` is set (any value).
pub fn show_warnings(get: impl Fn(&str) -> Option<OsString>) -> bool {
    present(get(IBV_SHOW_WARNINGS).as_deref())
}

/// The log settings: the level is `strtol(v, NULL, 0)` stored in a `uint32_t` (so "-1" is
/// 0xffffffff); when non-zero the file is VERBS_LOG_FILE. Without VERBS_LOG_FILE the log goes to
/// standard error, as rdma-core's debug builds do. Divergence: its release builds (every
/// distribution's) log nothing then, so `VERBS_LOG_LEVEL=4 ibv_devinfo` said nothing; a file that
/// cannot be opened still turns logging off, as in rdma-core (the caller decides that).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogSettings {
    pub level: u32,
    /// Path to open with C mode "aw+" (glibc: read/append/create). None when level is 0.
    pub file: Option<OsString>,
    /// No file (VERBS_LOG_FILE unset, or secure execution) with a level set: the log goes to
    /// standard error.
    pub stderr: bool,
}

/// Read VERBS_LOG_LEVEL and (only if that is non-zero) VERBS_LOG_FILE. With no file the log goes
/// to standard error (see [`LogSettings`]). Not `trusted` (secure execution): VERBS_LOG_FILE is
/// not read; a non-zero level logs to stderr.
pub fn log_settings(get: impl Fn(&str) -> Option<OsString>, trusted: bool) -> LogSettings {
    let level = get(VERBS_LOG_LEVEL).map_or(0, |v| c_strtol(v.as_bytes(), 0) as u32);
    if level == 0 {
        return LogSettings {
            level: 0,
            file: None,
            stderr: false,
        };
    }
    if !trusted {
        return LogSettings {
            level,
            file: None,
            stderr: true,
        };
    }
    match get(VERBS_LOG_FILE) {
        Some(f) => LogSettings {
            level,
            file: Some(f),
            stderr: false,
        },
        None => LogSettings {
            level,
            file: None,
            stderr: true,
        },
    }
}

/// Where the extra provider names came from, and the names: `RDMAV_DRIVERS` if set (even to ""),
/// else `IBV_DRIVERS`; split at every ':' and ';' with empty pieces kept (as `strsep` does), so
/// "" gives one empty name and "a::b" gives "a", "", "b". None when not `trusted` (secure
/// execution) or neither is set.
pub fn driver_names(
    get: impl Fn(&str) -> Option<OsString>,
    trusted: bool,
) -> Option<(&'static str, Vec<OsString>)> {
    if !trusted {
        return None;
    }
    let (var, value) = match get(RDMAV_DRIVERS) {
        Some(v) => (RDMAV_DRIVERS, v),
        None => (IBV_DRIVERS, get(IBV_DRIVERS)?),
    };
    let names = value
        .as_bytes()
        .split(|c| *c == b':' || *c == b';')
        .map(|p| OsString::from_vec(p.to_vec()))
        .collect();
    Some((var, names))
}

/// The sysfs root: `SYSFS_PATH` (when `trusted`) cut to [`IBV_SYSFS_PATH_MAX`] bytes with
/// trailing '/' removed (so "/" becomes ""), else "/sys".
pub fn sysfs_path(get: impl Fn(&str) -> Option<OsString>, trusted: bool) -> OsString {
    let Some(v) = get(SYSFS_PATH).filter(|_| trusted) else {
        return OsString::from("/sys");
    };
    let mut b = v.into_vec();
    b.truncate(IBV_SYSFS_PATH_MAX);
    while b.last() == Some(&b'/') {
        b.pop();
    }
    OsString::from_vec(b)
}

/// Our override of the config directory (rdma-core has none: IBV_CONFIG_DIR is compiled in);
/// only when `trusted`.
pub fn config_dir_override(
    get: impl Fn(&str) -> Option<OsString>,
    trusted: bool,
) -> Option<OsString> {
    get(IBVERBS_RS_CONFIG_DIR).filter(|_| trusted)
}

/// Our override of the provider directory (rdma-core has none: VERBS_PROVIDER_DIR is compiled
/// in). An empty value means "no provider directory", like building rdma-core with it empty.
/// Only when `trusted`.
pub fn provider_dir_override(
    get: impl Fn(&str) -> Option<OsString>,
    trusted: bool,
) -> Option<OsString> {
    get(IBVERBS_RS_PROVIDER_DIR).filter(|_| trusted)
}

#[cfg(test)]
#[path = "env_tests.rs"]
mod tests;
