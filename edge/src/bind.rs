//! The bindings of a declaration (one per symbol version), their records in `.ibverbs.exports`
//! and the trampolines that carry each `.symver`.

use proc_macro2::{Span, TokenStream as Tokens};
use quote::quote;
use syn::Ident;

use crate::PROVIDER_ABIS;
use crate::spec::{Alias, Nodes, Spec};

/// The provider ABIs of a private range.
fn abis(from: u32, until: Option<u32>) -> Vec<u32> {
    PROVIDER_ABIS
        .iter()
        .copied()
        .filter(|&n| n >= from && until.is_none_or(|u| n < u))
        .collect()
}

/// `"... string ..."` as an assembler string literal's contents.
fn asm_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The record of one binding, as assembler lines.
pub(crate) fn record(name: &str, at: &str, node: &str, proto: &str) -> String {
    format!(
        ".pushsection .ibverbs.exports,\"\",@progbits\n.asciz \"{name}{at}{node} {}\"\n.popsection\n",
        asm_escape(proto)
    )
}

/// One symbol version of the declaration: the name, "@@" or "@", the node, and whether it is the
/// function's own plain symbol (no trampoline) or which ABI instance a trampoline jumps to.
pub(crate) struct Binding {
    pub(crate) name: String,
    pub(crate) at: &'static str,
    pub(crate) node: String,
    abi: Option<u32>,
    plain: bool,
}

pub(crate) fn bindings(
    spec: &Spec,
    own: &str,
    generic: bool,
    span: Span,
) -> syn::Result<Vec<Binding>> {
    let mut out = Vec::new();
    match &spec.nodes {
        Nodes::Public(node) => {
            if generic {
                return Err(syn::Error::new(span, "a public export is not generic"));
            }
            match &spec.alias {
                Alias::Own => out.push(Binding {
                    name: own.into(),
                    at: "@@",
                    node: node.clone(),
                    abi: None,
                    plain: true,
                }),
                Alias::Name(n) => out.push(Binding {
                    name: n.clone(),
                    at: "@",
                    node: node.clone(),
                    abi: None,
                    plain: false,
                }),
                Alias::PerAbi(_) => {
                    return Err(syn::Error::new(span, "a per-ABI name is PRIVATE"));
                }
            }
        }
        Nodes::Private { from, until } => {
            let list = abis(*from, *until);
            for (i, &n) in list.iter().enumerate() {
                let node = format!("IBVERBS_PRIVATE_{n}");
                let abi = generic.then_some(n);
                out.push(match &spec.alias {
                    Alias::Own => Binding {
                        name: own.into(),
                        at: if i == 0 { "@@" } else { "@" },
                        node,
                        abi,
                        plain: i == 0 && !generic,
                    },
                    Alias::Name(s) => Binding {
                        name: s.clone(),
                        at: "@",
                        node,
                        abi,
                        plain: false,
                    },
                    Alias::PerAbi(p) => Binding {
                        name: format!("{p}{n}"),
                        at: "@@",
                        node,
                        abi,
                        plain: false,
                    },
                });
            }
        }
    }
    Ok(out)
}

/// The assembler of a declaration's bindings: records, and a trampoline for each binding that is
/// not the plain symbol.
pub(crate) fn bind_asm(fn_name: &Ident, proto: &str, list: &[Binding]) -> Tokens {
    let mut out = Tokens::new();
    for b in list {
        let proto = &match b.abi {
            Some(n) => proto.replace("{ABI}", &n.to_string()),
            None => proto.to_string(),
        };
        if b.plain {
            let text = record(&b.name, b.at, &b.node, proto);
            out.extend(quote!(::core::arch::global_asm!(#text);));
            continue;
        }
        let label = format!(
            "__ibvx_{}_{}",
            b.name,
            b.node
                .trim_start_matches("IBVERBS_")
                .replace(['.', '-'], "_")
        );
        let target = match b.abi {
            Some(n) => quote!(#fn_name::<#n>),
            None => quote!(#fn_name),
        };
        for (arch, jump) in TRAMPOLINES {
            let jump = jump.replace("{label}", &label);
            let text = format!(
                ".globl {label}\n.type {label},@function\n{label}:\n{jump}\n.size {label}, .-{label}\n.symver {label}, {}{}{}\n{}",
                b.name,
                b.at,
                b.node,
                record(&b.name, b.at, &b.node, proto)
            );
            // powerpc64's is ELFv2's: little-endian only (big-endian Linux is ELFv1).
            out.extend(quote!(
                #[cfg(all(target_arch = #arch, any(target_endian = "little", not(target_arch = "powerpc64"))))]
                ::core::arch::global_asm!(#text, f = sym #target);
            ));
        }
        let arches = TRAMPOLINES.map(|(arch, _)| arch);
        out.extend(quote!(
            #[cfg(not(any(#(target_arch = #arches),*)))]
            compile_error!("ibverbs-edge: no symbol-version trampoline for this architecture (edge/src/bind.rs TRAMPOLINES)");
            #[cfg(all(target_arch = "powerpc64", target_endian = "big"))]
            compile_error!("ibverbs-edge: no symbol-version trampoline for this architecture (edge/src/bind.rs TRAMPOLINES)");
        ));
    }
    out
}

/// The body of a symbol-version trampoline per `target_arch`: a tail jump to the function `{f}`
/// (an assembler template: `{f}` is the function's symbol). The trampoline is reached through
/// the PLT of another object, so nothing but the jump may be assumed of the registers:
/// - x86_64, aarch64, riscv64 and s390x: a plain tail branch (the linker reaches the function
///   itself, which the version script keeps local);
/// - powerpc64 (ELFv2, little-endian: ppc64el): a caller from another object enters at the global
///   entry point with r12 = the entry's address and r2 = its own TOC, so the trampoline first
///   sets r2 to this library's TOC from r12, as a compiled function's global entry does, then
///   jumps as a PLT stub would: the function's address from this library's GOT into r12 and
///   through the count register to its global entry, which sets up its own TOC (a plain `b` to
///   an exported function would need a PLT call, which cannot restore r2 after a tail jump);
///   `.localentry` lets a caller inside the library, whose r2 is already ours, skip the first two
///   instructions.
const TRAMPOLINES: [(&str, &str); 5] = [
    ("x86_64", "    jmp {f}"),
    ("aarch64", "    b {f}"),
    ("riscv64", "    tail {f}"),
    ("s390x", "    jg {f}"),
    (
        "powerpc64",
        "0:  addis 2, 12, .TOC.-0b@ha\n    addi 2, 2, .TOC.-0b@l\n.localentry {label}, .-0b\n    addis 12, 2, {f}@got@ha\n    ld 12, {f}@got@l(12)\n    mtctr 12\n    bctr",
    ),
];
