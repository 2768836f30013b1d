//! The process's device records across rescans, keyed by what identifies a device.
//!
//! Answers to the bookkeeping half of rdma-core's `ibverbs_get_device_list` (`libibverbs/init.c`):
//! the loop that pairs each listed device with a record of the new scan (`same_sysfs_dev`), drops
//! the devices the scan no longer shows, and the order `try_all_drivers` leaves the list in.
//!
//! A device is its uverbs node: the uverbs name, the kernel's device index, and without an index
//! (the sysfs walk) the creation time of its IB device directory. Never the IB device name: five
//! uverbs nodes that all name `rxe0` are five devices. [`Key`] is `same_sysfs_dev` as a hash key
//! (two records are the same device exactly when their keys are equal), so a rescan costs one hash
//! per record instead of a search per record: linear in the number of devices.
//!
//! The value kept beside each record (`T`) is the caller's (the C glue keeps its `verbs_device`).
#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::os::unix::ffi::OsStrExt;

use super::{SysfsDev, Timespec};
use crate::errno::Errno;

/// `same_sysfs_dev` as a key: the uverbs name, the device index, and the creation time only when
/// there is no index (with one, the index alone tells a re-created device apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key<'a> {
    name: &'a [u8],
    idx: Option<u32>,
    created: Timespec,
}

impl<'a> Key<'a> {
    /// The key of a record.
    pub fn of(d: &'a SysfsDev) -> Key<'a> {
        Key {
            name: d.sysfs_name.as_bytes(),
            idx: d.ibdev_idx,
            created: if d.ibdev_idx.is_some() {
                Timespec::default()
            } else {
                d.time_created
            },
        }
    }
}

/// FNV-1a: a fixed hash, so building a table draws no random seed from the kernel. The keys come
/// from sysfs or the kernel's netlink replies, not from a party that could pick colliding names.
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type FixedState = BuildHasherDefault<Fnv>;

/// What a rescan found, beside the records it kept.
#[derive(Debug)]
pub struct Rescan<T> {
    /// The values of the devices the scan no longer shows, in list order.
    pub gone: Vec<T>,
    /// The records of devices not listed yet, in discovery order.
    pub new: Vec<SysfsDev>,
}

/// The listed devices in list order, each record with the caller's value.
#[derive(Debug)]
pub struct Records<T> {
    entries: Vec<(SysfsDev, T)>,
}

impl<T> Default for Records<T> {
    fn default() -> Self {
        Records::new()
    }
}

impl<T> Records<T> {
    pub const fn new() -> Records<T> {
        Records {
            entries: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The records and values in list order.
    pub fn iter(&self) -> impl Iterator<Item = (&SysfsDev, &T)> {
        self.entries.iter().map(|(r, v)| (r, v))
    }

    /// Pair the listed devices with a new scan (`fresh`, in discovery order), as rdma-core does:
    /// a listed device stays (with its old record; the scan's record of it is dropped) when the
    /// scan has a record with its key, and leaves the list otherwise. Where the scan shows one key
    /// more than once, a listed device takes the record discovered last (rdma-core's scan list is
    /// built by prepending and searched from its head).
    pub fn rescan(&mut self, fresh: Vec<SysfsDev>) -> Result<Rescan<T>, Errno> {
        // Most rescans see the devices of the last one in the same order.
        if fresh.len() == self.entries.len()
            && self
                .entries
                .iter()
                .zip(&fresh)
                .all(|((r, _), f)| Key::of(r) == Key::of(f))
        {
            return Ok(Rescan {
                gone: Vec::new(),
                new: Vec::new(),
            });
        }
        // Each key's records, the one discovered last first.
        let mut head: HashMap<Key<'_>, usize, FixedState> = HashMap::default();
        head.try_reserve(fresh.len()).map_err(|_| Errno::ENOMEM)?;
        let mut next: Vec<Option<usize>> = Vec::new();
        next.try_reserve_exact(fresh.len())
            .map_err(|_| Errno::ENOMEM)?;
        for (i, f) in fresh.iter().enumerate() {
            next.push(head.insert(Key::of(f), i));
        }
        let mut taken: Vec<bool> = Vec::new();
        taken
            .try_reserve_exact(fresh.len())
            .map_err(|_| Errno::ENOMEM)?;
        taken.resize(fresh.len(), false);
        let mut kept: Vec<bool> = Vec::new();
        kept.try_reserve_exact(self.entries.len())
            .map_err(|_| Errno::ENOMEM)?;
        for (r, _) in &self.entries {
            let k = Key::of(r);
            let hit = head.get(&k).copied();
            if let Some(i) = hit {
                // Unlink it: the next listed device with this key takes the next record.
                match next.get(i).copied().flatten() {
                    Some(n) => {
                        head.insert(k, n);
                    }
                    None => {
                        head.remove(&k);
                    }
                }
                if let Some(t) = taken.get_mut(i) {
                    *t = true;
                }
            }
            kept.push(hit.is_some());
        }
        drop(head);
        // Everything that can fail is reserved before the list changes.
        let n_gone = kept.iter().filter(|k| !**k).count();
        let n_new = taken.iter().filter(|t| !**t).count();
        let mut gone = Vec::new();
        gone.try_reserve_exact(n_gone).map_err(|_| Errno::ENOMEM)?;
        let mut held = Vec::new();
        held.try_reserve_exact(self.entries.len() - n_gone)
            .map_err(|_| Errno::ENOMEM)?;
        let mut new = Vec::new();
        new.try_reserve_exact(n_new).map_err(|_| Errno::ENOMEM)?;
        for (e, k) in std::mem::take(&mut self.entries).into_iter().zip(kept) {
            if k {
                held.push(e);
            } else {
                gone.push(e.1);
            }
        }
        self.entries = held;
        new.extend(
            fresh
                .into_iter()
                .zip(taken)
                .filter(|(_, t)| !t)
                .map(|(f, _)| f),
        );
        Ok(Rescan { gone, new })
    }

    /// Put newly bound devices in front of the list, as rdma-core's `list_add` of each one in
    /// turn does: `bound` in the order they were bound, the last one ends up first. Returns the
    /// values the caller must release: a device whose key the list already holds (another thread
    /// listed it meanwhile), or every one of them if the list cannot grow (out of memory: the
    /// devices are then not listed, as if no provider had taken them).
    pub fn prepend(&mut self, bound: Vec<(SysfsDev, T)>) -> Vec<T> {
        if bound.is_empty() {
            return Vec::new();
        }
        match self.try_prepend(bound) {
            Ok(dup) => dup,
            Err(bound) => bound.into_iter().map(|(_, v)| v).collect(),
        }
    }

    fn try_prepend(&mut self, bound: Vec<(SysfsDev, T)>) -> Result<Vec<T>, Vec<(SysfsDev, T)>> {
        let mut out: Vec<(SysfsDev, T)> = Vec::new();
        let mut listed: Vec<bool> = Vec::new();
        let mut have: HashMap<Key<'_>, (), FixedState> = HashMap::default();
        if out
            .try_reserve_exact(bound.len() + self.entries.len())
            .is_err()
            || listed.try_reserve_exact(bound.len()).is_err()
            || have.try_reserve(self.entries.len()).is_err()
        {
            return Err(bound);
        }
        for (r, _) in &self.entries {
            have.insert(Key::of(r), ());
        }
        listed.extend(bound.iter().map(|(r, _)| have.contains_key(&Key::of(r))));
        drop(have);
        let mut dup = Vec::new();
        for ((r, v), l) in bound.into_iter().zip(listed).rev() {
            if l {
                // Rare (two threads racing): a failed push only leaks this device's copy.
                if dup.try_reserve(1).is_ok() {
                    dup.push(v);
                }
            } else {
                out.push((r, v));
            }
        }
        out.append(&mut self.entries);
        self.entries = out;
        Ok(dup)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{FoundBy, sysfs};
    use std::ffi::OsString;
    use std::path::PathBuf;

    fn rec(uverbs: &str, ibdev: &str, idx: Option<u32>, sec: i64) -> SysfsDev {
        let mut d = sysfs::empty_dev(
            OsString::from(ibdev),
            PathBuf::from(format!("/sys/class/infiniband/{ibdev}")),
            FoundBy::SysfsWalk,
        );
        d.sysfs_name = OsString::from(uverbs);
        d.ibdev_idx = idx;
        d.time_created = Timespec { sec, nsec: 0 };
        d
    }

    fn names<T>(r: &Records<T>) -> Vec<String> {
        r.iter()
            .map(|(d, _)| d.sysfs_name.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn key_is_same_sysfs_dev() {
        let all = [
            rec("uverbs0", "rxe0", None, 1),
            rec("uverbs0", "rxe0", None, 2),
            rec("uverbs0", "rxe9", None, 1),
            rec("uverbs1", "rxe0", None, 1),
            rec("uverbs0", "rxe0", Some(3), 1),
            rec("uverbs0", "rxe0", Some(3), 2),
            rec("uverbs0", "rxe0", Some(4), 1),
        ];
        for a in &all {
            for b in &all {
                assert_eq!(
                    Key::of(a) == Key::of(b),
                    crate::device::same_sysfs_dev(a, b),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn first_scan_then_unchanged_rescan() {
        let scan = || {
            (0..5)
                .map(|i| rec(&format!("uverbs{i}"), "rxe0", None, 7))
                .collect::<Vec<_>>()
        };
        let mut t: Records<u32> = Records::new();
        let r = t.rescan(scan()).unwrap();
        assert!(r.gone.is_empty());
        // Five nodes naming one IB device are five devices.
        assert_eq!(r.new.len(), 5);
        // Bound in the order rdma-core offers them (last discovered first), each put in front.
        let bound: Vec<_> = r
            .new
            .into_iter()
            .rev()
            .enumerate()
            .map(|(i, d)| (d, i as u32))
            .collect();
        assert!(t.prepend(bound).is_empty());
        assert_eq!(
            names(&t),
            ["uverbs0", "uverbs1", "uverbs2", "uverbs3", "uverbs4"]
        );
        let r = t.rescan(scan()).unwrap();
        assert!(r.gone.is_empty() && r.new.is_empty());
        // Another order of the same devices: all kept, the list order stays.
        let r = t.rescan(scan().into_iter().rev().collect()).unwrap();
        assert!(r.gone.is_empty() && r.new.is_empty());
        assert_eq!(
            names(&t),
            ["uverbs0", "uverbs1", "uverbs2", "uverbs3", "uverbs4"]
        );
    }

    #[test]
    fn gone_new_and_recreated() {
        let mut t: Records<&str> = Records::new();
        let first = vec![
            rec("uverbs0", "a", None, 1),
            rec("uverbs1", "b", None, 1),
            rec("uverbs2", "c", None, 1),
        ];
        let r = t.rescan(first).unwrap();
        let bound: Vec<_> = r.new.into_iter().rev().map(|d| (d, "x")).collect();
        t.prepend(bound);
        t.entries[0].1 = "A";
        t.entries[1].1 = "B";
        t.entries[2].1 = "C";
        // uverbs1 vanished, uverbs2 was re-created (new mtime), uverbs3 appeared.
        let second = vec![
            rec("uverbs0", "a", None, 1),
            rec("uverbs2", "c", None, 2),
            rec("uverbs3", "d", None, 1),
        ];
        let r = t.rescan(second).unwrap();
        assert_eq!(r.gone, ["B", "C"]);
        let new: Vec<_> = r
            .new
            .iter()
            .map(|d| d.sysfs_name.to_string_lossy().into_owned())
            .collect();
        assert_eq!(new, ["uverbs2", "uverbs3"]);
        assert_eq!(names(&t), ["uverbs0"]);
        let bound: Vec<_> = r.new.into_iter().rev().map(|d| (d, "n")).collect();
        t.prepend(bound);
        assert_eq!(names(&t), ["uverbs2", "uverbs3", "uverbs0"]);
    }

    #[test]
    fn duplicate_keys_and_racing_threads() {
        let mut t: Records<u8> = Records::new();
        // A scan that shows one key twice (only a hostile kernel would): both are new.
        let r = t
            .rescan(vec![
                rec("uverbs0", "a", Some(1), 0),
                rec("uverbs0", "b", Some(1), 0),
            ])
            .unwrap();
        assert_eq!(r.new.len(), 2);
        t.prepend(vec![(r.new[0].clone(), 1)]);
        // The listed one takes the record discovered last; the other stays new.
        let r = t
            .rescan(vec![
                rec("uverbs0", "a", Some(1), 0),
                rec("uverbs0", "b", Some(1), 0),
            ])
            .unwrap();
        assert_eq!(r.new.len(), 1);
        assert_eq!(r.new[0].ibdev_name, "a");
        // A device another thread listed meanwhile comes back to be released.
        let dup = t.prepend(vec![
            (rec("uverbs0", "z", Some(1), 0), 9),
            (rec("uverbs5", "y", Some(5), 0), 5),
        ]);
        assert_eq!(dup, [9]);
        assert_eq!(names(&t), ["uverbs5", "uverbs0"]);
    }

    #[test]
    fn linear_at_scale() {
        let n = 20_000;
        let scan = |shift: usize| {
            (0..n)
                .map(|i| {
                    rec(
                        &format!("uverbs{}", (i + shift) % n),
                        "rxe",
                        Some(((i + shift) % n) as u32),
                        0,
                    )
                })
                .collect::<Vec<_>>()
        };
        let mut t: Records<usize> = Records::new();
        let r = t.rescan(scan(0)).unwrap();
        let bound: Vec<_> = r
            .new
            .into_iter()
            .rev()
            .enumerate()
            .map(|(i, d)| (d, i))
            .collect();
        t.prepend(bound);
        assert_eq!(t.len(), n);
        // Rotated: no lockstep, the hashed path (quadratic would take minutes here in debug).
        let r = t.rescan(scan(7)).unwrap();
        assert!(r.gone.is_empty() && r.new.is_empty());
        assert_eq!(t.len(), n);
    }
}
