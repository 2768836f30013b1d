//! Fork protection of registered memory (rdma-core: `libibverbs/memory.c`).
//!
//! Behaviour, as rdma-core v65 has it:
//! - `ibv_fork_init`: a set `RDMAV_HUGEPAGES_SAFE` turns huge-page mode on (sticky, read on every
//!   call); already enabled → 0; kernel copies pinned pages on fork (RDMA netlink
//!   `RDMA_NLDEV_CMD_SYS_GET` reports `RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK` != 0) → 0 without enabling
//!   (v51+, commit 5a11b68ca; v44 went on and enabled); a range call already made → EINVAL;
//!   `sysconf` fails → its errno; the probe page cannot be allocated → ENOMEM; `MADV_DONTFORK` then
//!   `MADV_DOFORK` on the probe page (the whole huge page around it in huge-page mode) fails → ENOSYS.
//! - `ibv_is_fork_initialized`: UNNEEDED when the kernel copies on fork, else ENABLED/DISABLED.
//! - `ibv_dontfork_range`/`ibv_dofork_range`: before init they only note "too late" and return 0.
//!   Otherwise NULL or empty → 0; the range is widened to whole pages (the mapping's
//!   `KernelPageSize` from /proc/self/smaps in huge-page mode) and each page's count goes up or
//!   down by one; `madvise` runs once per maximal run of pages going 0→1 (DONTFORK) or 1→0
//!   (DOFORK). Counts are not clamped: releasing a page twice takes it to -1, as in rdma-core.
//!   A failing DOFORK is retried page by page and never reported; a failing DONTFORK returns -1
//!   with its errno after DOFORK on the runs this call already advised.
//!
//! Our own design: disjoint ranges with non-zero counts in a `BTreeMap` (touching ranges always
//! have different counts), everything under one `Mutex`, O(log n + k) per call. Where we differ
//! from rdma-core: after a failed DONTFORK every count is exactly what it was before the call
//! (rdma-core's roll-back also decrements the run that failed, and can reach past the range).
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::io::BufRead;
use std::sync::Mutex;

use crate::abi::verbs::ibv_fork_status;
use crate::errno::Errno;
pub use crate::sys::mem::ForkAdvice;

/// The system calls fork protection makes; a seam so tests can record them.
pub trait MemSys {
    /// `sysconf(_SC_PAGESIZE)`.
    fn page_size(&mut self) -> Result<usize, Errno>;
    /// `madvise(addr, len, advice)`.
    fn madvise(&mut self, addr: usize, len: usize, advice: ForkAdvice) -> Result<(), Errno>;
    /// `KernelPageSize` of the mapping holding `addr`, when /proc/self/smaps tells.
    fn kernel_page_size(&mut self, addr: usize) -> Option<usize>;
    /// Allocate the page-aligned probe buffer of `size` bytes; its address.
    fn alloc_probe(&mut self, size: usize) -> Option<usize>;
    /// Free the probe buffer.
    fn free_probe(&mut self);
    /// Whether the kernel copies pinned pages on fork (fork protection unneeded).
    fn copy_on_fork(&mut self) -> bool;
}

/// The fork-protection state: rdma-core's `mm_root` tree, `page_size`, `huge_page_enabled` and
/// `too_late`.
pub struct Fork<S> {
    /// The system-call seam.
    pub sys: S,
    enabled: bool,
    huge: bool,
    too_late: bool,
    page_size: usize,
    /// First byte → (last byte, count). Disjoint, counts non-zero, touching entries differ.
    ranges: BTreeMap<usize, (usize, i32)>,
}

/// One run of pages with the same count: first byte, last byte, count.
type Piece = (usize, usize, i32);

impl<S: MemSys> Fork<S> {
    /// Fork protection not initialised.
    pub const fn new(sys: S) -> Fork<S> {
        Fork {
            sys,
            enabled: false,
            huge: false,
            too_late: false,
            page_size: 0,
            ranges: BTreeMap::new(),
        }
    }

    /// `ibv_fork_init`; `hugepages_env` is whether `RDMAV_HUGEPAGES_SAFE` is set now.
    pub fn init(&mut self, hugepages_env: bool) -> Result<(), Errno> {
        if hugepages_env {
            self.huge = true;
        }
        if self.enabled || self.sys.copy_on_fork() {
            return Ok(());
        }
        if self.too_late {
            return Err(Errno(libc::EINVAL));
        }
        let ps = self.sys.page_size()?;
        self.page_size = ps;
        let probe = self.sys.alloc_probe(ps).ok_or(Errno(libc::ENOMEM))?;
        let (addr, size) = if self.huge {
            let s = self.sys.kernel_page_size(probe).unwrap_or(ps);
            (probe & !s.wrapping_sub(1), s)
        } else {
            (probe, ps)
        };
        let ok = self.sys.madvise(addr, size, ForkAdvice::DontFork).is_ok()
            && self.sys.madvise(addr, size, ForkAdvice::DoFork).is_ok();
        self.sys.free_probe();
        if !ok {
            return Err(Errno(libc::ENOSYS));
        }
        self.enabled = true;
        Ok(())
    }

    /// `ibv_is_fork_initialized`, as an `ibv_fork_status` value.
    pub fn status(&mut self) -> u32 {
        if self.sys.copy_on_fork() {
            ibv_fork_status::IBV_FORK_UNNEEDED as u32
        } else if self.enabled {
            ibv_fork_status::IBV_FORK_ENABLED as u32
        } else {
            ibv_fork_status::IBV_FORK_DISABLED as u32
        }
    }

    /// `ibv_dontfork_range` (`DontFork`) / `ibv_dofork_range` (`DoFork`).
    pub fn range(&mut self, base: usize, size: usize, advice: ForkAdvice) -> Result<(), Errno> {
        if !self.enabled {
            self.too_late = true;
            return Ok(());
        }
        if size == 0 || base == 0 {
            return Ok(());
        }
        let ps = if self.huge {
            self.sys.kernel_page_size(base).unwrap_or(self.page_size)
        } else {
            self.page_size
        };
        let mask = !ps.wrapping_sub(1);
        let start = base & mask;
        // Wrapping like rdma-core's uintptr_t arithmetic; a range that wraps does nothing.
        let end = (base.wrapping_add(size).wrapping_add(ps.wrapping_sub(1)) & mask).wrapping_sub(1);
        if end < start {
            return Ok(());
        }
        self.update(start, end, advice, ps)
    }

    /// The stored ranges (first byte, last byte, count), in address order.
    pub fn ranges(&self) -> Vec<Piece> {
        self.ranges.iter().map(|(&s, &(e, c))| (s, e, c)).collect()
    }

    fn update(
        &mut self,
        start: usize,
        end: usize,
        advice: ForkAdvice,
        ps: usize,
    ) -> Result<(), Errno> {
        let inc = if advice == ForkAdvice::DontFork {
            1
        } else {
            -1
        };
        let pieces = self.pieces(start, end);
        let mut advised: Vec<(usize, usize)> = Vec::new();
        for &(s, e, c) in &pieces {
            if (inc == 1 && c == 0) || (inc == -1 && c == 1) {
                let len = e.wrapping_sub(s).wrapping_add(1);
                if let Err(err) = self.do_madvise(s, len, advice, ps) {
                    for &(a, l) in &advised {
                        let _ = self.do_madvise(a, l, ForkAdvice::DoFork, ps);
                    }
                    return Err(err);
                }
                advised.push((s, len));
            }
        }
        self.apply(start, end, &pieces, inc);
        Ok(())
    }

    /// rdma-core's `do_madvise`: a failed DOFORK is retried one page at a time and then
    /// counts as done.
    fn do_madvise(
        &mut self,
        addr: usize,
        len: usize,
        advice: ForkAdvice,
        ps: usize,
    ) -> Result<(), Errno> {
        let r = self.sys.madvise(addr, len, advice);
        if r.is_ok() || advice == ForkAdvice::DontFork {
            return r;
        }
        if len > ps && ps > 0 {
            let stop = addr.saturating_add(len);
            let mut p = addr;
            while p < stop {
                let _ = self.sys.madvise(p, ps, ForkAdvice::DoFork);
                match p.checked_add(ps) {
                    Some(n) => p = n,
                    None => break,
                }
            }
        }
        Ok(())
    }

    /// The runs covering `start..=end` with their counts (0 for gaps), clipped to the range.
    fn pieces(&self, start: usize, end: usize) -> Vec<Piece> {
        let mut out = Vec::new();
        let mut cur = Some(start);
        let push = |out: &mut Vec<Piece>, cur: &mut Option<usize>, s: usize, e: usize, c: i32| {
            let e = e.min(end);
            out.push((s, e, c));
            *cur = if e == end { None } else { Some(e + 1) };
        };
        if let Some((_, &(e, c))) = self.ranges.range(..start).next_back() {
            if e >= start {
                push(&mut out, &mut cur, start, e, c);
            }
        }
        for (&s, &(e, c)) in self.ranges.range(start..=end) {
            let Some(at) = cur else { break };
            if s > at {
                out.push((at, s - 1, 0));
            }
            push(&mut out, &mut cur, s, e, c);
        }
        if let Some(at) = cur {
            out.push((at, end, 0));
        }
        out
    }

    /// Replace the counts of `start..=end` by `pieces` moved by `inc`, keeping the map normal.
    fn apply(&mut self, start: usize, end: usize, pieces: &[Piece], inc: i32) {
        if let Some((&s, &(e, c))) = self.ranges.range(..start).next_back() {
            if e >= start {
                self.ranges.insert(s, (start - 1, c));
                if e > end {
                    self.ranges.insert(end + 1, (e, c));
                }
            }
        }
        let inside: Vec<usize> = self.ranges.range(start..=end).map(|(&s, _)| s).collect();
        for s in inside {
            if let Some((e, c)) = self.ranges.remove(&s) {
                if e > end {
                    self.ranges.insert(end + 1, (e, c));
                }
            }
        }
        for &(s, e, c) in pieces {
            let n = c.wrapping_add(inc);
            if n != 0 {
                self.ranges.insert(s, (e, n));
            }
        }
        self.merge_at(start);
        if let Some(after) = end.checked_add(1) {
            self.merge_at(after);
        }
    }

    /// Join the entry starting at `at` with the one ending just before it when counts match.
    fn merge_at(&mut self, at: usize) {
        let Some(&(re, rc)) = self.ranges.get(&at) else {
            return;
        };
        let Some((&ls, &(le, lc))) = self.ranges.range(..at).next_back() else {
            return;
        };
        if le.wrapping_add(1) == at && lc == rc {
            self.ranges.remove(&at);
            self.ranges.insert(ls, (re, lc));
        }
    }
}

/// `KernelPageSize` (bytes) of the smaps entry whose address range holds `addr`: the first
/// `KernelPageSize:` line after that entry's header, as rdma-core's `get_page_size` reads it.
pub fn smaps_page_size(smaps: impl BufRead, addr: usize) -> Option<usize> {
    let mut found = false;
    for line in smaps.split(b'\n') {
        let line = line.ok()?;
        let line = String::from_utf8_lossy(&line);
        if !found {
            let Some((lo, rest)) = line.split_once('-') else {
                continue;
            };
            let hi: String = rest.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
            let (Ok(lo), Ok(hi)) = (
                usize::from_str_radix(lo.trim_start(), 16),
                usize::from_str_radix(&hi, 16),
            ) else {
                continue;
            };
            found = addr >= lo && addr < hi;
        } else if line.contains("KernelPageSize:") {
            let Some(n) = line
                .split_whitespace()
                .nth(1)
                .and_then(|w| w.parse::<usize>().ok())
            else {
                continue;
            };
            return Some(n.wrapping_mul(1024));
        }
    }
    None
}

/// `RDMA_NLDEV_CMD_SYS_GET`.
const RDMA_NLDEV_CMD_SYS_GET: u16 = 6;

/// rdma-core's `get_copy_on_fork`: ask RDMA netlink for the system attributes; any failure,
/// or a kernel that does not report the attribute, means "no".
pub fn query_copy_on_fork() -> bool {
    use crate::device::netlink::{
        Attrs, RDMA_NL_NLDEV, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, Request, rdma_nl_get_type,
    };
    use crate::device::nldev::{KernelTransport, transact};
    let Ok(mut t) = KernelTransport::open() else {
        return false;
    };
    let seq = 1;
    let req = Request::new(
        rdma_nl_get_type(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET),
        0,
        seq,
    )
    .finish();
    let mut cof = false;
    let r = transact(&mut t, &req, seq, &mut |payload| {
        let a = Attrs::parse(payload).map_err(|e| e.to_string())?;
        cof = a.u8(RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK).unwrap_or(0) != 0;
        Ok(())
    });
    r.is_ok() && cof
}

/// The real system calls.
pub struct RealMem {
    probe: Option<crate::sys::mem::AlignedBuf>,
}

impl MemSys for RealMem {
    fn page_size(&mut self) -> Result<usize, Errno> {
        crate::sys::mem::page_size()
    }
    fn madvise(&mut self, addr: usize, len: usize, advice: ForkAdvice) -> Result<(), Errno> {
        crate::sys::mem::madvise_fork(addr, len, advice)
    }
    fn kernel_page_size(&mut self, addr: usize) -> Option<usize> {
        let f = std::fs::File::open("/proc/self/smaps").ok()?;
        smaps_page_size(std::io::BufReader::new(f), addr)
    }
    fn alloc_probe(&mut self, size: usize) -> Option<usize> {
        let b = crate::sys::mem::AlignedBuf::new(size, size)?;
        let a = b.addr();
        self.probe = Some(b);
        Some(a)
    }
    fn free_probe(&mut self) {
        self.probe = None;
    }
    fn copy_on_fork(&mut self) -> bool {
        query_copy_on_fork()
    }
}

static STATE: Mutex<Fork<RealMem>> = Mutex::new(Fork::new(RealMem { probe: None }));

fn with_state<R>(f: impl FnOnce(&mut Fork<RealMem>) -> R) -> R {
    let mut g = STATE.lock().unwrap_or_else(|e| e.into_inner());
    f(&mut g)
}

/// `ibv_fork_init` for the process.
pub fn fork_init() -> Result<(), Errno> {
    let huge = crate::env::hugepages_safe(|k| std::env::var_os(k));
    with_state(|s| s.init(huge))
}

/// `ibv_is_fork_initialized` for the process.
pub fn fork_status() -> u32 {
    with_state(|s| s.status())
}

/// `ibv_dontfork_range` / `ibv_dofork_range` for the process.
pub fn fork_range(base: usize, size: usize, advice: ForkAdvice) -> Result<(), Errno> {
    with_state(|s| s.range(base, size, advice))
}

#[cfg(test)]
mod tests;
