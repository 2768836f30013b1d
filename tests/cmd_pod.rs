//! Every `sys::pod::Pod` type is free of padding: checked against the layout tables (each
//! struct's members, recursively, tile it without gaps; each union's members fill it).

use std::collections::HashMap;

use ibverbs::sys::pod::POD_TYPES;

#[path = "common/shared.rs"]
mod shared;

type Rows = HashMap<String, Vec<(String, usize, usize, String)>>;

/// The rows of ../shared/abi's `file`, or None when the shared folder is missing.
fn load(file: &str) -> Option<Rows> {
    let path = shared::file(&format!("abi/{file}"))?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut rows: Rows = HashMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let c: Vec<&str> = line.split('\t').collect();
        rows.entry(c[0].to_string()).or_default().push((
            c[1].to_string(),
            c[2].parse().unwrap(),
            c[3].parse().unwrap(),
            c[4].to_string(),
        ));
    }
    Some(rows)
}

/// Check the members of `ty` directly under `prefix` (a dotted path, "" for the top) cover
/// `[base, base + size)` with no gap: as a sequence for a struct, each fully for a union.
fn check(
    rows: &Rows,
    ty: &str,
    prefix: &str,
    base: usize,
    size: usize,
    is_union: bool,
    errs: &mut Vec<String>,
) {
    let r = &rows[ty];
    let mut kids: Vec<&(String, usize, usize, String)> = r
        .iter()
        .filter(|(m, ..)| !m.is_empty())
        .filter(|(m, ..)| match m.strip_prefix(prefix) {
            Some(rest) => !rest.contains('.') && (prefix.is_empty() || !rest.is_empty()),
            None => false,
        })
        .collect();
    kids.sort_by_key(|k| k.1);
    let mut at = base;
    for (m, off, sz, mty) in kids {
        if is_union {
            if *sz != size {
                errs.push(format!("{ty}.{m}: union member of {sz} bytes in {size}"));
            }
        } else {
            if *off != at {
                errs.push(format!("{ty}.{m}: gap before offset {off} (at {at})"));
            }
            at = off + sz;
        }
        if mty.contains('[') || *sz == 0 {
            continue; // arrays of integers, flexible arrays
        }
        let (kind, name) = mty.split_once(' ').unwrap_or(("", mty));
        if name == "<anon>" {
            check(rows, ty, &format!("{m}."), *off, *sz, kind == "union", errs);
        } else if kind == "struct" || kind == "union" {
            let full = format!("{kind} {name}");
            check(rows, &full, "", 0, *sz, kind == "union", errs);
        }
    }
    if !is_union && at != base + size {
        errs.push(format!("{ty} {prefix}: tail padding ({at} of {size})"));
    }
}

#[test]
fn pod_types_have_no_padding() {
    let (Some(v65), Some(v44)) = (
        load("layouts-v65.0-pabi65.tsv"),
        load("layouts-v44.0-pabi34.tsv"),
    ) else {
        return;
    };
    let mut errs = Vec::new();
    let mut checked = 0;
    for &(name, size) in POD_TYPES {
        if matches!(name, "u8" | "u16" | "u32" | "u64") {
            continue;
        }
        let found = [&v65, &v44]
            .into_iter()
            .flat_map(|r| [(r, format!("struct {name}")), (r, format!("union {name}"))])
            .find(|(r, t)| r.contains_key(t));
        let Some((rows, ty)) = found else {
            // A named Rust type for an anonymous C member, `<parent>_<member>`: check the
            // member's subtree inside its parent.
            let (rows, parent, member, off, sz, mty) = [&v65, &v44]
                .into_iter()
                .flat_map(|r| {
                    name.match_indices('_').filter_map(move |(i, _)| {
                        let (p, m) = (&name[..i], &name[i + 1..]);
                        let t = format!("struct {p}");
                        let row = r.get(&t)?.iter().find(|(mm, ..)| mm == m)?.clone();
                        Some((r, t, row.0, row.1, row.2, row.3))
                    })
                })
                .next()
                .unwrap_or_else(|| panic!("{name}: not in the layout tables"));
            assert_eq!(size, sz, "{name}: Rust size vs C member size");
            check(
                rows,
                &parent,
                &format!("{member}."),
                off,
                sz,
                mty.starts_with("union"),
                &mut errs,
            );
            checked += 1;
            continue;
        };
        let sizeof = rows[&ty].iter().find(|(m, ..)| m.is_empty()).unwrap().2;
        assert_eq!(size, sizeof, "{name}: Rust size vs C sizeof");
        check(rows, &ty, "", 0, sizeof, ty.starts_with("union"), &mut errs);
        checked += 1;
    }
    assert!(errs.is_empty(), "{}", errs.join("\n"));
    assert!(checked >= 20);
}

#[test]
fn the_check_sees_padding() {
    let Some(v65) = load("layouts-v65.0-pabi65.tsv") else {
        return;
    };
    let mut errs = Vec::new();
    // 50 bytes of fields up to port_cap_flags2, then 2 bytes before active_speed_ex.
    check(&v65, "struct ibv_port_attr", "", 0, 56, false, &mut errs);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("active_speed_ex"));
}
