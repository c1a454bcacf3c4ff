//! `#[completion]`: parse the function, check it, expand to a completion
//! handler for one prompt argument or template variable, and its registration.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{FnArg, ItemFn, LitStr};

use crate::attr;

const KEYS: &[&str] = &[
    "prompt",
    "argument",
    "resource_template",
    "variable",
    "crate",
];

/// What `#[completion(...)]` says.
#[derive(Default)]
struct Options {
    prompt: Option<LitStr>,
    argument: Option<LitStr>,
    resource_template: Option<LitStr>,
    variable: Option<LitStr>,
    krate: Option<syn::Path>,
}

fn options(tokens: TokenStream) -> syn::Result<Options> {
    let mut options = Options::default();
    for entry in attr::entries(tokens)? {
        match entry.key.to_string().as_str() {
            "prompt" => options.prompt = Some(entry.string()?),
            "argument" => options.argument = Some(entry.string()?),
            "resource_template" => options.resource_template = Some(entry.string()?),
            "variable" => options.variable = Some(entry.string()?),
            "crate" => options.krate = Some(entry.path()?),
            _ => return Err(attr::unknown(&entry, "completion", KEYS)),
        }
    }
    Ok(options)
}

/// What is completed: `(variant, owner, name)` tokens for `CompletionRef`.
fn target(options: &Options, krate: &TokenStream) -> syn::Result<(TokenStream, String)> {
    match (
        &options.prompt,
        &options.argument,
        &options.resource_template,
        &options.variable,
    ) {
        (Some(prompt), Some(argument), None, None) => Ok((
            quote!(#krate::seam::contributor::CompletionRef::PromptArgument {
                prompt: ::std::string::String::from(#prompt),
                argument: ::std::string::String::from(#argument),
            }),
            format!("{}/{}", prompt.value(), argument.value()),
        )),
        (None, None, Some(template), Some(variable)) => Ok((
            quote!(#krate::seam::contributor::CompletionRef::TemplateVariable {
                uri_template: ::std::string::String::from(#template),
                variable: ::std::string::String::from(#variable),
            }),
            format!("{}/{}", template.value(), variable.value()),
        )),
        (Some(prompt), None, None, None) => Err(syn::Error::new(
            prompt.span(),
            "say which argument of the prompt this completes: add `argument = \"...\"`",
        )),
        (None, None, Some(template), None) => Err(syn::Error::new(
            template.span(),
            "say which variable of the template this completes: add `variable = \"...\"`",
        )),
        (None, None, None, None) => Err(syn::Error::new(
            Span::call_site(),
            "say what this completes: write `#[completion(prompt = \"...\", argument = \"...\")]` \
             or `#[completion(resource_template = \"...\", variable = \"...\")]`",
        )),
        _ => Err(syn::Error::new(
            Span::call_site(),
            "a completion completes either a prompt argument (`prompt` and `argument`) \
             or a template variable (`resource_template` and `variable`), not a mix",
        )),
    }
}

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = options(attr)?;
    let function: ItemFn = syn::parse2(item)?;
    attr::check_async(&function, "completion")?;
    let krate = attr::krate(options.krate.as_ref());
    let (reference, label) = target(&options, &krate)?;

    let mut call_args = Vec::new();
    let mut values = 0;
    for arg in &function.sig.inputs {
        match arg {
            FnArg::Typed(typed) if attr::is_context(&typed.ty) => {
                call_args.push(quote!(__mcp_ctx.clone()));
            }
            FnArg::Typed(typed) if values == 0 => {
                values += 1;
                call_args.push(quote!(__mcp_value));
            }
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "a completion function takes the value typed so far and an optional context: \
                     `async fn(value: String, ctx: RequestContext)`",
                ));
            }
        }
    }
    if values == 0 {
        return Err(syn::Error::new_spanned(
            &function.sig.inputs,
            "a completion function takes the value typed so far: add `value: String`",
        ));
    }

    let fn_name = function.sig.ident.clone();
    let output = attr::output(&function);
    let label = LitStr::new(&label, Span::call_site());
    let make = format_ident!("__mcp_completion_{}", fn_name);

    Ok(quote! {
        #function

        const _: () = {
            fn #make(_: &#krate::boot::BootContext) -> #krate::seam::Item {
                #krate::seam::Item::contributor(#krate::seam::contributor::contributor_fn(|__mcp_contributions| {
                    let __mcp_handler = #krate::handler::completion::complete_handler::<#output, _, _>(
                        |__mcp_ctx: #krate::RequestContext, __mcp_value: ::std::string::String| async move {
                            let _ = &__mcp_ctx;
                            #fn_name(#(#call_args),*).await
                        },
                    );
                    __mcp_contributions.completion(#reference, __mcp_handler);
                }))
            }

            #krate::register!(#krate::seam::Registration::new(#krate::origin!(), #label, 0, #make));
        };
    })
}
