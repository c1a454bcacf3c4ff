//! `key = value` lists, as attribute arguments.

use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, LitBool, LitStr, Path, Token};

/// One `key`, `key = value` or `crate = path` entry.
pub(crate) struct Entry {
    pub(crate) key: syn::Ident,
    pub(crate) value: Option<Expr>,
}

impl Parse for Entry {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let key = if input.peek(Token![crate]) {
            let token: Token![crate] = input.parse()?;
            syn::Ident::new("crate", token.span)
        } else {
            input.parse()?
        };
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        Ok(Self { key, value })
    }
}

/// Parses a comma-separated list of entries.
pub(crate) fn entries(tokens: TokenStream) -> syn::Result<Vec<Entry>> {
    let list =
        syn::parse::Parser::parse2(Punctuated::<Entry, Token![,]>::parse_terminated, tokens)?;
    Ok(list.into_iter().collect())
}

impl Entry {
    /// The value as a string literal.
    pub(crate) fn string(&self) -> syn::Result<LitStr> {
        match &self.value {
            Some(Expr::Lit(syn::ExprLit {
                lit: Lit::Str(s), ..
            })) => Ok(s.clone()),
            _ => Err(syn::Error::new_spanned(
                &self.key,
                format!("`{}` takes a string: `{} = \"...\"`", self.key, self.key),
            )),
        }
    }

    /// The value as a flag: absent means `true`.
    pub(crate) fn flag(&self) -> syn::Result<bool> {
        match &self.value {
            None => Ok(true),
            Some(Expr::Lit(syn::ExprLit {
                lit: Lit::Bool(LitBool { value, .. }),
                ..
            })) => Ok(*value),
            _ => Err(syn::Error::new_spanned(
                &self.key,
                format!(
                    "`{}` is a flag: write `{}` or `{} = false`",
                    self.key, self.key, self.key
                ),
            )),
        }
    }

    /// The value as a path (`crate = my_server`).
    pub(crate) fn path(&self) -> syn::Result<Path> {
        match &self.value {
            Some(Expr::Path(p)) => Ok(p.path.clone()),
            _ => Err(syn::Error::new_spanned(
                &self.key,
                "`crate` takes a path: `crate = my_mcp_server`",
            )),
        }
    }
}

/// The error for a key the macro does not know, listing the ones it does.
pub(crate) fn unknown(entry: &Entry, attribute: &str, known: &[&str]) -> syn::Error {
    let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
    syn::Error::new_spanned(
        &entry.key,
        format!(
            "unknown `#[{attribute}]` key `{}`; expected one of {}",
            entry.key,
            known.join(", ")
        ),
    )
}

/// The path of `mcp_server`: the one given with `crate = ...`, or `::mcp_server`.
pub(crate) fn krate(path: Option<&Path>) -> proc_macro2::TokenStream {
    match path {
        Some(path) => quote::quote!(#path),
        None => quote::quote!(::mcp_server),
    }
}

/// `Some(String::from("..."))` or `None`, as tokens.
pub(crate) fn optional_string(value: Option<&LitStr>) -> proc_macro2::TokenStream {
    match value {
        Some(s) => quote::quote!(::core::option::Option::Some(::std::string::String::from(#s))),
        None => quote::quote!(::core::option::Option::None),
    }
}

/// Whether `ty` names the request context (`RequestContext`, however qualified).
pub(crate) fn is_context(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(p) => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "RequestContext"),
        _ => false,
    }
}

/// Fails unless `function` is a non-generic `async fn`.
pub(crate) fn check_async(function: &syn::ItemFn, attribute: &str) -> syn::Result<()> {
    if function.sig.asyncness.is_none() {
        return Err(syn::Error::new(
            function.sig.fn_token.span,
            format!("`#[{attribute}]` needs an `async fn`: write `async fn` here"),
        ));
    }
    if !function.sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &function.sig.generics,
            format!("a `#[{attribute}]` function cannot be generic"),
        ));
    }
    Ok(())
}

/// The return type as tokens; `()` spanned on the function name when there is none.
pub(crate) fn output(function: &syn::ItemFn) -> proc_macro2::TokenStream {
    match &function.sig.output {
        syn::ReturnType::Default => {
            quote::quote_spanned!(function.sig.ident.span()=> ())
        }
        syn::ReturnType::Type(_, ty) => quote::quote!(#ty),
    }
}

/// What `#[arg(...)]` on a parameter says.
#[derive(Default)]
pub(crate) struct ArgAttr {
    /// `description = "..."`: the argument's description.
    pub(crate) description: Option<LitStr>,
    /// `name = "..."`: the argument's name on the wire, when not the parameter's.
    pub(crate) name: Option<LitStr>,
}

/// Removes `#[arg(...)]` and `#[args]` from a parameter's attributes:
/// returns what `#[arg]` says and sets `args` when `#[args]` was there.
pub(crate) fn take_arg(attrs: &mut Vec<syn::Attribute>, args: &mut bool) -> syn::Result<ArgAttr> {
    let mut found = ArgAttr::default();
    let mut error = None;
    attrs.retain(|a| {
        if a.path().is_ident("args") {
            *args = true;
            return false;
        }
        if !a.path().is_ident("arg") {
            return true;
        }
        let parsed = a.parse_args_with(|input: ParseStream<'_>| {
            while !input.is_empty() {
                let key: syn::Ident = input.parse()?;
                input.parse::<Token![=]>()?;
                let value: LitStr = input.parse()?;
                match key.to_string().as_str() {
                    "description" => found.description = Some(value),
                    "name" => found.name = Some(value),
                    _ => {
                        return Err(syn::Error::new(
                            key.span(),
                            "`#[arg]` takes `description = \"...\"` and `name = \"...\"`",
                        ));
                    }
                }
                if !input.is_empty() {
                    input.parse::<Token![,]>()?;
                }
            }
            Ok(())
        });
        if let Err(e) = parsed {
            error = Some(e);
        }
        false
    });
    error.map_or(Ok(found), Err)
}
