//! Which provider ABI a provider file was built for, read from the file itself: the
//! `IBVERBS_PRIVATE_<N>` version nodes it needs from `libibverbs.so.1` (its `.gnu.version_r`).
//!
//! rdma-core has no counterpart: its loader just `dlopen`s `lib<name>-rdmav<ABI>.so` and, when the
//! provider was built for another library, the dynamic loader refuses with "version
//! \`IBVERBS_PRIVATE_N' not found". A provider built by rdma-core vN binds every private symbol
//! to `IBVERBS_PRIVATE_<N>` of its ABI, so the node names the provider ABI it needs. `ibverbs-doctor`
//! and the library's "no provider" explanation (`super::explain`) use this to name the node a
//! file needs before, or instead of, loading it.
//!
//! API (kept small on purpose):
//! - [`needed_private_abis`]: the N of every `IBVERBS_PRIVATE_<N>` node an ELF image (bytes) needs
//!   from `libibverbs.so.1`, ascending, without duplicates;
//! - [`file_needed_private_abis`]: the same for a file, read up to [`MAX_FILE_BYTES`].
//!
//! Bounded and unsafe-free: the image is a byte slice, every offset and size is checked against
//! it (a truncated or hostile file gives [`ElfError`], never a panic), at most
//! [`MAX_SECTIONS`] section headers and [`MAX_NEEDS`] version entries are looked at. ELF32 and
//! ELF64, either byte order. The reader uses section headers (`SHT_GNU_verneed` and its linked
//! string table), which every distribution's providers keep; a file without them has no needs
//! we can see and gives an empty list.
#![forbid(unsafe_code)]

use std::io::Read;
use std::path::Path;

/// The most bytes [`file_needed_private_abis`] reads (the largest provider, libmlx5, is ~1 MiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// The most section headers looked at.
pub const MAX_SECTIONS: usize = 4096;
/// The most `Verneed` plus `Vernaux` entries followed.
pub const MAX_NEEDS: usize = 4096;

/// The library whose version nodes count.
const LIBIBVERBS: &[u8] = b"libibverbs.so.1";
const PRIVATE: &[u8] = b"IBVERBS_PRIVATE_";
const SHT_GNU_VERNEED: u32 = 0x6fff_fffe;

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

impl Image<'_> {
    fn bytes(&self, off: u64, len: usize) -> Result<&[u8], ElfError> {
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
    fn str_in(&self, base: u64, size: u64, off: u32) -> Result<&[u8], ElfError> {
        if u64::from(off) >= size {
            return Err(ElfError::Malformed("string offset"));
        }
        let len =
            usize::try_from(size - u64::from(off)).map_err(|_| ElfError::Malformed("size"))?;
        let s = self.bytes(base + u64::from(off), len)?;
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

/// The N of every `IBVERBS_PRIVATE_<N>` version node the ELF image `elf` needs from
/// `libibverbs.so.1`, ascending, each once. Empty when it needs none (or has no section headers).
/// A node whose suffix is not a decimal number that fits a u32 is not listed.
pub fn needed_private_abis(elf: &[u8]) -> Result<Vec<u32>, ElfError> {
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
        return Ok(Vec::new());
    }
    let min_entsize = if wide { 64 } else { 40 };
    if shentsize < min_entsize {
        return Err(ElfError::Malformed("section header size"));
    }
    let shnum = u64::from(shnum).min(MAX_SECTIONS as u64);
    let shentsize = u64::from(shentsize);
    let mut out = Vec::new();
    let mut budget = MAX_NEEDS;
    for i in 0..shnum {
        let s = section(&img, shoff, shentsize, i)?;
        if s.kind != SHT_GNU_VERNEED {
            continue;
        }
        let strtab = section(&img, shoff, shentsize, u64::from(s.link))?;
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
            if file == LIBIBVERBS {
                // Vernaux: vna_hash u32, vna_flags u16, vna_other u16, vna_name u32, vna_next u32.
                for _ in 0..cnt {
                    budget = budget
                        .checked_sub(1)
                        .ok_or(ElfError::Malformed("too many version entries"))?;
                    if aux.checked_add(16).is_none_or(|e| e > end) {
                        return Err(ElfError::Malformed("version entry"));
                    }
                    let name = img.str_in(strtab.offset, strtab.size, img.u32(aux + 8)?)?;
                    if let Some(n) = private_abi_of(name) {
                        out.push(n);
                    }
                    let next = img.u32(aux + 12)?;
                    if next == 0 {
                        break;
                    }
                    aux += u64::from(next);
                }
            }
            let next = img.u32(vn + 12)?;
            if next == 0 {
                break;
            }
            vn += u64::from(next);
        }
    }
    out.sort_unstable();
    out.dedup();
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

/// [`needed_private_abis`] of the file at `path` (symbolic links followed), reading at most
/// [`MAX_FILE_BYTES`].
pub fn file_needed_private_abis(path: &Path) -> Result<Vec<u32>, ElfError> {
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
    needed_private_abis(&buf)
}

#[cfg(test)]
#[path = "elfneed_tests.rs"]
pub(super) mod tests;
