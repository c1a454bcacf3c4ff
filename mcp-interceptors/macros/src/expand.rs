//! The expansion: the item unchanged, then, inside `const _: () = { ... };`,
//! what runs a function (for the function form), the `make` fn that builds
//! the `Interceptor`, and its link-time registration.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ItemFn, Lit, LitStr, Meta, ReturnType};

use crate::kind::Kind;
use crate::options::{self, Mode, Options, Priority};
use crate::target::{self, Target};

/// Expands `#[validator(...)]` or `#[mutator(...)]` on `item`. On an error
/// the item is kept as written, so the error is the only one reported.
pub(crate) fn expand(kind: Kind, attr: TokenStream, item: TokenStream) -> TokenStream {
    match declaration(kind, attr, item.clone()) {
        Ok(tokens) => tokens,
        Err(error) => {
            let error = error.into_compile_error();
            quote!(#item #error)
        }
    }
}

/// The item and its registration.
fn declaration(kind: Kind, attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let target = target::parse(kind, item.clone())?;
    let options = options::parse(kind, attr)?;
    let name = match &options.name {
        Some(name) => name.clone(),
        None => target.default_name(kind)?,
    };
    let (support, value) = match &target {
        Target::Function(function) => (runner(kind, function), {
            let runner = kind.runner();
            quote!(#runner)
        }),
        Target::Implementation(block) => {
            let ty = &block.self_ty;
            let value = quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default());
            (TokenStream::new(), value)
        }
    };
    let interceptor = interceptor(kind, &options, &target, &name, value);
    let cfgs = target.attrs().iter().filter(|a| a.path().is_ident("cfg"));
    Ok(quote! {
        #item
        #(#cfgs)*
        const _: () = {
            #support
            fn __mcp_interceptors_make(_: &::mcp_server::boot::BootContext) -> ::mcp_server::seam::Item {
                ::mcp_interceptors::declared(#interceptor)
            }
            ::mcp_server::register!(::mcp_server::seam::Registration::new(
                ::mcp_server::origin!(),
                #name,
                0,
                __mcp_interceptors_make
            ));
        };
    })
}

/// A unit struct implementing the attribute's trait by calling `function`.
fn runner(kind: Kind, function: &ItemFn) -> TokenStream {
    let runner = kind.runner();
    let trait_ident = kind.trait_ident();
    let method = kind.method();
    let outcome = kind.outcome();
    let (conversion, convert) = kind.conversion();
    let callee = &function.sig.ident;
    // Errors about the argument's type point at the parameter, errors about
    // the returned type at the return type.
    let argument = match function.sig.inputs.first() {
        Some(input) => quote_spanned!(input.span()=> __invocation),
        None => quote!(__invocation),
    };
    let call = match function.sig.asyncness {
        Some(_) => quote!(#callee(#argument).await),
        None => quote!(#callee(#argument)),
    };
    let output_span = match &function.sig.output {
        ReturnType::Type(_, ty) => ty.span(),
        ReturnType::Default => Span::call_site(),
    };
    let converted = quote_spanned!(output_span=> ::mcp_interceptors::#conversion::#convert(#call));
    quote! {
        struct #runner;
        impl ::mcp_interceptors::#trait_ident for #runner {
            fn #method<'a>(
                &'a self,
                __invocation: &'a ::mcp_interceptors::Invocation,
            ) -> ::mcp_server::BoxFuture<
                'a,
                ::core::result::Result<::mcp_interceptors::#outcome, ::mcp_interceptors::Failure>,
            > {
                ::std::boxed::Box::pin(async move { #converted })
            }
        }
    }
}

/// The `Interceptor` builder expression: the constructor, then one call per
/// key given.
fn interceptor(
    kind: Kind,
    options: &Options,
    target: &Target,
    name: &LitStr,
    value: TokenStream,
) -> TokenStream {
    let constructor = kind.constructor();
    let description = options
        .description
        .clone()
        .or_else(|| doc_text(target.attrs()).map(|text| LitStr::new(&text, Span::call_site())));
    let mut calls = Vec::new();
    if let Some(version) = &options.version {
        calls.push(quote!(.version(#version)));
    }
    if let Some(description) = description {
        calls.push(quote!(.description(#description)));
    }
    calls.extend(hooks(options));
    calls.extend(options.mode.map(mode));
    if let Some(fail_open) = options.fail_open {
        calls.push(quote!(.fail_open(#fail_open)));
    }
    calls.extend(options.priority.map(priority));
    if let Some(compat) = &options.compat {
        calls.push(quote!(.compat(#compat, ::core::option::Option::None)));
    }
    if let Some(config) = &options.config {
        calls.push(quote_spanned!(config.span()=>
            .config_schema(::mcp_interceptors::config_schema_of::<#config>())
        ));
    }
    if let Some(millis) = options.timeout_ms {
        calls.push(quote!(.timeout(::core::time::Duration::from_millis(#millis))));
    }
    quote! {
        ::mcp_interceptors::Interceptor::#constructor(::mcp_server::origin!(), #name, #value)
            #(#calls)*
    }
}

/// One `.hook(phase, [...])` per phase given, request first.
fn hooks(options: &Options) -> Vec<TokenStream> {
    let phases = [
        (quote!(Request), &options.request),
        (quote!(Response), &options.response),
    ];
    phases
        .into_iter()
        .filter_map(|(phase, events)| {
            let events = events.as_ref()?;
            Some(quote!(.hook(::mcp_interceptors::wire::Phase::#phase, [#(#events),*])))
        })
        .collect()
}

/// `.mode(...)`.
fn mode(mode: Mode) -> TokenStream {
    let variant = match mode {
        Mode::Active => quote!(Active),
        Mode::Audit => quote!(Audit),
    };
    quote!(.mode(::mcp_interceptors::wire::Mode::#variant))
}

/// `.priority(n)` or `.priority_per_phase(request, response)`.
fn priority(priority: Priority) -> TokenStream {
    match priority {
        Priority::Both(n) => quote!(.priority(#n)),
        Priority::PerPhase { request, response } => {
            let (request, response) = (optional(request), optional(response));
            quote!(.priority_per_phase(#request, #response))
        }
    }
}

/// `Some(n)` or `None`, as tokens.
fn optional(value: Option<i32>) -> TokenStream {
    match value {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    }
}

/// The text of the item's `///` comments, each line trimmed, blank lines
/// left out, joined with spaces; `None` when there is none.
fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter_map(|attr| match &attr.meta {
            Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value().trim().to_owned()),
                _ => None,
            },
            _ => None,
        })
        .filter(|line| !line.is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join(" "))
}
