//! The verbs log: VERBS_LOG_LEVEL and VERBS_LOG_FILE (rdma-core: init.c, `__verbs_log`).
//!
//! Semantics (rdma-core release builds): the level is read once, as C's `strtol(value, NULL, 0)`
//! would (so "0x3" and "010" work); messages with a level at or below it are written to
//! VERBS_LOG_FILE, opened for appending. Without VERBS_LOG_FILE, or when it cannot be opened,
//! nothing is logged at all (rdma-core's release fallback sets the level to none; only its debug
//! builds fall back to stderr). The library's own diagnostics (why a device or provider was
//! skipped) go through [`log`] with the same filter.
#![forbid(unsafe_code)]

use std::io::Write;
use std::sync::{Mutex, OnceLock};

pub const VERBS_LOG_ERR: u32 = 1;
pub const VERBS_LOG_WARN: u32 = 2;
pub const VERBS_LOG_INFO: u32 = 3;
pub const VERBS_LOG_DEBUG: u32 = 4;

struct Sink {
    level: u32,
    file: Option<Mutex<std::fs::File>>,
}

impl Sink {
    fn from_env(level: Option<&str>, file: Option<&std::ffi::OsStr>) -> Sink {
        let level = level.map_or(0, parse_c_long);
        let file = match (level, file) {
            (0, _) | (_, None) => None,
            (_, Some(p)) => std::fs::OpenOptions::new()
                .append(true)
                .read(true)
                .create(true)
                .open(p)
                .ok()
                .map(Mutex::new),
        };
        // No file: rdma-core's release fallback turns logging off.
        let level = if file.is_some() { level } else { 0 };
        Sink { level, file }
    }
}

fn sink() -> &'static Sink {
    static SINK: OnceLock<Sink> = OnceLock::new();
    SINK.get_or_init(|| {
        let level = std::env::var("VERBS_LOG_LEVEL").ok();
        Sink::from_env(level.as_deref(), std::env::var_os("VERBS_LOG_FILE").as_deref())
    })
}

/// `strtol(s, NULL, 0)` clamped into u32 the way a `uint32_t` assignment would truncate it.
pub fn parse_c_long(s: &str) -> u32 {
    let t = s.trim_start();
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (radix, digits) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (16, h)
    } else if t.len() > 1 && t.starts_with('0') {
        (8, &t[1..])
    } else {
        (10, t)
    };
    let end = digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len());
    let v = i64::from_str_radix(&digits[..end], radix).unwrap_or(if end == 0 { 0 } else { i64::MAX });
    let v = if neg { v.wrapping_neg() } else { v };
    v as u32
}

pub fn enabled(level: u32) -> bool {
    let s = sink();
    s.level != 0 && level <= s.level
}

/// Write one already-formatted message (no newline is added, as rdma-core's vfprintf adds none).
pub fn write(msg: &[u8]) {
    let s = sink();
    if let Some(f) = &s.file {
        if let Ok(mut f) = f.lock() {
            let _ = f.write_all(msg);
        }
    }
}

/// The library's own diagnostics, filtered like providers' messages.
pub fn log(level: u32, args: std::fmt::Arguments<'_>) {
    if enabled(level) {
        let mut line = std::fmt::format(args);
        line.push('\n');
        write(line.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::{Sink, parse_c_long};

    #[test]
    fn no_file_means_no_log() {
        assert_eq!(Sink::from_env(Some("4"), None).level, 0);
        let dir = std::env::temp_dir().join(format!("verbs-log-{}", std::process::id()));
        let s = Sink::from_env(Some("4"), Some(dir.as_os_str()));
        assert_eq!(s.level, 4);
        assert!(s.file.is_some());
        let _ = std::fs::remove_file(dir);
        assert_eq!(Sink::from_env(Some("0"), Some(std::ffi::OsStr::new("/nonexistent/x"))).level, 0);
    }

    #[test]
    fn strtol_like() {
        assert_eq!(parse_c_long("4"), 4);
        assert_eq!(parse_c_long("0x3"), 3);
        assert_eq!(parse_c_long("010"), 8);
        assert_eq!(parse_c_long(" 2abc"), 2);
        assert_eq!(parse_c_long("abc"), 0);
        assert_eq!(parse_c_long("-1"), u32::MAX);
    }
}
