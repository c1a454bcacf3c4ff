//! `#[tool]` and `#[tools]`: parse the function (or the methods), check it,
//! expand to a typed tool and its registration.
//!
//! Both macros share [`tool`]: it reads one `async fn`, checks it, and
//! produces the arguments struct and the statements that add the tool to a
//! `Contributions`; [`expand`] wraps one free function's, [`expand_block`]
//! every `#[tool]` method of an `impl` block's, in one registration.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, ImplItem, ItemFn, ItemImpl, LitStr, Pat, ReturnType, Signature, Type};

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
    meta: Option<LitStr>,
    icons: Option<LitStr>,
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
                check_json(
                    &schema,
                    Json::Object,
                    "input_schema",
                    r##"r#"{"type": "object"}"#"##,
                )?;
                options.input_schema = Some(schema);
            }
            "meta" => {
                let meta = entry.string()?;
                check_json(
                    &meta,
                    Json::Object,
                    "meta",
                    r##"r#"{"com.example/team": "search"}"#"##,
                )?;
                options.meta = Some(meta);
            }
            "icons" => {
                let icons = entry.string()?;
                check_json(
                    &icons,
                    Json::Icons,
                    "icons",
                    r##"r#"[{"src": "https://example.com/icon.png"}]"#"##,
                )?;
                options.icons = Some(icons);
            }
            "crate" => options.krate = Some(entry.path()?),
            other => {
                return Err(syn::Error::new_spanned(
                    &entry.key,
                    format!(
                        "unknown `#[tool]` key `{other}`; expected one of `name`, `title`, `description`, \
                         `read_only`, `destructive`, `idempotent`, `open_world`, `input_schema`, `meta`, `icons`, `crate`"
                    ),
                ));
            }
        }
    }
    Ok(options)
}

/// The JSON shape an attribute value must have.
enum Json {
    /// A JSON object (`input_schema`, `meta`).
    Object,
    /// An array of icons, each an object with a string `src`.
    Icons,
}

/// Checks JSON given in an attribute at compile time, spanned on the literal.
fn check_json(literal: &LitStr, shape: Json, key: &str, example: &str) -> syn::Result<()> {
    let fail = |why: String| {
        Err(syn::Error::new(
            literal.span(),
            format!("`{key}` {why}: write `{key} = {example}`"),
        ))
    };
    let value: serde_json::Value = match serde_json::from_str(&literal.value()) {
        Ok(value) => value,
        Err(e) => return fail(format!("is not valid JSON ({e})")),
    };
    match shape {
        Json::Object if !value.is_object() => fail("must be a JSON object".into()),
        Json::Icons => {
            let icons_ok = value.as_array().is_some_and(|icons| {
                icons
                    .iter()
                    .all(|icon| icon.get("src").is_some_and(serde_json::Value::is_string))
            });
            if icons_ok {
                Ok(())
            } else {
                fail("must be an array of icons, each with a string `src`".into())
            }
        }
        Json::Object => Ok(()),
    }
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
        /// The name on the wire, when not the parameter's.
        name: Option<LitStr>,
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
            "`#[tool]` on a method needs `#[tools]` on its `impl` block: write `#[tools]` above `impl Type { ... }`",
        ));
    };
    let mut whole = false;
    let attr::ArgAttr { description, name } = attr::take_arg(&mut typed.attrs, &mut whole)?;
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
            name,
        }),
        other => Err(syn::Error::new_spanned(
            other,
            "a tool argument needs a plain name, such as `city: String`",
        )),
    }
}

/// What a tool's handler calls.
enum Callee<'a> {
    /// A free function, by name.
    Function,
    /// A `&self` method of the one shared instance of this type, held in
    /// an `Arc` named `__mcp_instance` where the tool is added.
    Method(&'a Type),
}

/// One tool, expanded: its name, its arguments struct (if generated), and
/// the statements that add it to `contributions`.
struct Expansion {
    name: LitStr,
    args_struct: TokenStream,
    contribute: TokenStream,
}

/// Fails unless `sig` starts with `&self` (a method of a `#[tools]` block).
fn check_receiver(sig: &Signature) -> syn::Result<()> {
    match sig.inputs.first() {
        Some(FnArg::Receiver(receiver)) => {
            if receiver.reference.is_some() && receiver.mutability.is_some() {
                Err(syn::Error::new_spanned(
                    receiver,
                    "a `#[tool]` method cannot take `&mut self`: all calls share one instance; \
                     write `&self` and keep mutable state in an atomic or a `Mutex`",
                ))
            } else if receiver.reference.is_none() || receiver.colon_token.is_some() {
                Err(syn::Error::new_spanned(
                    receiver,
                    "a `#[tool]` method takes `&self`: write `&self` here",
                ))
            } else {
                Ok(())
            }
        }
        _ => Err(syn::Error::new(
            sig.paren_token.span.join(),
            format!(
                "a `#[tool]` method takes `&self`: write `async fn {}(&self, ...)`",
                sig.ident
            ),
        )),
    }
}

/// Reads and checks one tool function, removing the `#[arg]` / `#[args]`
/// attributes from its parameters; `krate` is the path of `mcp_server`.
fn tool(
    options: &Options,
    krate: &TokenStream,
    sig: &mut Signature,
    attrs: &[Attribute],
    callee: Callee<'_>,
) -> syn::Result<Expansion> {
    if sig.asyncness.is_none() {
        return Err(syn::Error::new(
            sig.fn_token.span,
            "`#[tool]` needs an `async fn`: write `async fn` here",
        ));
    }
    if !sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &sig.generics,
            "a tool function cannot be generic",
        ));
    }
    if let Callee::Method(_) = callee {
        check_receiver(sig)?;
    }
    let fn_name = sig.ident.clone();
    let name = options
        .name
        .clone()
        .unwrap_or_else(|| LitStr::new(&fn_name.to_string(), fn_name.span()));
    check_name(&name.value(), name.span())?;

    let mut params = Vec::new();
    let skip = usize::from(matches!(callee, Callee::Method(_)));
    for arg in sig.inputs.iter_mut().skip(skip) {
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
            &sig.inputs,
            "a tool takes either separate arguments or one `#[args]` struct, not both",
        ));
    }

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
                Param::Context => quote!(__mcp_ctx.clone()),
                _ => quote!(__mcp_args),
            })
            .collect();
        (quote!(#ty), quote!(), call)
    } else {
        let fields = params.iter().filter_map(|p| match p {
            Param::Argument {
                ident,
                ty,
                description,
                name,
            } => {
                let doc = description.as_ref().map(|d| quote!(#[doc = #d]));
                let rename = name.as_ref().map(|n| quote!(#[serde(rename = #n)]));
                Some(quote_spanned!(ty.span()=> #doc #rename #ident: #ty))
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
                Param::Context => quote!(__mcp_ctx.clone()),
                Param::Argument { ident, .. } => quote!(__mcp_args.#ident),
                Param::Arguments { .. } => unreachable!("checked above"),
            })
            .collect();
        (quote!(__Arguments), strukt, call)
    };

    let output = match &sig.output {
        ReturnType::Default => quote!(()),
        ReturnType::Type(_, ty) => quote!(#ty),
    };
    let description = options
        .description
        .clone()
        .or_else(|| doc::text(attrs).map(|d| LitStr::new(&d, Span::call_site())));
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
    let meta = match &options.meta {
        Some(meta) => quote!(::core::option::Option::Some(#krate::core::meta::Meta(
            #krate::__private::serde_json::from_str(#meta).expect("checked at compile time")
        ))),
        None => quote!(::core::option::Option::None),
    };
    let icons = match &options.icons {
        Some(icons) => quote!(::core::option::Option::Some(
            #krate::__private::serde_json::from_str(#icons).expect("checked at compile time")
        )),
        None => quote!(::core::option::Option::None),
    };
    let call = match callee {
        Callee::Function => quote! {
            |__mcp_ctx: #krate::RequestContext, __mcp_args: #args_type| async move {
                let _ = &__mcp_ctx;
                #fn_name(#(#call_args),*).await
            }
        },
        Callee::Method(self_ty) => quote! {{
            let __mcp_instance = ::std::sync::Arc::clone(&__mcp_instance);
            move |__mcp_ctx: #krate::RequestContext, __mcp_args: #args_type| {
                let __mcp_instance = ::std::sync::Arc::clone(&__mcp_instance);
                async move {
                    let _ = &__mcp_ctx;
                    <#self_ty>::#fn_name(&*__mcp_instance, #(#call_args),*).await
                }
            }
        }},
    };

    let contribute = quote! {
        let __mcp_tool = #krate::handler::tool::describe::<#args_type, #output>(#krate::core::tools::Tool {
            name: ::std::string::String::from(#name),
            title: #title,
            description: #description_tokens,
            annotations: #annotations,
            input_schema: #input_schema,
            meta: #meta,
            icons: #icons,
            ..::core::default::Default::default()
        });
        let __mcp_handler = #krate::handler::tool::handler::<#args_type, _, _, _>(&__mcp_tool, #call);
        __mcp_contributions.tool(__mcp_tool, __mcp_handler);
    };
    Ok(Expansion {
        name,
        args_struct,
        contribute,
    })
}

/// The path of `mcp_server`: `crate = ...`, or `::mcp_server`.
fn krate(path: Option<&syn::Path>) -> TokenStream {
    path.map(|p| quote!(#p))
        .unwrap_or_else(|| quote!(::mcp_server))
}

/// `#[tool]` on a free `async fn`.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options = options(attr)?;
    let mut function: ItemFn = syn::parse2(item)?;
    let krate = krate(options.krate.as_ref());
    let Expansion {
        name,
        args_struct,
        contribute,
    } = tool(
        &options,
        &krate,
        &mut function.sig,
        &function.attrs,
        Callee::Function,
    )?;
    let make = format_ident!("__mcp_tool_{}", function.sig.ident);
    let resolved = resolved_name(&function.sig.ident);
    let vis = &function.vis;

    Ok(quote! {
        #function

        /// The wire name of this tool, for attributes that attach to it.
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        #vis const #resolved: &str = #name;

        const _: () = {
            #args_struct

            fn #make(_: &#krate::boot::BootContext) -> #krate::seam::Item {
                #krate::seam::Item::contributor(#krate::seam::contributor::contributor_fn(|__mcp_contributions| {
                    #contribute
                }))
            }

            #krate::register!(#krate::seam::Registration::new(#krate::origin!(), #name, 0, #make));
        };
    })
}

/// The hidden constant holding the wire name of the tool written as `function`.
pub(crate) fn resolved_name(function: &syn::Ident) -> syn::Ident {
    format_ident!("__mcp_tool_name_{}", function)
}

/// `customize_tool!(function, customizer)`: registers `customizer` for the
/// one tool `#[tool]` made of `function`, by its resolved name.
pub(crate) fn expand_customize(input: TokenStream) -> syn::Result<TokenStream> {
    struct Input {
        function: syn::Path,
        customizer: syn::Expr,
        krate: Option<syn::Path>,
    }
    impl syn::parse::Parse for Input {
        fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
            let function = input.parse()?;
            input.parse::<syn::Token![,]>()?;
            let customizer = input.parse()?;
            let mut krate = None;
            if input.peek(syn::Token![,]) {
                input.parse::<syn::Token![,]>()?;
                if !input.is_empty() {
                    input.parse::<syn::Token![crate]>()?;
                    input.parse::<syn::Token![=]>()?;
                    krate = Some(input.parse()?);
                    let _ = input.parse::<Option<syn::Token![,]>>()?;
                }
            }
            Ok(Self {
                function,
                customizer,
                krate,
            })
        }
    }
    let Input {
        mut function,
        customizer,
        krate: path,
    } = syn::parse2(input)?;
    let krate = krate(path.as_ref());
    let last = function.segments.last_mut().expect("a path has a segment");
    let label = syn::LitStr::new(
        &format!("customizer of tool `{}`", last.ident),
        last.ident.span(),
    );
    last.ident = resolved_name(&last.ident);
    Ok(quote! {
        const _: () = {
            fn __mcp_customize_tool(_: &#krate::boot::BootContext) -> #krate::seam::Item {
                #krate::seam::Item::customizer_for::<#krate::core::tools::Tool>(#function, #customizer)
            }
            #krate::register!(#krate::seam::Registration::new(#krate::origin!(), #label, 0, __mcp_customize_tool));
        };
    })
}

/// `tool_name!(function)`: the wire name `#[tool]` gave `function`.
pub(crate) fn expand_name(input: TokenStream) -> syn::Result<TokenStream> {
    let mut function: syn::Path = syn::parse2(input)?;
    let last = function.segments.last_mut().expect("a path has a segment");
    last.ident = resolved_name(&last.ident);
    Ok(quote!(#function))
}

/// Whether `attr` is a `#[tool]` (however qualified).
fn is_tool(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "tool")
}

/// The arguments of a `#[tool]` inside a `#[tools]` block.
fn method_options(attr: &Attribute) -> syn::Result<Options> {
    let tokens = match &attr.meta {
        syn::Meta::Path(_) => TokenStream::new(),
        syn::Meta::List(list) => list.tokens.clone(),
        syn::Meta::NameValue(nv) => {
            return Err(syn::Error::new_spanned(
                nv,
                "write `#[tool]` or `#[tool(key = value, ...)]`",
            ));
        }
    };
    let options = options(tokens)?;
    if let Some(path) = &options.krate {
        return Err(syn::Error::new_spanned(
            path,
            "`crate = ...` goes on the `#[tools]` attribute of the `impl` block, not on each `#[tool]`",
        ));
    }
    Ok(options)
}

/// `#[tools]` on an inherent `impl` block: its `#[tool]` methods become
/// tools called on one shared instance of the type.
pub(crate) fn expand_block(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut block: ItemImpl = match syn::parse2(item.clone()) {
        Ok(block) => block,
        Err(_) => {
            let error = syn::Error::new(
                Span::call_site(),
                "`#[tools]` goes on an inherent `impl Type { ... }` block whose methods are marked `#[tool]`",
            )
            .into_compile_error();
            return quote!(#item #error);
        }
    };
    let mut errors: Vec<syn::Error> = Vec::new();
    let mut expansions = Vec::new();
    let krate = match block_options(attr) {
        Ok(path) => krate(path.as_ref()),
        Err(e) => {
            errors.push(e);
            krate(None)
        }
    };
    if let Some((_, path, _)) = &block.trait_ {
        errors.push(syn::Error::new_spanned(
            path,
            "`#[tools]` goes on an inherent `impl Type { ... }` block, not a trait impl: \
             move the `#[tool]` methods into `impl Type { ... }`",
        ));
    } else if !block.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &block.generics,
            "a `#[tools]` block cannot be generic: write `impl Type { ... }` for one concrete type",
        ));
    }
    let self_ty = block.self_ty.clone();
    for item in &mut block.items {
        let ImplItem::Fn(method) = item else { continue };
        let mut marks = method.attrs.iter().filter(|a| is_tool(a));
        let (Some(mark), second) = (marks.next().cloned(), marks.next().cloned()) else {
            continue;
        };
        method.attrs.retain(|a| !is_tool(a));
        if let Some(second) = second {
            errors.push(syn::Error::new_spanned(
                second,
                "a method takes one `#[tool]`: merge the keys into it",
            ));
            continue;
        }
        let expanded = method_options(&mark).and_then(|options| {
            tool(
                &options,
                &krate,
                &mut method.sig,
                &method.attrs,
                Callee::Method(&self_ty),
            )
        });
        // On an error, the parameters may keep `#[arg]` attributes the compiler would reject.
        for input in &mut method.sig.inputs {
            if let FnArg::Typed(typed) = input {
                typed
                    .attrs
                    .retain(|a| !(a.path().is_ident("arg") || a.path().is_ident("args")));
            }
        }
        match expanded {
            Ok(expansion) => expansions.push(expansion),
            Err(e) => errors.push(e),
        }
    }
    if expansions.is_empty() && errors.is_empty() {
        errors.push(syn::Error::new_spanned(
            &block.self_ty,
            "this `#[tools]` block has no tool: mark its `async fn` methods with `#[tool]`",
        ));
    }
    if let Some(error) = errors.into_iter().reduce(|mut all, e| {
        all.combine(e);
        all
    }) {
        // The block stays, so the errors are the only ones.
        let error = error.into_compile_error();
        return quote!(#block #error);
    }

    let type_name = match &*self_ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
    .unwrap_or_else(|| quote!(#self_ty).to_string());
    let type_name = LitStr::new(&type_name, self_ty.span());
    let tools = expansions.iter().map(
        |Expansion {
             args_struct,
             contribute,
             ..
         }| quote!({ #args_struct #contribute }),
    );
    let value = quote_spanned!(self_ty.span()=> <#self_ty as ::core::default::Default>::default());
    let shared = quote_spanned!(self_ty.span()=> __mcp_shared::<#self_ty>(#value));

    quote! {
        #block

        const _: () = {
            /// The one instance every tool of the block calls, shared across requests.
            fn __mcp_shared<T: ::core::marker::Send + ::core::marker::Sync + 'static>(value: T) -> ::std::sync::Arc<T> {
                ::std::sync::Arc::new(value)
            }

            fn __mcp_tools(_: &#krate::boot::BootContext) -> #krate::seam::Item {
                let __mcp_instance = #shared;
                #krate::seam::Item::contributor(#krate::seam::contributor::contributor_fn(move |__mcp_contributions| {
                    #(#tools)*
                }))
            }

            #krate::register!(#krate::seam::Registration::new(#krate::origin!(), #type_name, 0, __mcp_tools));
        };
    }
}

/// What `#[tools(...)]` says: only `crate = path`.
fn block_options(tokens: TokenStream) -> syn::Result<Option<syn::Path>> {
    let mut krate = None;
    for entry in attr::entries(tokens)? {
        match entry.key.to_string().as_str() {
            "crate" => krate = Some(entry.path()?),
            _ => return Err(attr::unknown(&entry, "tools", &["crate"])),
        }
    }
    Ok(krate)
}
