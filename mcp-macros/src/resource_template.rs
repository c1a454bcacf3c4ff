//! `#[resource_template]`: parse the function, bind its parameters to the
//! template's variables, expand to a resource template and its registration.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, LitStr, Pat};

use crate::attr;
use crate::doc;

const KEYS: &[&str] = &[
    "uri_template",
    "name",
    "title",
    "description",
    "mime_type",
    "crate",
];

/// What `#[resource_template(...)]` says.
#[derive(Default)]
struct Options {
    uri_template: Option<LitStr>,
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
            "uri_template" => options.uri_template = Some(entry.string()?),
            "name" => options.name = Some(entry.string()?),
            "title" => options.title = Some(entry.string()?),
            "description" => options.description = Some(entry.string()?),
            "mime_type" => options.mime_type = Some(entry.string()?),
            "crate" => options.krate = Some(entry.path()?),
            _ => return Err(attr::unknown(&entry, "resource_template", KEYS)),
        }
    }
    Ok(options)
}

/// The variable names of a URI template, in order, as the server's matcher
/// reads them: `{var}`, `{+var}`, `{#var}`, `{a,b}`, `{var*}`.
fn variables(template: &LitStr) -> syn::Result<Vec<String>> {
    let source = template.value();
    let mut names = Vec::new();
    let mut rest = source.as_str();
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| c + open) else {
            return Err(syn::Error::new(
                template.span(),
                "this URI template has an unclosed `{`: close each variable, as in `{name}`",
            ));
        };
        let expression = &rest[open + 1..close];
        let expression = expression.strip_prefix(['+', '#']).unwrap_or(expression);
        let before = names.len();
        names.extend(
            expression
                .split(',')
                .map(|n| n.trim_end_matches('*').to_owned())
                .filter(|n| !n.is_empty()),
        );
        if names.len() == before {
            return Err(syn::Error::new(
                template.span(),
                "this URI template has an empty `{}`: name the variable, as in `{name}`",
            ));
        }
        rest = &rest[close + 1..];
    }
    Ok(names)
}

/// How one parameter is filled.
enum Param {
    /// The request context.
    Context,
    /// A template variable of this name, parsed into this type.
    Variable { name: String, ty: Box<syn::Type> },
}

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = options(attr)?;
    let function: ItemFn = syn::parse2(item)?;
    attr::check_async(&function, "resource_template")?;
    let Some(uri_template) = options.uri_template.clone() else {
        return Err(syn::Error::new(
            Span::call_site(),
            "`#[resource_template]` needs its URI template: write `#[resource_template(uri_template = \"scheme://{name}\")]`",
        ));
    };
    let variables = variables(&uri_template)?;
    let listed = variables
        .iter()
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ");

    let mut params = Vec::new();
    for arg in &function.sig.inputs {
        let FnArg::Typed(typed) = arg else {
            return Err(syn::Error::new_spanned(
                arg,
                "`#[resource_template]` goes on a free `async fn`; methods taking `self` are not supported",
            ));
        };
        if attr::is_context(&typed.ty) {
            params.push(Param::Context);
            continue;
        }
        let Pat::Ident(pat) = &*typed.pat else {
            return Err(syn::Error::new_spanned(
                &typed.pat,
                "a template variable parameter needs a plain name, the variable's, such as `city: String`",
            ));
        };
        let name = pat.ident.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
        if !variables.contains(&name) {
            let message = if variables.is_empty() {
                format!(
                    "`{name}` names no variable of `{}`, which has none: remove it, or add `{{{name}}}` to the template",
                    uri_template.value()
                )
            } else {
                format!(
                    "`{name}` names no variable of `{}`: rename it to one of {listed}, or add `{{{name}}}` to the template",
                    uri_template.value()
                )
            };
            return Err(syn::Error::new_spanned(&pat.ident, message));
        }
        params.push(Param::Variable {
            name,
            ty: typed.ty.clone(),
        });
    }
    for variable in &variables {
        let bound = params
            .iter()
            .any(|p| matches!(p, Param::Variable { name, .. } if name == variable));
        if !bound {
            return Err(syn::Error::new(
                uri_template.span(),
                format!(
                    "template variable `{variable}` has no parameter: add `{variable}: String` (or any `FromStr` type) to the function"
                ),
            ));
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
    let reads = params.iter().enumerate().filter_map(|(i, p)| match p {
        Param::Variable { name, ty } => {
            let local = format_ident!("__mcp_var_{}", i);
            Some(quote_spanned! {ty.span()=>
                let #local = #krate::handler::resource::variable::<#ty>(&__mcp_ctx, #name)?;
            })
        }
        Param::Context => None,
    });
    let call_args = params.iter().enumerate().map(|(i, p)| match p {
        Param::Context => quote!(__mcp_ctx.clone()),
        Param::Variable { .. } => {
            let local = format_ident!("__mcp_var_{}", i);
            quote!(#local)
        }
    });
    let make = format_ident!("__mcp_resource_template_{}", fn_name);

    Ok(quote! {
        #function

        const _: () = {
            fn #make(_: &#krate::boot::BootContext) -> #krate::seam::Item {
                #krate::seam::Item::contributor(#krate::seam::contributor::contributor_fn(|__mcp_contributions| {
                    let __mcp_template = #krate::core::resources::ResourceTemplate {
                        uri_template: ::std::string::String::from(#uri_template),
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
                            #(#reads)*
                            ::core::result::Result::<_, #krate::core::error::ErrorObject>::Ok(#fn_name(#(#call_args),*).await)
                        },
                    );
                    __mcp_contributions.resource_template(__mcp_template, __mcp_handler);
                }))
            }

            #krate::register!(#krate::seam::Registration::new(#krate::origin!(), #uri_template, 0, #make));
        };
    })
}
