//! A third party's attributes that attach to a `#[tool]` by its resolved
//! name and register members of acme-notes' own kind, through
//! mcp-server's public macros only.

use proc_macro::TokenStream;
use quote::quote;
use syn::{ItemFn, LitStr};

/// `#[deferred]` next to `#[tool]`: the tool answers with a ticket and runs
/// later (acme-notes' alternate result).
#[proc_macro_attribute]
pub fn deferred(attr: TokenStream, item: TokenStream) -> TokenStream {
    let function = syn::parse_macro_input!(item as ItemFn);
    if !attr.is_empty() {
        return syn::Error::new_spanned(
            proc_macro2::TokenStream::from(attr),
            "`#[deferred]` takes no arguments",
        )
        .into_compile_error()
        .into();
    }
    let name = &function.sig.ident;
    quote! {
        #function
        ::mcp_server::customize_tool!(#name, ::acme_notes::Deferred);
    }
    .into()
}

/// `#[shortcut("key")]` on a `const TEXT: &str`: registers a shortcut of
/// acme-notes' own registration kind.
#[proc_macro_attribute]
pub fn shortcut(attr: TokenStream, item: TokenStream) -> TokenStream {
    let key = syn::parse_macro_input!(attr as LitStr);
    let constant = syn::parse_macro_input!(item as syn::ItemConst);
    let ident = &constant.ident;
    quote! {
        #constant
        const _: () = {
            fn __acme_shortcut(_: &::mcp_server::boot::BootContext) -> ::mcp_server::seam::Item {
                ::mcp_server::seam::Item::member::<::acme_notes::Shortcuts>(
                    ::acme_notes::Shortcut { key: #key, text: #ident },
                )
            }
            ::mcp_server::register!(::mcp_server::seam::Registration::new(
                ::mcp_server::origin!(), #key, 0, __acme_shortcut
            ));
        };
    }
    .into()
}
