//! `#[export]` on a function: the checks of its signature, the C parameters, the conversion of
//! each before the body, and the body's result through the return convention.

use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Block, FnArg, GenericParam, Ident, ItemFn, Pat, Signature, Type};

use crate::bind::{bind_asm, bindings};
use crate::spec::{Conv, Spec, conv_of, prototype};

/// One parameter: one C parameter, or two adjacent ones converted into one value (a tuple
/// pattern `(ptr, size): T`, `T: FromCPair`; the body sees the first name).
type Param = (Ident, Option<Ident>, Type);

pub(crate) fn expand(spec: Spec, f: ItemFn) -> syn::Result<Tokens> {
    let proto = prototype(&f.attrs)?;
    let name = &f.sig.ident;
    let generic = generic_over_abi(&f.sig)?;
    if f.sig.asyncness.is_some() || f.sig.abi.is_some() || f.sig.unsafety.is_some() {
        return Err(syn::Error::new(
            f.sig.span(),
            "write the export as a plain `fn`: #[export] makes it `pub unsafe extern \"C\"`",
        ));
    }
    let conv = conv_of(&f.sig.output)?;
    let params = params_of(&f.sig)?;
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
    let no_mangle = (!generic).then(|| quote!(#[unsafe(no_mangle)]));
    let safety = quote! {
        #[doc = ""]
        #[doc = "# Safety"]
        #[doc = "The C contract: each argument is what the prototype above declares."]
    };
    let c_params = c_params(&conv, &params);
    let (c_ret, c_body) = c_body(&conv, &params, &f.block);
    Ok(quote! {
        #(#attrs)*
        #safety
        #no_mangle
        pub unsafe extern "C" fn #name #generics (#(#c_params),*) -> #c_ret #c_body
        #asm
    })
}

/// Whether the function is generic over `<const ABI: u32>`, its only allowed generic parameter.
fn generic_over_abi(sig: &Signature) -> syn::Result<bool> {
    match sig.generics.params.len() {
        0 => Ok(false),
        1 if matches!(sig.generics.params.first(), Some(GenericParam::Const(c)) if c.ident == "ABI") => {
            Ok(true)
        }
        _ => Err(syn::Error::new(
            sig.generics.span(),
            "an export may only be generic over <const ABI: u32>",
        )),
    }
}

/// The declared parameters, each a name or a pair of names, and its type.
fn params_of(sig: &Signature) -> syn::Result<Vec<Param>> {
    let mut params: Vec<Param> = Vec::new();
    for a in &sig.inputs {
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
    Ok(params)
}

/// The C parameters: as declared under `Raw`, else each one's C form (`FromC::C`, or a pair's
/// `FromCPair::A` and `B`).
fn c_params(conv: &Conv, params: &[Param]) -> Vec<Tokens> {
    params
        .iter()
        .map(|(n, pair, t)| match (conv, pair) {
            (Conv::Raw(_), _) => quote!(#n: #t),
            (_, None) => quote!(#n: <#t as crate::capi::export::FromC>::C),
            (_, Some(m)) => quote!(
                #n: <#t as crate::capi::export::FromCPair>::A,
                #m: <#t as crate::capi::export::FromCPair>::B
            ),
        })
        .collect()
}

/// The conversion of each parameter, as an expression giving a Result.
fn from_c(n: &Ident, pair: &Option<Ident>, t: &Type) -> Tokens {
    match pair {
        None => quote!(<#t as crate::capi::export::FromC>::from_c(#n)),
        Some(m) => quote!(<#t as crate::capi::export::FromCPair>::from_c(#n, #m)),
    }
}

/// The C return type and body under the convention.
fn c_body(conv: &Conv, params: &[Param], body: &Block) -> (Tokens, Tokens) {
    let with = |t: Tokens, ret: Tokens| through(params, body, t, ret);
    let c_int = quote!(::core::ffi::c_int);
    match conv {
        Conv::Raw(t) => (quote!(#t), quote!(#body)),
        Conv::Errno => (
            c_int,
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
            c_int.clone(),
            with(c_int, quote!(crate::cret::ret_status(r))),
        ),
        Conv::Quiet => (
            c_int,
            with(
                quote!(()),
                quote!(match r {
                    Ok(()) => 0,
                    Err(e) => crate::cret::quiet(e),
                }),
            ),
        ),
        Conv::Void => (quote!(()), void_body(params, body)),
    }
}

/// The body's `Result<t>` through the convention `ret` (an expression of `r`). A parameter that
/// cannot be converted returns through the same convention at once, on a path of its own:
/// joined with the body's result, its constant errno (and `Err`) would be loaded ahead of the
/// checks, on every call (two instructions in `ibv_cmd_dereg_mr`).
fn through(params: &[Param], body: &Block, t: Tokens, ret: Tokens) -> Tokens {
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
}

/// `Void`'s body: an argument that cannot be converted ends the call.
fn void_body(params: &[Param], body: &Block) -> Tokens {
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
    quote!({ #(#conv_void)* #body })
}
