//! `#[tool]`: parse the function, check it, expand to a typed tool and its registration.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, LitStr, Pat, ReturnType, Type};

use crate::attr;
use crate::doc;

/// What `#[tool(...)]` says.
#[derive(Default)]
struct Options {
    name: Option<LitStr>,
    title: Option<LitStr>,
    description: Option<LitStr>,
    read_only: Option<bool>,
    destructive: Option<bool>,
    idempotent: Option<bool>,
    open_world: Option<bool>,
    input_schema: Option<LitStr>,
    krate: Option<syn::Path>,
}

fn options(tokens: TokenStream) -> syn::Result<Options> {
    let mut options = Options::default();
    for entry in attr::entries(tokens)? {
        match entry.key.to_string().as_str() {
            "name" => options.name = Some(entry.string()?),
            "title" => options.title = Some(entry.string()?),
            "description" => options.description = Some(entry.string()?),
            "read_only" => options.read_only = Some(entry.flag()?),
            "destructive" => options.destructive = Some(entry.flag()?),
            "idempotent" => options.idempotent = Some(entry.flag()?),
            "open_world" => options.open_world = Some(entry.flag()?),
            "input_schema" => {
                let schema = entry.string()?;
                check_schema(&schema)?;
                options.input_schema = Some(schema);
            }
            "crate" => options.krate = Some(entry.path()?),
            other => {
                return Err(syn::Error::new_spanned(
                    &entry.key,
                    format!(
                        "unknown `#[tool]` key `{other}`; expected one of `name`, `title`, `description`, \
                         `read_only`, `destructive`, `idempotent`, `open_world`, `input_schema`, `crate`"
                    ),
                ));
            }
        }
    }
    Ok(options)
}

/// A hand-written schema must at least be a JSON object; its keywords are the author's.
fn check_schema(schema: &LitStr) -> syn::Result<()> {
    let text = schema.value();
    let trimmed = text.trim();
    if !(trimmed.starts_with('{') && trimmed.ends_with('}')) {
        return Err(syn::Error::new(
            schema.span(),
            "`input_schema` must be a JSON object: `input_schema = r#\"{\"type\": \"object\"}\"#`",
        ));
    }
    Ok(())
}

/// The tool-name grammar: 1 to 128 characters of `A-Z a-z 0-9 _ - .`.
fn check_name(name: &str, span: Span) -> syn::Result<()> {
    let valid = (1..=128).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if valid {
        Ok(())
    } else {
        Err(syn::Error::new(
            span,
            format!(
                "tool name `{name}` is not valid: use 1 to 128 characters from `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`"
            ),
        ))
    }
}

/// How one parameter is filled.
enum Param {
    /// The request context.
    Context,
    /// One argument, a field of the generated arguments struct.
    Argument {
        ident: syn::Ident,
        ty: Box<Type>,
        description: Option<LitStr>,
    },
    /// The whole argument object.
    Arguments { ty: Box<Type> },
}

fn is_context(ty: &Type) -> bool {
    match ty {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "RequestContext"),
        _ => false,
    }
}

/// Reads a parameter, removing the `#[arg]` / `#[args]` attributes the compiler would reject.
fn param(arg: &mut FnArg) -> syn::Result<Param> {
    let FnArg::Typed(typed) = arg else {
        return Err(syn::Error::new_spanned(
            arg,
            "`#[tool]` goes on a free `async fn`; methods taking `self` are not supported",
        ));
    };
    let mut description = None;
    let mut whole = false;
    let mut error = None;
    typed.attrs.retain(|a| {
        if a.path().is_ident("args") {
            whole = true;
            false
        } else if a.path().is_ident("arg") {
            let parsed = a.parse_args_with(|input: syn::parse::ParseStream<'_>| {
                let key: syn::Ident = input.parse()?;
                if key != "description" {
                    return Err(syn::Error::new(
                        key.span(),
                        "`#[arg]` takes `description = \"...\"`",
                    ));
                }
                input.parse::<syn::Token![=]>()?;
                input.parse::<LitStr>()
            });
            match parsed {
                Ok(d) => description = Some(d),
                Err(e) => error = Some(e),
            }
            false
        } else {
            true
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    if is_context(&typed.ty) {
        return Ok(Param::Context);
    }
    if whole {
        return Ok(Param::Arguments {
            ty: typed.ty.clone(),
        });
    }
    match &*typed.pat {
        Pat::Ident(p) => Ok(Param::Argument {
            ident: p.ident.clone(),
            ty: typed.ty.clone(),
            description,
        }),
        other => Err(syn::Error::new_spanned(
            other,
            "a tool argument needs a plain name, such as `city: String`",
        )),
    }
}

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = options(attr)?;
    let mut function: ItemFn = syn::parse2(item)?;
    if function.sig.asyncness.is_none() {
        return Err(syn::Error::new(
            function.sig.fn_token.span,
            "`#[tool]` needs an `async fn`: write `async fn` here",
        ));
    }
    if !function.sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &function.sig.generics,
            "a tool function cannot be generic",
        ));
    }
    let fn_name = function.sig.ident.clone();
    let name = options
        .name
        .clone()
        .unwrap_or_else(|| LitStr::new(&fn_name.to_string(), fn_name.span()));
    check_name(&name.value(), name.span())?;

    let mut params = Vec::new();
    for arg in function.sig.inputs.iter_mut() {
        params.push(param(arg)?);
    }
    let wholes = params
        .iter()
        .filter(|p| matches!(p, Param::Arguments { .. }))
        .count();
    let singles = params
        .iter()
        .filter(|p| matches!(p, Param::Argument { .. }))
        .count();
    if wholes > 1 || (wholes == 1 && singles > 0) {
        return Err(syn::Error::new_spanned(
            &function.sig.inputs,
            "a tool takes either separate arguments or one `#[args]` struct, not both",
        ));
    }

    let krate = options
        .krate
        .clone()
        .map(|p| quote!(#p))
        .unwrap_or_else(|| quote!(::mcp_server));
    let serde_path = LitStr::new(
        &quote!(#krate::__private::serde).to_string(),
        Span::call_site(),
    );
    let schemars_path = LitStr::new(
        &quote!(#krate::__private::schemars).to_string(),
        Span::call_site(),
    );

    // The arguments type and how each parameter is filled from it.
    let (args_type, args_struct, call_args) = if wholes == 1 {
        let ty = params.iter().find_map(|p| match p {
            Param::Arguments { ty } => Some(ty.clone()),
            _ => None,
        });
        let ty = ty.expect("one `#[args]` parameter");
        let call: Vec<TokenStream> = params
            .iter()
            .map(|p| match p {
                Param::Context => quote!(ctx.clone()),
                _ => quote!(args),
            })
            .collect();
        (quote!(#ty), quote!(), call)
    } else {
        let fields = params.iter().filter_map(|p| match p {
            Param::Argument {
                ident,
                ty,
                description,
            } => {
                let doc = description.as_ref().map(|d| quote!(#[doc = #d]));
                Some(quote_spanned!(ty.span()=> #doc #ident: #ty))
            }
            _ => None,
        });
        let strukt = quote! {
            #[derive(#krate::__private::serde::Deserialize, #krate::__private::schemars::JsonSchema)]
            #[serde(crate = #serde_path)]
            #[schemars(crate = #schemars_path)]
            struct __Arguments { #(#fields,)* }
        };
        let call = params
            .iter()
            .map(|p| match p {
                Param::Context => quote!(ctx.clone()),
                Param::Argument { ident, .. } => quote!(args.#ident),
                Param::Arguments { .. } => unreachable!("checked above"),
            })
            .collect();
        (quote!(__Arguments), strukt, call)
    };

    let output = match &function.sig.output {
        ReturnType::Default => quote!(()),
        ReturnType::Type(_, ty) => quote!(#ty),
    };
    let description = options
        .description
        .clone()
        .or_else(|| doc::text(&function.attrs).map(|d| LitStr::new(&d, Span::call_site())));
    let opt_str = |s: &Option<LitStr>| match s {
        Some(s) => quote!(::core::option::Option::Some(::std::string::String::from(#s))),
        None => quote!(::core::option::Option::None),
    };
    let opt_bool = |b: Option<bool>| match b {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    };
    let (title, description_tokens) = (opt_str(&options.title), opt_str(&description));
    let hints = [
        options.read_only,
        options.destructive,
        options.idempotent,
        options.open_world,
    ];
    let annotations = if hints.iter().all(Option::is_none) {
        quote!(::core::option::Option::None)
    } else {
        let [ro, de, id, ow] = hints.map(opt_bool);
        quote!(::core::option::Option::Some(#krate::core::tools::ToolAnnotations {
            read_only_hint: #ro, destructive_hint: #de, idempotent_hint: #id, open_world_hint: #ow,
            ..::core::default::Default::default()
        }))
    };
    let input_schema = match &options.input_schema {
        Some(schema) => quote! {
            match #krate::__private::serde_json::from_str::<#krate::core::json::JsonObject>(#schema) {
                ::core::result::Result::Ok(schema) => schema,
                ::core::result::Result::Err(e) => ::core::panic!("the `input_schema` of tool `{}` is not a JSON object: {}", #name, e),
            }
        },
        None => quote!(::core::default::Default::default()),
    };
    let make = format_ident!("__mcp_tool_{}", fn_name);

    Ok(quote! {
        #function

        const _: () = {
            #args_struct

            fn #make() -> #krate::Item {
                #krate::Item::Contributor(::std::sync::Arc::new(#krate::contributor::contributor_fn(|contributions| {
                    let tool = #krate::tool::describe::<#args_type, #output>(#krate::core::tools::Tool {
                        name: ::std::string::String::from(#name),
                        title: #title,
                        description: #description_tokens,
                        annotations: #annotations,
                        input_schema: #input_schema,
                        ..::core::default::Default::default()
                    });
                    let handler = #krate::tool::handler::<#args_type, _, _, _>(
                        &tool,
                        |ctx: #krate::RequestContext, args: #args_type| async move {
                            let _ = &ctx;
                            #fn_name(#(#call_args),*).await
                        },
                    );
                    contributions.tool(tool, handler);
                })))
            }

            #krate::__private::inventory::submit! {
                #krate::Registration::new(#krate::origin!(), #name, 0, #make)
            }
        };
    })
}
