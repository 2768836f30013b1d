//! The `#[export(...)]` argument (the symbol versions), the return convention after the arrow,
//! and the C prototype of the doc's first line: the grammar the crate doc describes.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{
    Attribute, Expr, ExprLit, Ident, Lit, LitInt, LitStr, Meta, PathArguments, ReturnType, Token,
    Type,
};

use crate::PROVIDER_ABIS;

/// Which nodes a declaration is bound in.
pub(crate) enum Nodes {
    Public(String),
    Private { from: u32, until: Option<u32> },
}

/// Under which name.
pub(crate) enum Alias {
    /// The function's own name.
    Own,
    /// Another declaration's name (non-default twins).
    Name(String),
    /// `PREFIX{ABI}`: a name per provider ABI.
    PerAbi(String),
}

/// The symbol versions of a declaration: `#[export(...)]`'s argument.
pub(crate) struct Spec {
    pub(crate) nodes: Nodes,
    pub(crate) alias: Alias,
}

impl Parse for Spec {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let nodes = if input.peek(LitStr) {
            let node: LitStr = input.parse()?;
            Nodes::Public(node.value())
        } else {
            let kw: Ident = input.parse()?;
            if kw != "PRIVATE" {
                return Err(syn::Error::new(
                    kw.span(),
                    "expected \"IBVERBS_1.x\" or PRIVATE",
                ));
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
pub(crate) enum Conv {
    Raw(Type),
    Errno,
    Null(Type),
    MinusOne(Type),
    Status,
    Quiet,
    Void,
}

pub(crate) fn conv_of(ret: &ReturnType) -> syn::Result<Conv> {
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
        _ => {
            return Err(syn::Error::new(
                seg.span(),
                format!("unknown return convention {name}"),
            ));
        }
    })
}

/// The first doc line, which must be the C prototype in backticks.
pub(crate) fn prototype(attrs: &[Attribute]) -> syn::Result<String> {
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
