//! The verbs log: VERBS_LOG_LEVEL and VERBS_LOG_FILE (rdma-core: init.c, `__verbs_log`).
//!
//! Semantics (read by [`crate::env::log_settings`]): the level is read once, as C's
//! `strtol(value, NULL, 0)` would (so "0x3" and "010" work); messages with a level at or below it
//! are written to VERBS_LOG_FILE, opened for appending. Without VERBS_LOG_FILE they go to
//! standard error, as in rdma-core's debug builds (divergence: its release builds log nothing
//! then); a VERBS_LOG_FILE that cannot be opened turns logging off, as in rdma-core. The
//! library's own diagnostics (why a device or provider was skipped, why a registration failed
//! with ENOMEM: [`crate::verbs::explain`]) go through [`log`] with the same filter. In secure
//! execution VERBS_LOG_FILE is never opened and a non-zero level logs to standard error instead,
//! the first message saying which variables were ignored (see [`crate::env`]).
#![forbid(unsafe_code)]

use crate::sys::sync::{Mutex, OnceLock};
use std::io::Write;

pub const VERBS_LOG_ERR: u32 = 1;
pub const VERBS_LOG_WARN: u32 = 2;
pub const VERBS_LOG_INFO: u32 = 3;
pub const VERBS_LOG_DEBUG: u32 = 4;

struct Sink {
    level: u32,
    file: Option<Mutex<std::fs::File>>,
    /// Secure execution: the messages go to standard error (the caller's), no file is opened.
    stderr: bool,
}

impl Sink {
    /// Open the sink [`crate::env::log_settings`] describes; a file that cannot be opened turns
    /// logging off, as rdma-core's release fallback does.
    fn open(settings: crate::env::LogSettings) -> Sink {
        if settings.stderr {
            return Sink {
                level: settings.level,
                file: None,
                stderr: true,
            };
        }
        let file = settings.file.and_then(|p| {
            std::fs::OpenOptions::new()
                .append(true)
                .read(true)
                .create(true)
                .open(p)
                .ok()
        });
        let level = if file.is_some() { settings.level } else { 0 };
        Sink {
            level,
            file: file.map(Mutex::new),
            stderr: false,
        }
    }
}

fn sink() -> &'static Sink {
    static SINK: OnceLock<Sink> = OnceLock::new();
    let mut fresh = false;
    let s = SINK.get_or_init(|| {
        fresh = true;
        Sink::open(crate::env::log_settings(
            crate::env::real,
            crate::env::trusted(),
        ))
    });
    if fresh {
        let ignored = crate::env::ignored_in_secure_mode(crate::env::real, crate::env::trusted());
        if !ignored.is_empty() && s.level >= VERBS_LOG_DEBUG {
            let line = format!(
                "libibverbs: secure execution: ignoring {}\n",
                ignored.join(", ")
            );
            s.put(line.as_bytes());
        }
    }
    s
}

impl Sink {
    fn put(&self, msg: &[u8]) {
        if self.stderr {
            let _ = std::io::stderr().write_all(msg);
        } else if let Some(f) = &self.file {
            if let Ok(mut f) = f.lock() {
                let _ = f.write_all(msg);
            }
        }
    }
}

pub fn enabled(level: u32) -> bool {
    let s = sink();
    s.level != 0 && level <= s.level
}

/// Write one already-formatted message (no newline is added, as rdma-core's vfprintf adds none).
pub fn write(msg: &[u8]) {
    sink().put(msg);
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
    use super::Sink;
    use crate::env::LogSettings;

    #[test]
    fn no_file_means_no_log() {
        assert_eq!(
            Sink::open(LogSettings {
                level: 4,
                file: None,
                stderr: false
            })
            .level,
            0
        );
        let dir = std::env::temp_dir().join(format!("verbs-log-{}", std::process::id()));
        let s = Sink::open(LogSettings {
            level: 4,
            file: Some(dir.clone().into_os_string()),
            stderr: false,
        });
        assert_eq!(s.level, 4);
        assert!(s.file.is_some());
        let _ = std::fs::remove_file(dir);
        let bad = LogSettings {
            level: 4,
            file: Some("/nonexistent/x".into()),
            stderr: false,
        };
        assert_eq!(Sink::open(bad).level, 0);
    }
}
