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
