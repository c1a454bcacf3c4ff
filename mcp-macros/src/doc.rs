//! Doc comments, read as descriptions.

use syn::{Attribute, Expr, Lit, Meta};

/// The text of `///` comments, lines joined with spaces, or `None`.
pub(crate) fn text(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value().trim().to_owned()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let text = lines.join(" ").trim().to_owned();
    (!text.is_empty()).then_some(text)
}
