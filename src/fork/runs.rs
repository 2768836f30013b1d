//! The page counts of fork protection (rdma-core keeps them in `memory.c`'s red-black tree of
//! `ibv_mem_node`s, one `malloc` per node; this is our own structure).
//!
//! The whole address space is cut into runs: a run is a first byte and a count, and lasts until
//! the next run's first byte (the last run until `usize::MAX`). The first run starts at 0;
//! neighbouring runs always have different counts, so each run is a maximal stretch of pages
//! with one count, gaps (count 0) included.
//!
//! The runs are nodes of one arena (`Vec`), linked twice: a doubly-linked list in address order
//! (a run's end and its neighbours in O(1)) and a treap keyed by first byte (finding the run that
//! holds an address: one descent, expected depth about 1.4·log2 n; priorities from a fixed
//! xorshift sequence, so runs are reproducible). Node ids stay valid until that node is removed.
//! Removed nodes go to a free list that later inserts reuse, and [`Runs::reserve`] makes room up
//! front for what one call can add, so inserts and removals never allocate and a call allocates
//! only when the arena outgrows what it had.
#![forbid(unsafe_code)]

/// "No node" in a link.
const NIL: u32 = u32::MAX;
/// Nodes one call can add (a split at each end of its range).
const PER_CALL: usize = 2;
/// An arena bigger than this is given back when the runs are down to one.
const TRIM_AT: usize = 4096;

/// One run: its first byte and the count of each of its pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// First byte.
    pub start: usize,
    /// How many more `ibv_dontfork_range` than `ibv_dofork_range` calls cover its pages.
    pub count: i32,
}

/// A run's node id; valid until that run is removed.
pub type Pos = u32;

#[derive(Clone, Copy, Debug)]
struct Node {
    run: Run,
    prio: u32,
    parent: u32,
    left: u32,
    right: u32,
    /// Address-order neighbours; `next` also chains the free list.
    prev: u32,
    next: u32,
}

/// The runs (see the module header). Empty until the first [`Runs::reserve`], which makes the
/// single run "everything, count 0".
pub struct Runs {
    nodes: Vec<Node>,
    root: u32,
    free: u32,
    nfree: usize,
    seed: u32,
}

impl Runs {
    /// No runs yet.
    pub const fn new() -> Runs {
        Runs {
            nodes: Vec::new(),
            root: NIL,
            free: NIL,
            nfree: 0,
            seed: 0x9e37_79b9,
        }
    }

    /// Make room for what one call can add; false when memory is short (nothing changed then).
    #[inline]
    pub fn reserve(&mut self) -> bool {
        (self.root != NIL && self.nfree + (self.nodes.capacity() - self.nodes.len()) >= PER_CALL)
            || self.grow()
    }

    fn grow(&mut self) -> bool {
        let want = PER_CALL.saturating_sub(self.nfree) + usize::from(self.root == NIL);
        if self.nodes.capacity() - self.nodes.len() < want {
            // Grow by half at least, so that growing stays amortised O(1).
            let more = want.max(self.nodes.len() / 2);
            if self.nodes.len().saturating_add(more) > NIL as usize
                || self.nodes.try_reserve(more).is_err()
            {
                return false;
            }
        }
        if self.root == NIL {
            self.root = self.alloc(Run { start: 0, count: 0 });
        }
        true
    }

    /// A node for `run`, unlinked: from the free list, else within the room `reserve` made.
    fn alloc(&mut self, run: Run) -> u32 {
        // xorshift32: priorities that look random, the same every run.
        let mut x = self.seed;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.seed = x;
        let node = Node {
            run,
            prio: x,
            parent: NIL,
            left: NIL,
            right: NIL,
            prev: NIL,
            next: NIL,
        };
        if self.free != NIL {
            let id = self.free;
            self.free = self.nodes[id as usize].next;
            self.nfree -= 1;
            self.nodes[id as usize] = node;
            id
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        }
    }

    fn n(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    fn m(&mut self, id: u32) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// The run holding `addr`. Needs [`Runs::reserve`] to have succeeded once.
    pub fn find(&self, addr: usize) -> Pos {
        // The run starting at 0 is in the tree, so some start is <= addr.
        let (mut at, mut best) = (self.root, self.root);
        while at != NIL {
            let n = self.n(at);
            if n.run.start <= addr {
                best = at;
                at = n.right;
            } else {
                at = n.left;
            }
        }
        best
    }

    /// The run at `p`.
    pub fn run(&self, p: Pos) -> Run {
        self.n(p).run
    }

    /// The run after `p`, if any.
    pub fn next(&self, p: Pos) -> Option<Pos> {
        Some(self.n(p).next).filter(|&n| n != NIL)
    }

    /// The run before `p`, if any.
    pub fn prev(&self, p: Pos) -> Option<Pos> {
        Some(self.n(p).prev).filter(|&n| n != NIL)
    }

    /// The last byte of the run at `p`.
    pub fn end(&self, p: Pos) -> usize {
        match self.next(p) {
            Some(q) => self.n(q).run.start - 1,
            None => usize::MAX,
        }
    }

    /// Move the first byte of the run at `p` to `start`, which must lie after the start of the
    /// run before and before the start of the run after (the order does not change).
    pub fn set_start(&mut self, p: Pos, start: usize) {
        self.m(p).run.start = start;
    }

    /// Add `inc` to the count of the run at `p`.
    pub fn add(&mut self, p: Pos, inc: i32) {
        let r = &mut self.m(p).run;
        r.count = r.count.wrapping_add(inc);
    }

    /// Insert `run` (which starts inside the run at `p`, after its start) right after `p`;
    /// its id. Needs the room of [`Runs::reserve`] (at most two inserts per reserve).
    pub fn insert_after(&mut self, p: Pos, run: Run) -> Pos {
        let id = self.alloc(run);
        let after = self.n(p).next;
        // In order, the new node comes right after p: as p's right child when p has none,
        // else as the left child of p's successor (the leftmost node of p's right subtree).
        let parent = if self.n(p).right == NIL {
            self.m(p).right = id;
            p
        } else {
            self.m(after).left = id;
            after
        };
        let node = self.m(id);
        node.parent = parent;
        node.prev = p;
        node.next = after;
        self.m(p).next = id;
        if after != NIL {
            self.m(after).prev = id;
        }
        while self.n(id).parent != NIL && self.n(self.n(id).parent).prio < self.n(id).prio {
            self.rotate_up(id);
        }
        id
    }

    /// Remove the run at `p` (never the one starting at 0); its pages become part of the run
    /// before it.
    pub fn remove(&mut self, p: Pos) {
        // Rotate p down until it has at most one child, then splice it out.
        loop {
            let (l, r) = (self.n(p).left, self.n(p).right);
            if l == NIL || r == NIL {
                let child = if l == NIL { r } else { l };
                let parent = self.n(p).parent;
                self.replace_child(parent, p, child);
                if child != NIL {
                    self.m(child).parent = parent;
                }
                break;
            }
            let up = if self.n(l).prio > self.n(r).prio {
                l
            } else {
                r
            };
            self.rotate_up(up);
        }
        let (before, after) = (self.n(p).prev, self.n(p).next);
        if before != NIL {
            self.m(before).next = after;
        }
        if after != NIL {
            self.m(after).prev = before;
        }
        let free = self.free;
        let node = self.m(p);
        node.next = free;
        node.prev = NIL;
        self.free = p;
        self.nfree += 1;
    }

    /// In `parent` (or at the root when NIL), point the link that held `old` at `new`.
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        if parent == NIL {
            self.root = new;
        } else if self.n(parent).left == old {
            self.m(parent).left = new;
        } else {
            self.m(parent).right = new;
        }
    }

    /// Rotate `x` above its parent, keeping the in-order sequence.
    fn rotate_up(&mut self, x: u32) {
        let p = self.n(x).parent;
        let g = self.n(p).parent;
        if self.n(p).left == x {
            let moved = self.n(x).right;
            self.m(p).left = moved;
            if moved != NIL {
                self.m(moved).parent = p;
            }
            self.m(x).right = p;
        } else {
            let moved = self.n(x).left;
            self.m(p).right = moved;
            if moved != NIL {
                self.m(moved).parent = p;
            }
            self.m(x).left = p;
        }
        self.m(p).parent = x;
        self.m(x).parent = g;
        self.replace_child(g, p, x);
    }

    /// When every page is back in one run and the arena is big, give its memory back (what
    /// rdma-core's per-node `free` achieves). Ids are invalid afterwards.
    pub fn trim(&mut self) {
        if self.root == NIL || self.nodes.len() <= TRIM_AT {
            return;
        }
        let top = self.n(self.root);
        if top.left != NIL || top.right != NIL {
            return;
        }
        let run = top.run;
        let mut fresh = Vec::new();
        if fresh.try_reserve(PER_CALL + 1).is_err() {
            return;
        }
        self.nodes = fresh;
        self.free = NIL;
        self.nfree = 0;
        self.root = self.alloc(run);
    }

    /// Every run with its last byte, in address order (tests and `Fork::ranges`).
    pub fn all(&self) -> Vec<(usize, usize, i32)> {
        let mut out = Vec::new();
        let mut at = if self.root == NIL { NIL } else { self.find(0) };
        while at != NIL {
            out.push((self.n(at).run.start, self.end(at), self.n(at).run.count));
            at = self.n(at).next;
        }
        out
    }

    /// The invariants, for tests: the tree's in-order sequence is the list, starts increase from
    /// 0, neighbours' counts differ, parents above children in priority, links agree, and every
    /// node is either linked or free.
    #[cfg(test)]
    pub fn check(&self) {
        if self.root == NIL {
            return;
        }
        let mut inorder = Vec::new();
        let mut stack = Vec::new();
        let mut at = self.root;
        assert_eq!(self.n(at).parent, NIL);
        while at != NIL || !stack.is_empty() {
            while at != NIL {
                for c in [self.n(at).left, self.n(at).right] {
                    if c != NIL {
                        assert_eq!(self.n(c).parent, at, "parent link");
                        assert!(self.n(c).prio <= self.n(at).prio, "heap order");
                    }
                }
                stack.push(at);
                at = self.n(at).left;
            }
            let Some(top) = stack.pop() else { break };
            inorder.push(top);
            at = self.n(top).right;
        }
        let mut listed = Vec::new();
        let mut at = inorder[0];
        assert_eq!(self.n(at).prev, NIL);
        while at != NIL {
            listed.push(at);
            let nx = self.n(at).next;
            if nx != NIL {
                assert_eq!(self.n(nx).prev, at, "list link");
            }
            at = nx;
        }
        assert_eq!(inorder, listed, "tree order is list order");
        assert_eq!(self.n(listed[0]).run.start, 0);
        for w in listed.windows(2) {
            let (a, b) = (self.n(w[0]).run, self.n(w[1]).run);
            assert!(a.start < b.start, "order {a:?} {b:?}");
            assert_ne!(a.count, b.count, "unmerged {a:?} {b:?}");
        }
        assert_eq!(listed.len() + self.nfree, self.nodes.len(), "nodes leak");
    }

    /// Nodes in the arena, linked or free (tests).
    #[cfg(test)]
    pub fn arena_len(&self) -> usize {
        self.nodes.len()
    }
}
