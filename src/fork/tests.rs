//! Unit tests of fork protection against a recording fake of the system calls.

use super::*;
use ForkAdvice::{DoFork, DontFork};

const PS: usize = 4096;

/// Records every madvise; fails DONTFORK on ranges touching `holes`.
#[derive(Default)]
struct Fake {
    calls: Vec<(usize, usize, ForkAdvice)>,
    holes: Vec<(usize, usize)>,
    fail_dofork: bool,
    cof: bool,
    kps: Option<usize>,
    probe: usize,
}

impl MemSys for Fake {
    fn page_size(&mut self) -> Result<usize, Errno> {
        Ok(PS)
    }
    fn madvise(&mut self, addr: usize, len: usize, advice: ForkAdvice) -> Result<(), Errno> {
        self.calls.push((addr, len, advice));
        let hit = self
            .holes
            .iter()
            .any(|&(a, l)| addr < a + l && a < addr + len);
        if hit && (advice == DontFork || self.fail_dofork) {
            Err(Errno(libc::ENOMEM))
        } else {
            Ok(())
        }
    }
    fn kernel_page_size(&mut self, _addr: usize) -> Option<usize> {
        self.kps
    }
    fn alloc_probe(&mut self, _size: usize) -> Option<usize> {
        self.probe = 0x7000_1000;
        Some(self.probe)
    }
    fn free_probe(&mut self) {}
    fn copy_on_fork(&mut self) -> bool {
        self.cof
    }
}

fn ready() -> Fork<Fake> {
    let mut f = Fork::new(Fake::default());
    f.init(false).unwrap();
    f.sys.calls.clear();
    f
}

/// The map's invariants: disjoint, non-zero counts, touching entries differ; and the run
/// structure's own (tree order is list order, heap order, links, no leaked node).
fn check(f: &Fork<Fake>) {
    f.runs.check();
    let r = f.ranges();
    for w in r.windows(2) {
        assert!(w[0].1 < w[1].0, "overlap {w:?}");
        if w[0].1 + 1 == w[1].0 {
            assert_ne!(w[0].2, w[1].2, "unmerged {w:?}");
        }
    }
    assert!(r.iter().all(|&(s, e, c)| c != 0 && s <= e));
}

fn take(f: &mut Fork<Fake>) -> Vec<(usize, usize, ForkAdvice)> {
    std::mem::take(&mut f.sys.calls)
}

#[test]
fn init_probe_and_status() {
    let mut f = Fork::new(Fake::default());
    assert_eq!(f.status(), ibv_fork_status::IBV_FORK_DISABLED as u32);
    f.init(false).unwrap();
    assert_eq!(
        take(&mut f),
        vec![(0x7000_1000, PS, DontFork), (0x7000_1000, PS, DoFork)]
    );
    assert_eq!(f.status(), ibv_fork_status::IBV_FORK_ENABLED as u32);
    f.init(false).unwrap();
    assert!(take(&mut f).is_empty(), "second init does nothing");
}

#[test]
fn init_huge_probe_aligns_to_kernel_page() {
    let mut f = Fork::new(Fake {
        kps: Some(0x20_0000),
        ..Fake::default()
    });
    f.init(true).unwrap();
    assert_eq!(
        take(&mut f),
        vec![
            (0x7000_0000, 0x20_0000, DontFork),
            (0x7000_0000, 0x20_0000, DoFork)
        ]
    );
}

#[test]
fn init_probe_failure_is_enosys() {
    let mut f = Fork::new(Fake {
        holes: vec![(0x7000_1000, 1)],
        ..Fake::default()
    });
    assert_eq!(f.init(false), Err(Errno(libc::ENOSYS)));
    assert_eq!(f.status(), ibv_fork_status::IBV_FORK_DISABLED as u32);
}

#[test]
fn range_before_init_is_too_late() {
    let mut f = Fork::new(Fake::default());
    assert_eq!(f.range(0x1000, 10, DontFork), Ok(()));
    assert!(take(&mut f).is_empty());
    assert_eq!(f.init(false), Err(Errno(libc::EINVAL)));
    // Even an empty call before init counts.
    let mut g = Fork::new(Fake::default());
    g.range(0, 0, DoFork).unwrap();
    assert_eq!(g.init(false), Err(Errno(libc::EINVAL)));
}

#[test]
fn unneeded_kernel() {
    let mut f = Fork::new(Fake {
        cof: true,
        ..Fake::default()
    });
    assert_eq!(f.status(), ibv_fork_status::IBV_FORK_UNNEEDED as u32);
    f.range(0x1000, 1, DontFork).unwrap(); // too late, but init checks copy-on-fork first
    assert_eq!(f.init(false), Ok(()));
    f.range(0x1000, 1, DontFork).unwrap();
    assert!(take(&mut f).is_empty());
    assert!(f.ranges().is_empty());
}

#[test]
fn null_and_empty_do_nothing() {
    let mut f = ready();
    f.range(0, 100, DontFork).unwrap();
    f.range(0x5000, 0, DontFork).unwrap();
    assert!(take(&mut f).is_empty());
}

#[test]
fn unaligned_buffer_covers_whole_pages() {
    let mut f = ready();
    f.range(0x10_0010, 0x1000, DontFork).unwrap();
    assert_eq!(take(&mut f), vec![(0x10_0000, 0x2000, DontFork)]);
    assert_eq!(f.ranges(), vec![(0x10_0000, 0x10_1fff, 1)]);
    f.range(0x10_0010, 0x1000, DoFork).unwrap();
    assert_eq!(take(&mut f), vec![(0x10_0000, 0x2000, DoFork)]);
    assert!(f.ranges().is_empty());
}

#[test]
fn overlapping_ranges_refcount() {
    let mut f = ready();
    // A = pages 0..4, B = pages 2..6 (page 0 at 0x10_0000).
    let a = (0x10_0000, 4 * PS);
    let b = (0x10_0000 + 2 * PS, 4 * PS);
    f.range(a.0, a.1, DontFork).unwrap();
    f.range(b.0, b.1, DontFork).unwrap();
    assert_eq!(
        take(&mut f),
        vec![
            (0x10_0000, 4 * PS, DontFork),
            (0x10_0000 + 4 * PS, 2 * PS, DontFork)
        ]
    );
    assert_eq!(
        f.ranges(),
        vec![
            (0x10_0000, 0x10_1fff, 1),
            (0x10_2000, 0x10_3fff, 2),
            (0x10_4000, 0x10_5fff, 1)
        ]
    );
    check(&f);
    f.range(a.0, a.1, DoFork).unwrap();
    assert_eq!(take(&mut f), vec![(0x10_0000, 2 * PS, DoFork)]);
    assert_eq!(f.ranges(), vec![(0x10_2000, 0x10_5fff, 1)]);
    f.range(b.0, b.1, DoFork).unwrap();
    assert_eq!(take(&mut f), vec![(0x10_2000, 4 * PS, DoFork)]);
    assert!(f.ranges().is_empty());
}

#[test]
fn one_call_advises_each_run_separately() {
    let mut f = ready();
    f.range(0x10_1000, PS, DontFork).unwrap();
    f.range(0x10_3000, PS, DontFork).unwrap();
    take(&mut f);
    f.range(0x10_0000, 5 * PS, DontFork).unwrap();
    assert_eq!(
        take(&mut f),
        vec![
            (0x10_0000, PS, DontFork),
            (0x10_2000, PS, DontFork),
            (0x10_4000, PS, DontFork)
        ]
    );
    check(&f);
    f.range(0x10_0000, 5 * PS, DoFork).unwrap();
    assert_eq!(
        take(&mut f),
        vec![
            (0x10_0000, PS, DoFork),
            (0x10_2000, PS, DoFork),
            (0x10_4000, PS, DoFork)
        ]
    );
    assert_eq!(
        f.ranges(),
        vec![(0x10_1000, 0x10_1fff, 1), (0x10_3000, 0x10_3fff, 1)]
    );
}

#[test]
fn adjacent_ranges_merge() {
    let mut f = ready();
    f.range(0x10_0000, PS, DontFork).unwrap();
    f.range(0x10_1000, PS, DontFork).unwrap();
    f.range(0x10_2000, PS, DontFork).unwrap();
    assert_eq!(f.ranges(), vec![(0x10_0000, 0x10_2fff, 1)]);
    f.range(0x10_1000, PS, DoFork).unwrap();
    assert_eq!(
        f.ranges(),
        vec![(0x10_0000, 0x10_0fff, 1), (0x10_2000, 0x10_2fff, 1)]
    );
    take(&mut f);
    // Releasing the whole span: runs of count 1 go to 0 (DOFORK), the hole goes to -1.
    f.range(0x10_0000, 3 * PS, DoFork).unwrap();
    assert_eq!(
        take(&mut f),
        vec![(0x10_0000, PS, DoFork), (0x10_2000, PS, DoFork)]
    );
    assert_eq!(f.ranges(), vec![(0x10_1000, 0x10_1fff, -1)]);
    check(&f);
}

#[test]
fn double_release_goes_negative_like_rdma_core() {
    let mut f = ready();
    f.range(0x10_0000, PS, DontFork).unwrap();
    f.range(0x10_0000, PS, DoFork).unwrap();
    f.range(0x10_0000, PS, DoFork).unwrap();
    assert_eq!(f.ranges(), vec![(0x10_0000, 0x10_0fff, -1)]);
    take(&mut f);
    f.range(0x10_0000, PS, DontFork).unwrap(); // -1 → 0: no madvise
    assert!(take(&mut f).is_empty());
    assert!(f.ranges().is_empty());
}

#[test]
fn dontfork_failure_rolls_back() {
    let mut f = ready();
    f.range(0x10_1000, PS, DontFork).unwrap();
    f.sys.holes = vec![(0x10_4000, PS)];
    take(&mut f);
    let before = f.ranges();
    assert_eq!(
        f.range(0x10_0000, 6 * PS, DontFork),
        Err(Errno(libc::ENOMEM))
    );
    assert_eq!(
        take(&mut f),
        vec![
            (0x10_0000, PS, DontFork),
            (0x10_2000, 4 * PS, DontFork),
            (0x10_0000, PS, DoFork),
        ]
    );
    assert_eq!(f.ranges(), before);
    check(&f);
}

#[test]
fn dofork_failure_is_retried_per_page_and_ignored() {
    let mut f = ready();
    f.range(0x10_0000, 3 * PS, DontFork).unwrap();
    f.sys.holes = vec![(0x10_1000, PS)];
    f.sys.fail_dofork = true;
    take(&mut f);
    assert_eq!(f.range(0x10_0000, 3 * PS, DoFork), Ok(()));
    assert_eq!(
        take(&mut f),
        vec![
            (0x10_0000, 3 * PS, DoFork),
            (0x10_0000, PS, DoFork),
            (0x10_1000, PS, DoFork),
            (0x10_2000, PS, DoFork),
        ]
    );
    assert!(f.ranges().is_empty());
}

#[test]
fn huge_page_mode_uses_mapping_page_size() {
    let mut f = Fork::new(Fake {
        kps: Some(0x20_0000),
        ..Fake::default()
    });
    f.init(true).unwrap();
    take(&mut f);
    f.range(0x4020_1000, 10, DontFork).unwrap();
    assert_eq!(take(&mut f), vec![(0x4020_0000, 0x20_0000, DontFork)]);
}

#[test]
fn wrapping_range_does_nothing() {
    let mut f = ready();
    f.range(usize::MAX - 0x1fff, 0x3000, DontFork).unwrap();
    assert!(take(&mut f).is_empty());
    f.range(usize::MAX - 0xfff, 0x1000, DontFork).unwrap(); // ends exactly at the top
    assert_eq!(take(&mut f), vec![(usize::MAX - 0xfff, PS, DontFork)]);
    assert_eq!(f.ranges(), vec![(usize::MAX - 0xfff, usize::MAX, 1)]);
}

#[test]
fn hundred_thousand_ranges_stay_linear() {
    let mut f = ready();
    let n = 100_000usize;
    for i in 0..n {
        // Every other page, so no merging: n separate entries.
        f.range(0x1000_0000 + 2 * i * PS, PS, DontFork).unwrap();
    }
    assert_eq!(f.ranges().len(), n);
    for i in 0..n {
        f.range(0x1000_0000 + 2 * i * PS + 7, 1, DoFork).unwrap();
    }
    assert!(f.ranges().is_empty());
    assert_eq!(f.sys.calls.len(), 2 * n);
    check(&f);
    assert_eq!(
        f.runs.arena_len(),
        1,
        "memory given back once everything is released"
    );
    f.range(0x1000_0000, PS, DontFork).unwrap();
    assert_eq!(f.ranges(), vec![(0x1000_0000, 0x1000_0fff, 1)]);
}

/// Random calls over `pages` pages (at most `max_len` pages long, unaligned ends) checked against
/// a page-by-page reference model: the madvise calls, the counts, the invariants. A small
/// xorshift keeps it deterministic.
fn against_page_model(pages: usize, max_len: u64, rounds: usize) {
    let mut f = ready();
    let mut model = vec![0i32; pages];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for round in 0..rounds {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let a = (x % pages as u64) as usize;
        let len = ((x >> 8) % max_len) as usize * PS + ((x >> 16) % 3) as usize;
        let adv = if (x >> 24) % 2 == 0 { DontFork } else { DoFork };
        let base = 0x10_0000 + a * PS + ((x >> 32) % 100) as usize;
        if len == 0 || (base + len).div_ceil(PS) * PS > 0x10_0000 + pages * PS {
            continue;
        }
        take(&mut f);
        f.range(base, len, adv).unwrap();
        let (p0, p1) = ((base - 0x10_0000) / PS, (base + len - 1 - 0x10_0000) / PS);
        let mut want = Vec::new();
        let inc = if adv == DontFork { 1 } else { -1 };
        let mut run: Option<(usize, usize)> = None;
        for (p, cnt) in model.iter_mut().enumerate().take(p1 + 1).skip(p0) {
            let hit = (inc == 1 && *cnt == 0) || (inc == -1 && *cnt == 1);
            match (&mut run, hit) {
                (Some((_, n)), true) => *n += 1,
                (None, true) => run = Some((p, 1)),
                (Some(_), false) => want.push(run.take().unwrap()),
                (None, false) => {}
            }
            *cnt += inc;
        }
        want.extend(run);
        let want: Vec<_> = want
            .into_iter()
            .map(|(p, n)| (0x10_0000 + p * PS, n * PS, adv))
            .collect();
        assert_eq!(take(&mut f), want);
        if pages > 64 && round % 16 != 0 {
            continue; // the full comparison is O(pages): sample it on big models
        }
        check(&f);
        for (s, e, c) in f.ranges() {
            for m in &model[(s - 0x10_0000) / PS..=(e - 0x10_0000) / PS] {
                assert_eq!(*m, c);
            }
        }
        let stored: usize = f.ranges().iter().map(|r| (r.1 - r.0 + 1) / PS).sum();
        assert_eq!(stored, model.iter().filter(|&&c| c != 0).count());
    }
}

#[test]
fn randomised_against_page_model() {
    against_page_model(64, 6, 5000);
}

#[test]
fn randomised_against_page_model_many_runs() {
    // Thousands of runs: deep trees, many rotations, the free list reused.
    against_page_model(4096, 48, 20_000);
}

#[test]
fn steady_state_reuses_nodes() {
    let mut f = ready();
    let round = |f: &mut Fork<Fake>| {
        for i in 0..1000 {
            f.range(0x1000_0000 + 2 * i * PS, PS, DontFork).unwrap();
        }
        for i in 0..1000 {
            f.range(0x1000_0000 + 2 * i * PS, PS, DoFork).unwrap();
        }
    };
    round(&mut f);
    let arena = f.runs.arena_len();
    for _ in 0..3 {
        round(&mut f);
    }
    assert_eq!(f.runs.arena_len(), arena, "released runs are reused");
    check(&f);
    assert!(f.ranges().is_empty());
}

#[test]
fn failed_dontfork_leaves_runs_intact() {
    let mut f = ready();
    for i in 0..200 {
        f.range(0x10_0000 + 3 * i * PS, 2 * PS, DontFork).unwrap();
    }
    let before = f.ranges();
    f.sys.holes = vec![(0x10_0000 + 302 * PS, PS)]; // a page no range holds yet
    assert_eq!(
        f.range(0x10_0000, 600 * PS, DontFork),
        Err(Errno(libc::ENOMEM))
    );
    assert_eq!(f.ranges(), before);
    check(&f);
    f.sys.holes.clear();
    f.range(0x10_0000, 600 * PS, DontFork).unwrap();
    check(&f);
    assert_eq!(f.ranges().len(), 400);
}

#[test]
fn smaps_parsing() {
    let text = "\
00400000-00452000 r-xp 00000000 08:02 173521 /usr/bin/x
Size:                328 kB
KernelPageSize:        4 kB
VmFlags: rd ex
7f0000000000-7f0000400000 rw-p 00000000 00:0f 1 /anon_hugepage
Size:               4096 kB
KernelPageSize:     2048 kB
VmFlags: rd wr dc ht
";
    assert_eq!(smaps_page_size(text.as_bytes(), 0x0040_1000), Some(4096));
    assert_eq!(
        smaps_page_size(text.as_bytes(), 0x7f00_0020_0000),
        Some(2 << 20)
    );
    assert_eq!(smaps_page_size(text.as_bytes(), 0x7f00_0040_0000), None);
}
