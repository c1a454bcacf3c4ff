//! `#[resource]`: parse the function, check it, expand to a resource and its registration.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{FnArg, ItemFn, LitStr};

use crate::attr;
use crate::doc;

const KEYS: &[&str] = &["uri", "name", "title", "description", "mime_type", "crate"];

/// What `#[resource(...)]` says.
#[derive(Default)]
struct Options {
    uri: Option<LitStr>,
    name: Option<LitStr>,
    title: Option<LitStr>,
    description: Option<LitStr>,
    mime_type: Option<LitStr>,
    krate: Option<syn::Path>,
}

fn options(tokens: TokenStream) -> syn::Result<Options> {
    let mut options = Options::default();
    for entry in attr::entries(tokens)? {
        match entry.key.to_string().as_str() {
            "uri" => options.uri = Some(entry.string()?),
            "name" => options.name = Some(entry.string()?),
            "title" => options.title = Some(entry.string()?),
            "description" => options.description = Some(entry.string()?),
            "mime_type" => options.mime_type = Some(entry.string()?),
            "crate" => options.krate = Some(entry.path()?),
            _ => return Err(attr::unknown(&entry, "resource", KEYS)),
        }
    }
    Ok(options)
}

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = options(attr)?;
    let function: ItemFn = syn::parse2(item)?;
    attr::check_async(&function, "resource")?;
    let Some(uri) = options.uri.clone() else {
        return Err(syn::Error::new(
            Span::call_site(),
            "`#[resource]` needs the resource's URI: write `#[resource(uri = \"scheme://path\")]`",
        ));
    };
    if uri.value().contains('{') {
        return Err(syn::Error::new(
            uri.span(),
            "this URI has template variables: use `#[resource_template(uri_template = \"...\")]` instead",
        ));
    }
    if uri.value().is_empty() {
        return Err(syn::Error::new(
            uri.span(),
            "a resource URI cannot be empty: write `uri = \"scheme://path\"`",
        ));
    }
    let mut call_args = Vec::new();
    for arg in &function.sig.inputs {
        match arg {
            FnArg::Typed(typed) if attr::is_context(&typed.ty) => {
                call_args.push(quote!(__mcp_ctx.clone()));
            }
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "a `#[resource]` function takes no arguments but an optional `ctx: RequestContext`; \
                     for a URI with variables use `#[resource_template(uri_template = \"...\")]`",
                ));
            }
        }
    }

    let fn_name = function.sig.ident.clone();
    let name = options
        .name
        .clone()
        .unwrap_or_else(|| LitStr::new(&fn_name.to_string(), fn_name.span()));
    let krate = attr::krate(options.krate.as_ref());
    let output = attr::output(&function);
    let description = options
        .description
        .clone()
        .or_else(|| doc::text(&function.attrs).map(|d| LitStr::new(&d, Span::call_site())));
    let title = attr::optional_string(options.title.as_ref());
    let description = attr::optional_string(description.as_ref());
    let mime_type = attr::optional_string(options.mime_type.as_ref());
    let mime_str = match &options.mime_type {
        Some(m) => quote!(::core::option::Option::Some(#m)),
        None => quote!(::core::option::Option::None),
    };
    let make = format_ident!("__mcp_resource_{}", fn_name);

    Ok(quote! {
        #function

        const _: () = {
            fn #make(_: &#krate::boot::BootContext) -> #krate::seam::Item {
                #krate::seam::Item::contributor(#krate::seam::contributor::contributor_fn(|__mcp_contributions| {
                    let __mcp_resource = #krate::core::resources::Resource {
                        uri: ::std::string::String::from(#uri),
                        name: ::std::string::String::from(#name),
                        title: #title,
                        description: #description,
                        mime_type: #mime_type,
                        ..::core::default::Default::default()
                    };
                    let __mcp_handler = #krate::handler::resource::read_handler::<#output, _, _>(
                        #mime_str,
                        |__mcp_ctx: #krate::RequestContext,
                         __mcp_params: #krate::core::resources::ReadResourceRequestParams| async move {
                            let _ = (&__mcp_ctx, __mcp_params);
                            ::core::result::Result::<_, #krate::core::error::ErrorObject>::Ok(#fn_name(#(#call_args),*).await)
                        },
                    );
                    __mcp_contributions.resource(__mcp_resource, __mcp_handler);
                }))
            }

            #krate::register!(#krate::seam::Registration::new(#krate::origin!(), #uri, 0, #make));
        };
    })
}
