//! The exports' declarations, read off src/capi, and the prototypes each header declares.

use std::collections::BTreeMap;
use std::path::Path;

use crate::scan::rust_files;

/// One `#[export]` declaration of the C edge (src/capi; `#[export_c]` and `export_byte!` too): the
/// facts the headers declare a function (or data symbol) from. The declarations are the one source
/// of the exports' C prototypes and symbol versions (tools/symbols-map writes the version script
/// from the same ones).
#[derive(Clone, Debug)]
pub(crate) struct Decl {
    /// The C name: the function's own, or the one it is a twin of (`as NAME`).
    pub(crate) symbol: String,
    /// The function's own name is its C name (not a twin of another declaration's).
    pub(crate) own: bool,
    /// A public node (`"IBVERBS_1.x"`), or None for the provider-private nodes.
    pub(crate) public: Option<String>,
    /// The private nodes' provider ABIs: from, and up to (not including).
    pub(crate) from: u32,
    pub(crate) until: Option<u32>,
    /// One name per provider ABI (`"verbs_register_driver_{ABI}"`).
    pub(crate) per_abi: bool,
    /// The C prototype (or data declaration), without a trailing `;`.
    pub(crate) proto: String,
    /// The header comment, each line without its `//`: the doc, its contract links written out
    /// ([`crate::contract`]).
    pub(crate) doc: Vec<String>,
}

/// Every declaration under src/capi, read off the source: doc comment, `#[export(...)]`, then the
/// item's name.
pub(crate) fn declarations(root: &Path) -> Vec<Decl> {
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
            let doc = crate::contract::doc_above(&lines, i);
            let proto = doc
                .first()
                .and_then(|d| d.strip_prefix('`'))
                .and_then(|d| d.strip_suffix('`'))
                .unwrap_or_else(|| panic!("{}:{}: no C prototype in the doc", f.display(), i + 1))
                .trim_end_matches(';')
                .to_string();
            let doc = crate::contract::render(root, &f, &text, &doc);
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
pub(crate) const PRIVATE_IN_VERBS_H: &[&str] = &["ibv_wr_opcode_str"];

/// Private functions rdma-core does not declare in driver.h (its providers get them from the
/// internal dmabuf_heap.h): never declared here.
pub(crate) const NOT_IN_DRIVER_H: &str = "ibv_dmabuf_heap_";

/// verbs.h's: the default version of every public name, and [`PRIVATE_IN_VERBS_H`].
pub(crate) fn public_declarations(decls: &[Decl]) -> Vec<String> {
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
pub(crate) fn private_declarations(decls: &[Decl]) -> Vec<String> {
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
    symvers.sort();
    out.extend(symver_bindings(&symvers));
    out.push(String::new());
    out
}

/// For a provider build of a later ABI than the oldest: a `.symver` binding each private name
/// (by the ABI it came with) to the node of the ABI the provider is built for.
fn symver_bindings(symvers: &[(u32, &str)]) -> Vec<String> {
    use ibverbs::abi::driver::pabi::{OLDEST, PROVIDER_ABIS};
    let mut out = Vec::new();
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
    let mut open: Option<u32> = None;
    for &(from, name) in symvers {
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
    out
}

/// A declaration's doc comment and prototype, as cbindgen writes an export's: `//` lines, then
/// the prototype on one line, or one parameter a line under the first when longer than 100
/// columns.
pub(crate) fn declaration(d: &Decl) -> Vec<String> {
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
pub(crate) fn declare_exports(text: &str, decls: &[String]) -> String {
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
/// the ABI's own nor one of its other layouts; `@IBVERBS_OTHER_LAYOUTS@`, those in words; a line
/// `@IBVERBS_PABI_NOTES@`, each ABI with its note (`pabi::PABI_NOTES`) as comment lines.
pub(crate) fn abi_facts(text: &str) -> String {
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
    let notes = pabi_notes();
    text.replace("@IBVERBS_PABI_NOTES@", &notes)
        .replace("@IBVERBS_NEWEST_PABI@", &newest)
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

/// `pabi::PABI_NOTES` as the lines of a C comment: ` *   34  note;` (the last ends with a full
/// stop), words wrapped before column 100 under the note's first word.
fn pabi_notes() -> String {
    use ibverbs::abi::driver::pabi::PABI_NOTES;
    let mut lines = Vec::new();
    for (i, (abi, note)) in PABI_NOTES.iter().enumerate() {
        let end = if i + 1 == PABI_NOTES.len() { "." } else { ";" };
        let mut line = format!(" *   {abi:<2}  ");
        let indent = " ".repeat(line.len() - 2);
        let mut first = true;
        for word in format!("{note}{end}").split_whitespace() {
            if !first && line.len() + 1 + word.len() > 99 {
                lines.push(line);
                line = format!(" *{indent}");
                first = true;
            }
            if !first {
                line.push(' ');
            }
            line.push_str(word);
            first = false;
        }
        lines.push(line);
    }
    lines.join("\n")
}
