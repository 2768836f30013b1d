//! Locks valgrind's race checker can follow (rdma-core's are pthread mutexes, which helgrind
//! intercepts; there is no rdma-core file this answers to).
//!
//! Rust's [`std::sync::Mutex`], `Condvar` and `OnceLock` park on futexes: helgrind sees neither the
//! lock nor the order it imposes, and reports every access to data a std `Mutex` guards, and
//! every read of a value a `OnceLock` published, as a race between threads. These wrappers keep
//! the std API the library uses and announce each acquisition and release with helgrind's client
//! requests ([`sys::valgrind`](crate::sys::valgrind): a few register rotations on a real CPU,
//! nothing else). Atomics stay std's; where one orders other memory, its user says so with
//! [`crate::sys::valgrind::happens_before`]/`happens_after`.
//!
//! clippy.toml refuses the std types everywhere else.
#![allow(clippy::disallowed_types)]

use core::cell::UnsafeCell;
use core::fmt;
use core::mem::{ManuallyDrop, MaybeUninit};
use core::ops::{Deref, DerefMut};
use std::sync::{LockResult, PoisonError};

use crate::sys::valgrind::{
    happens_after, happens_before, lock_acquired, lock_destroyed, lock_released, untracked,
};

/// A static atomic that orders nothing by itself (a flag or a value read as one): helgrind, which
/// does not know atomic instructions, stops checking its bytes. Called once, before threads share
/// it (the first device list does it for the library's).
pub fn atomic_static<T>(a: &'static T) {
    atomic_shared(a);
}

/// The same for an atomic in memory the library allocated (a cache a first use fills, where
/// threads that race store the same value): called before threads share it. The heap block is
/// tracked again once freed and allocated anew.
pub fn atomic_shared<T>(a: &T) {
    untracked(core::ptr::from_ref(a).cast::<u8>() as usize, size_of::<T>());
}

/// [`std::sync::Mutex`] whose acquisitions and releases helgrind sees.
#[derive(Default)]
pub struct Mutex<T: ?Sized> {
    inner: std::sync::Mutex<T>,
}

impl<T> Mutex<T> {
    pub const fn new(v: T) -> Self {
        Mutex {
            inner: std::sync::Mutex::new(v),
        }
    }
}

impl<T: ?Sized> Mutex<T> {
    fn addr(&self) -> usize {
        core::ptr::from_ref(&self.inner).cast::<u8>() as usize
    }

    /// [`std::sync::Mutex::lock`].
    #[inline]
    pub fn lock(&self) -> LockResult<MutexGuard<'_, T>> {
        let lock = self.addr();
        let r = self.inner.lock();
        lock_acquired(lock);
        match r {
            Ok(g) => Ok(MutexGuard {
                guard: ManuallyDrop::new(g),
                lock,
            }),
            Err(p) => Err(PoisonError::new(MutexGuard {
                guard: ManuallyDrop::new(p.into_inner()),
                lock,
            })),
        }
    }
}

impl<T: ?Sized> Drop for Mutex<T> {
    fn drop(&mut self) {
        lock_destroyed(self.addr());
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for Mutex<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}

/// The guard [`Mutex::lock`] returns; releasing it is announced before the std guard unlocks.
pub struct MutexGuard<'a, T: ?Sized> {
    guard: ManuallyDrop<std::sync::MutexGuard<'a, T>>,
    lock: usize,
}

impl<T: ?Sized> Deref for MutexGuard<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T: ?Sized> DerefMut for MutexGuard<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.guard
    }
}

impl<T: ?Sized> Drop for MutexGuard<'_, T> {
    #[inline]
    fn drop(&mut self) {
        lock_released(self.lock);
        // SAFETY: the std guard is dropped once, here; nothing uses it after.
        unsafe { ManuallyDrop::drop(&mut self.guard) };
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for MutexGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

/// [`std::sync::Condvar`] for [`MutexGuard`]s: waiting releases the lock and takes it back.
#[derive(Debug, Default)]
pub struct Condvar(std::sync::Condvar);

impl Condvar {
    pub const fn new() -> Self {
        Condvar(std::sync::Condvar::new())
    }

    /// [`std::sync::Condvar::wait`].
    pub fn wait<'a, T>(&self, guard: MutexGuard<'a, T>) -> LockResult<MutexGuard<'a, T>> {
        let mut guard = ManuallyDrop::new(guard);
        let lock = guard.lock;
        lock_released(lock);
        // SAFETY: the std guard is moved out once; the wrapper is never dropped (ManuallyDrop).
        let std_guard = unsafe { ManuallyDrop::take(&mut guard.guard) };
        let r = self.0.wait(std_guard);
        lock_acquired(lock);
        match r {
            Ok(g) => Ok(MutexGuard {
                guard: ManuallyDrop::new(g),
                lock,
            }),
            Err(p) => Err(PoisonError::new(MutexGuard {
                guard: ManuallyDrop::new(p.into_inner()),
                lock,
            })),
        }
    }

    pub fn notify_all(&self) {
        self.0.notify_all();
    }

    pub fn notify_one(&self) {
        self.0.notify_one();
    }
}

/// [`std::sync::OnceLock`] whose publication helgrind sees: the value is written and announced
/// inside the `Once`, so every thread that finds it initialised is ordered after the write.
pub struct OnceLock<T> {
    once: std::sync::Once,
    value: UnsafeCell<MaybeUninit<T>>,
}

// SAFETY: as std's OnceLock: the value is written once, inside the Once, before any reader sees
// it complete; after that it is only shared.
unsafe impl<T: Sync + Send> Sync for OnceLock<T> {}
// SAFETY: the cell owns its value (std's OnceLock is Send the same way): moving it moves a `T: Send`.
unsafe impl<T: Send> Send for OnceLock<T> {}

impl<T> OnceLock<T> {
    pub const fn new() -> Self {
        OnceLock {
            once: std::sync::Once::new(),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    fn tag(&self) -> usize {
        core::ptr::from_ref(self).cast::<u8>() as usize
    }

    /// [`std::sync::OnceLock::get_or_init`].
    #[inline]
    pub fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
        if !self.once.is_completed() {
            self.init(f);
        }
        happens_after(self.tag());
        // SAFETY: the Once completed, so init wrote the value; it is never written again.
        unsafe { (*self.value.get()).assume_init_ref() }
    }

    #[cold]
    fn init(&self, f: impl FnOnce() -> T) {
        self.once.call_once(|| {
            let v = f();
            // SAFETY: inside the Once: no other thread reads or writes the cell until it completes.
            unsafe { (*self.value.get()).write(v) };
            happens_before(self.tag());
        });
    }

    /// [`std::sync::OnceLock::get`].
    pub fn get(&self) -> Option<&T> {
        if !self.once.is_completed() {
            return None;
        }
        happens_after(self.tag());
        // SAFETY: as in get_or_init.
        Some(unsafe { (*self.value.get()).assume_init_ref() })
    }
}

impl<T> Default for OnceLock<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> From<T> for OnceLock<T> {
    fn from(v: T) -> Self {
        let cell = Self::new();
        cell.get_or_init(|| v);
        cell
    }
}

impl<T> Drop for OnceLock<T> {
    fn drop(&mut self) {
        if self.once.is_completed() {
            // SAFETY: initialised (the Once completed) and dropped once, here.
            unsafe { self.value.get_mut().assume_init_drop() };
        }
    }
}

impl<T: Clone> Clone for OnceLock<T> {
    fn clone(&self) -> Self {
        match self.get() {
            Some(v) => Self::from(v.clone()),
            None => Self::new(),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for OnceLock<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("OnceLock").field(&self.get()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn the_wrappers_behave_as_std() {
        let m = Arc::new(Mutex::new(0u32));
        let c = Arc::new(Condvar::new());
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (m, c) = (m.clone(), c.clone());
                std::thread::spawn(move || {
                    *m.lock().unwrap_or_else(|e| e.into_inner()) += 1;
                    c.notify_all();
                })
            })
            .collect();
        let mut g = m.lock().unwrap_or_else(|e| e.into_inner());
        while *g < 4 {
            g = c.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        drop(g);
        threads.into_iter().for_each(|t| t.join().unwrap_or(()));

        let once: OnceLock<String> = OnceLock::new();
        assert!(once.get().is_none());
        assert_eq!(once.get_or_init(|| "a".into()), "a");
        assert_eq!(once.get_or_init(|| "b".into()), "a");
        assert_eq!(OnceLock::from(7).get(), Some(&7));
    }
}
