//! One header: cbindgen over the sources, told which items the header owns, then the rewrites.

use std::collections::BTreeSet;
use std::path::Path;

use crate::config::{C_SPELLINGS, Fns, Header, NOT_EMITTED, PABI_TYPES, PRELUDE_CONSTS};
use crate::decls::{Decl, abi_facts, declare_exports, private_declarations, public_declarations};
use crate::forward::{append_fragment, forwarders, kern_cmd_typedefs};
use crate::order::{
    drop_fn_declarations, forward_declare_tags, inline_anonymous, order_definitions,
    squeeze_blank_lines,
};
use crate::scan::{Items, owns_abi_file, rust_files, scan};
use crate::spell::{
    exempt_from_pedantic, expand_bitfields, flexible_arrays, guard_definitions, insert_prelude,
    pabi_members, rename_ident, spell_atomic_int, spell_c_types,
};

/// The header `h`, as it is to be committed.
pub(crate) fn generate(root: &Path, h: &Header, decls: &[Decl]) -> String {
    let (config, foreign_fns) = configure(root, h);
    let mut buf = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/lib.rs"))
        .generate()
        .expect("cbindgen")
        .write(&mut buf);
    let text = String::from_utf8(buf).expect("utf-8 header");
    rewrite(root, h, decls, text, &foreign_fns)
}

/// cbindgen's settings for `h` (cbindgen.toml, plus the items `h` owns and how it spells the
/// others), and the exported functions of every header (which cbindgen must not declare).
fn configure(root: &Path, h: &Header) -> (cbindgen::Config, BTreeSet<String>) {
    let abi_root = root.join("src/abi");
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
    (config, foreign_fns)
}

/// cbindgen's output made the header: the rewrites, the declarations, the prelude and fragment.
fn rewrite(
    root: &Path,
    h: &Header,
    decls: &[Decl],
    text: String,
    foreign_fns: &BTreeSet<String>,
) -> String {
    let text = PABI_TYPES
        .iter()
        .fold(text, |t, (rust, c, _)| rename_ident(&t, rust, c));
    let text = order_definitions(&inline_anonymous(&text));
    let text = spell_c_types(&text);
    let text = drop_fn_declarations(&expand_bitfields(&text), foreign_fns);
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
