//! Definitions in an order C accepts: anonymous members inlined, by-value members first, every
//! tag declared up front, functions the other header owns dropped.

use std::collections::BTreeSet;

/// Find the body of a top-level `struct|union NAME {` … `};` block.
pub(crate) fn find_block<'a>(lines: &'a [String], name: &str) -> Option<(usize, usize, &'a str)> {
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
pub(crate) fn inline_anonymous(text: &str) -> String {
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
pub(crate) fn order_definitions(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
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
    let chunks = chunks(&lines[..end], first);
    let mut out: Vec<String> = lines[..first].iter().map(|s| s.to_string()).collect();
    emit_ordered(&mut out, &chunks);
    out.extend(lines[end..].iter().map(|s| s.to_string()));
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// A line opening a `struct|union|enum NAME {` definition.
fn is_def(l: &str) -> bool {
    let mut p = l.split_whitespace();
    matches!(p.next(), Some("struct" | "union" | "enum")) && p.nth(1) == Some("{")
}

/// Leading comment lines + one definition block or one #define line.
struct Chunk {
    text: Vec<String>,
    name: Option<String>,
    kind: &'static str,
    deps: BTreeSet<String>,
}

/// The chunks of `lines` from `first`.
fn chunks(lines: &[&str], first: usize) -> Vec<Chunk> {
    let end = lines.len();
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
                deps: by_value(&lines[i + 1..stop]),
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
    chunks
}

/// The struct and union types a definition's body holds by value.
fn by_value(body: &[&str]) -> BTreeSet<String> {
    let mut deps = BTreeSet::new();
    for body in body {
        let t = body.trim_start();
        let mut w = t.split_whitespace();
        if let (Some("struct" | "union"), Some(ty), Some(field)) = (w.next(), w.next(), w.next()) {
            if !field.starts_with('*') && !ty.ends_with('*') && ty != "{" {
                deps.insert(ty.to_string());
            }
        }
    }
    deps
}

/// Constants and enums, the tags, then structs and unions each after what it holds by value.
fn emit_ordered(out: &mut Vec<String>, chunks: &[Chunk]) {
    let mut tags: Vec<String> = Vec::new();
    for c in chunks {
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
        emit(out, c);
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
        emit(out, c);
    }
}

/// Remove the declarations (and their doc comments) of functions the other header owns.
///
/// cbindgen's exclusion is by name, so a function named like one of this header's types
/// (`ibv_create_comp_channel` and kern-abi.h's `struct ibv_create_comp_channel`) slips through.
pub(crate) fn drop_fn_declarations(text: &str, names: &BTreeSet<String>) -> String {
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
pub(crate) fn forward_declare_tags(text: &str) -> String {
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
pub(crate) fn squeeze_blank_lines(text: &str) -> String {
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
