//! `#[derive(Method)]` and `#[derive(Params)]`: declare a typed JSON-RPC
//! method in a few lines.
//!
//! Parse (the unit struct and its `#[mcp(...)]` attribute) → validate (a
//! unit struct without generics; `name`, `params`, `result` present; `eras`
//! one of three words; the name a plausible wire name) → expand (the tag's
//! traits, serializing to the wire name and refusing any other, then the
//! `Method` implementation).

use proc_macro2::TokenStream;
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{DeriveInput, Fields, Ident, LitStr, Path, Token, Type};

/// One `key = value` of `#[mcp(...)]`, its value a string, a type or a path.
enum Value {
    Str(LitStr),
    Type(Box<Type>),
}

struct Setting {
    key: Ident,
    value: Value,
}

impl Parse for Setting {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let key = if input.peek(Token![crate]) {
            let token: Token![crate] = input.parse()?;
            Ident::new("crate", token.span)
        } else {
            input.parse()?
        };
        input.parse::<Token![=]>()?;
        let value = if input.peek(LitStr) {
            Value::Str(input.parse()?)
        } else {
            Value::Type(Box::new(input.parse()?))
        };
        Ok(Self { key, value })
    }
}

struct Options {
    name: LitStr,
    params: Type,
    result: Option<Type>,
    eras: TokenStream,
    target: Option<LitStr>,
    krate: TokenStream,
}

fn string(setting: &Setting) -> syn::Result<LitStr> {
    match &setting.value {
        Value::Str(s) => Ok(s.clone()),
        Value::Type(_) => Err(syn::Error::new_spanned(
            &setting.key,
            format!(
                "`{}` takes a string: `{} = \"...\"`",
                setting.key, setting.key
            ),
        )),
    }
}

fn ty(setting: &Setting) -> syn::Result<Type> {
    match &setting.value {
        Value::Type(t) => Ok((**t).clone()),
        Value::Str(s) => Err(syn::Error::new_spanned(
            s,
            format!(
                "`{}` takes a type, not a string: `{} = MyType`",
                setting.key, setting.key
            ),
        )),
    }
}

/// What a derive declares: a request method or a notification.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Method,
    Notification,
}

fn options(input: &DeriveInput, shape: Shape) -> syn::Result<Options> {
    let attr = input
        .attrs
        .iter()
        .find(|a| a.path().is_ident("mcp"))
        .ok_or_else(|| {
            syn::Error::new_spanned(
                &input.ident,
                match shape {
                    Shape::Method => "`#[derive(Method)]` needs `#[mcp(name = \"vendor/method\", params = Params, result = Result)]`",
                    Shape::Notification => "`#[derive(Notification)]` needs `#[mcp(name = \"vendor/event\", params = Params)]`",
                },
            )
        })?;
    let settings = attr.parse_args_with(Punctuated::<Setting, Token![,]>::parse_terminated)?;
    let (mut name, mut params, mut result, mut eras, mut target, mut krate) =
        (None, None, None, None, None, None);
    for setting in &settings {
        match setting.key.to_string().as_str() {
            "name" => name = Some(string(setting)?),
            "params" => params = Some(ty(setting)?),
            "result" if shape == Shape::Method => result = Some(ty(setting)?),
            "target" if shape == Shape::Method => target = Some(string(setting)?),
            "eras" => {
                let s = string(setting)?;
                eras = Some((s.value(), s));
            }
            "crate" => match &setting.value {
                Value::Type(t) => match &**t {
                    Type::Path(p) => krate = Some(p.path.clone()),
                    _ => return Err(syn::Error::new_spanned(t, "`crate` takes a path")),
                },
                Value::Str(s) => return Err(syn::Error::new_spanned(s, "`crate` takes a path")),
            },
            other => {
                let expected = match shape {
                    Shape::Method => "`name`, `params`, `result`, `eras`, `target`, `crate`",
                    Shape::Notification => {
                        "`name`, `params`, `eras`, `crate` (a notification has no result and no target)"
                    }
                };
                return Err(syn::Error::new_spanned(
                    &setting.key,
                    format!("unknown `#[mcp]` key `{other}`; expected {expected}"),
                ));
            }
        }
    }
    let missing =
        |what: &str| syn::Error::new_spanned(attr, format!("`#[mcp(...)]` needs `{what} = ...`"));
    let name = name.ok_or_else(|| missing("name"))?;
    if name.value().is_empty() || name.value().chars().any(char::is_whitespace) {
        return Err(syn::Error::new_spanned(
            &name,
            "a method name is a non-empty wire name without spaces, such as `vendor/method`",
        ));
    }
    let krate: Path = krate.unwrap_or_else(|| syn::parse_quote!(::mcp_server));
    let eras = match eras.as_ref().map(|(v, s)| (v.as_str(), s)) {
        None | Some(("all", _)) => quote!(#krate::core::version::Era::ALL),
        Some(("modern", _)) => quote!(#krate::core::version::Era::MODERN),
        Some(("legacy", _)) => quote!(#krate::core::version::Era::LEGACY),
        Some((_, s)) => {
            return Err(syn::Error::new_spanned(
                s,
                "`eras` is `\"all\"` (the default), `\"modern\"` (2026-07-28) or `\"legacy\"` (2025-11-25)",
            ));
        }
    };
    Ok(Options {
        name,
        params: params.ok_or_else(|| missing("params"))?,
        result: match shape {
            Shape::Method => Some(result.ok_or_else(|| missing("result"))?),
            Shape::Notification => None,
        },
        eras,
        target,
        krate: quote!(#krate),
    })
}

pub(crate) fn expand_method(input: TokenStream) -> syn::Result<TokenStream> {
    expand(input, Shape::Method)
}

pub(crate) fn expand_notification(input: TokenStream) -> syn::Result<TokenStream> {
    expand(input, Shape::Notification)
}

fn expand(input: TokenStream, shape: Shape) -> syn::Result<TokenStream> {
    let input: DeriveInput = syn::parse2(input)?;
    let derive = match shape {
        Shape::Method => "Method",
        Shape::Notification => "Notification",
    };
    let syn::Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            format!("`#[derive({derive})]` goes on a unit struct: `struct Forecast;`"),
        ));
    };
    if !matches!(data.fields, Fields::Unit) || !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.ident,
            format!(
                "`#[derive({derive})]` goes on a unit struct without generics: `struct Forecast;`"
            ),
        ));
    }
    let Options {
        name,
        params,
        result,
        eras,
        target,
        krate,
    } = options(&input, shape)?;
    let tag = &input.ident;
    let serde = quote!(#krate::__private::serde);
    let target = target.map(|t| quote!(const TARGET: ::core::option::Option<&'static str> = ::core::option::Option::Some(#t);));
    let declaration = match result {
        Some(result) => quote! {
            impl #krate::core::method::Method for #tag {
                const NAME: &'static str = #name;
                const ERAS: &'static [#krate::core::version::Era] = #eras;
                type Params = #params;
                type Result = #result;
                #target
            }
        },
        None => quote! {
            impl #krate::core::method::NotificationMethod for #tag {
                const NAME: &'static str = #name;
                const ERAS: &'static [#krate::core::version::Era] = #eras;
                type Params = #params;
            }
        },
    };
    Ok(quote! {
        impl ::core::clone::Clone for #tag {
            fn clone(&self) -> Self { *self }
        }
        impl ::core::marker::Copy for #tag {}
        impl ::core::default::Default for #tag {
            fn default() -> Self { #tag }
        }
        impl ::core::fmt::Debug for #tag {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(#name)
            }
        }
        impl #serde::Serialize for #tag {
            fn serialize<S: #serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(#name)
            }
        }
        impl<'de> #serde::Deserialize<'de> for #tag {
            fn deserialize<D: #serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                struct Tag;
                impl<'de> #serde::de::Visitor<'de> for Tag {
                    type Value = #tag;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(::core::concat!("the string \"", #name, "\""))
                    }
                    fn visit_str<E: #serde::de::Error>(self, value: &str) -> ::core::result::Result<#tag, E> {
                        if value == #name {
                            ::core::result::Result::Ok(#tag)
                        } else {
                            ::core::result::Result::Err(E::invalid_value(#serde::de::Unexpected::Str(value), &self))
                        }
                    }
                }
                deserializer.deserialize_str(Tag)
            }
        }
        #declaration
    })
}

pub(crate) fn expand_params(input: TokenStream) -> syn::Result<TokenStream> {
    let input: DeriveInput = syn::parse2(input)?;
    let krate = input
        .attrs
        .iter()
        .find(|a| a.path().is_ident("mcp"))
        .map(|a| {
            a.parse_args_with(Punctuated::<Setting, Token![,]>::parse_terminated)
                .and_then(|settings| {
                    for setting in settings {
                        if setting.key != "crate" {
                            return Err(syn::Error::new_spanned(
                                &setting.key,
                                "`#[derive(Params)]` takes only `#[mcp(crate = path)]`",
                            ));
                        }
                        if let Value::Type(t) = setting.value
                            && let Type::Path(p) = *t
                        {
                            let path = p.path;
                            return Ok(quote!(#path));
                        }
                    }
                    Ok(quote!(::mcp_server))
                })
        })
        .transpose()?
        .unwrap_or_else(|| quote!(::mcp_server));
    let ty = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics #krate::core::method::Params for #ty #ty_generics #where_clause {}
    })
}
