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
//! `.symver` directive; one per architecture, `bind.rs`'s `TRAMPOLINES`). Each binding leaves a record `NAME@@NODE` or `NAME@NODE`, a space and the C
//! prototype in the object's `.ibverbs.exports` section; `tools/symbols-map` reads the records
//! off the built archive and writes the version script and the sweep's prototype table.
//!
//! `PROVIDER_ABIS` (here, private: a proc-macro crate exports only its macros) is the one list of
//! provider ABIs; [`provider_abis!()`](provider_abis!) gives it to the library.

mod bind;
mod expand;
mod spec;

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::quote;
use syn::parse::{ParseStream, Parser};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Ident, ItemFn, Lit, Meta, parse_macro_input};

use bind::{bind_asm, bindings, record};
use expand::expand;
use spec::{Spec, prototype};

/// The provider ABIs (rdma-core's `IBVERBS_PABI_VERSION`, the `IBVERBS_PRIVATE_<N>` nodes and the
/// `lib<name>-rdmav<N>.so` files), oldest first. Adding one: a number here, its layouts and the
/// declarations of what it changed.
const PROVIDER_ABIS: &[u32] = &[34, 57, 59, 64, 65];

/// `provider_abis!()`: `PROVIDER_ABIS` (above) as an array expression of `u32`.
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
            let label = format!(
                "__ibvx_{}_{}",
                b.name,
                b.node.trim_start_matches("IBVERBS_")
            );
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
