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
    build(wide, le, needs, &[])
}

/// One dynamic symbol: its name, whether the image defines it, and its `.gnu.version` index
/// (0 local, 1 unversioned, 2.. the needed versions in the order `needs` lists them).
struct Sym<'a> {
    name: &'a str,
    defined: bool,
    version: u16,
}

/// An ELF image needing `needs`, with a `.dynsym` and `.gnu.version` of `syms` when there are any
/// (sections: null, .dynstr, .gnu.version_r, then .dynsym, .gnu.version).
fn build(wide: bool, le: bool, needs: &[Need<'_>], syms: &[Sym<'_>]) -> Vec<u8> {
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
    let mut index = 2u16;
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
            put16(&mut vr, index);
            index += 1;
            put32(&mut vr, at);
            put32(&mut vr, if j + 1 == n.names.len() { 0 } else { 16 });
        }
    }
    // Symbol 0 is the null symbol, as in every .dynsym.
    let mut st: Vec<u8> = Vec::new();
    let mut vs: Vec<u8> = Vec::new();
    if !syms.is_empty() {
        st.resize(if wide { 24 } else { 16 }, 0);
        put16(&mut vs, 0);
    }
    for y in syms {
        let name = add(y.name);
        let shndx = if y.defined { 12 } else { 0 };
        if wide {
            put32(&mut st, name);
            st.push(0x12); // GLOBAL FUNC
            st.push(0);
            put16(&mut st, shndx);
            put64(&mut st, 0);
            put64(&mut st, 0);
        } else {
            put32(&mut st, name);
            put32(&mut st, 0);
            put32(&mut st, 0);
            st.push(0x12);
            st.push(0);
            put16(&mut st, shndx);
        }
        put16(&mut vs, y.version);
    }
    let ehsize = if wide { 64 } else { 52 };
    let shentsize = if wide { 64 } else { 40 };
    let str_off = ehsize as u64;
    let vr_off = str_off + strtab.len() as u64;
    let st_off = vr_off + vr.len() as u64;
    let vs_off = st_off + st.len() as u64;
    let sh_off = vs_off + vs.len() as u64;
    let shnum = if syms.is_empty() { 3 } else { 5 };
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
    put16(&mut out, shnum);
    put16(&mut out, 1); // shstrndx
    assert_eq!(out.len(), ehsize as usize);
    out.extend_from_slice(&strtab);
    out.extend_from_slice(&vr);
    out.extend_from_slice(&st);
    out.extend_from_slice(&vs);
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
    if !syms.is_empty() {
        sh(SHT_DYNSYM, st_off, st.len() as u64, 1);
        sh(SHT_GNU_VERSYM, vs_off, vs.len() as u64, 3);
    }
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

/// A PABI-59 provider image as rdma-core v62/v63 builds mlx5: `ibv_cmd_query_port_speed` and
/// `marks` at IBVERBS_PRIVATE_59 among other imports (`marks` empty: as v61 builds it).
pub(crate) fn provider_59(wide: bool, le: bool, marks: &[&str]) -> Vec<u8> {
    // Versions: 2 GLIBC_2.2.5, 3 IBVERBS_1.1, 4 IBVERBS_PRIVATE_59.
    let mut syms = vec![
        Sym {
            name: "malloc",
            defined: false,
            version: 2,
        },
        Sym {
            name: "ibv_cmd_get_context",
            defined: false,
            version: 4,
        },
        Sym {
            name: "ibv_query_port",
            defined: false,
            version: 3,
        },
        Sym {
            name: "mlx5dv_open_device",
            defined: true,
            version: 1,
        },
    ];
    syms.extend(marks.iter().map(|m| Sym {
        name: m,
        defined: false,
        version: 4,
    }));
    build(
        wide,
        le,
        &[
            Need {
                file: "libc.so.6",
                names: &["GLIBC_2.2.5"],
            },
            Need {
                file: "libibverbs.so.1",
                names: &["IBVERBS_1.1", "IBVERBS_PRIVATE_59"],
            },
        ],
        &syms,
    )
}

fn names(v: &[Import]) -> Vec<(String, String)> {
    v.iter()
        .map(|i| {
            (
                String::from_utf8_lossy(&i.name).into_owned(),
                String::from_utf8_lossy(&i.node).into_owned(),
            )
        })
        .collect()
}

#[test]
fn imports_with_their_node() {
    for wide in [false, true] {
        for le in [false, true] {
            let img = provider_59(wide, le, &["ibv_cmd_query_port_speed"]);
            assert_eq!(needed_private_abis(&img), Ok(vec![59]));
            let got = names(&libibverbs_imports(&img).unwrap());
            let want: Vec<(String, String)> = [
                ("ibv_cmd_get_context", "IBVERBS_PRIVATE_59"),
                ("ibv_query_port", "IBVERBS_1.1"),
                ("ibv_cmd_query_port_speed", "IBVERBS_PRIVATE_59"),
            ]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
            assert_eq!(got, want, "wide {wide} le {le}");
        }
    }
    // Without .dynsym/.gnu.version: nothing to see.
    let img = provider_like(true, true, "IBVERBS_PRIVATE_59");
    assert_eq!(libibverbs_imports(&img), Ok(vec![]));
    assert_eq!(libibverbs_imports(b"not elf"), Err(ElfError::NotElf));
}

/// Every prefix and every single-byte change of an image with symbols gives an answer, never a
/// panic (the symbol and version tables, their links and sizes included).
#[test]
fn imports_of_truncated_and_flipped_images_never_panic() {
    for wide in [false, true] {
        let img = provider_59(wide, !wide, &["ibv_cmd_export_dmabuf_fd"]);
        assert_eq!(libibverbs_imports(&img).map(|v| v.len()), Ok(3));
        for n in 0..img.len() {
            let _ = libibverbs_imports(&img[..n]);
        }
        for i in 0..img.len() {
            for x in [0x01u8, 0x80, 0xff] {
                let mut m = img.clone();
                m[i] ^= x;
                let _ = libibverbs_imports(&m);
                let _ = needed_private_abis(&m);
            }
        }
    }
}

/// Hostile sizes: a symbol table claiming more than [`MAX_SYMBOLS`] entries, or lying past the
/// end of the image, is refused, not followed.
#[test]
fn imports_hostile_sizes() {
    let img = provider_59(true, true, &[]);
    // The .dynsym header is section 3; its size field sits at offset 32 of the header (ELF64).
    let shoff = u64::from_le_bytes(img[0x28..0x30].try_into().unwrap()) as usize;
    let size_at = shoff + 3 * 64 + 32;
    let mut big = img.clone();
    big[size_at..size_at + 8].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
    assert!(matches!(
        libibverbs_imports(&big),
        Err(ElfError::Malformed(_))
    ));
    let mut past = img.clone();
    past[size_at..size_at + 8].copy_from_slice(&(24u64 * 100).to_le_bytes());
    assert!(matches!(
        libibverbs_imports(&past),
        Err(ElfError::Malformed(_))
    ));
    let off_at = shoff + 3 * 64 + 24;
    let mut far = img.clone();
    far[off_at..off_at + 8].copy_from_slice(&(u64::MAX - 4).to_le_bytes());
    assert!(matches!(
        libibverbs_imports(&far),
        Err(ElfError::Malformed(_))
    ));
}

#[test]
fn file_imports() {
    let dir = std::env::temp_dir().join(format!("elfimports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("libmlx5-rdmav59.so");
    std::fs::write(&f, provider_59(true, true, &["ibv_cmd_query_port_speed"])).unwrap();
    assert_eq!(file_libibverbs_imports(&f).map(|v| v.len()), Ok(3));
    assert_eq!(
        file_libibverbs_imports(&dir.join("missing")),
        Err(ElfError::Io(libc::ENOENT))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The providers installed here: every versioned import from libibverbs.so.1 of Debian's
/// providers is at IBVERBS_1.x or their own IBVERBS_PRIVATE_<N>, and each imports something.
#[test]
fn installed_providers_imports() {
    let Ok(rd) = std::fs::read_dir(super::super::loader::DEFAULT_PROVIDER_DIR) else {
        return;
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
        let own = format!("IBVERBS_PRIVATE_{abi}");
        let v = file_libibverbs_imports(&e.path()).unwrap();
        assert!(!v.is_empty(), "{name}");
        for i in &v {
            let node = String::from_utf8_lossy(&i.node);
            assert!(
                node.starts_with("IBVERBS_1.") || node == own,
                "{name}: {node}"
            );
        }
    }
}

/// rdma-core 64.0's mlx5 as tools/rdma-core-builds caches it (when it is there): it imports
/// `ibv_cmd_query_port_speed` and `ibv_cmd_export_dmabuf_fd` at IBVERBS_PRIVATE_64, as v62/v63's
/// imports them at IBVERBS_PRIVATE_59 (the mark `super::release` reads); 61.0's imports neither.
#[test]
fn cached_rdma_core_builds_imports() {
    let Some(home) = std::env::var_os("HOME") else {
        return;
    };
    let cache = std::path::Path::new(&home).join(".cache/ibverbs-rs/rdma-core");
    let Ok(rd) = std::fs::read_dir(&cache) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((release, _)) = name.split_once('-') else {
            continue;
        };
        let (want, abi) = match release {
            "64.0" => (true, 64),
            "61.0" => (false, 59),
            _ => continue,
        };
        let lib = e.path().join(format!(
            "rdma-core-{release}/build/lib/libmlx5-rdmav{abi}.so"
        ));
        let Ok(v) = file_libibverbs_imports(&lib) else {
            continue;
        };
        let node = format!("IBVERBS_PRIVATE_{abi}");
        for mark in ["ibv_cmd_query_port_speed", "ibv_cmd_export_dmabuf_fd"] {
            let has = v
                .iter()
                .any(|i| i.name == mark.as_bytes() && i.node == node.as_bytes());
            assert_eq!(has, want, "{}: {mark}@{node}", lib.display());
        }
        assert!(
            v.iter()
                .any(|i| i.name == b"ibv_cmd_get_context" && i.node == node.as_bytes())
        );
    }
}
