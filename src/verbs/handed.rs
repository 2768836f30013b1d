//! The addresses of what the library handed out and a caller hands back to be freed (device
//! lists, `ibv_buf` handles, dma-buf heaps), so a free of anything else is refused and logged
//! instead of passed to libc's `free`, which aborts the process on a pointer it did not make
//! (or corrupts its heap on one that merely looks right).
//!
//! rdma-core frees whatever it is given. Divergence: an address this library did not hand out
//! (or already took back) is ignored, with a message at debug level.
//!
//! Called by `capi` for objects it hands out and takes back.
use crate::sys::sync::Mutex;
use std::collections::BTreeMap;

/// One kind of handle: the live addresses of that kind, each with the length it was handed out
/// with (0 for handles whose length the caller never states back).
pub(crate) struct Handed {
    what: &'static str,
    live: Mutex<BTreeMap<usize, usize>>,
}

impl Handed {
    pub(crate) const fn new(what: &'static str) -> Self {
        Handed {
            what,
            live: Mutex::new(BTreeMap::new()),
        }
    }

    fn live(&self) -> crate::sys::sync::MutexGuard<'_, BTreeMap<usize, usize>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Remember `p` as handed out (NULL is not remembered).
    pub(crate) fn give<T>(&self, p: *mut T) -> *mut T {
        self.give_sized(p, 0)
    }

    /// Remember `p` as handed out with `len` bytes (NULL is not remembered).
    pub(crate) fn give_sized<T>(&self, p: *mut T, len: usize) -> *mut T {
        if !p.is_null() {
            self.live().insert(p as usize, len);
        }
        p
    }

    /// Take `p` back: true when it was handed out and not yet taken back; otherwise the refusal
    /// is logged and the caller must not free it.
    pub(crate) fn take<T>(&self, p: *mut T) -> bool {
        self.take_sized(p).is_some()
    }

    /// Take `p` back: the length it was handed out with when it was handed out and not yet
    /// taken back; otherwise None, the refusal is logged and the caller must not free it.
    pub(crate) fn take_sized<T>(&self, p: *mut T) -> Option<usize> {
        let ok = self.live().remove(&(p as usize));
        if ok.is_none() {
            crate::log::log(
                crate::log::VERBS_LOG_DEBUG,
                format_args!(
                    "ibverbs-rs: {} {:p} was not handed out by this library; not freed",
                    self.what, p
                ),
            );
        }
        ok
    }
}
