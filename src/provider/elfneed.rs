//! Which provider ABI a provider file was built for, read from the file itself: the
//! `IBVERBS_PRIVATE_<N>` version nodes it needs from `libibverbs.so.1` (its `.gnu.version_r`).
//!
//! rdma-core has no counterpart: its loader just `dlopen`s `lib<name>-rdmav<ABI>.so` and, when the
//! provider was built for another library, the dynamic loader refuses with "version
//! \`IBVERBS_PRIVATE_N' not found". A provider built by rdma-core vN binds every private symbol
//! to `IBVERBS_PRIVATE_<N>` of its ABI, so the node names the provider ABI it needs. `ibverbs-doctor`
//! and the library's "no provider" explanation ([`super::explain`]) use this to name the node a
//! file needs before, or instead of, loading it.
//!
//! API (kept small on purpose):
//! - [`needed_private_abis`]: the N of every `IBVERBS_PRIVATE_<N>` node an ELF image (bytes) needs
//!   from `libibverbs.so.1`, ascending, without duplicates;
//! - [`file_needed_private_abis`]: the same for a file, read up to [`MAX_FILE_BYTES`];
//! - [`libibverbs_imports`] / [`file_libibverbs_imports`]: the undefined dynamic symbols an image
//!   binds to a version node of `libibverbs.so.1`, each with that node (`.dynsym` with its
//!   `.gnu.version` and `.gnu.version_r`): which `ibv_cmd_*` a provider calls, at which node
//!   ([`super::release`] tells rdma-core v62/v63's PABI-59 providers apart by them).
//!
//! Bounded and unsafe-free: the image is a byte slice, every offset and size is checked against
//! it (a truncated or hostile file gives [`ElfError`], never a panic), at most
//! [`MAX_SECTIONS`] section headers, [`MAX_NEEDS`] version entries and [`MAX_SYMBOLS`] dynamic
//! symbols are looked at. ELF32 and ELF64, either byte order. The reader uses section headers
//! (`SHT_GNU_verneed`, `SHT_DYNSYM`, `SHT_GNU_versym` and their linked string tables), which every
//! distribution's providers keep; a file without them has no needs or imports we can see and
//! gives an empty list.
#![forbid(unsafe_code)]

use std::io::Read;
use std::path::Path;

/// The most bytes [`file_needed_private_abis`] reads (the largest provider, libmlx5, is ~1 MiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// The most section headers looked at.
pub const MAX_SECTIONS: usize = 4096;
/// The most `Verneed` plus `Vernaux` entries followed.
pub const MAX_NEEDS: usize = 4096;
/// The most dynamic symbols looked at (libmlx5 has ~700).
pub const MAX_SYMBOLS: usize = 1 << 16;

/// The library whose version nodes count.
const LIBIBVERBS: &[u8] = b"libibverbs.so.1";
const PRIVATE: &[u8] = b"IBVERBS_PRIVATE_";
const SHT_GNU_VERNEED: u32 = 0x6fff_fffe;
const SHT_GNU_VERSYM: u32 = 0x6fff_ffff;
const SHT_DYNSYM: u32 = 11;

/// Why a file could not be read as an ELF image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElfError {
    /// The file could not be opened or read (the errno).
    Io(i32),
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge,
    /// Not an ELF file (no `\x7fELF` magic, unknown class or byte order).
    NotElf,
    /// An offset, size or count points outside the image or past a limit.
    Malformed(&'static str),
}

impl std::fmt::Display for ElfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ElfError::Io(e) => write!(f, "{}", std::io::Error::from_raw_os_error(*e)),
            ElfError::TooLarge => write!(f, "larger than {MAX_FILE_BYTES} bytes"),
            ElfError::NotElf => write!(f, "not an ELF file"),
            ElfError::Malformed(what) => write!(f, "malformed ELF file ({what})"),
        }
    }
}

/// A bounds-checked reader of one image's integers in its byte order and class.
struct Image<'a> {
    b: &'a [u8],
    le: bool,
    wide: bool,
}

impl<'a> Image<'a> {
    fn bytes(&self, off: u64, len: usize) -> Result<&'a [u8], ElfError> {
        let start = usize::try_from(off).map_err(|_| ElfError::Malformed("offset"))?;
        let end = start
            .checked_add(len)
            .ok_or(ElfError::Malformed("offset"))?;
        self.b
            .get(start..end)
            .ok_or(ElfError::Malformed("past the end"))
    }
    fn u16(&self, off: u64) -> Result<u16, ElfError> {
        let s = self.bytes(off, 2)?;
        let a = [s[0], s[1]];
        Ok(if self.le {
            u16::from_le_bytes(a)
        } else {
            u16::from_be_bytes(a)
        })
    }
    fn u32(&self, off: u64) -> Result<u32, ElfError> {
        let s = self.bytes(off, 4)?;
        let a = [s[0], s[1], s[2], s[3]];
        Ok(if self.le {
            u32::from_le_bytes(a)
        } else {
            u32::from_be_bytes(a)
        })
    }
    fn u64(&self, off: u64) -> Result<u64, ElfError> {
        let s = self.bytes(off, 8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(if self.le {
            u64::from_le_bytes(a)
        } else {
            u64::from_be_bytes(a)
        })
    }
    /// An address-sized field (`ElfN_Off`, `ElfN_Xword`).
    fn word(&self, off: u64) -> Result<u64, ElfError> {
        if self.wide {
            self.u64(off)
        } else {
            self.u32(off).map(u64::from)
        }
    }
    /// The NUL-terminated string at `off` within the string table `[base, base + size)`.
    fn str_in(&self, base: u64, size: u64, off: u32) -> Result<&'a [u8], ElfError> {
        if u64::from(off) >= size {
            return Err(ElfError::Malformed("string offset"));
        }
        let len =
            usize::try_from(size - u64::from(off)).map_err(|_| ElfError::Malformed("size"))?;
        let at = base
            .checked_add(u64::from(off))
            .ok_or(ElfError::Malformed("string offset"))?;
        let s = self.bytes(at, len)?;
        let end = s
            .iter()
            .position(|c| *c == 0)
            .ok_or(ElfError::Malformed("unterminated string"))?;
        Ok(&s[..end])
    }
}

/// A section header's fields we use.
struct Section {
    kind: u32,
    offset: u64,
    size: u64,
    link: u32,
}

fn section(img: &Image<'_>, shoff: u64, shentsize: u64, i: u64) -> Result<Section, ElfError> {
    let h = shoff
        .checked_add(
            i.checked_mul(shentsize)
                .ok_or(ElfError::Malformed("sections"))?,
        )
        .ok_or(ElfError::Malformed("sections"))?;
    // ELF64: name 0, type 4, flags 8, addr 16, offset 24, size 32, link 40.
    // ELF32: name 0, type 4, flags 8, addr 12, offset 16, size 20, link 24.
    let (o_off, o_size, o_link) = if img.wide { (24, 32, 40) } else { (16, 20, 24) };
    Ok(Section {
        kind: img.u32(h + 4)?,
        offset: img.word(h + o_off)?,
        size: img.word(h + o_size)?,
        link: img.u32(h + o_link)?,
    })
}

/// The image's header: its reader and where its section headers are (`shnum` capped at
/// [`MAX_SECTIONS`]; 0 when it has none).
fn open(elf: &[u8]) -> Result<(Image<'_>, u64, u64, u64), ElfError> {
    if elf.len() < 16 || &elf[..4] != b"\x7fELF" {
        return Err(ElfError::NotElf);
    }
    let wide = match elf[4] {
        1 => false,
        2 => true,
        _ => return Err(ElfError::NotElf),
    };
    let le = match elf[5] {
        1 => true,
        2 => false,
        _ => return Err(ElfError::NotElf),
    };
    let img = Image { b: elf, le, wide };
    // e_shoff, e_shentsize, e_shnum.
    let (shoff, shentsize, shnum) = if wide {
        (img.u64(0x28)?, img.u16(0x3a)?, img.u16(0x3c)?)
    } else {
        (u64::from(img.u32(0x20)?), img.u16(0x2e)?, img.u16(0x30)?)
    };
    if shoff == 0 || shnum == 0 {
        return Ok((img, 0, 0, 0));
    }
    let min_entsize = if wide { 64 } else { 40 };
    if shentsize < min_entsize {
        return Err(ElfError::Malformed("section header size"));
    }
    let shnum = u64::from(shnum).min(MAX_SECTIONS as u64);
    Ok((img, shoff, u64::from(shentsize), shnum))
}

/// One version a `SHT_GNU_verneed` section names: the needed file, the version's name, and the
/// index (`vna_other`) symbols refer to it by in `.gnu.version`.
struct Needed<'a> {
    file: &'a [u8],
    name: &'a [u8],
    index: u16,
}

/// Every version the image needs (all its `SHT_GNU_verneed` sections), at most [`MAX_NEEDS`]
/// entries followed.
fn needed_versions<'a>(
    img: &Image<'a>,
    shoff: u64,
    shentsize: u64,
    shnum: u64,
) -> Result<Vec<Needed<'a>>, ElfError> {
    let mut out = Vec::new();
    let mut budget = MAX_NEEDS;
    for i in 0..shnum {
        let s = section(img, shoff, shentsize, i)?;
        if s.kind != SHT_GNU_VERNEED {
            continue;
        }
        let strtab = section(img, shoff, shentsize, u64::from(s.link))?;
        let end = s
            .offset
            .checked_add(s.size)
            .ok_or(ElfError::Malformed("version section"))?;
        img.bytes(s.offset, usize::try_from(s.size).unwrap_or(usize::MAX))?;
        // Verneed: vn_version u16, vn_cnt u16, vn_file u32, vn_aux u32, vn_next u32.
        let mut vn = s.offset;
        loop {
            budget = budget
                .checked_sub(1)
                .ok_or(ElfError::Malformed("too many version entries"))?;
            if vn.checked_add(16).is_none_or(|e| e > end) {
                return Err(ElfError::Malformed("version entry"));
            }
            let cnt = img.u16(vn + 2)?;
            let file = img.str_in(strtab.offset, strtab.size, img.u32(vn + 4)?)?;
            let mut aux = vn + u64::from(img.u32(vn + 8)?);
            // Vernaux: vna_hash u32, vna_flags u16, vna_other u16, vna_name u32, vna_next u32.
            for _ in 0..cnt {
                budget = budget
                    .checked_sub(1)
                    .ok_or(ElfError::Malformed("too many version entries"))?;
                if aux.checked_add(16).is_none_or(|e| e > end) {
                    return Err(ElfError::Malformed("version entry"));
                }
                let name = img.str_in(strtab.offset, strtab.size, img.u32(aux + 8)?)?;
                let index = img.u16(aux + 6)?;
                out.push(Needed { file, name, index });
                let next = img.u32(aux + 12)?;
                if next == 0 {
                    break;
                }
                aux += u64::from(next);
            }
            let next = img.u32(vn + 12)?;
            if next == 0 {
                break;
            }
            vn += u64::from(next);
        }
    }
    Ok(out)
}

/// The N of every `IBVERBS_PRIVATE_<N>` version node the ELF image `elf` needs from
/// `libibverbs.so.1`, ascending, each once. Empty when it needs none (or has no section headers).
/// A node whose suffix is not a decimal number that fits a u32 is not listed.
pub fn needed_private_abis(elf: &[u8]) -> Result<Vec<u32>, ElfError> {
    let (img, shoff, shentsize, shnum) = open(elf)?;
    let mut out: Vec<u32> = needed_versions(&img, shoff, shentsize, shnum)?
        .iter()
        .filter(|n| n.file == LIBIBVERBS)
        .filter_map(|n| private_abi_of(n.name))
        .collect();
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// A symbol an image takes from `libibverbs.so.1`: its name and the version node it binds to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    pub name: Vec<u8>,
    pub node: Vec<u8>,
}

/// The undefined dynamic symbols of the ELF image `elf` bound to a version node of
/// `libibverbs.so.1` (its `.dynsym`, whose `.gnu.version` entry names one of the versions its
/// `.gnu.version_r` needs from that file), in symbol-table order. Unversioned imports, and
/// imports from other files, are not listed. Empty without a `.dynsym` or `.gnu.version`.
pub fn libibverbs_imports(elf: &[u8]) -> Result<Vec<Import>, ElfError> {
    let (img, shoff, shentsize, shnum) = open(elf)?;
    let needs = needed_versions(&img, shoff, shentsize, shnum)?;
    let mut dynsym = None;
    let mut versym = None;
    for i in 0..shnum {
        let s = section(&img, shoff, shentsize, i)?;
        match s.kind {
            SHT_DYNSYM if dynsym.is_none() => dynsym = Some(s),
            SHT_GNU_VERSYM if versym.is_none() => versym = Some(s),
            _ => {}
        }
    }
    let (Some(sym), Some(ver)) = (dynsym, versym) else {
        return Ok(Vec::new());
    };
    let strtab = section(&img, shoff, shentsize, u64::from(sym.link))?;
    // Both tables lie inside the image: the offsets below cannot overflow.
    img.bytes(sym.offset, usize::try_from(sym.size).unwrap_or(usize::MAX))?;
    img.bytes(ver.offset, usize::try_from(ver.size).unwrap_or(usize::MAX))?;
    // Elf64_Sym: name u32, info u8, other u8, shndx u16, value, size (24 bytes);
    // Elf32_Sym: name u32, value u32, size u32, info u8, other u8, shndx u16 (16 bytes).
    let (entsize, o_shndx) = if img.wide { (24u64, 6u64) } else { (16, 14) };
    let count = (sym.size / entsize).min(ver.size / 2);
    if count > MAX_SYMBOLS as u64 {
        return Err(ElfError::Malformed("too many symbols"));
    }
    let mut out = Vec::new();
    for i in 0..count {
        let at = sym.offset + i * entsize;
        if img.u16(at + o_shndx)? != 0 {
            continue; // defined here (SHN_UNDEF is 0)
        }
        let index = img.u16(ver.offset + i * 2)? & 0x7fff;
        if index < 2 {
            continue; // local or unversioned
        }
        let Some(need) = needs
            .iter()
            .find(|n| n.index & 0x7fff == index && n.file == LIBIBVERBS)
        else {
            continue;
        };
        let name = img.str_in(strtab.offset, strtab.size, img.u32(at)?)?;
        let mut n = Vec::new();
        let mut v = Vec::new();
        n.try_reserve_exact(name.len())
            .and_then(|()| v.try_reserve_exact(need.name.len()))
            .map_err(|_| ElfError::Io(libc::ENOMEM))?;
        n.extend_from_slice(name);
        v.extend_from_slice(need.name);
        out.push(Import { name: n, node: v });
    }
    Ok(out)
}

/// `IBVERBS_PRIVATE_<N>` → N (decimal digits only).
fn private_abi_of(name: &[u8]) -> Option<u32> {
    let digits = name.strip_prefix(PRIVATE)?;
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// The file at `path` (symbolic links followed), at most [`MAX_FILE_BYTES`].
fn read_image(path: &Path) -> Result<Vec<u8>, ElfError> {
    let io = |e: std::io::Error| ElfError::Io(e.raw_os_error().unwrap_or(libc::EIO));
    let f = std::fs::File::open(path).map_err(io)?;
    let len = f.metadata().map_err(io)?.len();
    if len > MAX_FILE_BYTES {
        return Err(ElfError::TooLarge);
    }
    let mut buf = Vec::new();
    buf.try_reserve_exact(len as usize)
        .map_err(|_| ElfError::Io(libc::ENOMEM))?;
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(io)?;
    if buf.len() as u64 > MAX_FILE_BYTES {
        return Err(ElfError::TooLarge);
    }
    Ok(buf)
}

/// [`needed_private_abis`] of the file at `path` (symbolic links followed), reading at most
/// [`MAX_FILE_BYTES`].
pub fn file_needed_private_abis(path: &Path) -> Result<Vec<u32>, ElfError> {
    needed_private_abis(&read_image(path)?)
}

/// [`libibverbs_imports`] of the file at `path`, read as [`file_needed_private_abis`] reads it.
pub fn file_libibverbs_imports(path: &Path) -> Result<Vec<Import>, ElfError> {
    libibverbs_imports(&read_image(path)?)
}

#[cfg(test)]
#[path = "elfneed_tests.rs"]
pub(super) mod tests;
