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
//! Our own design: the counts live in `runs::Runs` under one `Mutex`: every page of the
//! address space in one run of equal count (gaps included), neighbouring runs different, the
//! runs in a treap threaded by an address-ordered list, nodes in one arena. A call finds the run
//! holding its first page with one descent, walks the list forward to advise, then walks it
//! again to change the counts in place; only the runs at the two ends of the range can split,
//! merge or move their first byte. O(log n + k) for k runs in the range; no allocation while the
//! arena has free nodes. Where we differ from rdma-core: after a failed DONTFORK every count is
//! exactly what it was before the call (rdma-core's roll-back also decrements the run that
//! failed, and can reach past the range); a failed allocation (ENOMEM, as rdma-core's `malloc`)
//! is found before any madvise.
#![forbid(unsafe_code)]

use crate::sys::sync::Mutex;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::abi::verbs::ibv_fork_status;
use crate::errno::Errno;
pub use crate::sys::mem::ForkAdvice;
use runs::{Pos, Run, Runs};

mod runs;

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
    runs: Runs,
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
            runs: Runs::new(),
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

    /// The pages with a non-zero count as (first byte, last byte, count), in address order.
    pub fn ranges(&self) -> Vec<Piece> {
        self.runs.all().into_iter().filter(|r| r.2 != 0).collect()
    }

    fn update(
        &mut self,
        start: usize,
        end: usize,
        advice: ForkAdvice,
        ps: usize,
    ) -> Result<(), Errno> {
        if !self.runs.reserve() {
            return Err(Errno(libc::ENOMEM));
        }
        let (inc, trigger) = if advice == ForkAdvice::DontFork {
            (1, 0)
        } else {
            (-1, 1)
        };
        let first = self.runs.find(start);
        // Advise each run of the range whose pages change state, clipped to the range.
        let mut p = first;
        loop {
            let (s, e) = (self.runs.run(p).start.max(start), self.runs.end(p).min(end));
            if self.runs.run(p).count == trigger {
                if let Err(err) = self.do_madvise(s, e - s + 1, advice, ps) {
                    self.undo(first, start, s, ps);
                    return Err(err);
                }
            }
            match self.runs.next(p) {
                Some(n) if e < end => p = n,
                _ => break,
            }
        }
        self.apply(first, start, end, inc);
        self.runs.trim();
        Ok(())
    }

    /// After a DONTFORK of the range from `start` failed at `failed`: DOFORK again what this
    /// call advised before it; `first` is the run holding `start`.
    fn undo(&mut self, first: Pos, start: usize, failed: usize, ps: usize) {
        let mut p = first;
        loop {
            let r = self.runs.run(p);
            let s = r.start.max(start);
            if s >= failed {
                return;
            }
            if r.count == 0 {
                let e = self.runs.end(p).min(failed - 1);
                let _ = self.do_madvise(s, e - s + 1, ForkAdvice::DoFork, ps);
            }
            match self.runs.next(p) {
                Some(n) => p = n,
                None => return,
            }
        }
    }

    /// Add `inc` to every page of `start..=end`; `first` is the run holding `start`. Splits
    /// at most the runs holding `start` and `end`, merges at most across each end.
    fn apply(&mut self, first: Pos, start: usize, end: usize, inc: i32) {
        let runs = &mut self.runs;
        let r = runs.run(first);
        let new = r.count.wrapping_add(inc);
        if r.start < start {
            if runs.end(first) == end {
                if let Some(n) = runs.next(first).filter(|&n| runs.run(n).count == new) {
                    // The range is the tail of its run and gets the next run's count: it
                    // joins that run.
                    return runs.set_start(n, start);
                }
            }
            let p = runs.insert_after(
                first,
                Run {
                    start,
                    count: r.count,
                },
            );
            return Self::sweep(runs, p, end, inc);
        }
        let Some(q) = runs.prev(first).filter(|&q| runs.run(q).count == new) else {
            return Self::sweep(runs, first, end, inc);
        };
        // The run before already has the count these pages are getting: they join it.
        let e = runs.end(first);
        if e > end {
            // What is left of the run starts after the range.
            return runs.set_start(first, end + 1);
        }
        runs.remove(first);
        if e == end {
            Self::join_next(runs, q);
        } else if let Some(n) = runs.next(q) {
            Self::sweep(runs, n, end, inc);
        }
    }

    /// From the run at `p` (which starts inside the range) to the one holding `end`: add `inc`,
    /// split the last one after `end`, or merge it with the next run when they end up equal.
    fn sweep(runs: &mut Runs, mut p: Pos, end: usize, inc: i32) {
        loop {
            let e = runs.end(p);
            if e > end {
                let count = runs.run(p).count;
                runs.insert_after(
                    p,
                    Run {
                        start: end + 1,
                        count,
                    },
                );
                runs.add(p, inc);
                return;
            }
            runs.add(p, inc);
            if e == end {
                return Self::join_next(runs, p);
            }
            match runs.next(p) {
                Some(n) => p = n,
                None => return,
            }
        }
    }

    /// Merge the run after `p` into it when their counts are equal.
    fn join_next(runs: &mut Runs, p: Pos) {
        if let Some(n) = runs.next(p) {
            if runs.run(n).count == runs.run(p).count {
                runs.remove(n);
            }
        }
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
/// `STATE.enabled`, readable without the lock (set once, never cleared).
static ENABLED: AtomicBool = AtomicBool::new(false);
/// A range call came before tracking was enabled (`STATE.too_late`, set without the lock).
static RANGE_SEEN: AtomicBool = AtomicBool::new(false);

fn with_state<R>(f: impl FnOnce(&mut Fork<RealMem>) -> R) -> R {
    let mut g = STATE.lock().unwrap_or_else(|e| e.into_inner());
    f(&mut g)
}

/// `ibv_fork_init`: turns on fork protection of registered memory for the process. EINVAL when a
/// range call (`ibv_dontfork_range`, `ibv_dofork_range`, a registration) came first, ENOMEM, ENOSYS
/// when the kernel lacks MADV_DONTFORK.
pub fn fork_init() -> Result<(), Errno> {
    let huge = crate::env::hugepages_safe(|k| std::env::var_os(k));
    with_state(|s| {
        if RANGE_SEEN.load(Ordering::Acquire) {
            s.too_late = true;
        }
        let r = s.init(huge);
        if s.enabled {
            ENABLED.store(true, Ordering::Release);
        }
        r
    })
}

/// `ibv_is_fork_initialized`: UNNEEDED when the kernel copies pinned pages on fork, else ENABLED
/// after a successful `ibv_fork_init`, else DISABLED.
pub fn fork_status() -> u32 {
    with_state(|s| s.status())
}

/// `ibv_dontfork_range` / `ibv_dofork_range` for the process.
///
/// Without `ibv_fork_init` (the common case: every `ibv_reg_mr`/`ibv_dereg_mr` passes here) this is
/// two atomic operations and no lock, as rdma-core returns at once when it has no range tree: the
/// call is only remembered, so that a later `ibv_fork_init` fails with EINVAL as rdma-core's does.
///
/// Inlined into its callers (`ibv_reg_mr`/`ibv_dereg_mr` among them) so that this common case
/// costs no call; the tracked case is `fork_range_tracked`.
#[inline]
pub fn fork_range(base: usize, size: usize, advice: ForkAdvice) -> Result<(), Errno> {
    if range_untracked() {
        return Ok(());
    }
    fork_range_tracked(base, size, advice)
}

/// The common case of [`fork_range`]: tracking is off, the call is only remembered; true.
/// False when the range must go to [`fork_range_tracked`] (`ibv_dontfork_range` and
/// `ibv_dofork_range` keep this test apart so that their common case needs no stack frame).
#[inline(always)]
pub fn range_untracked() -> bool {
    if !tracking() {
        RANGE_SEEN.store(true, Ordering::Release);
        // An init that finished in between tracks this range (it came after the init).
        if !tracking() {
            return true;
        }
    }
    false
}

/// Tell helgrind that `ENABLED` and `RANGE_SEEN` are atomics
/// ([`sys::sync::atomic_static`](crate::sys::sync::atomic_static)): what they publish is read under
/// `STATE`'s lock.
pub fn atomics_for_helgrind() {
    crate::sys::sync::atomic_static(&ENABLED);
    crate::sys::sync::atomic_static(&RANGE_SEEN);
}

/// Whether `ibv_fork_init` enabled range tracking (once set, it stays set).
#[inline]
pub fn tracking() -> bool {
    ENABLED.load(Ordering::Acquire)
}

/// [`fork_range`] once tracking is on: the range tree under its lock.
#[inline(never)]
pub fn fork_range_tracked(base: usize, size: usize, advice: ForkAdvice) -> Result<(), Errno> {
    with_state(|s| s.range(base, size, advice))
}

#[cfg(test)]
mod tests;
