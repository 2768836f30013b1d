//! A declaration's header comment: its doc, with each contract the doc links to written out.
//!
//! A contract is stated once, on the function that enforces it (mostly in src/verbs). The C edge's
//! doc then says `The C form of [`pd::cmd_dealloc`]: 0, or the positive errno.`: a link for
//! rustdoc, and the C convention. The header is what C users read, so there the link is replaced
//! by the linked function's doc (up to its first `# ` heading, without the leading
//! `` `ibv_name`: ``), and the rest of the sentence follows as its own paragraph. Every other
//! intra-doc link is written as the code it names.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The words that open a link to the contract.
const C_FORM: &str = "The C form of [`";

/// The header comment of the declaration whose doc is `doc`, in the capi source `file` (`text`).
pub(crate) fn render(root: &Path, file: &Path, text: &str, doc: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for para in paragraphs(doc) {
        if !out.is_empty() {
            out.push(String::new());
        }
        let joined = para.join(" ");
        let Some(rest) = joined.strip_prefix(C_FORM) else {
            out.extend(para.iter().map(|l| flatten(l)));
            continue;
        };
        let (path, after) = rest
            .split_once("`]")
            .unwrap_or_else(|| panic!("{}: an unclosed link in {joined:?}", file.display()));
        let contract = contract_of(root, file, text, path);
        let after = after.trim_start_matches([':', ';', ',', '.']).trim();
        for (k, p) in contract.iter().enumerate() {
            if k > 0 {
                out.push(String::new());
            }
            out.extend(wrap(p));
        }
        if !after.is_empty() {
            out.push(String::new());
            out.extend(wrap(&capitalize(&flatten(after))));
        }
    }
    out
}

/// Doc lines split at blank lines; the first line (the prototype) is a paragraph of its own.
fn paragraphs(doc: &[String]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut cur = Vec::new();
    for l in doc {
        if l.trim().is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(l.clone());
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `[`x`](path)` and `[`x`]` become `` `x` ``.
fn flatten(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find("[`") {
        let Some(j) = rest[i..].find("`]") else { break };
        let (code, mut tail) = (&rest[i + 1..i + j + 1], &rest[i + j + 2..]);
        let mut target = "";
        if tail.starts_with('(') {
            if let Some(k) = tail.find(')') {
                target = &tail[1..k];
                tail = &tail[k + 1..];
            }
        }
        let rust =
            code.contains("::") || (target.starts_with("crate::") && !code.starts_with("`ibv"));
        out.push_str(&rest[..i]);
        // A Rust item alone in parentheses (`([`cmd::pd::dealloc_pd`](...))`) says where the
        // Rust code is: nothing for a C reader, so the parenthesis goes.
        if rust && out.ends_with('(') && tail.starts_with(')') {
            out.pop();
            out.truncate(out.trim_end().len());
            tail = &tail[1..];
        } else {
            out.push_str(code);
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The linked function's contract: its doc's paragraphs up to a `# ` heading, links flattened,
/// the leading `` `ibv_name`: `` dropped and the first letter capitalized.
fn contract_of(root: &Path, file: &Path, text: &str, link: &str) -> Vec<String> {
    let full = resolve(text, link)
        .unwrap_or_else(|| panic!("{}: cannot resolve the link [`{link}`]", file.display()));
    let (module, name) = full.rsplit_once("::").expect("a path with a module");
    let src = source_of(root, module)
        .unwrap_or_else(|| panic!("{}: no source for module {module}", file.display()));
    let body = std::fs::read_to_string(&src).expect("read source");
    let doc =
        fn_doc(&body, name).unwrap_or_else(|| panic!("{}: no documented fn {name}", src.display()));
    let mut paras: Vec<String> = paragraphs(&doc)
        .into_iter()
        .take_while(|p| !p[0].starts_with("# "))
        .map(|p| flatten(&p.join(" ")))
        .collect();
    assert!(!paras.is_empty(), "{}: fn {name} has no doc", src.display());
    paras[0] = capitalize(strip_names(&paras[0]));
    paras
}

/// A link's path made absolute through the `use crate::...` imports of the file.
fn resolve(text: &str, link: &str) -> Option<String> {
    if link.starts_with("crate::") {
        return Some(link.to_string());
    }
    let (head, tail) = link.split_once("::")?;
    imports(text).get(head).map(|p| format!("{p}::{tail}"))
}

/// name -> path of every `use crate::...;` in the file (braces and `as` understood).
fn imports(text: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let mut stmt = String::new();
    for l in text.lines() {
        let t = l.trim();
        if stmt.is_empty() && !t.starts_with("use crate::") {
            continue;
        }
        stmt.push_str(t);
        if !t.ends_with(';') {
            continue;
        }
        let s = std::mem::take(&mut stmt);
        let s = s.trim_start_matches("use ").trim_end_matches(';');
        match s.split_once("::{") {
            Some((base, list)) => {
                for item in list.trim_end_matches('}').split(',') {
                    add_import(&mut map, base, item.trim());
                }
            }
            None => {
                let (base, item) = s.rsplit_once("::").unwrap_or(("", s));
                add_import(&mut map, base, item);
            }
        }
    }
    map
}

fn add_import(map: &mut BTreeMap<String, String>, base: &str, item: &str) {
    if item.is_empty() || item.contains('{') || item == "*" {
        return;
    }
    let (item, name) = item.split_once(" as ").unwrap_or((item, item));
    let path = if item == "self" {
        base.to_string()
    } else {
        format!("{base}::{item}")
    };
    let name = if name == "self" {
        base.rsplit("::").next().unwrap_or(base)
    } else {
        name
    };
    map.insert(name.trim().to_string(), path);
}

/// src/a/b.rs or src/a/b/mod.rs for `crate::a::b`.
fn source_of(root: &Path, module: &str) -> Option<PathBuf> {
    let rel = module.strip_prefix("crate::")?.replace("::", "/");
    [format!("src/{rel}.rs"), format!("src/{rel}/mod.rs")]
        .into_iter()
        .map(|p| root.join(p))
        .find(|p| p.exists())
}

/// The `///` lines above `fn name` (attributes skipped), without their `///`.
fn fn_doc(body: &str, name: &str) -> Option<Vec<String>> {
    let lines: Vec<&str> = body.lines().collect();
    let at = lines.iter().position(|l| {
        let t = l.trim_start();
        let t = t
            .strip_prefix("pub(crate) ")
            .or(t.strip_prefix("pub "))
            .unwrap_or(t);
        let t = t.strip_prefix("unsafe ").unwrap_or(t);
        t.strip_prefix("fn ").is_some_and(|r| {
            r.strip_prefix(name)
                .is_some_and(|r| r.starts_with('(') || r.starts_with('<'))
        })
    })?;
    let mut i = at;
    // Attributes, and plain comments, between the doc and the `fn`.
    while i > 0 && {
        let t = lines[i - 1].trim_start();
        t.starts_with("#[") || (t.starts_with("//") && !t.starts_with("///"))
    } {
        i -= 1;
    }
    let doc = doc_above(&lines, i);
    (!doc.is_empty()).then_some(doc)
}

/// The `///` lines directly above line `end`, each without its `///` (and one space).
pub(crate) fn doc_above(lines: &[&str], end: usize) -> Vec<String> {
    let mut first = end;
    while first > 0 && lines[first - 1].trim_start().starts_with("///") {
        first -= 1;
    }
    lines[first..end]
        .iter()
        .map(|d| {
            let d = d.trim_start().trim_start_matches("///");
            d.strip_prefix(' ').unwrap_or(d).to_string()
        })
        .collect()
}

/// Drops a leading list of C names and its colon: `` `ibv_a`, `ibv_b`: text `` -> `text`.
fn strip_names(p: &str) -> &str {
    let mut rest = p;
    loop {
        let Some(r) = rest.strip_prefix('`') else {
            return p;
        };
        let Some(end) = r.find('`') else { return p };
        if !r[..end]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return p;
        }
        rest = &r[end + 1..];
        if let Some(r) = rest.strip_prefix(": ") {
            return r;
        }
        rest = match [", and ", ", ", " and "]
            .iter()
            .find_map(|s| rest.strip_prefix(s))
        {
            Some(r) => r,
            None => return p,
        };
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A paragraph wrapped to 97 columns (100 with the header's `// `).
fn wrap(p: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for w in p.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + w.len() > 97 {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}
