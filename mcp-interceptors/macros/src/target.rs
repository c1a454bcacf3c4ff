//! What the attribute goes on: a function taking `&Invocation`, or the
//! `impl` block of the attribute's trait for a `Default` type.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::ext::IdentExt;
use syn::{GenericParam, Item, ItemFn, ItemImpl, LitStr, ReturnType, Type};

use crate::kind::Kind;

/// The item under the attribute, checked.
pub(crate) enum Target {
    /// A free function: the attribute implements the trait for it.
    Function(ItemFn),
    /// An `impl Validate for Type` (or `Mutate`) block: the type is the
    /// interceptor.
    Implementation(ItemImpl),
}

/// Reads the item under the attribute and checks it is one it goes on.
pub(crate) fn parse(kind: Kind, item: TokenStream) -> syn::Result<Target> {
    match syn::parse2::<Item>(item)? {
        Item::Fn(function) => {
            check_function(kind, &function)?;
            Ok(Target::Function(function))
        }
        Item::Impl(block) => {
            check_block(kind, &block)?;
            Ok(Target::Implementation(block))
        }
        other => Err(wrong_item(kind, &other)),
    }
}

impl Target {
    /// The attributes written on the item.
    pub(crate) fn attrs(&self) -> &[syn::Attribute] {
        match self {
            Target::Function(function) => &function.attrs,
            Target::Implementation(block) => &block.attrs,
        }
    }

    /// The wire name when the attribute gives none: the function's name as
    /// written, or the type's.
    pub(crate) fn default_name(&self, kind: Kind) -> syn::Result<LitStr> {
        match self {
            Target::Function(function) => {
                let ident = &function.sig.ident;
                Ok(LitStr::new(&ident.unraw().to_string(), ident.span()))
            }
            Target::Implementation(block) => type_name(&block.self_ty).ok_or_else(|| {
                syn::Error::new_spanned(
                    &block.self_ty,
                    format!(
                        "`#[{}]` names the interceptor after its type, and this type has no name: \
                         write `name = \"...\"`",
                        kind.attr()
                    ),
                )
            }),
        }
    }
}

/// The last identifier of a type path (`Guard` in `crate::guards::Guard`).
fn type_name(ty: &Type) -> Option<LitStr> {
    let Type::Path(path) = ty else {
        return None;
    };
    let ident = &path.path.segments.last()?.ident;
    Some(LitStr::new(&ident.unraw().to_string(), ident.span()))
}

/// What the attribute accepts, as messages say it.
fn accepted(kind: Kind) -> String {
    format!(
        "a function taking `&Invocation`, or `impl {} for Type`",
        kind.trait_name()
    )
}

/// The error for an item the attribute does not go on, spanned on its
/// keyword and name.
fn wrong_item(kind: Kind, item: &Item) -> syn::Error {
    let (tokens, what) = match item {
        Item::Struct(s) => named(&s.struct_token, &s.ident, "struct"),
        Item::Enum(e) => named(&e.enum_token, &e.ident, "enum"),
        Item::Trait(t) => named(&t.trait_token, &t.ident, "trait"),
        Item::Type(t) => named(&t.type_token, &t.ident, "type alias"),
        Item::Mod(m) => named(&m.mod_token, &m.ident, "module"),
        Item::Const(c) => named(&c.const_token, &c.ident, "constant"),
        Item::Static(s) => named(&s.static_token, &s.ident, "static"),
        other => (other.to_token_stream(), "this item".to_owned()),
    };
    syn::Error::new_spanned(
        tokens,
        format!(
            "`#[{}]` goes on {}, not on {what}",
            kind.attr(),
            accepted(kind)
        ),
    )
}

/// An item's keyword and name, and how a message names it.
fn named(keyword: &impl ToTokens, ident: &syn::Ident, what: &str) -> (TokenStream, String) {
    (quote!(#keyword #ident), format!("the {what} `{ident}`"))
}

/// Checks a function is free, not generic, and takes one argument.
fn check_function(kind: Kind, function: &ItemFn) -> syn::Result<()> {
    let sig = &function.sig;
    if let Some(receiver) = sig.receiver() {
        return Err(syn::Error::new_spanned(
            receiver,
            format!(
                "`#[{}]` goes on a free function taking `&Invocation`, not on a method: \
                 move it out of the `impl` block, or put `#[{}]` on `impl {} for Type`",
                kind.attr(),
                kind.attr(),
                kind.trait_name()
            ),
        ));
    }
    if let Some(param) = sig
        .generics
        .params
        .iter()
        .find(|p| !matches!(p, GenericParam::Lifetime(_)))
    {
        return Err(syn::Error::new_spanned(
            param,
            format!(
                "`#[{}]` registers one concrete function: remove its type and const parameters",
                kind.attr()
            ),
        ));
    }
    if sig.inputs.len() != 1 || sig.variadic.is_some() {
        let message = format!(
            "`#[{}]` functions take one argument, `invocation: &Invocation`; this one takes {}",
            kind.attr(),
            sig.inputs.len()
        );
        return Err(if sig.inputs.is_empty() {
            syn::Error::new(sig.paren_token.span.join(), message)
        } else {
            syn::Error::new_spanned(&sig.inputs, message)
        });
    }
    if let ReturnType::Default = sig.output {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            format!(
                "`#[{}]` functions return a `{}` (or a `Result<{}, E>`): add the return type",
                kind.attr(),
                kind.outcome(),
                kind.outcome()
            ),
        ));
    }
    Ok(())
}

/// Checks a block is `impl Validate for Type` (or `Mutate`), plain.
fn check_block(kind: Kind, block: &ItemImpl) -> syn::Result<()> {
    let Some((bang, path, _)) = &block.trait_ else {
        return Err(syn::Error::new_spanned(
            &block.self_ty,
            format!(
                "`#[{}]` goes on `impl {} for Type`, not on an inherent `impl` block",
                kind.attr(),
                kind.trait_name()
            ),
        ));
    };
    if let Some(bang) = bang {
        return Err(syn::Error::new_spanned(
            bang,
            format!("`#[{}]` cannot register a negative impl", kind.attr()),
        ));
    }
    if !block.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &block.generics,
            format!(
                "`#[{}]` registers one concrete type: remove the impl's generic parameters",
                kind.attr()
            ),
        ));
    }
    let implemented = path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    if implemented == kind.trait_name() {
        return Ok(());
    }
    let hint = if implemented == kind.other().trait_name() {
        format!(": write `#[{}]` on it instead", kind.other().attr())
    } else {
        String::new()
    };
    Err(syn::Error::new_spanned(
        path,
        format!(
            "`#[{}]` expects `impl {} for Type`, but this block implements `{implemented}`{hint}",
            kind.attr(),
            kind.trait_name()
        ),
    ))
}
