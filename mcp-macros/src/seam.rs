//! The seam attributes on `impl Trait for Type` blocks: `#[contributor]`,
//! `#[customizer]`, `#[interceptor]`, `#[guard]`, `#[source]`, `#[strategy]`,
//! `#[sink]` and `#[store]`.
//!
//! Convention: the attribute goes on the `impl` block of the seam trait, so
//! the macro sees the trait (and its type argument) and picks the registry
//! item from it. The implementing type must be `Default` (derive it on a unit
//! struct); the registration's `make` fn builds one with `Default::default()`.
//!
//! Parse (the key list and the `impl` block) → validate (keys allowed for the
//! word, the trait matches the word, required keys present) → expand (the
//! block unchanged, then one `Registration` per registry item).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, GenericArgument, ItemImpl, Lit, LitStr, Path, PathArguments, Type, UnOp};

use crate::attr::{self, Entry};

/// One seam attribute.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Word {
    Contributor,
    Customizer,
    Interceptor,
    Guard,
    Source,
    Strategy,
    Sink,
    Store,
}

impl Word {
    /// The attribute's name.
    fn attr(self) -> &'static str {
        match self {
            Word::Contributor => "contributor",
            Word::Customizer => "customizer",
            Word::Interceptor => "interceptor",
            Word::Guard => "guard",
            Word::Source => "source",
            Word::Strategy => "strategy",
            Word::Sink => "sink",
            Word::Store => "store",
        }
    }

    /// The keys the attribute accepts.
    fn keys(self) -> &'static [&'static str] {
        match self {
            Word::Contributor | Word::Source | Word::Strategy | Word::Sink | Word::Store => {
                &["name", "crate"]
            }
            Word::Customizer => &["name", "order", "crate"],
            Word::Interceptor => &["name", "order", "stratum", "scope", "crate"],
            Word::Guard => &["name", "order", "on", "crate"],
        }
    }

    /// The traits it goes on, as written in messages.
    fn expects(self) -> &'static str {
        match self {
            Word::Contributor => "`impl Contributor for Type`",
            Word::Customizer => {
                "`impl HandlerCustomizer<D> for Type` (D one of `Tool`, `Prompt`, `Resource`, \
                 `ResourceTemplate`, `MethodDescriptor`) or `impl ServerCapabilitiesCustomizer for Type`"
            }
            Word::Interceptor => {
                "`impl RawInterceptor for Type`, `impl TypedInterceptor<M> for Type`, \
                 `impl HandlerInterceptor for Type` or `impl AlternateResultInterceptor for Type`"
            }
            Word::Guard => "`impl Guard for Type`",
            Word::Source => "`impl PrincipalSource for Type` (or another source seam's trait)",
            Word::Strategy => "`impl KeyStrategy for Type` (or another strategy seam's trait)",
            Word::Sink => "`impl ChangeSink for Type` (or another sink seam's trait)",
            Word::Store => "`impl EventStore for Type` (or another store seam's trait)",
        }
    }

    /// Whether the word registers a member of a one-active seam.
    fn is_one_active(self) -> bool {
        matches!(
            self,
            Word::Source | Word::Strategy | Word::Sink | Word::Store
        )
    }

    /// The attribute for a seam trait, by the trait's name.
    fn of_trait(name: &str) -> Option<Word> {
        Some(match name {
            "Contributor" => Word::Contributor,
            "HandlerCustomizer" | "ServerCapabilitiesCustomizer" => Word::Customizer,
            "RawInterceptor"
            | "TypedInterceptor"
            | "HandlerInterceptor"
            | "AlternateResultInterceptor" => Word::Interceptor,
            "Guard" => Word::Guard,
            "PrincipalSource" => Word::Source,
            "KeyStrategy" => Word::Strategy,
            "ChangeSink" => Word::Sink,
            "EventStore" => Word::Store,
            _ => return None,
        })
    }
}

/// What a seam attribute says.
#[derive(Default)]
struct Options {
    krate: Option<Path>,
    name: Option<LitStr>,
    order: Option<i32>,
    stratum: Option<(LitStr, TokenStream)>,
    scope: Option<LitStr>,
    on: Option<LitStr>,
}

/// Parses `key = value` entries, rejecting keys the word does not take.
fn options(word: Word, tokens: TokenStream) -> syn::Result<Options> {
    let mut options = Options::default();
    for entry in attr::entries(tokens)? {
        let key = entry.key.to_string();
        if !word.keys().contains(&key.as_str()) {
            let known: Vec<String> = word.keys().iter().map(|k| format!("`{k}`")).collect();
            return Err(syn::Error::new_spanned(
                &entry.key,
                format!(
                    "unknown `#[{}]` key `{key}`; expected one of {}",
                    word.attr(),
                    known.join(", ")
                ),
            ));
        }
        match key.as_str() {
            "name" => options.name = Some(entry.string()?),
            "order" => options.order = Some(int(&entry)?),
            "stratum" => {
                let s = entry.string()?;
                let stratum = stratum(&s)?;
                options.stratum = Some((s, stratum));
            }
            "scope" => options.scope = Some(entry.string()?),
            "on" => options.on = Some(entry.string()?),
            "crate" => options.krate = Some(entry.path()?),
            _ => unreachable!("every known key is handled"),
        }
    }
    Ok(options)
}

/// An `i32` literal, possibly negative.
pub(crate) fn int(entry: &Entry) -> syn::Result<i32> {
    let (negative, lit) = match &entry.value {
        Some(Expr::Lit(syn::ExprLit {
            lit: Lit::Int(i), ..
        })) => (false, i),
        Some(Expr::Unary(syn::ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        })) => match &**expr {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Int(i), ..
            }) => (true, i),
            _ => return Err(not_int(entry)),
        },
        _ => return Err(not_int(entry)),
    };
    let value: i64 = lit.base10_parse()?;
    let value = if negative { -value } else { value };
    i32::try_from(value).map_err(|_| syn::Error::new_spanned(lit, "`order` must fit in an `i32`"))
}

fn not_int(entry: &Entry) -> syn::Error {
    syn::Error::new_spanned(
        &entry.key,
        format!(
            "`{}` takes an integer: `{} = 10` (lower runs first)",
            entry.key, entry.key
        ),
    )
}

const STRATA: [(&str, &str); 6] = [
    ("CORRELATION", "Correlation"),
    ("OBSERVATION", "Observation"),
    ("AUDIT", "Audit"),
    ("AUTHORIZATION", "Authorization"),
    ("VALIDATION", "Validation"),
    ("INVOCATION", "Invocation"),
];

/// The `Stratum` variant a `stratum = "..."` names.
fn stratum(s: &LitStr) -> syn::Result<TokenStream> {
    let value = s.value().to_ascii_uppercase();
    match STRATA.iter().find(|(wire, _)| *wire == value) {
        Some((_, variant)) => {
            let variant = format_ident!("{}", variant);
            Ok(quote!(#variant))
        }
        None => Err(syn::Error::new(
            s.span(),
            format!(
                "unknown stratum `{}`; expected one of {}",
                s.value(),
                strata_list()
            ),
        )),
    }
}

fn strata_list() -> String {
    STRATA
        .iter()
        .map(|(w, _)| format!("`\"{w}\"`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Target kinds a `scope` or `on` may name, with their `TargetKind` variant.
const KINDS: [(&str, &str); 6] = [
    ("tool", "Tool"),
    ("prompt", "Prompt"),
    ("resource", "Resource"),
    ("resource_template", "ResourceTemplate"),
    ("completion", "Completion"),
    ("method", "Method"),
];

/// The impl block's trait, validated against the attribute.
struct Seam<'a> {
    /// The trait's last segment name.
    name: String,
    /// Its type argument, if any (`Tool` in `HandlerCustomizer<Tool>`).
    argument: Option<&'a Type>,
    /// The trait path, for spans.
    path: &'a Path,
}

/// Checks the block is a plain `impl Trait for Type` of this word's trait.
fn seam<'a>(word: Word, block: &'a ItemImpl) -> syn::Result<Seam<'a>> {
    let Some((bang, path, _)) = &block.trait_ else {
        return Err(syn::Error::new_spanned(
            &block.self_ty,
            format!(
                "`#[{}]` goes on a trait implementation: write {}",
                word.attr(),
                word.expects()
            ),
        ));
    };
    if bang.is_some() {
        return Err(syn::Error::new_spanned(
            path,
            format!("`#[{}]` cannot register a negative impl", word.attr()),
        ));
    }
    if !block.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &block.generics,
            format!(
                "`#[{}]` registers one concrete type: remove the impl's generic parameters",
                word.attr()
            ),
        ));
    }
    let last = path.segments.last().expect("a path has a segment");
    let name = last.ident.to_string();
    match Word::of_trait(&name) {
        Some(w) if w == word => {}
        // A one-active seam a crate declared (`impl OneActive for dyn Trait`):
        // the compiler checks the declaration.
        None if word.is_one_active() => {}
        Some(other) => {
            return Err(syn::Error::new_spanned(
                path,
                format!(
                    "`#[{}]` expects {}, but this block implements `{name}`: write `#[{}]` on it instead",
                    word.attr(),
                    word.expects(),
                    other.attr()
                ),
            ));
        }
        None => {
            return Err(syn::Error::new_spanned(
                path,
                format!(
                    "`#[{}]` expects {}, but `{name}` is not a seam trait",
                    word.attr(),
                    word.expects()
                ),
            ));
        }
    }
    let argument = match &last.arguments {
        PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        }),
        _ => None,
    };
    Ok(Seam {
        name,
        argument,
        path,
    })
}

/// The last identifier of a type path (`Tool` in `mcp_server::core::tools::Tool`).
fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// One registry item to register: the expression that builds it, its
/// order, and whether it is a one-active member (made before selection).
struct Made {
    item: TokenStream,
    order: i32,
    supply: bool,
}

/// Expands a seam attribute.
pub(crate) fn expand(word: Word, attr: TokenStream, item: TokenStream) -> TokenStream {
    let block: ItemImpl = match syn::parse2(item.clone()) {
        Ok(block) => block,
        Err(_) => {
            let (tokens, what) = match syn::parse2::<syn::Item>(item.clone()) {
                Ok(syn::Item::Struct(s)) => {
                    let (token, ident) = (s.struct_token, s.ident);
                    (quote!(#token #ident), format!("the struct `{ident}`"))
                }
                Ok(syn::Item::Enum(e)) => {
                    let (token, ident) = (e.enum_token, e.ident);
                    (quote!(#token #ident), format!("the enum `{ident}`"))
                }
                Ok(syn::Item::Fn(f)) => {
                    let (token, ident) = (f.sig.fn_token, f.sig.ident);
                    (quote!(#token #ident), format!("the function `{ident}`"))
                }
                _ => (item.clone(), "this item".to_owned()),
            };
            let error = syn::Error::new_spanned(
                tokens,
                format!(
                    "`#[{}]` goes on an `impl` block, not on {what}: write {} and put the attribute on it",
                    word.attr(),
                    word.expects()
                ),
            )
            .into_compile_error();
            return quote!(#item #error);
        }
    };
    match registrations(word, attr, &block) {
        Ok(tokens) => quote!(#block #tokens),
        // The block stays, so the error is the only one.
        Err(e) => {
            let error = e.into_compile_error();
            quote!(#block #error)
        }
    }
}

fn registrations(word: Word, attr: TokenStream, block: &ItemImpl) -> syn::Result<TokenStream> {
    let options = options(word, attr)?;
    let seam = seam(word, block)?;
    let krate = options
        .krate
        .clone()
        .map(|p| quote!(#p))
        .unwrap_or_else(|| quote!(::mcp_server));
    let self_ty = &block.self_ty;
    let name = match &options.name {
        Some(name) => name.clone(),
        None => {
            let ident = last_ident(self_ty).ok_or_else(|| {
                syn::Error::new_spanned(
                    self_ty,
                    format!(
                        "`#[{}]` needs a named type here, or `name = \"...\"`",
                        word.attr()
                    ),
                )
            })?;
            LitStr::new(&ident, self_ty.span())
        }
    };
    let value = quote_spanned!(self_ty.span()=> <#self_ty as ::core::default::Default>::default());
    let arc = quote!(::std::sync::Arc::new(#value));
    let order = options.order.unwrap_or(0);

    let one = |item: TokenStream| {
        vec![Made {
            item,
            order,
            supply: false,
        }]
    };
    let made: Vec<Made> = match word {
        Word::Contributor => one(quote!(#krate::seam::Item::contributor(#value))),
        Word::Customizer => one(customizer(&krate, &seam, value)?),
        Word::Interceptor => one(interceptor(&krate, &seam, &options, value)?),
        Word::Guard => guard(&krate, &options, value)?
            .into_iter()
            .map(|item| Made {
                item,
                order,
                supply: false,
            })
            .collect(),
        Word::Source | Word::Strategy | Word::Sink | Word::Store => {
            let path = seam.path;
            let member = quote_spanned!(path.span()=> ::std::sync::Arc<dyn #path>);
            vec![Made {
                item: quote!(#krate::seam::Item::supply::<dyn #path>(#arc as #member)),
                order,
                supply: true,
            }]
        }
    };

    let submitted = made.into_iter().enumerate().map(
        |(
            i,
            Made {
                item,
                order,
                supply,
            },
        )| {
            let make = format_ident!("__mcp_make_{}", i);
            let registration = if supply {
                quote!(#krate::seam::Registration::supply(#krate::origin!(), #name, #make))
            } else {
                quote!(#krate::seam::Registration::new(#krate::origin!(), #name, #order, #make))
            };
            quote! {
                fn #make(_: &#krate::boot::BootContext) -> #krate::seam::Item {
                    #item
                }
                #krate::register!(#registration);
            }
        },
    );
    Ok(quote! {
        const _: () = {
            #(#submitted)*
        };
    })
}

/// `HandlerCustomizer<D>` → a customizer of kind `D`; `ServerCapabilitiesCustomizer` → its own.
fn customizer(
    krate: &TokenStream,
    seam: &Seam<'_>,
    value: TokenStream,
) -> syn::Result<TokenStream> {
    if seam.name == "ServerCapabilitiesCustomizer" {
        return Ok(quote!(#krate::seam::Item::capabilities(#value)));
    }
    let argument = seam.argument.ok_or_else(|| {
        syn::Error::new_spanned(
            seam.path,
            "`HandlerCustomizer` names the kind it customizes: `HandlerCustomizer<Tool>`",
        )
    })?;
    match last_ident(argument).as_deref() {
        Some("Tool" | "Prompt" | "Resource" | "ResourceTemplate" | "MethodDescriptor") => {}
        _ => {
            return Err(syn::Error::new_spanned(
                argument,
                "`#[customizer]` customizes handlers of one kind: write `HandlerCustomizer<D>` with D one of \
                 `Tool`, `Prompt`, `Resource`, `ResourceTemplate`, `MethodDescriptor`",
            ));
        }
    }
    Ok(quote!(#krate::seam::Item::customizer::<#argument>(#value)))
}

/// The interceptor item for the block's trait.
fn interceptor(
    krate: &TokenStream,
    seam: &Seam<'_>,
    options: &Options,
    value: TokenStream,
) -> syn::Result<TokenStream> {
    let chain = seam.name == "HandlerInterceptor";
    if !chain {
        if let Some((s, _)) = &options.stratum {
            return Err(syn::Error::new(
                s.span(),
                format!(
                    "`stratum` places a `HandlerInterceptor` in the handler chain; a `{}` has no stratum: remove it",
                    seam.name
                ),
            ));
        }
        if let Some(s) = &options.scope {
            return Err(syn::Error::new(
                s.span(),
                format!(
                    "`scope` chooses the handlers of a `HandlerInterceptor`; a `{}` has no scope: remove it",
                    seam.name
                ),
            ));
        }
    }
    Ok(match seam.name.as_str() {
        "RawInterceptor" => {
            quote!(#krate::seam::Item::raw_interceptor(#value))
        }
        "AlternateResultInterceptor" => {
            quote!(#krate::seam::Item::alternate_result_interceptor(#value))
        }
        "TypedInterceptor" => {
            let method = seam.argument.ok_or_else(|| {
                syn::Error::new_spanned(
                    seam.path,
                    "`TypedInterceptor` names its method: `TypedInterceptor<CallTool>`",
                )
            })?;
            quote!(#krate::seam::Item::typed::<#method>(#value))
        }
        _ => {
            let Some((_, stratum)) = &options.stratum else {
                return Err(syn::Error::new_spanned(
                    seam.path,
                    format!(
                        "a `HandlerInterceptor` sits in one stratum of the handler chain: write \
                         `#[interceptor(stratum = \"AUDIT\")]` (one of {})",
                        strata_list()
                    ),
                ));
            };
            let scope = match &options.scope {
                None => quote!(#krate::seam::interceptor::Scope::All),
                Some(s) => match KINDS.iter().find(|(word, _)| *word == s.value()) {
                    Some((_, variant)) => {
                        let variant = format_ident!("{}", variant);
                        quote!(#krate::seam::interceptor::Scope::Kind(#krate::seam::TargetKind::#variant))
                    }
                    None if s.value().is_empty() => {
                        return Err(syn::Error::new(
                            s.span(),
                            "`scope` names a method (`scope = \"tools/call\"`) or a kind (`scope = \"tool\"`)",
                        ));
                    }
                    None => quote!(#krate::seam::interceptor::Scope::Method(#s)),
                },
            };
            quote!(#krate::seam::Item::handler_interceptor(#krate::seam::interceptor::Stratum::#stratum, #scope, #value))
        }
    })
}

/// Kinds a guard may be attached to, with the descriptor of their handlers.
const GUARDED: [(&str, &str); 5] = [
    ("tool", "core::tools::Tool"),
    ("prompt", "core::prompts::Prompt"),
    ("resource", "core::resources::Resource"),
    ("resource_template", "core::resources::ResourceTemplate"),
    ("method", "customizer::MethodDescriptor"),
];

/// One `GuardAttacher` customizer per kind in `on` (every kind by default).
fn guard(
    krate: &TokenStream,
    options: &Options,
    value: TokenStream,
) -> syn::Result<Vec<TokenStream>> {
    let kinds: Vec<&str> = match &options.on {
        None => GUARDED.iter().map(|(k, _)| *k).collect(),
        Some(on) => {
            let text = on.value();
            let mut kinds = Vec::new();
            for word in text.split(',').map(str::trim) {
                match GUARDED.iter().find(|(k, _)| *k == word) {
                    Some((k, _)) if !kinds.contains(k) => kinds.push(*k),
                    Some(_) => {}
                    None => {
                        let known: Vec<String> =
                            GUARDED.iter().map(|(k, _)| format!("`{k}`")).collect();
                        return Err(syn::Error::new(
                            on.span(),
                            format!(
                                "unknown kind `{word}` in `on`; expected one or more of {}, separated by commas \
                                 (leave `on` out to guard every kind)",
                                known.join(", ")
                            ),
                        ));
                    }
                }
            }
            kinds
        }
    };
    Ok(kinds
        .into_iter()
        .map(|kind| {
            let (_, descriptor) = GUARDED
                .iter()
                .find(|(k, _)| *k == kind)
                .expect("a known kind");
            let descriptor: TokenStream = descriptor.parse().expect("a path");
            quote!(#krate::seam::Item::customizer::<#krate::#descriptor>(
                #krate::seam::customizer::GuardAttacher::new(#value)
            ))
        })
        .collect())
}
