//! The memory-locking figures that decide whether registering memory can succeed: the
//! RLIMIT_MEMLOCK soft and hard limits (getrlimit), what the process already has pinned and
//! locked, and whether it holds CAP_IPC_LOCK (which lifts the limit for RDMA pinning), from
//! `/proc/self/status`. Read by the library only on a failure path (the ENOMEM hint) and by
//! `ibverbs-doctor`.
#![forbid(unsafe_code)]

/// `RLIM_INFINITY` as getrlimit reports it.
pub const UNLIMITED: u64 = u64::MAX;
/// CAP_IPC_LOCK's bit in the capability sets.
const CAP_IPC_LOCK: u32 = 14;

/// The figures at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Memlock {
    /// Soft and hard RLIMIT_MEMLOCK in bytes ([`UNLIMITED`] for none); None if getrlimit failed.
    pub soft: Option<u64>,
    pub hard: Option<u64>,
    /// `VmPin`: bytes pinned (RDMA registrations count here), when the kernel reports it.
    pub pinned: Option<u64>,
    /// `VmLck`: bytes mlock()ed.
    pub locked: Option<u64>,
    /// CAP_IPC_LOCK in the effective set: the kernel does not apply the limit to pinning.
    pub cap_ipc_lock: bool,
}

impl Memlock {
    /// The figures of this process now.
    pub fn now() -> Memlock {
        let mut m = Memlock::default();
        if let Some((soft, hard)) = rlimit() {
            m.soft = Some(soft);
            m.hard = Some(hard);
        }
        if let Ok(s) = std::fs::read("/proc/self/status") {
            m.parse_status(&s);
        }
        m
    }

    /// Fill `pinned`, `locked` and `cap_ipc_lock` from the text of `/proc/<pid>/status`.
    pub fn parse_status(&mut self, status: &[u8]) {
        for line in status.split(|c| *c == b'\n') {
            let Some(colon) = line.iter().position(|c| *c == b':') else {
                continue;
            };
            let (key, value) = (&line[..colon], &line[colon + 1..]);
            let value = String::from_utf8_lossy(value);
            let value = value.trim();
            match key {
                b"VmPin" | b"VmLck" => {
                    let kb = value.trim_end_matches("kB").trim().parse::<u64>().ok();
                    let bytes = kb.and_then(|k| k.checked_mul(1024));
                    if key == b"VmPin" {
                        self.pinned = bytes;
                    } else {
                        self.locked = bytes;
                    }
                }
                b"CapEff" => {
                    self.cap_ipc_lock = u64::from_str_radix(value, 16)
                        .is_ok_and(|caps| caps & (1 << CAP_IPC_LOCK) != 0);
                }
                _ => {}
            }
        }
    }

    /// Whether the limit can stop a registration at all.
    pub fn limits_pinning(&self) -> bool {
        !self.cap_ipc_lock && self.soft.is_some_and(|s| s != UNLIMITED)
    }

    /// Bytes that may still be pinned before the kernel refuses (None: no limit applies).
    pub fn headroom(&self) -> Option<u64> {
        if !self.limits_pinning() {
            return None;
        }
        let soft = self.soft?;
        Some(soft.saturating_sub(self.pinned.unwrap_or(0).max(self.locked.unwrap_or(0))))
    }
}

/// A byte count for people: "65536 bytes (64 KiB)", "unlimited".
pub fn bytes_text(b: u64) -> String {
    if b == UNLIMITED {
        return "unlimited".into();
    }
    let units = [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    match units.iter().find(|(_, u)| b >= *u) {
        Some((n, u)) if b % u == 0 => format!("{b} bytes ({} {n})", b / u),
        Some((n, u)) => format!("{b} bytes ({:.1} {n})", b as f64 / *u as f64),
        None => format!("{b} bytes"),
    }
}

fn rlimit() -> Option<(u64, u64)> {
    super::memlock_limits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_headroom() {
        let mut m = Memlock {
            soft: Some(65536),
            hard: Some(65536),
            ..Memlock::default()
        };
        m.parse_status(
            b"Name:\tx\nVmLck:\t       4 kB\nVmPin:\t      16 kB\nCapEff:\t0000000000000000\n",
        );
        assert_eq!(m.pinned, Some(16384));
        assert_eq!(m.locked, Some(4096));
        assert!(!m.cap_ipc_lock);
        assert_eq!(m.headroom(), Some(65536 - 16384));
        m.parse_status(b"CapEff:\t000001ffffffffff\n");
        assert!(m.cap_ipc_lock);
        assert_eq!(m.headroom(), None);
        let u = Memlock {
            soft: Some(UNLIMITED),
            ..Memlock::default()
        };
        assert!(!u.limits_pinning());
    }

    #[test]
    fn byte_texts() {
        assert_eq!(bytes_text(65536), "65536 bytes (64 KiB)");
        assert_eq!(bytes_text(8 << 20), "8388608 bytes (8 MiB)");
        assert_eq!(bytes_text(1000), "1000 bytes");
        assert_eq!(bytes_text(UNLIMITED), "unlimited");
    }
}
