//! The committed headers in include/infiniband/ are exactly what cbindgen makes of the Rust types.
//!
//! `make headers` (IBVERBS_UPDATE_HEADERS=1) rewrites them; otherwise this test fails when they are
//! stale. Three headers, split by where an item is declared:
//! - verbs.h: the types of src/abi/verbs* and the public exports (IBVERBS_1.x nodes);
//! - kern-abi.h: the types of src/abi/kern_abi* (provider command structs);
//! - driver.h: the types of src/abi/driver* and the IBVERBS_PRIVATE_* exports.
//!
//! The kernel uapi mirrors (src/abi/uapi) are not emitted: the headers include linux-libc-dev's
//! `<rdma/*.h>`. The other installed headers are hand-written (`HAND_WRITTEN`, checked here to be
//! the only others in include/infiniband/).
//!
//! Rewrites after cbindgen, because C can say what a Rust type cannot:
//! - a field `anon_N` of a type `<parent>_anon_N` becomes an anonymous struct/union member, so C
//!   code names the members as it does with rdma-core's headers (`wc.imm_data`);
//! - a `bitfield_N` storage field documented `bitfield: a:1, b:1` becomes C bitfields;
//! - definitions are re-ordered so by-value members come first, and every tag is declared up
//!   front (cbindgen does not tell pointer from value dependencies);
//! - C variadics get their `...` back, and functions the other header owns are dropped.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[derive(Default)]
struct Items {
    types: BTreeSet<String>,
    /// The C tag keyword of each struct/union type (`struct`, `union`).
    tags: BTreeMap<String, &'static str>,
    consts: BTreeSet<String>,
    /// Exported functions and statics, by symbol name.
    fns: BTreeSet<String>,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn ident_after<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = line.trim_start().strip_prefix(prefix)?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// Every item a file declares that cbindgen could emit.
fn scan(file: &Path, items: &mut Items) {
    let text = std::fs::read_to_string(file).expect("read source");
    let mut exported_name: Option<String> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[unsafe(no_mangle)]") {
            exported_name = Some(String::new());
        } else if let Some(rest) = t.strip_prefix("#[unsafe(export_name = \"") {
            exported_name = rest.split('"').next().map(str::to_string);
        }
        for (kw, tag) in [
            ("pub struct ", Some("struct")),
            ("pub union ", Some("union")),
            ("pub enum ", None),
            ("pub type ", None),
        ] {
            if let Some(n) = ident_after(t, kw) {
                items.types.insert(n.to_string());
                if let Some(tag) = tag {
                    items.tags.insert(n.to_string(), tag);
                }
            }
        }
        if let Some(n) = ident_after(t, "pub const ") {
            items.consts.insert(n.to_string());
        }
        for kw in ["pub static mut ", "pub static "] {
            if let Some(n) = ident_after(t, kw) {
                if let Some(mark) = exported_name.take() {
                    items
                        .fns
                        .insert(if mark.is_empty() { n.to_string() } else { mark });
                }
                break;
            }
        }
        if let Some(pos) = t.find("extern \"C\" fn ") {
            if let Some(mark) = exported_name.take() {
                let n = ident_after(&t[pos..], "extern \"C\" fn ").unwrap_or("");
                items
                    .fns
                    .insert(if mark.is_empty() { n.to_string() } else { mark });
            }
        }
    }
}

/// Which exported functions a header declares.
#[derive(Clone, Copy, PartialEq)]
enum Fns {
    /// The public ones (IBVERBS_1.x nodes).
    Public,
    /// The provider-private ones (IBVERBS_PRIVATE_*).
    Private,
    /// None: types and constants only.
    None,
}

struct Header {
    file: &'static str,
    guard: &'static str,
    /// `#include <...>` lines, in this order (rdma-core's header includes the same).
    includes: &'static [&'static str],
    abi_dirs: &'static [&'static str],
    fns: Fns,
    /// Hand-written C appended after the generated declarations (inline functions and
    /// function-like macros), in the project's own words; absent file: nothing appended.
    fragment: &'static str,
    /// Hand-written C inserted before the first `#include` (what must be decided before the
    /// included headers are read); absent file: nothing inserted.
    prelude: &'static str,
    /// The generated declarations use GNU C layouts on purpose (the kernel ABI's zero-length and
    /// nested flexible arrays): `-Wpedantic` is silenced around them, and only them.
    gnu_layouts: bool,
}

/// The generated headers. The kernel uapi (`src/abi/uapi`) is not emitted: the headers include
/// linux-libc-dev's `<rdma/*.h>`, and the Rust mirrors serve only the library.
const HEADERS: [Header; 3] = [
    Header {
        file: "include/infiniband/verbs.h",
        guard: "INFINIBAND_VERBS_H",
        includes: &[
            "stdint.h",
            "pthread.h",
            "stddef.h",
            "errno.h",
            "string.h",
            "linux/types.h",
            "linux/if_ether.h",
            "sys/types.h",
            "infiniband/verbs_api.h",
        ],
        abi_dirs: &["verbs"],
        fns: Fns::Public,
        fragment: "include/fragments/verbs-inline.h",
        prelude: "include/fragments/verbs-prelude.h",
        gnu_layouts: false,
    },
    Header {
        file: "include/infiniband/kern-abi.h",
        guard: "INFINIBAND_KERN_ABI_H",
        includes: &[
            "stdint.h",
            "stddef.h",
            "linux/types.h",
            "rdma/ib_user_verbs.h",
            "rdma/rdma_user_ioctl_cmds.h",
        ],
        abi_dirs: &["kern_abi"],
        fns: Fns::None,
        fragment: "include/fragments/kern-abi-inline.h",
        prelude: "",
        gnu_layouts: true,
    },
    Header {
        file: "include/infiniband/driver.h",
        guard: "INFINIBAND_DRIVER_H",
        includes: &[
            "stdbool.h",
            "stdint.h",
            "sys/types.h",
            "infiniband/verbs.h",
            "infiniband/kern-abi.h",
            "rdma/rdma_user_ioctl_cmds.h",
            "rdma/ib_user_ioctl_verbs.h",
        ],
        abi_dirs: &["driver"],
        fns: Fns::Private,
        fragment: "include/fragments/driver-inline.h",
        prelude: "include/fragments/driver-prelude.h",
        gnu_layouts: true,
    },
];

/// Types whose layout depends on the provider ABI a C translation unit builds for
/// (`IBVERBS_PABI_VERSION`, see include/fragments/driver-prelude.h): C has one name for each,
/// Rust one type per ABI. (Rust type, C name, emitted): an emitted type is written under its C
/// name; one not emitted is only renamed where used, its C definition being another (verbs.h's
/// `verbs_context` and `ibv_qp_ex`, whose `pabi: N` members an older provider ABI's build leaves
/// out: `pabi_members`; driver.h's `verbs_context_ops` is emitted the same way).
const PABI_TYPES: &[(&str, &str, bool)] = &[
    ("verbs_context_pabi34", "verbs_context", false),
    ("ibv_qp_ex_pabi34", "ibv_qp_ex", false),
];

/// Constants a prelude defines instead (driver.h's `IBVERBS_PABI_VERSION` is the provider's
/// choice, 34 unless it says otherwise).
const PRELUDE_CONSTS: &[&str] = &["IBVERBS_PABI_VERSION"];

/// Definitions another header may already have made: (type, that header's include guard).
/// rdma-core's in-tree providers get ccan's `struct list_node` (same layout) through driver.h;
/// driver-prelude.h includes ccan's list.h when it is on the include path.
const GUARDED_DEFINITIONS: &[(&str, &str)] = &[("list_node", "CCAN_LIST_H")];

/// Types of src/abi/ctype.rs that stand for a C spelling: `CEnum<E>` is `enum E`, `BeN` is
/// `__beN` (see `spell_c_types`); never emitted, never given a tag.
const C_SPELLINGS: &[&str] = &["CEnum", "Be16", "Be32", "Be64", "CAtomicInt"];

/// Rust files whose items the generator leaves out: spelled by a hand-written header
/// (verbs_api.rs) or fragment (fragment.rs), or declared but not defined in C (opaque.rs: only
/// forward-declared).
const NOT_EMITTED: &[&str] = &[
    "src/abi/verbs/verbs_api.rs",
    "src/abi/verbs/opaque.rs",
    "src/abi/driver/fragment.rs",
];

/// The installed headers written by hand, each with the reason in its own opening comment: they
/// are spellings of kernel names, wire formats the library never touches, or obsolete remnants,
/// with no Rust type to generate them from. abi-tests checks their names, values and layouts
/// against rdma-core v65 (abi-tests/values/, abi-tests/layouts/sa-tm-v65.tsv).
const HAND_WRITTEN: &[&str] = &[
    "include/infiniband/verbs_api.h",
    "include/infiniband/ib_user_ioctl_verbs.h",
    "include/infiniband/sa.h",
    "include/infiniband/sa-kern-abi.h",
    "include/infiniband/opcode.h",
    "include/infiniband/arch.h",
    "include/infiniband/tm_types.h",
];

fn owns_abi_file(h: &Header, abi_root: &Path, f: &Path) -> bool {
    let rel = f.strip_prefix(abi_root).unwrap_or(f);
    let first = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    let first = first.unwrap_or_default();
    let stem = first.trim_end_matches(".rs");
    h.abi_dirs.contains(&stem)
}

/// Find the body of a top-level `struct|union NAME {` … `};` block.
fn find_block<'a>(lines: &'a [String], name: &str) -> Option<(usize, usize, &'a str)> {
    for (i, l) in lines.iter().enumerate() {
        for kw in ["struct", "union"] {
            if *l == format!("{kw} {name} {{") {
                let end = (i..lines.len()).find(|&j| lines[j] == "};")?;
                return Some((i, end, kw));
            }
        }
    }
    None
}

/// Inline `anon_N` members and drop the standalone `<parent>_anon_N` definitions.
fn inline_anonymous(text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut inlined_types = BTreeSet::new();
    loop {
        let hit = lines.iter().enumerate().find_map(|(i, l)| {
            let t = l.trim_start();
            let indent = l.len() - t.len();
            let mut parts = t.trim_end_matches(';').split_whitespace();
            let (kw, ty, field) = (parts.next()?, parts.next()?, parts.next()?);
            let ok = (kw == "struct" || kw == "union")
                && field.starts_with("anon_")
                && ty.ends_with(field)
                && indent > 0;
            ok.then(|| (i, indent, ty.to_string()))
        });
        let Some((i, indent, ty)) = hit else { break };
        let (start, end, kw) = find_block(&lines, &ty).expect("anonymous member type is defined");
        let pad = " ".repeat(indent);
        let mut inlined = vec![format!("{pad}{kw} {{")];
        inlined.extend(lines[start + 1..end].iter().map(|b| format!("{pad}{b}")));
        inlined.push(format!("{pad}}};"));
        lines.splice(i..=i, inlined);
        inlined_types.insert(ty);
    }
    // Drop the now-unused definitions (and the doc comment and blank line before each); a named
    // member's type (`ibv_send_wr_anon_2_bind_mw`) was not inlined and stays.
    loop {
        let def = lines.iter().position(|l| {
            let mut p = l.split_whitespace();
            matches!(p.next(), Some("struct" | "union"))
                && p.next().is_some_and(|n| inlined_types.contains(n))
                && p.next() == Some("{")
        });
        let Some(start) = def else { break };
        let end = (start..lines.len())
            .find(|&j| lines[j] == "};")
            .expect("block end");
        let mut first = start;
        while first > 0 && lines[first - 1].starts_with("//") {
            first -= 1;
        }
        let last = if lines.get(end + 1).is_some_and(|l| l.is_empty()) {
            end + 1
        } else {
            end
        };
        lines.drain(first..=last);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// cbindgen orders types by dependencies without telling a pointer from a value, so a cycle
/// through pointers (`ibv_device` holds `_ibv_device_ops` whose callbacks take `ibv_device *`) can
/// put a struct before what it holds by value. Re-order: constants and enums first, then structs
/// and unions so that every by-value member's type comes earlier (stable otherwise), and declare
/// every tag up front so pointer uses (also inside callback parameter lists) name the same type.
fn order_definitions(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let is_def = |l: &str| {
        let mut p = l.split_whitespace();
        matches!(p.next(), Some("struct" | "union" | "enum")) && p.nth(1) == Some("{")
    };
    let Some(first) = lines
        .iter()
        .position(|l| is_def(l) || l.starts_with("#define "))
    else {
        return text.to_string();
    };
    // Skip the include guard's own #define.
    let first = if lines[first].starts_with("#define INFINIBAND_") {
        first + 1
    } else {
        first
    };
    // Up to the extern "C" block, or the include guard's #endif (the exports are declared after).
    let end = lines
        .iter()
        .position(|l| *l == "#ifdef __cplusplus")
        .or_else(|| lines.iter().rposition(|l| l.starts_with("#endif")))
        .unwrap_or(lines.len());
    // Chunks: leading comment lines + one definition block or one #define line.
    struct Chunk {
        text: Vec<String>,
        name: Option<String>,
        kind: &'static str,
        deps: BTreeSet<String>,
    }
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    let mut i = first;
    while i < end {
        let l = lines[i];
        if l.trim().is_empty() {
            i += 1;
            continue;
        }
        if l.starts_with("//") || l.starts_with("/*") {
            pending.push(l.to_string());
            i += 1;
            continue;
        }
        let mut text = std::mem::take(&mut pending);
        if is_def(l) {
            let stop = (i..end).find(|&j| lines[j] == "};").unwrap_or(end - 1);
            let mut p = l.split_whitespace();
            let kw = p.next().unwrap_or("");
            let name = p.next().unwrap_or("").to_string();
            let mut deps = BTreeSet::new();
            for body in &lines[i + 1..stop] {
                let t = body.trim_start();
                let mut w = t.split_whitespace();
                if let (Some("struct" | "union"), Some(ty), Some(field)) =
                    (w.next(), w.next(), w.next())
                {
                    if !field.starts_with('*') && !ty.ends_with('*') && ty != "{" {
                        deps.insert(ty.to_string());
                    }
                }
            }
            text.extend(lines[i..=stop].iter().map(|s| s.to_string()));
            let kind = match kw {
                "enum" => "enum",
                "union" => "union",
                _ => "struct",
            };
            chunks.push(Chunk {
                text,
                name: Some(name),
                kind,
                deps,
            });
            i = stop + 1;
        } else {
            text.push(l.to_string());
            chunks.push(Chunk {
                text,
                name: None,
                kind: "other",
                deps: BTreeSet::new(),
            });
            i += 1;
        }
    }
    let mut out: Vec<String> = lines[..first].iter().map(|s| s.to_string()).collect();
    let mut tags: Vec<String> = Vec::new();
    for c in &chunks {
        if let (Some(n), "struct" | "union") = (&c.name, c.kind) {
            tags.push(format!("{} {};", c.kind, n));
        }
    }
    let emit = |out: &mut Vec<String>, c: &Chunk| {
        out.extend(c.text.iter().cloned());
        out.push(String::new());
    };
    for c in chunks
        .iter()
        .filter(|c| c.kind == "other" || c.kind == "enum")
    {
        emit(&mut out, c);
    }
    out.extend(tags);
    out.push(String::new());
    let defined: BTreeSet<String> = chunks.iter().filter_map(|c| c.name.clone()).collect();
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut left: Vec<&Chunk> = chunks
        .iter()
        .filter(|c| c.kind == "struct" || c.kind == "union")
        .collect();
    while !left.is_empty() {
        let ready = left
            .iter()
            .position(|c| {
                c.deps
                    .iter()
                    .all(|d| done.contains(d) || !defined.contains(d))
            })
            .unwrap_or(0); // a by-value cycle cannot compile anyway; keep going
        let c = left.remove(ready);
        if let Some(n) = &c.name {
            done.insert(n.clone());
        }
        emit(&mut out, c);
    }
    out.extend(lines[end..].iter().map(|s| s.to_string()));
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// A Rust `bitfield_N` storage field documented `bitfield: a:1, b:2` becomes C bitfields.
fn expand_bitfields(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut spec: Option<String> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(s) = t.strip_prefix("// bitfield:") {
            spec = Some(s.trim().to_string());
            continue;
        }
        if let Some(s) = spec.take() {
            let indent = &line[..line.len() - t.len()];
            let ty = t.split_whitespace().next().unwrap_or("unsigned");
            if t.contains(" bitfield_") {
                for part in s.split(',') {
                    out.push(format!("{indent}{ty} {};", part.trim()));
                }
                continue;
            }
            out.push(format!("{indent}// bitfield: {s}"));
        }
        out.push(line.to_string());
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}

fn generate(root: &Path, h: &Header, decls: &[Decl]) -> String {
    let abi_root = root.join("src/abi");
    let mut abi_files = Vec::new();
    rust_files(&abi_root, &mut abi_files);
    let mut all_files = Vec::new();
    rust_files(&root.join("src"), &mut all_files);

    let mut own = Items::default();
    let mut all = Items::default();
    for f in &all_files {
        scan(f, &mut all);
        let hand_spelled = NOT_EMITTED.iter().any(|n| f.ends_with(n));
        if f.starts_with(&abi_root) && owns_abi_file(h, &abi_root, f) && !hand_spelled {
            scan(f, &mut own);
        }
    }
    for (rust, _, emitted) in PABI_TYPES {
        if !emitted {
            own.types.remove(*rust);
        }
    }
    for c in PRELUDE_CONSTS {
        own.consts.remove(*c);
    }

    let mut config =
        cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    config.include_guard = Some(h.guard.to_string());
    config.sys_includes = h.includes.iter().map(|s| s.to_string()).collect();
    config.export.include = own.types.iter().cloned().collect();
    config.export.exclude = all
        .types
        .iter()
        .chain(&all.consts)
        .chain(&all.fns)
        .filter(|n| !own.types.contains(*n) && !own.consts.contains(*n) && !own.fns.contains(*n))
        .cloned()
        .collect();
    // cbindgen writes an excluded (foreign) type by its bare name; give it its C tag. (The
    // exports are declarations cbindgen does not see: no rename can hit a function.)
    for (name, tag) in &all.tags {
        if own.types.contains(name) || C_SPELLINGS.contains(&name.as_str()) {
            continue;
        }
        config
            .export
            .rename
            .insert(name.clone(), format!("{tag} {name}"));
    }
    config
        .export
        .rename
        .insert("timespec".to_string(), "struct timespec".to_string());
    let foreign_fns: BTreeSet<String> = all.fns.iter().cloned().collect();

    let mut buf = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/lib.rs"))
        .generate()
        .expect("cbindgen")
        .write(&mut buf);
    let text = String::from_utf8(buf).expect("utf-8 header");
    let text = PABI_TYPES
        .iter()
        .fold(text, |t, (rust, c, _)| rename_ident(&t, rust, c));
    let text = order_definitions(&inline_anonymous(&text));
    let text = spell_c_types(&text);
    let text = drop_fn_declarations(&expand_bitfields(&text), &foreign_fns);
    let text = match h.fns {
        Fns::Public => declare_exports(&text, &public_declarations(decls)),
        Fns::Private => declare_exports(&text, &private_declarations(decls)),
        Fns::None => text,
    };
    let text = squeeze_blank_lines(&forward_declare_tags(&text));
    let text = if h.gnu_layouts {
        exempt_from_pedantic(&flexible_arrays(&text), h.guard)
    } else {
        text
    };
    let generated = if h.file.ends_with("/verbs.h") {
        forwarders(&text)
    } else if h.file.ends_with("/kern-abi.h") {
        kern_cmd_typedefs(root)
    } else {
        String::new()
    };
    let text = guard_definitions(&spell_atomic_int(&pabi_members(&text)));
    let text = insert_prelude(&text, &root.join(h.prelude));
    let text = abi_facts(&text);
    append_fragment(&text, &root.join(h.fragment), &generated, h.guard)
}

/// `CEnum_<E>` (cbindgen's name for `CEnum<E>`, a typedef of `uint32_t`) becomes `enum <E>`, and
/// `Be16`/`Be32`/`Be64` become `__be16`/`__be32`/`__be64` (from <linux/types.h>); their typedefs go.
fn spell_c_types(text: &str) -> String {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("typedef ")
            && (t.contains(" CEnum_")
                || ["Be16;", "Be32;", "Be64;"]
                    .iter()
                    .any(|b| t.trim_end().ends_with(b)))
        {
            // and its doc comment, already written
            while let Some(last) = out
                .strip_suffix('\n')
                .map(|o| o.rsplit('\n').next().unwrap_or(o))
            {
                if !last.starts_with("//") {
                    break;
                }
                out.truncate(out.len() - last.len() - 1);
            }
            continue;
        }
        let mut l = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(pos) = rest.find(['C', 'B']) {
            let (head, tail) = rest.split_at(pos);
            l.push_str(head);
            let word_start = !l.ends_with(is_ident);
            if word_start && tail.starts_with("CEnum_") {
                l.push_str("enum ");
                rest = &tail["CEnum_".len()..];
                continue;
            }
            let be = ["Be16", "Be32", "Be64"]
                .iter()
                .find(|b| tail.starts_with(**b));
            if let (true, Some(b)) = (word_start, be) {
                if !tail[b.len()..].starts_with(is_ident) {
                    l.push_str("__be");
                    l.push_str(&b[2..]);
                    rest = &tail[b.len()..];
                    continue;
                }
            }
            l.push_str(&tail[..1]);
            rest = &tail[1..];
        }
        l.push_str(rest);
        out.push_str(&l);
    }
    out
}

/// In the kernel command layouts a Rust `[T; 0]` is C's flexible array member `T x[]`, as
/// rdma-core declares them, unless its doc says `zero-length array` (the one `[0]` rdma-core has).
fn flexible_arrays(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut zero_length = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("// zero-length array") {
            zero_length = true;
        } else if !t.starts_with("//") {
            if !zero_length && t.ends_with("[0];") && !t.starts_with('#') {
                out.push(line.replace("[0];", "[];"));
                continue;
            }
            zero_length = false;
        }
        out.push(line.to_string());
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// Silence `-Wpedantic` from after the last `#include` to the end of the generated part: the
/// kernel command layouts nest structs that end in flexible arrays and use zero-length arrays
/// (GNU C, as the kernel's and rdma-core's own headers do). Everything else still warns.
fn exempt_from_pedantic(text: &str, guard: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let close = format!("#endif  /* {guard} */");
    let end = lines
        .iter()
        .rposition(|l| *l == close)
        .expect("closing guard");
    lines.insert(end, "#pragma GCC diagnostic pop".to_string());
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("#include"))
        .expect("an #include")
        + 1;
    let push = [
        "",
        "// The kernel command layouts below are GNU C (zero-length arrays, structs ending in a",
        "// flexible array nested in others), as in the kernel's headers: no -Wpedantic for them.",
        "#pragma GCC diagnostic push",
        "#pragma GCC diagnostic ignored \"-Wpedantic\"",
    ];
    lines.splice(at..at, push.iter().map(|s| s.to_string()));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// `from` as a whole identifier becomes `to`.
fn rename_ident(text: &str, from: &str, to: &str) -> String {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find(from) {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + from.len()..];
        let whole = !out.ends_with(is_ident) && !after.starts_with(is_ident);
        out.push_str(if whole { to } else { from });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A member documented `pabi: N` exists in the layouts of provider ABI N and later only: it is
/// wrapped in `#if IBV_PABI_LAYOUT >= N`, which verbs-prelude.h defines (the newest ABI, unless a
/// provider build
/// asked for rdma-core v44's layouts); consecutive ones share one `#if`, which replaces the marker.
fn pabi_members(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut open: Option<u32> = None;
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if let Some(n) = pabi_mark(t) {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim_end().ends_with(';'))
                .expect("member");
            if open == Some(n) && out.last().is_some_and(|l| l == "#endif") {
                out.pop();
            } else {
                out.push(format!("#if IBV_PABI_LAYOUT >= {n}  /* {} */", since(n)));
            }
            out.extend(lines[i + 1..=end].iter().map(|l| l.to_string()));
            out.push("#endif".to_string());
            open = Some(n);
            i = end + 1;
        } else {
            out.push(lines[i].to_string());
            open = None;
            i += 1;
        }
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// Who has a member marked `pabi: N`, in words: the ABIs from N on, or for rdma-core v62/v63's
/// layout of ABI 59 (62, `pabi::LAYOUT_V62`) those releases and the ABIs after.
fn since(n: u32) -> String {
    use ibverbs::abi::driver::pabi::{LAYOUT_V35, LAYOUT_V62, OLDEST};
    if n == LAYOUT_V62 {
        "rdma-core v62/v63's layout of provider ABI 59, provider ABI 64 on".to_string()
    } else if n == LAYOUT_V35 {
        "rdma-core v35's layout of provider ABI 34 on".to_string()
    } else if n == OLDEST {
        "rdma-core v36's layout of provider ABI 34 on".to_string()
    } else {
        format!("provider ABI {n} on")
    }
}

/// The provider ABI of a `pabi: N` mark (a member later provider ABIs have), if `line` is one.
fn pabi_mark(line: &str) -> Option<u32> {
    let n = line.strip_prefix("// pabi: ")?;
    n.split_whitespace().next()?.parse().ok()
}

/// `CAtomicInt` (src/abi/ctype.rs) is C's `atomic_int` (driver-prelude.h includes
/// `<stdatomic.h>` for C); C++ before C++23 has no `<stdatomic.h>` and sees the `int` of the
/// same layout. Its typedef goes.
fn spell_atomic_int(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("typedef ") && t.trim_end().ends_with(" CAtomicInt;") {
            continue;
        }
        if let Some(rest) = t.strip_prefix("CAtomicInt ") {
            let indent = &line[..line.len() - t.len()];
            out.push_str(&format!(
                "#ifdef __cplusplus\n{indent}int {rest}#else\n{indent}atomic_int {rest}#endif\n"
            ));
            continue;
        }
        out.push_str(line);
    }
    out
}

/// Each [`GUARDED_DEFINITIONS`] type's definition (with its comment) is made only when the other
/// header's include guard is not defined.
fn guard_definitions(text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (name, guard) in GUARDED_DEFINITIONS {
        let Some((start, end, _)) = find_block(&lines, name) else {
            continue;
        };
        let mut first = start;
        while first > 0 && lines[first - 1].starts_with("//") {
            first -= 1;
        }
        lines.insert(end + 1, "#endif".to_string());
        lines.insert(first, format!("#ifndef {guard}"));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The header's prelude goes before its first `#include`.
fn insert_prelude(text: &str, prelude: &Path) -> String {
    let pre = std::fs::read_to_string(prelude).unwrap_or_default();
    if pre.is_empty() {
        return text.to_string();
    }
    let at = text.find("\n#include").map_or(text.len(), |p| p + 1);
    format!("{}{}\n\n{}", &text[..at], pre.trim_end(), &text[at..])
}

/// rdma-core's kern-abi.h names, for each write command, the command struct, the kernel's
/// request and response structs and the command's size unit, by the command's number:
/// `IBV_ABI_REQ(IB_USER_VERBS_CMD_X)` and so on (kern-abi-inline.h). Generated from the
/// `impl KernCmd` blocks of src/abi/kern_abi.
fn kern_cmd_typedefs(root: &Path) -> String {
    let mut files = Vec::new();
    rust_files(&root.join("src/abi/kern_abi"), &mut files);
    files.sort();
    let mut out = String::from(
        "/* Per write command, by its number: the command struct, the kernel's request and response\n \
         * structs, and the unit its size is counted in (generated by tests/headers.rs from the\n \
         * KernCmd impls of src/abi/kern_abi). */\n",
    );
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read kern_abi source");
        let mut rest = text.as_str();
        while let Some(pos) = rest.find("impl KernCmd for ") {
            let block = &rest[pos..];
            let end = block.find("\n}").expect("impl block end");
            let body = &block[..end];
            let field = |key: &str| -> String {
                let at = body.find(key).unwrap_or_else(|| panic!("{key} in {body}"));
                let v = &body[at + key.len()..];
                v[..v.find(';').expect(";")].trim().to_string()
            };
            let cmd_struct = ident_after(body, "impl KernCmd for ")
                .expect("type")
                .to_string();
            let cmd = field("const CMD: u32 =");
            let extended = field("const EXTENDED: bool =") == "true";
            let (req, resp) = (field("type Req ="), field("type Resp ="));
            out.push_str(&format!(
                "typedef struct {cmd_struct} _ABI_REQ_STRUCT_{cmd};\n\
                 typedef struct {req} _KABI_REQ_STRUCT_{cmd};\n\
                 typedef struct {resp} _KABI_RESP_STRUCT_{cmd};\n\
                 enum {{ _ABI_ALIGN_{cmd} = {} }};\n",
                if extended { 8 } else { 4 }
            ));
            rest = &block[end..];
        }
    }
    out
}

/// Insert the header's hand-written fragment, then `generated`, just before the include guard's
/// closing `#endif`.
fn append_fragment(text: &str, fragment: &Path, generated: &str, guard: &str) -> String {
    let frag = std::fs::read_to_string(fragment).unwrap_or_default();
    if frag.is_empty() && generated.is_empty() {
        return text.to_string();
    }
    let close = format!("#endif  /* {guard} */");
    let Some(at) = text.rfind(&close) else {
        panic!("no closing guard {close}")
    };
    format!(
        "{}{}\n\n{}\n{}",
        &text[..at],
        frag.trim_end(),
        generated.trim_end(),
        &text[at..]
    )
    .replace("\n\n\n", "\n\n")
}

/// The extended objects whose function-pointer members verbs.h wraps one for one: the struct,
/// the name its wrappers give the object, and each member's wrapper name.
/// (struct, member prefix, how a member's forwarder is named).
type Forwarded = (&'static str, &'static str, fn(&str) -> String);
const FORWARDED: &[Forwarded] = &[
    // wr_send -> ibv_wr_send, ...
    ("ibv_qp_ex", "qp", |m| format!("ibv_{m}")),
    // start_poll -> ibv_start_poll, read_byte_len -> ibv_wc_read_byte_len, ...
    ("ibv_cq_ex", "cq", |m| match m.strip_prefix("read_") {
        Some(_) => format!("ibv_wc_{m}"),
        None => format!("ibv_{m}"),
    }),
];

/// rdma-core's spelling of a wrapper's type where our member's type is only layout-equal to it:
/// (member, parameter name or "" for the return type, type). An enum return is cast.
const PUBLIC_TYPES: &[(&str, &str, &str)] = &[
    ("read_opcode", "", "enum ibv_wc_opcode"),
    ("read_imm_data", "", "__be32"),
    ("wr_rdma_write_imm", "imm_data", "__be32"),
    ("wr_send_imm", "imm_data", "__be32"),
];

/// One `static inline` per function-pointer member of the [`FORWARDED`] structs, calling the
/// member of the object it is given with the same arguments: the verbs of the extended QP and CQ
/// (`ibv_wr_*`, `ibv_start_poll`, `ibv_wc_read_*`, ...), generated so that a member added on the
/// Rust side gets its verb.
fn forwarders(header: &str) -> String {
    let lines: Vec<String> = header.lines().map(str::to_string).collect();
    let mut out = String::from(
        "/* The verbs of the extended QP and CQ: each calls the object's member of the same name\n \
         * (generated by tests/headers.rs from struct ibv_qp_ex and struct ibv_cq_ex). */\n",
    );
    for (ty, obj, name_of) in FORWARDED {
        let (start, end, _) =
            find_block(&lines, ty).unwrap_or_else(|| panic!("struct {ty} is defined"));
        // Members of later provider ABIs' layouts only (`pabi_members`): so are their verbs.
        let mut pabi_of = BTreeMap::new();
        for (i, l) in lines[start + 1..end].iter().enumerate() {
            if let Some(n) = pabi_mark(l.trim_start()) {
                let next = lines[start + 2 + i..end]
                    .iter()
                    .find(|m| !m.trim_start().starts_with("//"));
                let name = next
                    .and_then(|m| m.split("(*").nth(1))
                    .and_then(|m| m.split(')').next());
                pabi_of.insert(
                    name.expect("a function-pointer member after `pabi: N`")
                        .to_string(),
                    n,
                );
            }
        }
        let body: String = lines[start + 1..end]
            .iter()
            .filter(|l| !l.trim_start().starts_with("//"))
            .map(|l| format!("{} ", l.trim()))
            .collect();
        for member in body.split(';').map(str::trim).filter(|m| m.contains("(*")) {
            let (ret, rest) = member.split_once("(*").expect("function pointer");
            let (field, params) = rest.split_once(")(").expect("member name");
            let params = params.strip_suffix(')').expect("parameter list");
            let public = |param: &str, ours: &str| {
                PUBLIC_TYPES
                    .iter()
                    .find(|(m, p, _)| *m == field && *p == param)
                    .map_or(ours.to_string(), |(_, _, t)| t.to_string())
            };
            let ret = ret.trim();
            let public_ret = public("", ret);
            let mut decl = Vec::new();
            let mut args = Vec::new();
            for (i, p) in params.split(',').map(str::trim).enumerate() {
                let cut = p
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .map_or(0, |c| c + 1);
                let (pty, pname) = (p[..cut].trim_end(), &p[cut..]);
                assert!(
                    !pname.is_empty() && !pty.is_empty(),
                    "{ty}.{field}: unnamed parameter {p:?}"
                );
                if i == 0 {
                    assert_eq!(
                        pty,
                        format!("struct {ty} *"),
                        "{ty}.{field} takes the object first"
                    );
                    decl.push(format!("struct {ty} *{obj}"));
                    args.push(obj.to_string());
                } else {
                    let t = public(pname, pty);
                    let sep = if t.ends_with('*') { "" } else { " " };
                    decl.push(format!("{t}{sep}{pname}"));
                    args.push(pname.to_string());
                }
            }
            let call = format!("{obj}->{field}({})", args.join(", "));
            let stmt = match (ret, public_ret.as_str()) {
                ("void", _) => format!("{call};"),
                (ours, theirs) if ours != theirs && theirs.starts_with("enum ") => {
                    format!("return ({theirs}){call};")
                }
                _ => format!("return {call};"),
            };
            let sep = if public_ret.ends_with('*') { "" } else { " " };
            let head = format!("static inline {public_ret}{sep}{}(", name_of(field));
            // One line if it fits in 100 columns, else one parameter a line under the first.
            let one_line = format!("{head}{})", decl.join(", "));
            let params = if one_line.len() <= 100 {
                one_line
            } else {
                format!(
                    "{head}{})",
                    decl.join(&format!(",\n{}", " ".repeat(head.len())))
                )
            };
            let (open, close) = match pabi_of.get(field) {
                Some(n) => (
                    format!(
                        "#if IBV_PABI_LAYOUT >= {n}  /* its member: {} */\n",
                        since(*n)
                    ),
                    "#endif\n",
                ),
                None => (String::new(), ""),
            };
            out.push_str(&format!("\n{open}{params}\n{{\n\t{stmt}\n}}\n{close}"));
        }
    }
    out
}

/// Remove the declarations (and their doc comments) of functions the other header owns.
///
/// cbindgen's exclusion is by name, so a function named like one of this header's types
/// (`ibv_create_comp_channel` and kern-abi.h's `struct ibv_create_comp_channel`) slips through.
fn drop_fn_declarations(text: &str, names: &BTreeSet<String>) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let declares = |l: &str| {
        let Some(paren) = l.find('(') else {
            return false;
        };
        let head = &l[..paren];
        let name = head.rsplit([' ', '*']).next().unwrap_or(head);
        let top_level = !l.starts_with([' ', '/', '#', '}']) && !head.contains('=');
        top_level && names.contains(name)
    };
    let mut keep = vec![true; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        if declares(lines[i]) {
            let end = (i..lines.len())
                .find(|&j| lines[j].trim_end().ends_with(");"))
                .unwrap_or(i);
            let mut first = i;
            while first > 0 && lines[first - 1].starts_with("//") {
                first -= 1;
            }
            keep[first..=end].iter_mut().for_each(|k| *k = false);
            i = end + 1;
        } else {
            i += 1;
        }
    }
    let mut out: String = lines
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(l, _)| format!("{l}\n"))
        .collect();
    if out.is_empty() {
        out.push('\n');
    }
    out
}

/// Declare up front every struct/union tag the header refers to before defining it, or not at all
/// (the other header's types, say `struct ib_uverbs_ah_attr` in a verbs.h prototype), so that no
/// prototype declares a tag of its own scope. A tag the included header defines is merely
/// declared again: harmless.
fn forward_declare_tags(text: &str) -> String {
    let mut defined = BTreeSet::new();
    let mut used = BTreeSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let words: Vec<&str> = line
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '{'))
            .filter(|w| !w.is_empty())
            .collect();
        for w in words.windows(2) {
            if w[0] == "struct" || w[0] == "union" {
                let name = w[1].trim_end_matches('{');
                if name.is_empty() {
                    continue;
                }
                if line.starts_with(&format!("{} {name} {{", w[0])) {
                    defined.insert(name.to_string());
                } else if !defined.contains(name) {
                    used.insert((w[0], name.to_string()));
                }
            }
        }
    }
    let decls: Vec<String> = used.iter().map(|(kw, n)| format!("{kw} {n};\n")).collect();
    if decls.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let lines: Vec<&str> = text.lines().collect();
    let last_include = lines
        .iter()
        .rposition(|l| l.starts_with("#include"))
        .unwrap_or(0);
    for (i, line) in text.lines().enumerate() {
        out.push_str(line);
        out.push('\n');
        if i == last_include {
            out.push('\n');
            out.extend(decls.iter().cloned());
        }
    }
    out
}

/// Excluded items leave their separating blank lines behind: keep at most one in a row.
fn squeeze_blank_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines() {
        if line.trim().is_empty() {
            if !blank {
                out.push('\n');
            }
            blank = true;
        } else {
            out.push_str(line);
            out.push('\n');
            blank = false;
        }
    }
    out
}

/// One `#[export]` declaration of the C edge (src/capi; `#[export_c]` and `export_byte!` too): the
/// facts the headers declare a function (or data symbol) from. The declarations are the one source
/// of the exports' C prototypes and symbol versions (tools/symbols-map writes the version script
/// from the same ones).
#[derive(Clone, Debug)]
struct Decl {
    /// The C name: the function's own, or the one it is a twin of (`as NAME`).
    symbol: String,
    /// The function's own name is its C name (not a twin of another declaration's).
    own: bool,
    /// A public node (`"IBVERBS_1.x"`), or None for the provider-private nodes.
    public: Option<String>,
    /// The private nodes' provider ABIs: from, and up to (not including).
    from: u32,
    until: Option<u32>,
    /// One name per provider ABI (`"verbs_register_driver_{ABI}"`).
    per_abi: bool,
    /// The C prototype (or data declaration), without a trailing `;`.
    proto: String,
    /// The doc comment, each line without its `///`.
    doc: Vec<String>,
}

/// Every declaration under src/capi, read off the source: doc comment, `#[export(...)]`, then the
/// item's name.
fn declarations(root: &Path) -> Vec<Decl> {
    let mut files = Vec::new();
    rust_files(&root.join("src/capi"), &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read source");
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim();
            let Some(spec) = t
                .strip_prefix("#[export(")
                .or_else(|| t.strip_prefix("#[export_c("))
                .and_then(|r| r.strip_suffix(")]"))
            else {
                continue;
            };
            let mut first = i;
            while first > 0 && lines[first - 1].trim_start().starts_with("///") {
                first -= 1;
            }
            let doc: Vec<String> = lines[first..i]
                .iter()
                .map(|d| {
                    let d = d.trim_start().trim_start_matches("///");
                    d.strip_prefix(' ').unwrap_or(d).to_string()
                })
                .collect();
            let proto = doc
                .first()
                .and_then(|d| d.strip_prefix('`'))
                .and_then(|d| d.strip_suffix('`'))
                .unwrap_or_else(|| panic!("{}:{}: no C prototype in the doc", f.display(), i + 1))
                .trim_end_matches(';')
                .to_string();
            let item = lines[i + 1..]
                .iter()
                .map(|x| x.trim())
                .find(|x| !x.starts_with("#["))
                .expect("the declared item");
            let name = item.trim_start_matches("fn ");
            let name: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let (nodes, alias) = match spec.split_once(" as ") {
                Some((n, a)) => (n.trim(), Some(a.trim())),
                None => (spec.trim(), None),
            };
            let (public, from, until) = if let Some(p) = nodes.strip_prefix("PRIVATE ") {
                let (a, b) = p.split_once("..").expect("PRIVATE A..");
                (None, a.trim().parse().unwrap(), b.trim().parse().ok())
            } else {
                (Some(nodes.trim_matches('"').to_string()), 0, None)
            };
            let per_abi = alias.is_some_and(|a| a.starts_with('"'));
            let symbol = match alias {
                Some(a) => a.trim_matches('"').to_string(),
                None => name.clone(),
            };
            out.push(Decl {
                symbol,
                own: alias.is_none(),
                public,
                from,
                until,
                per_abi,
                proto,
                doc,
            });
        }
    }
    out
}

/// The provider-private functions rdma-core nevertheless declares in the public verbs.h.
const PRIVATE_IN_VERBS_H: &[&str] = &["ibv_wr_opcode_str"];

/// Private functions rdma-core does not declare in driver.h (its providers get them from the
/// internal dmabuf_heap.h): never declared here.
const NOT_IN_DRIVER_H: &str = "ibv_dmabuf_heap_";

/// verbs.h's: the default version of every public name, and [`PRIVATE_IN_VERBS_H`].
fn public_declarations(decls: &[Decl]) -> Vec<String> {
    let mut chosen: Vec<&Decl> = decls
        .iter()
        .filter(|d| {
            d.own && (d.public.is_some() || PRIVATE_IN_VERBS_H.contains(&d.symbol.as_str()))
        })
        .collect();
    chosen.sort_by(|a, b| a.symbol.cmp(&b.symbol));
    let mut out = Vec::new();
    for d in chosen {
        out.extend(declaration(d));
        out.push(String::new());
    }
    out
}

/// driver.h's: every private name, each prototype under the provider ABIs it is for
/// (`IBVERBS_PABI_VERSION`, which driver-prelude.h settles), and for a provider build of a later
/// ABI than the oldest a `.symver` binding each name it calls to its ABI's node, so that the
/// provider runs under rdma-core's library of that ABI as under ours.
fn private_declarations(decls: &[Decl]) -> Vec<String> {
    use ibverbs::abi::driver::pabi::{OLDEST, PROVIDER_ABIS};
    let mut by_name: BTreeMap<&str, Vec<&Decl>> = BTreeMap::new();
    for d in decls.iter().filter(|d| d.public.is_none() && !d.per_abi) {
        by_name.entry(d.symbol.as_str()).or_default().push(d);
    }
    let range = |d: &Decl| -> String {
        match (d.from > OLDEST, d.until) {
            (false, None) => String::new(),
            (false, Some(u)) => format!("IBVERBS_PABI_VERSION < {u}"),
            (true, None) => format!("IBVERBS_PABI_VERSION >= {}", d.from),
            (true, Some(u)) => {
                format!(
                    "IBVERBS_PABI_VERSION >= {} && IBVERBS_PABI_VERSION < {u}",
                    d.from
                )
            }
        }
    };
    let mut out = Vec::new();
    let mut symvers: Vec<(u32, &str)> = Vec::new();
    for (name, mut forms) in by_name {
        forms.sort_by_key(|d| d.from);
        symvers.push((forms[0].from, name));
        if PRIVATE_IN_VERBS_H.contains(&name) || name.starts_with(NOT_IN_DRIVER_H) {
            continue;
        }
        let conds: Vec<String> = forms.iter().map(|d| range(d)).collect();
        if conds.len() == 1 && conds[0].is_empty() {
            out.extend(declaration(forms[0]));
        } else {
            for (i, (d, c)) in forms.iter().zip(&conds).enumerate() {
                let kw = if i == 0 { "#if" } else { "#elif" };
                let abis: Vec<String> = PROVIDER_ABIS
                    .iter()
                    .filter(|&&n| n >= d.from && d.until.is_none_or(|u| n < u))
                    .map(u32::to_string)
                    .collect();
                let s = if abis.len() == 1 { "" } else { "s" };
                out.push(format!(
                    "{kw} {c}  /* {name}, provider ABI{s} {} */",
                    abis.join(", ")
                ));
                out.extend(declaration(d));
            }
            out.push("#endif".to_string());
        }
        out.push(String::new());
    }
    let newest = PROVIDER_ABIS[PROVIDER_ABIS.len() - 1];
    out.push(format!(
        "/* A provider built for a provider ABI after {OLDEST} binds its calls into the library to that\n * ABI's node, IBVERBS_PRIVATE_<IBVERBS_PABI_VERSION> ({OLDEST}'s names are that node's defaults). */"
    ));
    out.push(format!("#if IBVERBS_PABI_VERSION != {OLDEST}"));
    out.push("#define IBV_PABI_STR2_(x) #x".to_string());
    out.push("#define IBV_PABI_STR_(x) IBV_PABI_STR2_(x)".to_string());
    out.push(
        "#define IBV_PRIVATE_SYMVER_(name) \\\n\t__asm__(\".symver \" #name \", \" #name \"@IBVERBS_PRIVATE_\" IBV_PABI_STR_(IBVERBS_PABI_VERSION))"
            .to_string(),
    );
    symvers.sort();
    let mut open: Option<u32> = None;
    for (from, name) in symvers {
        if open != Some(from) {
            if open.is_some_and(|o| o > OLDEST) {
                out.push("#endif".to_string());
            }
            if from > OLDEST {
                out.push(format!("#if IBVERBS_PABI_VERSION >= {from}"));
            }
            open = Some(from);
        }
        out.push(format!("IBV_PRIVATE_SYMVER_({name});"));
    }
    if open.is_some_and(|o| o > OLDEST) {
        out.push("#endif".to_string());
    }
    out.push(format!(
        "#endif  /* IBVERBS_PABI_VERSION != {OLDEST} (up to {newest}) */"
    ));
    out.push(String::new());
    out
}

/// A declaration's doc comment and prototype, as cbindgen writes an export's: `//` lines, then
/// the prototype on one line, or one parameter a line under the first when longer than 100
/// columns.
fn declaration(d: &Decl) -> Vec<String> {
    let mut out: Vec<String> = d
        .doc
        .iter()
        .map(|l| format!("// {l}").trim_end().to_string())
        .collect();
    let proto = &d.proto;
    let Some((head, params)) = proto.split_once('(').filter(|_| proto.len() > 100) else {
        out.push(format!("{proto};"));
        return out;
    };
    let params: Vec<&str> = params.trim_end_matches(')').split(", ").collect();
    let pad = " ".repeat(head.len() + 1);
    out.push(format!("{head}({});", params.join(&format!(",\n{pad}"))));
    out
}

/// Insert declarations in an `extern "C"` block before the header's include guard closes (cbindgen
/// writes none: it sees no exported function, the exports being declarations of their own).
fn declare_exports(text: &str, decls: &[String]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("#endif"))
        .expect("the include guard's #endif");
    let mut block = vec![
        "#ifdef __cplusplus".to_string(),
        "extern \"C\" {".to_string(),
        "#endif  // __cplusplus".to_string(),
        String::new(),
    ];
    block.extend(decls.iter().cloned());
    block.extend([
        "#ifdef __cplusplus".to_string(),
        "}  // extern \"C\"".to_string(),
        "#endif  // __cplusplus".to_string(),
        String::new(),
    ]);
    lines.splice(at..at, block);
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The preludes' placeholders for the provider ABIs (`abi::driver::pabi::PROVIDER_ABIS`, the
/// library's one list): `@IBVERBS_NEWEST_PABI@`, and `@IBVERBS_PABI_NOT_KNOWN@`, a condition true
/// for any other value of `IBVERBS_PABI_VERSION`; `@IBVERBS_PABI_LIST@`, the list in words;
/// `@IBVERBS_LAYOUT_V62@` and `@IBVERBS_NODE_V62@`, rdma-core v62/v63's layout and its ABI;
/// `@IBVERBS_LAYOUT_NOT_KNOWN@`, a condition true for an `IBVERBS_PABI_LAYOUT` that is neither
/// the ABI's own nor one of its other layouts; `@IBVERBS_OTHER_LAYOUTS@`, those in words.
fn abi_facts(text: &str) -> String {
    use ibverbs::abi::driver::pabi::PROVIDER_ABIS;
    let newest = PROVIDER_ABIS[PROVIDER_ABIS.len() - 1].to_string();
    let unknown: Vec<String> = PROVIDER_ABIS
        .iter()
        .map(|n| format!("IBVERBS_PABI_VERSION != {n}"))
        .collect();
    let list: Vec<String> = PROVIDER_ABIS.iter().map(u32::to_string).collect();
    use ibverbs::abi::driver::pabi::{LAYOUT_V62, NODE_V62, OTHER_LAYOUTS};
    let mut layout_unknown = vec!["IBVERBS_PABI_LAYOUT != IBVERBS_PABI_VERSION".to_string()];
    let mut others = Vec::new();
    for (l, n) in OTHER_LAYOUTS {
        layout_unknown.push(format!(
            "!(IBVERBS_PABI_LAYOUT == {l} && IBVERBS_PABI_VERSION == {n})"
        ));
        others.push(format!("{l} with {n}"));
    }
    text.replace("@IBVERBS_NEWEST_PABI@", &newest)
        .replace(
            "@IBVERBS_LAYOUT_NOT_KNOWN@",
            &layout_unknown.join(" && \\\n\t"),
        )
        .replace("@IBVERBS_OTHER_LAYOUTS@", &others.join(", "))
        .replace("@IBVERBS_LAYOUT_V62@", &LAYOUT_V62.to_string())
        .replace("@IBVERBS_NODE_V62@", &NODE_V62.to_string())
        .replace("@IBVERBS_PABI_NOT_KNOWN@", &unknown.join(" && "))
        .replace("@IBVERBS_PABI_LIST@", &list.join(", "))
}

#[test]
fn headers_are_up_to_date() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let decls = declarations(root);
    let update = std::env::var_os("IBVERBS_UPDATE_HEADERS").is_some();
    let mut stale = Vec::new();
    for h in &HEADERS {
        let fresh = generate(root, h, &decls);
        let path = root.join(h.file);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != fresh {
            if update {
                std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir include");
                std::fs::write(&path, fresh).expect("write header");
            } else {
                stale.push(h.file);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated headers {stale:?}: run `make headers` and commit them"
    );
    // Every installed header is either generated above or written by hand, and listed.
    let mut known: BTreeSet<String> = HEADERS.iter().map(|h| h.file.to_string()).collect();
    known.extend(HAND_WRITTEN.iter().map(|f| f.to_string()));
    let mut present = BTreeSet::new();
    for e in std::fs::read_dir(root.join("include/infiniband"))
        .expect("include/infiniband")
        .flatten()
    {
        present.insert(format!(
            "include/infiniband/{}",
            e.file_name().to_string_lossy()
        ));
    }
    let unknown: Vec<_> = present.difference(&known).collect();
    let missing: Vec<_> = known.difference(&present).collect();
    assert!(
        unknown.is_empty(),
        "headers neither generated nor listed in HAND_WRITTEN: {unknown:?}"
    );
    assert!(
        missing.is_empty(),
        "headers missing from include/infiniband: {missing:?}"
    );
}
