//! The attribute's arguments as written: `key`, `key = value` and
//! `key(...)` entries, separated by commas, before any key is understood.

use proc_macro2::{Span, TokenStream};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Lit, Token, Type, parenthesized, token};

/// What follows a key.
pub(crate) enum Value {
    /// Nothing: `key` alone.
    Absent,
    /// An expression: `key = value`.
    Expr(Expr),
    /// A type: `config = Type`.
    Type(Type),
    /// A parenthesized list: `key(...)`, with the parentheses' span.
    Nested(Span, TokenStream),
}

/// One entry of the list.
pub(crate) struct Entry {
    /// The key, as written (keywords included, so they can be refused by name).
    pub(crate) key: Ident,
    /// What follows it.
    pub(crate) value: Value,
}

/// The keys whose value is a type rather than an expression.
const TYPE_KEYS: [&str; 1] = ["config"];

impl Parse for Entry {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let key = Ident::parse_any(input)?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            value_after_equals(&key, input)?
        } else if input.peek(token::Paren) {
            let content;
            let parens = parenthesized!(content in input);
            Value::Nested(parens.span.join(), content.parse()?)
        } else {
            Value::Absent
        };
        Ok(Self { key, value })
    }
}

/// The value of `key = ...`: a type for the keys that take one, an
/// expression otherwise.
fn value_after_equals(key: &Ident, input: ParseStream<'_>) -> syn::Result<Value> {
    let name = key.unraw().to_string();
    if !TYPE_KEYS.contains(&name.as_str()) {
        return Ok(Value::Expr(input.parse()?));
    }
    if input.peek(Lit) {
        let lit: Lit = input.parse()?;
        return Err(syn::Error::new(
            lit.span(),
            format!("`{name}` takes a type, not a literal: `{name} = MyConfig`"),
        ));
    }
    Ok(Value::Type(input.parse()?))
}

/// Parses a comma-separated list of entries.
pub(crate) fn parse(tokens: TokenStream) -> syn::Result<Vec<Entry>> {
    let list = Punctuated::<Entry, Token![,]>::parse_terminated.parse2(tokens)?;
    Ok(list.into_iter().collect())
}

impl Entry {
    /// The key without any `r#`.
    pub(crate) fn name(&self) -> String {
        self.key.unraw().to_string()
    }

    /// An error about the value, spanned on it (on the key when there is
    /// no value).
    pub(crate) fn value_error(&self, message: impl std::fmt::Display) -> syn::Error {
        match &self.value {
            Value::Absent => syn::Error::new_spanned(&self.key, message),
            Value::Expr(expr) => syn::Error::new_spanned(expr, message),
            Value::Type(ty) => syn::Error::new_spanned(ty, message),
            Value::Nested(span, _) => syn::Error::new(*span, message),
        }
    }
}
