//! `#[prompt]`: parse the function, check it, expand to a prompt and its registration.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, LitStr, Pat};

use crate::attr;
use crate::doc;

const KEYS: &[&str] = &["name", "title", "description", "crate"];

/// What `#[prompt(...)]` says.
#[derive(Default)]
struct Options {
    name: Option<LitStr>,
    title: Option<LitStr>,
    description: Option<LitStr>,
    krate: Option<syn::Path>,
}

fn options(tokens: TokenStream) -> syn::Result<Options> {
    let mut options = Options::default();
    for entry in attr::entries(tokens)? {
        match entry.key.to_string().as_str() {
            "name" => options.name = Some(entry.string()?),
            "title" => options.title = Some(entry.string()?),
            "description" => options.description = Some(entry.string()?),
            "crate" => options.krate = Some(entry.path()?),
            _ => return Err(attr::unknown(&entry, "prompt", KEYS)),
        }
    }
    Ok(options)
}

/// How one parameter is filled.
enum Param {
    /// The request context.
    Context,
    /// One prompt argument.
    Argument {
        ident: syn::Ident,
        ty: Box<syn::Type>,
        description: Option<LitStr>,
        /// The name on the wire, when not the parameter's.
        name: Option<LitStr>,
    },
}

/// Reads `#[arg(description = "...")]`, removing it.
fn param(arg: &mut FnArg) -> syn::Result<Param> {
    let FnArg::Typed(typed) = arg else {
        return Err(syn::Error::new_spanned(
            arg,
            "`#[prompt]` goes on a free `async fn`; methods taking `self` are not supported",
        ));
    };
    let mut whole = false;
    let attr::ArgAttr { description, name } = attr::take_arg(&mut typed.attrs, &mut whole)?;
    if whole {
        return Err(syn::Error::new_spanned(
            &typed.pat,
            "`#[args]` is for tools; a prompt's arguments are its `String` parameters",
        ));
    }
    if attr::is_context(&typed.ty) {
        return Ok(Param::Context);
    }
    match &*typed.pat {
        Pat::Ident(p) => Ok(Param::Argument {
            ident: p.ident.clone(),
            ty: typed.ty.clone(),
            description,
            name,
        }),
        other => Err(syn::Error::new_spanned(
            other,
            "a prompt argument needs a plain name, such as `topic: String`",
        )),
    }
}

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = options(attr)?;
    let mut function: ItemFn = syn::parse2(item)?;
    attr::check_async(&function, "prompt")?;
    let fn_name = function.sig.ident.clone();
    let name = options
        .name
        .clone()
        .unwrap_or_else(|| LitStr::new(&fn_name.to_string(), fn_name.span()));
    if name.value().is_empty() {
        return Err(syn::Error::new(
            name.span(),
            "a prompt name cannot be empty: write `name = \"...\"`",
        ));
    }
    let mut params = Vec::new();
    for arg in function.sig.inputs.iter_mut() {
        params.push(param(arg)?);
    }

    let krate = attr::krate(options.krate.as_ref());
    let descriptors: Vec<TokenStream> = params
        .iter()
        .filter_map(|p| match p {
            Param::Argument {
                ident,
                ty,
                description,
                name,
            } => {
                let arg_name = wire_name(ident, name.as_ref());
                let description = attr::optional_string(description.as_ref());
                Some(quote_spanned! {ty.span()=>
                    #krate::core::prompts::PromptArgument {
                        name: ::std::string::String::from(#arg_name),
                        description: #description,
                        required: ::core::option::Option::Some(
                            <#ty as #krate::handler::prompt::PromptArgumentValue>::REQUIRED,
                        ),
                        ..::core::default::Default::default()
                    }
                })
            }
            Param::Context => None,
        })
        .collect();
    let arguments = if descriptors.is_empty() {
        quote!(::core::option::Option::None)
    } else {
        quote!(::core::option::Option::Some(::std::vec![#(#descriptors),*]))
    };
    let takes: Vec<TokenStream> = params
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            Param::Argument {
                ident, ty, name, ..
            } => {
                let local = format_ident!("__mcp_arg_{}", i);
                let arg_name = wire_name(ident, name.as_ref());
                Some(quote_spanned! {ty.span()=>
                    let #local = <#ty as #krate::handler::prompt::PromptArgumentValue>::take(&mut __mcp_args, #arg_name)?;
                })
            }
            Param::Context => None,
        })
        .collect();
    let args_binding = if takes.is_empty() {
        quote!(let _ = __mcp_params;)
    } else {
        quote!(let mut __mcp_args = #krate::handler::prompt::Arguments::new(__mcp_params.arguments);)
    };
    let call_args = params.iter().enumerate().map(|(i, p)| match p {
        Param::Context => quote!(__mcp_ctx.clone()),
        Param::Argument { .. } => {
            let local = format_ident!("__mcp_arg_{}", i);
            quote!(#local)
        }
    });

    let output = attr::output(&function);
    let description = options
        .description
        .clone()
        .or_else(|| doc::text(&function.attrs).map(|d| LitStr::new(&d, Span::call_site())));
    let title = attr::optional_string(options.title.as_ref());
    let description = attr::optional_string(description.as_ref());
    let make = format_ident!("__mcp_prompt_{}", fn_name);

    Ok(quote! {
        #function

        const _: () = {
            fn #make(_: &#krate::boot::BootContext) -> #krate::seam::Item {
                #krate::seam::Item::contributor(#krate::seam::contributor::contributor_fn(|__mcp_contributions| {
                    let __mcp_prompt = #krate::core::prompts::Prompt {
                        name: ::std::string::String::from(#name),
                        title: #title,
                        description: #description,
                        arguments: #arguments,
                        ..::core::default::Default::default()
                    };
                    let __mcp_handler = #krate::handler::prompt::get_handler::<#output, _, _>(
                        |__mcp_ctx: #krate::RequestContext,
                         __mcp_params: #krate::core::prompts::GetPromptRequestParams| async move {
                            #args_binding
                            #(#takes)*
                            let _ = &__mcp_ctx;
                            ::core::result::Result::<_, #krate::core::error::ErrorObject>::Ok(#fn_name(#(#call_args),*).await)
                        },
                    );
                    __mcp_contributions.prompt(__mcp_prompt, __mcp_handler);
                }))
            }

            #krate::register!(#krate::seam::Registration::new(#krate::origin!(), #name, 0, #make));
        };
    })
}

/// The name of an identifier without its `r#`.
/// The argument's name on the wire: `#[arg(name = "...")]`, else the parameter's.
fn wire_name(ident: &syn::Ident, name: Option<&LitStr>) -> LitStr {
    name.cloned()
        .unwrap_or_else(|| LitStr::new(&unraw(ident), ident.span()))
}

fn unraw(ident: &syn::Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}
