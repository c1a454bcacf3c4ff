//! `#[method(M)]`: an `async fn(ctx: RequestContext, params: P) -> Result<R, ErrorObject>`
//! becomes the handler of the JSON-RPC method `M`, contributed at link time.
//!
//! Parse (the method type, then `key = value` entries, then the function) →
//! validate (keys, `async`, no generics, two parameters) → expand (the
//! function unchanged, then a contributor calling `Contributions::method::<M>`).
//! That `P` is `M::Params` and `R` is `M::Result` the compiler checks.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, LitStr, Path, ReturnType, Token};

use crate::attr::Entry;

/// What `#[method(...)]` says.
struct Options {
    method: Path,
    name: Option<LitStr>,
    krate: Option<Path>,
}

fn options(tokens: TokenStream) -> syn::Result<Options> {
    let parser = |input: ParseStream<'_>| {
        if input.is_empty() {
            return Err(input.error(
                "`#[method]` names the method it serves: `#[method(MyMethod)]`, where `MyMethod: mcp_server::core::method::Method`",
            ));
        }
        let method: Path = input.parse()?;
        let entries = if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            Punctuated::<Entry, Token![,]>::parse_terminated(input)?
        } else {
            Punctuated::new()
        };
        Ok((method, entries))
    };
    let (method, entries) = parser.parse2(tokens)?;
    let mut options = Options {
        method,
        name: None,
        krate: None,
    };
    for entry in entries {
        match entry.key.to_string().as_str() {
            "name" => options.name = Some(entry.string()?),
            "crate" => options.krate = Some(entry.path()?),
            other => {
                return Err(syn::Error::new_spanned(
                    &entry.key,
                    format!(
                        "unknown `#[method]` key `{other}`; expected the method type first, then `name`, `crate`"
                    ),
                ));
            }
        }
    }
    Ok(options)
}

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = options(attr)?;
    let function: ItemFn = syn::parse2(item)?;
    let sig = &function.sig;
    if sig.asyncness.is_none() {
        return Err(syn::Error::new(
            sig.fn_token.span,
            "`#[method]` needs an `async fn`: write `async fn` here",
        ));
    }
    if !sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &sig.generics,
            "a method handler cannot be generic",
        ));
    }
    if let Some(receiver) = sig.inputs.iter().find(|a| matches!(a, FnArg::Receiver(_))) {
        return Err(syn::Error::new_spanned(
            receiver,
            "`#[method]` goes on a free `async fn`; methods taking `self` are not supported",
        ));
    }
    if sig.inputs.len() != 2 {
        return Err(syn::Error::new(
            sig.paren_token.span.join(),
            "a method handler takes the request context and the params: \
             `(ctx: RequestContext, params: <M as Method>::Params)`",
        ));
    }
    if matches!(sig.output, ReturnType::Default) {
        return Err(syn::Error::new(
            sig.paren_token.span.close(),
            "a method handler returns `Result<<M as Method>::Result, ErrorObject>`: add the return type",
        ));
    }

    let krate = options
        .krate
        .clone()
        .map(|p| quote!(#p))
        .unwrap_or_else(|| quote!(::mcp_server));
    let fn_name = &sig.ident;
    let name = options
        .name
        .clone()
        .unwrap_or_else(|| LitStr::new(&fn_name.to_string(), fn_name.span()));
    let method = &options.method;
    let params_span = sig.inputs[1].span();
    let make = format_ident!("__mcp_method_{}", fn_name);
    let params = quote_spanned!(params_span=> params);

    Ok(quote! {
        #function

        const _: () = {
            fn #make(_: &#krate::boot::BootContext) -> #krate::seam::Item {
                #krate::seam::Item::contributor(#krate::seam::contributor::contributor_fn(|__mcp_contributions| {
                    __mcp_contributions.method::<#method>(#krate::handler::handler_fn::<#method, _, _, _>(
                        |ctx: #krate::RequestContext, params: <#method as #krate::core::method::Method>::Params| {
                            #fn_name(ctx, #params)
                        },
                    ));
                }))
            }

            #krate::register!(#krate::seam::Registration::new(#krate::origin!(), #name, 0, #make));
        };
    })
}
