//! The grammar of ibverbs-rs's C edge: one declaration per exported function.
//!
//! ```ignore
//! /// `struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)`
//! ///
//! /// What it does, its errors and divergences.
//! #[export("IBVERBS_1.1")]
//! fn ibv_alloc_pd(context: Ctx) -> Null<*mut ibv_pd> {
//!     crate::verbs::pd::alloc(context)
//! }
//! ```
//!
//! A declaration is an ordinary Rust function item under `#[export(...)]`: a doc comment whose
//! first line is the C prototype in backticks (rdma-core's, verbatim: the generated headers and the
//! bad-input sweep read it), the symbol versions it is, a signature and a body. The attribute turns
//! it into a `pub unsafe extern "C" fn` of the same name and binds its symbol versions.
//!
//! **Return conventions** (the type after the arrow names one; the C return type follows from it):
//! - `Raw<T>`: the body computes the C value itself; parameters arrive as declared (C types);
//! - `Errno`: the body gives `Result<()>`; C gets 0, or the positive errno with `errno` set;
//! - `Null<T>`: the body gives `Result<T>` (a pointer); NULL with `errno` on failure;
//! - `MinusOne<T>`: the body gives `Result<T>`; -1 with `errno` on failure;
//! - `Status`: the body gives `Result<c_int>`: a provider's status passed on as it is, the
//!   library's own refusal as under `Errno`;
//! - `Quiet`: the body gives `Result<()>`; the positive errno without touching `errno`;
//! - `Void`: the body gives `()`; an argument that cannot be converted ends the call.
//!
//! Except under `Raw`, each parameter is converted from its C form by the library's
//! `capi::export::FromC` before the body runs (a typed handle from a pointer: EINVAL for NULL),
//! and a failed conversion returns through the convention: the body works on typed values.
//!
//! **Symbol versions** (the attribute's argument):
//! - `"IBVERBS_1.x"`: `name@@IBVERBS_1.x`, the function's own (plain) symbol, versioned by the
//!   version script;
//! - `"IBVERBS_1.x" as NAME`: `NAME@IBVERBS_1.x`, a non-default twin of another declaration;
//! - `PRIVATE A..` or `PRIVATE A..B`: the provider-private nodes `IBVERBS_PRIVATE_<N>` of each
//!   provider ABI N from A (before B): `name@@IBVERBS_PRIVATE_A`, `name@IBVERBS_PRIVATE_<N>` after;
//! - `PRIVATE A.. as NAME`: `NAME@IBVERBS_PRIVATE_<N>` only (a later ABI's form of `NAME`);
//! - `PRIVATE A.. as "PREFIX{ABI}"`: one name per ABI, `PREFIX<N>@@IBVERBS_PRIVATE_<N>`.
//!
//! A function generic over `<const ABI: u32>` is instantiated for each provider ABI it is bound in.
//! Every binding but a function's own default symbol is a trampoline (a tail jump carrying the
//! `.symver` directive; one per architecture, `TRAMPOLINES`). Each binding leaves a record `NAME@@NODE` or `NAME@NODE`, a space and the C
//! prototype in the object's `.ibverbs.exports` section; `tools/symbols-map` reads the records
//! off the built archive and writes the version script and the sweep's prototype table.
//!
//! [`PROVIDER_ABIS`] is the one list of provider ABIs; `provider_abis!()` gives it to the library.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::quote;
use syn::parse::{Parse, ParseStream, Parser};
use syn::spanned::Spanned;
use syn::{
    Attribute, Expr, ExprLit, FnArg, GenericParam, Ident, ItemFn, Lit, LitInt, LitStr, Meta, Pat,
    PathArguments, ReturnType, Token, Type, parse_macro_input,
};

/// The provider ABIs (rdma-core's `IBVERBS_PABI_VERSION`, the `IBVERBS_PRIVATE_<N>` nodes and the
/// `lib<name>-rdmav<N>.so` files), oldest first. Adding one: a number here, its layouts and the
/// declarations of what it changed.
const PROVIDER_ABIS: &[u32] = &[34, 57, 59, 64, 65];

/// `provider_abis!()`: [`PROVIDER_ABIS`] as an array expression of `u32`.
#[proc_macro]
pub fn provider_abis(input: TokenStream) -> TokenStream {
    if !input.is_empty() {
        return syn::Error::new(Span::call_site(), "provider_abis!() takes no arguments")
            .to_compile_error()
            .into();
    }
    let list = PROVIDER_ABIS;
    quote!([#(#list),*]).into()
}

/// Which nodes a declaration is bound in.
enum Nodes {
    Public(String),
    Private { from: u32, until: Option<u32> },
}

/// Under which name.
enum Alias {
    /// The function's own name.
    Own,
    /// Another declaration's name (non-default twins).
    Name(String),
    /// `PREFIX{ABI}`: a name per provider ABI.
    PerAbi(String),
}

struct Spec {
    nodes: Nodes,
    alias: Alias,
}

impl Parse for Spec {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let nodes = if input.peek(LitStr) {
            let node: LitStr = input.parse()?;
            Nodes::Public(node.value())
        } else {
            let kw: Ident = input.parse()?;
            if kw != "PRIVATE" {
                return Err(syn::Error::new(kw.span(), "expected \"IBVERBS_1.x\" or PRIVATE"));
            }
            let from: LitInt = input.parse()?;
            input.parse::<Token![..]>()?;
            let until = if input.peek(LitInt) {
                Some(input.parse::<LitInt>()?.base10_parse()?)
            } else {
                None
            };
            let from = from.base10_parse()?;
            for n in std::iter::once(from).chain(until) {
                if !PROVIDER_ABIS.contains(&n) {
                    return Err(syn::Error::new(
                        input.span(),
                        format!("{n} is not a provider ABI ({PROVIDER_ABIS:?})"),
                    ));
                }
            }
            Nodes::Private { from, until }
        };
        let alias = if input.peek(Token![as]) {
            input.parse::<Token![as]>()?;
            if input.peek(LitStr) {
                let t: LitStr = input.parse()?;
                if !t.value().ends_with("{ABI}") {
                    return Err(syn::Error::new(t.span(), "a per-ABI name ends with {ABI}"));
                }
                Alias::PerAbi(t.value().trim_end_matches("{ABI}").to_string())
            } else {
                Alias::Name(input.parse::<Ident>()?.to_string())
            }
        } else {
            Alias::Own
        };
        if !input.is_empty() {
            return Err(input.error("unexpected tokens after the symbol versions"));
        }
        Ok(Spec { nodes, alias })
    }
}

/// The return convention named after the arrow.
enum Conv {
    Raw(Type),
    Errno,
    Null(Type),
    MinusOne(Type),
    Status,
    Quiet,
    Void,
}

fn conv_of(ret: &ReturnType) -> syn::Result<Conv> {
    let ReturnType::Type(_, ty) = ret else {
        return Err(syn::Error::new(
            ret.span(),
            "an export names its return convention: -> Raw<T>, Errno, Null<T>, MinusOne<T>, Status, Quiet or Void",
        ));
    };
    let Type::Path(p) = &**ty else {
        return Err(syn::Error::new(ty.span(), "expected a return convention"));
    };
    let seg = p
        .path
        .segments
        .last()
        .ok_or_else(|| syn::Error::new(ty.span(), "expected a return convention"))?;
    let inner = match &seg.arguments {
        PathArguments::AngleBracketed(a) if a.args.len() == 1 => match a.args.first() {
            Some(syn::GenericArgument::Type(t)) => Some(t.clone()),
            _ => None,
        },
        PathArguments::None => None,
        _ => return Err(syn::Error::new(seg.span(), "expected one type argument")),
    };
    let name = seg.ident.to_string();
    let need = |t: Option<Type>| {
        t.ok_or_else(|| syn::Error::new(seg.span(), format!("{name}<T> needs its C type")))
    };
    Ok(match name.as_str() {
        "Raw" => Conv::Raw(need(inner)?),
        "Null" => Conv::Null(need(inner)?),
        "MinusOne" => Conv::MinusOne(need(inner)?),
        "Errno" | "Status" | "Quiet" | "Void" if inner.is_some() => {
            return Err(syn::Error::new(seg.span(), format!("{name} takes no type")));
        }
        "Errno" => Conv::Errno,
        "Status" => Conv::Status,
        "Quiet" => Conv::Quiet,
        "Void" => Conv::Void,
        _ => return Err(syn::Error::new(seg.span(), format!("unknown return convention {name}"))),
    })
}

/// The first doc line, which must be the C prototype in backticks.
fn prototype(attrs: &[Attribute]) -> syn::Result<String> {
    for a in attrs {
        let Meta::NameValue(nv) = &a.meta else {
            continue;
        };
        if nv.path.is_ident("doc") {
            if let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
            {
                let t = s.value();
                let t = t.trim();
                let p = t.strip_prefix('`').and_then(|t| t.strip_suffix('`'));
                if let Some(p) = p.filter(|p| p.contains('(')) {
                    return Ok(p.to_string());
                }
                return Err(syn::Error::new(
                    s.span(),
                    "an export's doc starts with its C prototype in backticks",
                ));
            }
        }
    }
    Err(syn::Error::new(
        Span::call_site(),
        "an export's doc starts with its C prototype in backticks",
    ))
}

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
fn record(name: &str, at: &str, node: &str, proto: &str) -> String {
    format!(
        ".pushsection .ibverbs.exports,\"\",@progbits\n.asciz \"{name}{at}{node} {}\"\n.popsection\n",
        asm_escape(proto)
    )
}

/// One symbol version of the declaration: the name, "@@" or "@", the node, and whether it is the
/// function's own plain symbol (no trampoline) or which ABI instance a trampoline jumps to.
struct Binding {
    name: String,
    at: &'static str,
    node: String,
    abi: Option<u32>,
    plain: bool,
}

fn bindings(spec: &Spec, own: &str, generic: bool, span: Span) -> syn::Result<Vec<Binding>> {
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
fn bind_asm(fn_name: &Ident, proto: &str, list: &[Binding]) -> Tokens {
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
            compile_error!("ibverbs-edge: no symbol-version trampoline for this architecture (edge/src/lib.rs TRAMPOLINES)");
            #[cfg(all(target_arch = "powerpc64", target_endian = "big"))]
            compile_error!("ibverbs-edge: no symbol-version trampoline for this architecture (edge/src/lib.rs TRAMPOLINES)");
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

/// `#[export(...)]` on a function: see the crate doc.
#[proc_macro_attribute]
pub fn export(attr: TokenStream, item: TokenStream) -> TokenStream {
    let spec = parse_macro_input!(attr as Spec);
    let f = parse_macro_input!(item as ItemFn);
    match expand(spec, f) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

fn expand(spec: Spec, f: ItemFn) -> syn::Result<Tokens> {
    let proto = prototype(&f.attrs)?;
    let name = &f.sig.ident;
    let generic = match f.sig.generics.params.len() {
        0 => false,
        1 => match f.sig.generics.params.first() {
            Some(GenericParam::Const(c)) if c.ident == "ABI" => true,
            _ => {
                return Err(syn::Error::new(
                    f.sig.generics.span(),
                    "an export may only be generic over <const ABI: u32>",
                ));
            }
        },
        _ => {
            return Err(syn::Error::new(
                f.sig.generics.span(),
                "an export may only be generic over <const ABI: u32>",
            ));
        }
    };
    if f.sig.asyncness.is_some() || f.sig.abi.is_some() || f.sig.unsafety.is_some() {
        return Err(syn::Error::new(
            f.sig.span(),
            "write the export as a plain `fn`: #[export] makes it `pub unsafe extern \"C\"`",
        ));
    }
    let conv = conv_of(&f.sig.output)?;
    // Each parameter: one C parameter, or two adjacent ones converted into one value (a tuple
    // pattern `(ptr, size): T`, `T: FromCPair`; the body sees the first name).
    let mut params: Vec<(Ident, Option<Ident>, Type)> = Vec::new();
    for a in &f.sig.inputs {
        let FnArg::Typed(pt) = a else {
            return Err(syn::Error::new(a.span(), "an export takes no self"));
        };
        match &*pt.pat {
            Pat::Ident(pi) => params.push((pi.ident.clone(), None, (*pt.ty).clone())),
            Pat::Tuple(t) if t.elems.len() == 2 => {
                let mut names = t.elems.iter().map(|e| match e {
                    Pat::Ident(pi) => Ok(pi.ident.clone()),
                    other => Err(syn::Error::new(other.span(), "name both parameters")),
                });
                let (Some(a), Some(b)) = (names.next(), names.next()) else {
                    return Err(syn::Error::new(t.span(), "a pair of parameters"));
                };
                params.push((a?, Some(b?), (*pt.ty).clone()));
            }
            other => return Err(syn::Error::new(other.span(), "name each parameter")),
        }
    }
    if matches!(conv, Conv::Raw(_)) && params.iter().any(|p| p.1.is_some()) {
        return Err(syn::Error::new(
            f.sig.span(),
            "a Raw export takes its parameters as declared: no pairs",
        ));
    }
    let list = bindings(&spec, &name.to_string(), generic, f.sig.span())?;
    let asm = bind_asm(name, &proto, &list);

    let attrs = &f.attrs;
    let generics = &f.sig.generics;
    let body = &f.block;
    let no_mangle = (!generic).then(|| quote!(#[unsafe(no_mangle)]));
    let safety = quote! {
        #[doc = ""]
        #[doc = "# Safety"]
        #[doc = "The C contract: each argument is what the prototype above declares."]
    };
    let c_params: Vec<Tokens> = params
        .iter()
        .map(|(n, pair, t)| match (&conv, pair) {
            (Conv::Raw(_), _) => quote!(#n: #t),
            (_, None) => quote!(#n: <#t as crate::capi::export::FromC>::C),
            (_, Some(m)) => quote!(
                #n: <#t as crate::capi::export::FromCPair>::A,
                #m: <#t as crate::capi::export::FromCPair>::B
            ),
        })
        .collect();
    // The conversion of each parameter, as an expression giving a Result.
    let from_c = |n: &Ident, pair: &Option<Ident>, t: &Type| match pair {
        None => quote!(<#t as crate::capi::export::FromC>::from_c(#n)),
        Some(m) => quote!(<#t as crate::capi::export::FromCPair>::from_c(#n, #m)),
    };
    // The body's `Result` through the convention `ret` (an expression of `r`). A parameter that
    // cannot be converted returns through the same convention at once, on a path of its own:
    // joined with the body's result, its constant errno (and `Err`) would be loaded ahead of
    // the checks, on every call (two instructions in `ibv_cmd_dereg_mr`).
    let with = |t: Tokens, ret: Tokens| {
        let early: Vec<Tokens> = params
            .iter()
            .map(|(n, pair, ty)| {
                let e = from_c(n, pair, ty);
                quote! {
                    // The C contract: each argument is what the prototype declares.
                    #[allow(clippy::undocumented_unsafe_blocks)]
                    let #n = match unsafe { #e } {
                        Ok(v) => v,
                        Err(e) => {
                            let r: crate::errno::Result<#t> = Err(e);
                            return #ret;
                        }
                    };
                }
            })
            .collect();
        quote! {{
            #(#early)*
            let r = (|| -> crate::errno::Result<#t> #body)();
            #ret
        }}
    };
    let (c_ret, c_body) = match &conv {
        Conv::Raw(t) => (quote!(#t), quote!(#body)),
        Conv::Errno => (
            quote!(::core::ffi::c_int),
            with(quote!(()), quote!(crate::cret::CRet::ret_errno(r))),
        ),
        Conv::Null(t) => (
            quote!(#t),
            with(quote!(#t), quote!(crate::cret::CRet::ret_null(r))),
        ),
        Conv::MinusOne(t) => (
            quote!(#t),
            with(quote!(#t), quote!(crate::cret::CRet::ret_minus_one(r))),
        ),
        Conv::Status => (
            quote!(::core::ffi::c_int),
            with(
                quote!(::core::ffi::c_int),
                quote!(crate::cret::ret_status(r)),
            ),
        ),
        Conv::Quiet => (
            quote!(::core::ffi::c_int),
            with(
                quote!(()),
                quote!(match r {
                    Ok(()) => 0,
                    Err(e) => crate::cret::quiet(e),
                }),
            ),
        ),
        Conv::Void => {
            let conv_void: Vec<Tokens> = params
                .iter()
                .map(|(n, pair, t)| {
                    let e = from_c(n, pair, t);
                    quote! {
                        #[allow(clippy::undocumented_unsafe_blocks)]
                        let Ok(#n) = (unsafe { #e }) else {
                            return;
                        };
                    }
                })
                .collect();
            (quote!(()), quote!({ #(#conv_void)* #body }))
        }
    };
    Ok(quote! {
        #(#attrs)*
        #safety
        #no_mangle
        pub unsafe extern "C" fn #name #generics (#(#c_params),*) -> #c_ret #c_body
        #asm
    })
}

/// `#[export(...)]` for a symbol defined outside Rust: a C function of `src/shim` (a variadic,
/// which stable Rust cannot define), declared as `fn NAME();` with its doc (the prototype) and
/// attribute. Gives the records, and trampolines for the non-default versions, which jump to the
/// C function.
#[proc_macro_attribute]
pub fn export_c(attr: TokenStream, item: TokenStream) -> TokenStream {
    let spec = parse_macro_input!(attr as Spec);
    let f = parse_macro_input!(item as syn::ForeignItemFn);
    let run = || -> syn::Result<Tokens> {
        let proto = prototype(&f.attrs)?;
        let name = &f.sig.ident;
        let list = bindings(&spec, &name.to_string(), false, f.sig.span())?;
        let asm = bind_asm(name, &proto, &list);
        let attrs = &f.attrs;
        Ok(quote! {
            unsafe extern "C" {
                #(#attrs)*
                #[allow(dead_code)]
                fn #name();
            }
            #asm
        })
    };
    match run() {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `export_byte! { doc; #[export(...)] NAME }`: a one-byte data symbol (a C `bool` the library
/// owns), defined in assembler so that every version of it names the same byte, which the library
/// itself reaches as `__ibvx_NAME`.
#[proc_macro]
pub fn export_byte(input: TokenStream) -> TokenStream {
    let run = |input: ParseStream| -> syn::Result<Tokens> {
        let attrs = input.call(Attribute::parse_outer)?;
        let proto = attrs
            .iter()
            .find_map(|a| match &a.meta {
                Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(s), ..
                    }) => Some(s.value().trim().trim_matches('`').to_string()),
                    _ => None,
                },
                _ => None,
            })
            .ok_or_else(|| input.error("a data export's doc starts with its C declaration"))?;
        let spec_attr = attrs
            .iter()
            .find(|a| a.path().is_ident("export"))
            .ok_or_else(|| input.error("#[export(...)] missing"))?;
        let spec: Spec = spec_attr.parse_args()?;
        let name: Ident = input.parse()?;
        let list = bindings(&spec, &name.to_string(), false, name.span())?;
        // The byte has a label of its own, which the library reads (`__ibvx_<name>`), and one
        // label per version: an assembler takes one .symver per symbol, and a linker drops the
        // plain symbol beside a versioned one of the same name, so even the default version is
        // bound by .symver.
        let own = format!("__ibvx_{name}");
        let mut labels = format!(".globl {own}\n.type {own},@object\n.size {own}, 1\n{own}:\n");
        let mut versions = String::new();
        for b in &list {
            let label = format!("__ibvx_{}_{}", b.name, b.node.trim_start_matches("IBVERBS_"));
            labels.push_str(&format!(
                ".globl {label}\n.type {label},@object\n.size {label}, 1\n{label}:\n"
            ));
            versions.push_str(&format!(".symver {label}, {}{}{}\n", b.name, b.at, b.node));
            versions.push_str(&record(&b.name, b.at, &b.node, &proto));
        }
        let text = format!(
            ".pushsection .bss.{name},\"aw\",@nobits\n{labels}    .zero 1\n.popsection\n{versions}"
        );
        Ok(quote!(::core::arch::global_asm!(#text);))
    };
    match run.parse(input) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}
