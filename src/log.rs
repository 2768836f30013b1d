//! The verbs log: VERBS_LOG_LEVEL and VERBS_LOG_FILE (rdma-core: init.c, `__verbs_log`).
//!
//! Semantics: the level is read once, as C's `strtol(value, NULL, 0)` would (so "0x3" and "010"
//! work); messages with a level at or below it are written. The sink is VERBS_LOG_FILE, opened for
//! appending, else stderr. Level 0 (the default) writes nothing. The library's own diagnostics
//! (why a device or provider was skipped) go through [`log`] with the same filter.
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

fn sink() -> &'static Sink {
    static SINK: OnceLock<Sink> = OnceLock::new();
    SINK.get_or_init(|| {
        let level = std::env::var("VERBS_LOG_LEVEL").ok().map_or(0, |v| parse_c_long(&v));
        let file = if level == 0 {
            None
        } else {
            std::env::var_os("VERBS_LOG_FILE").and_then(|p| {
                std::fs::OpenOptions::new().append(true).create(true).open(p).ok().map(Mutex::new)
            })
        };
        Sink { level, file }
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
    match &s.file {
        Some(f) => {
            if let Ok(mut f) = f.lock() {
                let _ = f.write_all(msg);
            }
        }
        None => {
            let _ = std::io::stderr().write_all(msg);
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
    use super::parse_c_long;

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
