//! Tests of `elfneed`: hand-built images of both classes and byte orders, every truncation and
//! byte flip of one (never a panic), and the providers installed on this machine.

use super::*;

/// One needed file with its version names.
struct Need<'a> {
    file: &'a str,
    names: &'a [&'a str],
}

/// An ELF image with three sections (null, .dynstr, .gnu.version_r) needing `needs`.
fn image(wide: bool, le: bool, needs: &[Need<'_>]) -> Vec<u8> {
    let mut strtab = vec![0u8];
    let mut add = |s: &str| -> u32 {
        let at = strtab.len() as u32;
        strtab.extend_from_slice(s.as_bytes());
        strtab.push(0);
        at
    };
    // Verneed records, each followed by its Vernaux records.
    let mut vr: Vec<u8> = Vec::new();
    let put16 = |v: &mut Vec<u8>, x: u16| {
        v.extend_from_slice(&if le { x.to_le_bytes() } else { x.to_be_bytes() })
    };
    let put32 = |v: &mut Vec<u8>, x: u32| {
        v.extend_from_slice(&if le { x.to_le_bytes() } else { x.to_be_bytes() })
    };
    let put64 = |v: &mut Vec<u8>, x: u64| {
        v.extend_from_slice(&if le { x.to_le_bytes() } else { x.to_be_bytes() })
    };
    for (i, n) in needs.iter().enumerate() {
        let file = add(n.file);
        let last = i + 1 == needs.len();
        put16(&mut vr, 1);
        put16(&mut vr, n.names.len() as u16);
        put32(&mut vr, file);
        put32(&mut vr, 16);
        put32(
            &mut vr,
            if last {
                0
            } else {
                16 + 16 * n.names.len() as u32
            },
        );
        for (j, name) in n.names.iter().enumerate() {
            let at = add(name);
            put32(&mut vr, 0x1234);
            put16(&mut vr, 0);
            put16(&mut vr, (j + 2) as u16);
            put32(&mut vr, at);
            put32(&mut vr, if j + 1 == n.names.len() { 0 } else { 16 });
        }
    }
    let ehsize = if wide { 64 } else { 52 };
    let shentsize = if wide { 64 } else { 40 };
    let str_off = ehsize as u64;
    let vr_off = str_off + strtab.len() as u64;
    let sh_off = vr_off + vr.len() as u64;
    let mut out = Vec::new();
    out.extend_from_slice(b"\x7fELF");
    out.push(if wide { 2 } else { 1 });
    out.push(if le { 1 } else { 2 });
    out.push(1);
    out.resize(16, 0);
    put16(&mut out, 3); // e_type ET_DYN
    put16(&mut out, if wide { 62 } else { 3 });
    put32(&mut out, 1);
    if wide {
        put64(&mut out, 0); // entry
        put64(&mut out, 0); // phoff
        put64(&mut out, sh_off);
    } else {
        put32(&mut out, 0);
        put32(&mut out, 0);
        put32(&mut out, sh_off as u32);
    }
    put32(&mut out, 0); // flags
    put16(&mut out, ehsize);
    put16(&mut out, 0); // phentsize
    put16(&mut out, 0); // phnum
    put16(&mut out, shentsize);
    put16(&mut out, 3); // shnum
    put16(&mut out, 1); // shstrndx
    assert_eq!(out.len(), ehsize as usize);
    out.extend_from_slice(&strtab);
    out.extend_from_slice(&vr);
    let mut sh = |kind: u32, off: u64, size: u64, link: u32| {
        put32(&mut out, 0);
        put32(&mut out, kind);
        if wide {
            put64(&mut out, 2); // flags
            put64(&mut out, 0); // addr
            put64(&mut out, off);
            put64(&mut out, size);
            put32(&mut out, link);
            put32(&mut out, 0); // info
            put64(&mut out, 8);
            put64(&mut out, 0);
        } else {
            put32(&mut out, 2);
            put32(&mut out, 0);
            put32(&mut out, off as u32);
            put32(&mut out, size as u32);
            put32(&mut out, link);
            put32(&mut out, 0);
            put32(&mut out, 4);
            put32(&mut out, 0);
        }
    };
    sh(0, 0, 0, 0);
    sh(3, str_off, strtab.len() as u64, 0);
    sh(SHT_GNU_VERNEED, vr_off, vr.len() as u64, 1);
    out
}

/// A provider-like image needing `private` (an `IBVERBS_PRIVATE_<N>` name) from libibverbs.so.1.
pub(crate) fn provider_like(wide: bool, le: bool, private: &str) -> Vec<u8> {
    image(
        wide,
        le,
        &[
            Need {
                file: "libc.so.6",
                names: &["GLIBC_2.2.5", "GLIBC_2.34"],
            },
            Need {
                file: "libibverbs.so.1",
                names: &["IBVERBS_1.1", private],
            },
        ],
    )
}

#[test]
fn both_classes_and_byte_orders() {
    for wide in [false, true] {
        for le in [false, true] {
            let img = provider_like(wide, le, "IBVERBS_PRIVATE_57");
            assert_eq!(
                needed_private_abis(&img),
                Ok(vec![57]),
                "wide {wide} le {le}"
            );
        }
    }
}

#[test]
fn only_libibverbs_counts_and_names_are_exact() {
    let img = image(
        true,
        true,
        &[
            Need {
                file: "libother.so.1",
                names: &["IBVERBS_PRIVATE_12"],
            },
            Need {
                file: "libibverbs.so.1",
                names: &[
                    "IBVERBS_PRIVATE_65",
                    "IBVERBS_PRIVATE_34",
                    "IBVERBS_PRIVATE_x",
                    "IBVERBS_PRIVATE_",
                    "IBVERBS_PRIVATE_99999999999",
                    "IBVERBS_PRIVATE_34",
                ],
            },
        ],
    );
    assert_eq!(needed_private_abis(&img), Ok(vec![34, 65]));
    let none = image(
        true,
        true,
        &[Need {
            file: "libc.so.6",
            names: &["GLIBC_2.2.5"],
        }],
    );
    assert_eq!(needed_private_abis(&none), Ok(vec![]));
}

#[test]
fn not_elf() {
    assert_eq!(needed_private_abis(b""), Err(ElfError::NotElf));
    assert_eq!(
        needed_private_abis(b"#!/bin/sh\necho hi\n"),
        Err(ElfError::NotElf)
    );
    let mut img = provider_like(true, true, "IBVERBS_PRIVATE_34");
    img[4] = 7;
    assert_eq!(needed_private_abis(&img), Err(ElfError::NotElf));
}

/// Every prefix and every single-byte change of an image gives an answer, never a panic.
#[test]
fn truncated_and_flipped_images_never_panic() {
    for wide in [false, true] {
        let img = provider_like(wide, !wide, "IBVERBS_PRIVATE_34");
        for n in 0..img.len() {
            let _ = needed_private_abis(&img[..n]);
        }
        for i in 0..img.len() {
            for x in [0x01u8, 0x80, 0xff] {
                let mut m = img.clone();
                m[i] ^= x;
                let _ = needed_private_abis(&m);
            }
        }
    }
}

#[test]
fn files() {
    let dir = std::env::temp_dir().join(format!("elfneed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("libfoo-rdmav57.so");
    std::fs::write(&f, provider_like(true, true, "IBVERBS_PRIVATE_57")).unwrap();
    assert_eq!(file_needed_private_abis(&f), Ok(vec![57]));
    assert_eq!(
        file_needed_private_abis(&dir.join("missing")),
        Err(ElfError::Io(libc::ENOENT))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The providers installed here: Debian's `lib<name>-rdmav34.so` need IBVERBS_PRIVATE_34 (and
/// the ABI-65 ones fetched by tools/fetch-providers need 65), as their suffix says.
#[test]
fn installed_providers_need_their_suffix() {
    let dirs = [
        super::super::loader::DEFAULT_PROVIDER_DIR.to_string(),
        format!(
            "{}/target/providers-sid{}",
            env!("CARGO_MANIFEST_DIR"),
            super::super::loader::DEFAULT_PROVIDER_DIR
        ),
    ];
    let mut seen = 0;
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(abi) = name
                .rsplit_once("-rdmav")
                .and_then(|(_, s)| s.strip_suffix(".so"))
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            assert_eq!(
                file_needed_private_abis(&e.path()),
                Ok(vec![abi]),
                "{}",
                e.path().display()
            );
            seen += 1;
        }
    }
    eprintln!("{seen} installed provider files checked");
}
