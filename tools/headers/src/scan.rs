//! What the Rust sources declare: the items cbindgen could emit, by file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::config::Header;

#[derive(Default)]
pub(crate) struct Items {
    pub(crate) types: BTreeSet<String>,
    /// The C tag keyword of each struct/union type (`struct`, `union`).
    pub(crate) tags: BTreeMap<String, &'static str>,
    pub(crate) consts: BTreeSet<String>,
    /// Exported functions and statics, by symbol name.
    pub(crate) fns: BTreeSet<String>,
}

pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
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

pub(crate) fn ident_after<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = line.trim_start().strip_prefix(prefix)?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// Every item a file declares that cbindgen could emit.
pub(crate) fn scan(file: &Path, items: &mut Items) {
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

pub(crate) fn owns_abi_file(h: &Header, abi_root: &Path, f: &Path) -> bool {
    let rel = f.strip_prefix(abi_root).unwrap_or(f);
    let first = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    let first = first.unwrap_or_default();
    let stem = first.trim_end_matches(".rs");
    h.abi_dirs.contains(&stem)
}
