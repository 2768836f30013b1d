//! A provider directory's listing (rdma-core: dynamic_driver.c `load_driver` opens each
//! `lib<name>-rdmav<N>.so` blindly; we read the directory once instead, so that only the files
//! it holds are tried). Which of a name's files a directory has, for which provider ABI, and
//! which ABIs it has that this library lacks (the parent module's warning).
#![forbid(unsafe_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use super::PROVIDER_ABIS;
use crate::sys::sync::Mutex;

/// What a listing knows of an entry's type: a regular file, not one (a directory, a device...),
/// or a `stat` must tell (a symlink, or a file system without `d_type`), asked once.
const KIND_FILE: u8 = 1;
const KIND_OTHER: u8 = 2;
const KIND_ASK: u8 = 0;

/// One entry `lib<name>-rdmav<N>.so` of a provider directory.
#[derive(Debug)]
struct ProviderFile {
    /// [`name_key`] of `<name>`: most comparisons end here.
    key: u64,
    /// Where the entry's whole name is in [`DirListing::names`], and its length.
    start: u32,
    len: u8,
    /// The length of `<name>`.
    name_len: u8,
    abi: u32,
    /// N is written as [`ProviderAbi::suffix`](super::ProviderAbi::suffix) writes it (no leading
    /// zero): the file a candidate of that ABI names.
    exact: bool,
    /// `KIND_*`; a `stat`'s answer is kept here.
    kind: AtomicU8,
}

/// A provider directory's entries of the form `lib<name>-rdmav<N>.so` (every other entry is
/// dropped while reading), in one byte buffer with an index sorted by the name's first eight
/// bytes, then ABI newest first: asking about a name is a binary search and a look at the few
/// entries of its key, with no file name formatted or allocated.
#[derive(Debug, Default)]
pub struct DirListing {
    dir: OsString,
    names: Vec<u8>,
    files: Vec<ProviderFile>,
    /// The directory could be listed (else nothing is known of it: its files are tried blindly).
    listed: bool,
}

/// The first eight bytes of a name, zero-padded, as a number whose order is theirs: names
/// (which hold no NUL) compare as (key, bytes) in the order of their bytes.
fn name_key(name: &[u8]) -> u64 {
    let mut k = [0u8; 8];
    let n = name.len().min(8);
    k[..n].copy_from_slice(&name[..n]);
    u64::from_be_bytes(k)
}

/// `lib<name>-rdmav<N>.so` split into `<name>` and N, and whether N has no leading zero.
pub(super) fn split_provider_file(file: &[u8]) -> Option<(&[u8], u32, bool)> {
    let rest = file.strip_prefix(b"lib")?.strip_suffix(b".so")?;
    let digits = rest.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    let (head, n) = rest.split_at(rest.len() - digits);
    let name = head.strip_suffix(b"-rdmav")?;
    if n.is_empty() || n.len() > 9 {
        return None;
    }
    let abi = n.iter().fold(0u32, |a, d| a * 10 + u32::from(d - b'0'));
    Some((name, abi, n.len() == 1 || n[0] != b'0'))
}

impl DirListing {
    /// List `dir` (an unreadable directory lists as empty: every name is then loaded in order).
    pub fn read(dir: &OsStr) -> DirListing {
        let mut l = DirListing {
            dir: dir.to_owned(),
            ..DirListing::default()
        };
        let Ok(path) = std::ffi::CString::new(dir.as_bytes()) else {
            return l;
        };
        let Ok(mut rd) = crate::sys::dir::DirStream::open(&path) else {
            return l;
        };
        l.listed = true;
        // Room for a distribution's directory (Debian 12's: 17 files, 350 bytes of names) or
        // two, without growing; more grows as needed.
        if l.names.try_reserve(2048).is_err() || l.files.try_reserve(64).is_err() {
            return DirListing::unlisted(dir);
        }
        let mut buf = [0u8; crate::sys::dir::NAME_BUF];
        while let Some((n, t)) = rd.next_entry(&mut buf) {
            let file = &buf[..n];
            let Some((name, abi, exact)) = split_provider_file(file) else {
                continue;
            };
            let kind = match t {
                libc::DT_REG => KIND_FILE,
                libc::DT_LNK | libc::DT_UNKNOWN => KIND_ASK,
                _ => KIND_OTHER,
            };
            let (Ok(start), Ok(len), Ok(name_len)) = (
                u32::try_from(l.names.len()),
                u8::try_from(n),
                u8::try_from(name.len()),
            ) else {
                // Past 4 GiB of names, or a name longer than any file system's: as unreadable.
                return DirListing::unlisted(dir);
            };
            if l.names.try_reserve(n).is_err() || l.files.try_reserve(1).is_err() {
                return DirListing::unlisted(dir);
            }
            l.names.extend_from_slice(file);
            l.files.push(ProviderFile {
                key: name_key(name),
                start,
                len,
                name_len,
                abi,
                exact,
                kind: AtomicU8::new(kind),
            });
        }
        // By key, then newest ABI first: a name's entries are the ones of its key with its name
        // (names longer than eight bytes may share a key), in ABI order.
        l.files
            .sort_unstable_by_key(|f| (f.key, core::cmp::Reverse(f.abi)));
        // Threads listing devices at once may `stat` the same entry and store its kind together.
        for f in &l.files {
            crate::sys::sync::atomic_shared(&f.kind);
        }
        l
    }

    /// A directory that could not be listed (its files are tried blindly).
    fn unlisted(dir: &OsStr) -> DirListing {
        DirListing {
            dir: dir.to_owned(),
            ..DirListing::default()
        }
    }

    /// Whether an entry's name, whose key is `name`'s, is `name`: for up to eight bytes the key
    /// holds all of them (and names hold no NUL), so the lengths tell.
    fn same_name(&self, f: &ProviderFile, name: &[u8]) -> bool {
        if name.len() <= 8 {
            return usize::from(f.name_len) == name.len();
        }
        Self::name_in(&self.names, f) == name
    }

    fn entry_in<'n>(names: &'n [u8], f: &ProviderFile) -> &'n [u8] {
        let s = f.start as usize;
        names.get(s..s + usize::from(f.len)).unwrap_or_default()
    }

    fn name_in<'n>(names: &'n [u8], f: &ProviderFile) -> &'n [u8] {
        Self::entry_in(names, f)
            .get(3..3 + usize::from(f.name_len))
            .unwrap_or_default()
    }

    /// The entries of `name`, newest ABI first.
    fn of<'s>(&'s self, name: &'s [u8]) -> impl Iterator<Item = &'s ProviderFile> + 's {
        let key = name_key(name);
        let lo = self.files.partition_point(|f| f.key < key);
        self.files[lo..]
            .iter()
            .take_while(move |f| f.key == key)
            .filter(move |f| self.same_name(f, name))
    }

    /// Whether the entry is a regular file (through symlinks): `stat`ed once when its type needs it.
    fn is_file(&self, f: &ProviderFile) -> bool {
        match f.kind.load(Ordering::Relaxed) {
            KIND_FILE => true,
            KIND_OTHER => false,
            _ => {
                let path = [self.dir.as_bytes(), b"/", Self::entry_in(&self.names, f)].concat();
                let yes = std::fs::metadata(OsStr::from_bytes(&path)).is_ok_and(|m| m.is_file());
                let k = if yes { KIND_FILE } else { KIND_OTHER };
                f.kind.store(k, Ordering::Relaxed);
                yes
            }
        }
    }

    /// Whether `lib<name>-rdmav<abi>.so` is a regular file here (through symlinks).
    fn has_file(&self, name: &[u8], abi: u32) -> bool {
        self.of(name)
            .any(|f| f.abi == abi && f.exact && self.is_file(f))
    }

    /// Whether `lib<name>-rdmav<N>.so` is a regular file here (through symlinks) for some
    /// provider ABI we load.
    pub fn has_provider(&self, name: &[u8]) -> bool {
        self.of(name)
            .any(|f| f.exact && PROVIDER_ABIS.iter().any(|a| a.version == f.abi) && self.is_file(f))
    }

    /// Whether the file of `name` for provider ABI `abi` may be here: it is, or the directory
    /// could not be listed.
    pub fn may_have(&self, name: &[u8], abi: u32) -> bool {
        !self.listed || self.has_file(name, abi)
    }

    /// The files `lib<name>-rdmav<N>.so` here whose N is a provider ABI this library lacks, with
    /// their paths.
    pub fn foreign_abis(&self, name: &[u8]) -> Vec<(OsString, u32)> {
        self.of(name)
            .filter(|f| !PROVIDER_ABIS.iter().any(|a| a.version == f.abi))
            .map(|f| {
                let path = [self.dir.as_bytes(), b"/", Self::entry_in(&self.names, f)].concat();
                (OsString::from_vec(path), f.abi)
            })
            .collect()
    }
}

/// This process's listing of `dir`, read on first use (each directory once; read again only if
/// the set of directories changes).
pub fn listing(dir: &OsStr) -> Arc<DirListing> {
    static SEEN: Mutex<Vec<Arc<DirListing>>> = Mutex::new(Vec::new());
    let mut g = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = g.iter().find(|l| l.dir == dir) {
        return l.clone();
    }
    let l = Arc::new(DirListing::read(dir));
    // A handful of directories at most (the built-in and the standard ones, or one override).
    if g.len() >= 8 {
        g.clear();
    }
    if g.try_reserve(1).is_ok() {
        g.push(l.clone());
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_file_names() {
        assert_eq!(
            split_provider_file(b"libmlx5-rdmav34.so"),
            Some((&b"mlx5"[..], 34, true))
        );
        assert_eq!(
            split_provider_file(b"libfoo-rdmav3-rdmav065.so"),
            Some((&b"foo-rdmav3"[..], 65, false))
        );
        assert_eq!(
            split_provider_file(b"lib-rdmav0.so"),
            Some((&b""[..], 0, true))
        );
        assert_eq!(
            split_provider_file(b"libx-rdmav999999999.so"),
            Some((&b"x"[..], 999_999_999, true))
        );
        for bad in [
            &b"libx-rdmav.so"[..],
            b"libx-rdmav1234567890.so",
            b"libx-rdmav3x.so",
            b"libx-rdmav34.so.1",
            b"x-rdmav34.so",
            b"libx.so",
            b"lib",
            b"",
        ] {
            assert_eq!(split_provider_file(bad), None, "{:?}", bad);
        }
    }

    #[test]
    fn name_keys_keep_byte_order() {
        let names: [&[u8]; 9] = [
            b"",
            b"a",
            b"ab",
            b"abcdefgh",
            b"abcdefgh0",
            b"abcdefgi",
            b"b",
            b"mlx4",
            b"mlx5",
        ];
        for a in names {
            for b in names {
                let by_key = name_key(a).cmp(&name_key(b)).then_with(|| a.cmp(b));
                assert_eq!(by_key, a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn listing_index() {
        let d = std::env::temp_dir().join(format!("ibverbs-rs-listing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        for f in [
            "librxe-rdmav34.so",
            "librxe-rdmav65.so",
            "librxe-rdmav99.so",
            "librxe-rdmav064.so",
            "libmlx5-rdmav59.so",
            "libmlx5.so.1",
            "README",
            "libsiw-rdmav57.so",
        ] {
            std::fs::write(d.join(f), b"").unwrap();
        }
        std::os::unix::fs::symlink("libmlx5.so.1", d.join("libmlx5-rdmav64.so")).unwrap();
        std::os::unix::fs::symlink("gone", d.join("libefa-rdmav34.so")).unwrap();
        std::fs::create_dir(d.join("libhns-rdmav34.so")).unwrap();
        let l = DirListing::read(d.as_os_str());
        assert!(l.listed);
        // Only provider files are kept, by name then newest ABI first.
        assert_eq!(l.files.len(), 9);
        let order: Vec<(Vec<u8>, u32)> = l
            .files
            .iter()
            .map(|f| (DirListing::name_in(&l.names, f).to_vec(), f.abi))
            .collect();
        assert_eq!(order[0], (b"efa".to_vec(), 34));
        assert_eq!(order[2], (b"mlx5".to_vec(), 64));
        assert_eq!(order[3], (b"mlx5".to_vec(), 59));
        assert_eq!(
            order[4..8].iter().map(|o| o.1).collect::<Vec<_>>(),
            [99, 65, 64, 34]
        );
        for (name, want) in [
            ("rxe", true),
            ("mlx5", true),
            ("siw", true),
            ("efa", false),
            ("hns", false),
            ("mlx", false),
            ("mlx55", false),
            ("", false),
        ] {
            assert_eq!(l.has_provider(name.as_bytes()), want, "{name}");
        }
        assert!(l.may_have(b"rxe", 65));
        assert!(l.may_have(b"mlx5", 64));
        // "064" is not the file a candidate of ABI 64 names.
        assert!(!l.may_have(b"rxe", 64));
        assert!(!l.may_have(b"efa", 34));
        // 99: a provider ABI this library lacks (and none is near it).
        let foreign = l.foreign_abis(b"rxe");
        assert_eq!(foreign.len(), 1);
        assert_eq!(foreign[0].1, 99);
        assert_eq!(foreign[0].0, d.join("librxe-rdmav99.so").into_os_string());
        assert!(l.foreign_abis(b"mlx5").is_empty());
        // A directory that cannot be listed: nothing known, everything may be there.
        let none = DirListing::read(d.join("nope").as_os_str());
        assert!(!none.listed && !none.has_provider(b"rxe") && none.may_have(b"rxe", 34));
        let nul = DirListing::read(OsStr::from_bytes(b"/tmp\0x"));
        assert!(!nul.listed);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
