//! Attribute macros for the `mcp-server` framework: the authoring surface for
//! tools, prompts, resources, completions and every seam word.
//!
//! Application code reaches these through `mcp_server`, which re-exports
//! them; their expansion names only `::mcp_server` paths (or the path given
//! with `crate = ...`), so the application needs no other dependency.
//!
//! ```
//! use mcp_server::{Server, tool};
//!
//! /// Adds two numbers.
//! #[tool]
//! async fn add(a: i64, b: i64) -> String {
//!     (a + b).to_string()
//! }
//!
//! let server = Server::builder().build();
//! let add = server.tools().into_iter().find(|t| t.name == "add").unwrap();
//! assert_eq!(add.description.as_deref(), Some("Adds two numbers."));
//! ```
//!
//! The guides:
//!
//! - [docs/getting-started.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/getting-started.md):
//!   `#[tool]`;
//! - [docs/extension-author.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/extension-author.md):
//!   the seam words (`#[contributor]`, `#[customizer]`, `#[interceptor]`, …).

mod attr;
mod completion;
mod doc;
mod method;
mod method_type;
mod prompt;
mod resource;
mod resource_template;
mod seam;
mod tool;

use proc_macro::TokenStream;

/// Turns an `async fn` into a tool, registered at link time.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `name = "..."` | the tool name, checked at compile time (1 to 128 of `A-Z a-z 0-9 _ - .`) | the function's name |
/// | `title = "..."` | the display title | none |
/// | `description = "..."` | what the tool does | the doc comment |
/// | `read_only`, `destructive`, `idempotent`, `open_world` (each `= bool` optional) | behaviour hints | unset |
/// | `input_schema = "{...}"` | a hand-written JSON Schema, used verbatim | generated from the arguments |
/// | `meta = "{...}"` | the tool's `_meta`, as a JSON object (checked at compile time) | none |
/// | `icons = "[...]"` | the tool's icons, as a JSON array of `{ "src": ... }` objects | none |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
///
/// Each parameter is an argument, described by `#[arg(description = "...")]`;
/// a single parameter marked `#[args]` is instead the whole argument object
/// (a `Deserialize + JsonSchema` struct, whose field docs describe the
/// arguments). A parameter of type `RequestContext` receives the request
/// context. The return type is anything `IntoToolResult`: text, content,
/// `Structured<T>`, or a `Result` of those, whose error becomes an
/// `isError: true` result.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Turns the `#[tool]` methods of an inherent `impl Type { ... }` block into
/// tools, registered at link time as one contributor.
///
/// Each `async fn` of the block marked `#[tool(...)]` (the keys of
/// `#[tool]`, but `crate`) takes `&self` (not `&mut self`: calls run
/// concurrently) and then the parameters a `#[tool]` function takes. Its
/// handler calls the method on one shared instance of `Type`, built once at
/// boot with `<Type as Default>::default()` and held in an `Arc`; so
/// `Type: Default + Send + Sync + 'static`, and state that changes lives in
/// atomics or a `Mutex`. The `#[tool]` attributes are removed; the block is
/// otherwise unchanged. A `#[tool]` on a method outside such a block is a
/// compile error.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_attribute]
pub fn tools(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand_block(attr.into(), item.into()).into()
}

/// Registers a `Contributor` at link time: goes on an
/// `impl Contributor for Type` block, where `Type: Default` (derive it on a
/// unit struct); boot builds one with `Default::default()`.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `name = "..."` | the name in the boot report | the type's name |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_attribute]
pub fn contributor(attr: TokenStream, item: TokenStream) -> TokenStream {
    seam::expand(seam::Word::Contributor, attr.into(), item.into()).into()
}

/// Registers a customizer at link time: goes on an
/// `impl HandlerCustomizer<D> for Type` block (`D` one of `Tool`, `Prompt`,
/// `Resource`, `ResourceTemplate`, `MethodDescriptor`: the call-tool,
/// get-prompt, read-resource, read-resource-template or method customizer)
/// or an `impl ServerCapabilitiesCustomizer for Type` block; `Type: Default`.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `order = N` | its place among customizers of its kind (lower folds first) | `0` |
/// | `name = "..."` | the name in the boot report and boot errors | the type's name |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_attribute]
pub fn customizer(attr: TokenStream, item: TokenStream) -> TokenStream {
    seam::expand(seam::Word::Customizer, attr.into(), item.into()).into()
}

/// Registers an interceptor at link time: goes on an `impl` block of
/// `RawInterceptor` (every method), `TypedInterceptor<M>` (method `M`),
/// `HandlerInterceptor` (a stratum of every handler chain in scope) or
/// `AlternateResultInterceptor` (around every handler's invocation);
/// `Type: Default`.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `order = N` | lower is outermost | `0` |
/// | `stratum = "AUDIT"` | `HandlerInterceptor` only, and required: `CORRELATION`, `OBSERVATION`, `AUDIT`, `AUTHORIZATION`, `VALIDATION` or `INVOCATION` | none |
/// | `scope = "..."` | `HandlerInterceptor` only: a kind (`tool`, `prompt`, `resource`, `resource_template`, `completion`, `method`) or else a method name (`tools/call`) | every handler |
/// | `name = "..."` | the name in the boot report; sorts ties of `order` | the type's name |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_attribute]
pub fn interceptor(attr: TokenStream, item: TokenStream) -> TokenStream {
    seam::expand(seam::Word::Interceptor, attr.into(), item.into()).into()
}

/// Attaches a guard to every handler of the chosen kinds: goes on an
/// `impl Guard for Type` block, `Type: Default`, and registers one
/// `HandlerCustomizer` per kind (a `customizer::GuardAttacher`) that adds it
/// with `HandlerConfig::add_guard`. A denied target is absent from its list
/// and a call to it fails with `-32010`.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `on = "..."` | the kinds, comma-separated: `tool`, `prompt`, `resource`, `resource_template`, `method` | every kind |
/// | `order = N` | its customizers' place (guards run in this order) | `0` |
/// | `name = "..."` | the name in the boot report | the type's name |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_attribute]
pub fn guard(attr: TokenStream, item: TokenStream) -> TokenStream {
    seam::expand(seam::Word::Guard, attr.into(), item.into()).into()
}

/// Registers the principal source (a one-active seam: two fail boot): goes
/// on an `impl PrincipalSource for Type` block, `Type: Default`.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `name = "..."` | the name in the boot report's selection | the type's name |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_attribute]
pub fn source(attr: TokenStream, item: TokenStream) -> TokenStream {
    seam::expand(seam::Word::Source, attr.into(), item.into()).into()
}

/// Registers the key strategy (a one-active seam: two fail boot): goes on an
/// `impl KeyStrategy for Type` block, `Type: Default`.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `name = "..."` | the name in the boot report's selection | the type's name |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_attribute]
pub fn strategy(attr: TokenStream, item: TokenStream) -> TokenStream {
    seam::expand(seam::Word::Strategy, attr.into(), item.into()).into()
}

/// Registers the change sink (a one-active seam: two fail boot, and
/// `Builder::change_sink` counts as one): goes on an
/// `impl ChangeSink for Type` block, `Type: Default`. Progress and log sinks
/// belong to each request and are not registered.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `name = "..."` | the name in the boot report's selection | the type's name |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_attribute]
pub fn sink(attr: TokenStream, item: TokenStream) -> TokenStream {
    seam::expand(seam::Word::Sink, attr.into(), item.into()).into()
}

/// Registers the event store (a one-active seam: two fail boot): goes on
/// an `impl EventStore for Type` block, `Type: Default`. The default keeps
/// events in memory.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `name = "..."` | the name in the boot report's selection | the type's name |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_attribute]
pub fn store(attr: TokenStream, item: TokenStream) -> TokenStream {
    seam::expand(seam::Word::Store, attr.into(), item.into()).into()
}

/// Turns an `async fn(ctx: RequestContext, params: P) -> Result<R, ErrorObject>`
/// into the handler of the JSON-RPC method `M`, contributed at link time
/// (`Contributions::method::<M>`); the compiler checks `P` is `M::Params`
/// and `R` converts into `M::Result`'s reply.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `M` (first, required) | the `Method` type served | none |
/// | `name = "..."` | the contributor's name in the boot report | the function's name |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_attribute]
pub fn method(attr: TokenStream, item: TokenStream) -> TokenStream {
    method::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Turns an `async fn` into a prompt, registered at link time.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `name = "..."` | the prompt name | the function's name |
/// | `title = "..."` | the display title | none |
/// | `description = "..."` | what the prompt offers | the doc comment |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
///
/// Each parameter is an argument of the same name, described by
/// `#[arg(description = "...")]`: a `String` is required (a `prompts/get`
/// without it fails with `-32602` naming it), an `Option<String>` optional.
/// A parameter of type `RequestContext` receives the request context. The
/// return type is a `GetPromptResult`, a `Vec<PromptMessage>`, a `String`
/// (one user text message), or a `Result` of those, whose error becomes a
/// `-32602` JSON-RPC error with its text.
#[proc_macro_attribute]
pub fn prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    prompt::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Turns an `async fn` into a resource with a fixed URI, registered at link time.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `uri = "..."` (required) | the resource's URI | none |
/// | `name = "..."` | the resource name | the function's name |
/// | `title = "..."` | the display title | none |
/// | `description = "..."` | what the resource holds | the doc comment |
/// | `mime_type = "..."` | its MIME type, also set on text and bytes read | none |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
///
/// The function takes nothing but an optional `RequestContext`. It returns
/// a `String` (text), a `Vec<u8>` (bytes, sent base64-encoded as a blob), a
/// `ResourceContents`, a `Vec<ResourceContents>`, a `ReadResourceResult`,
/// or a `Result` of those, whose error becomes a `-32603` JSON-RPC error.
#[proc_macro_attribute]
pub fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    resource::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Turns an `async fn` into a resource template, registered at link time.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `uri_template = "..."` (required) | the RFC 6570 template (`{var}`, `{+var}`, `{#var}`, `{a,b}`) | none |
/// | `name = "..."` | the template name | the function's name |
/// | `title = "..."` | the display title | none |
/// | `description = "..."` | what the resources hold | the doc comment |
/// | `mime_type = "..."` | their MIME type, also set on text and bytes read | none |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
///
/// Each parameter is the template variable of the same name, of any
/// `FromStr` type (a value that does not parse is a `-32602` error); every
/// variable needs a parameter and every parameter a variable, checked at
/// compile time. A parameter of type `RequestContext` receives the request
/// context. The return types are those of `#[resource]`.
#[proc_macro_attribute]
pub fn resource_template(attr: TokenStream, item: TokenStream) -> TokenStream {
    resource_template::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Turns an `async fn(value: String) -> Vec<String>` into the completion of
/// one prompt argument or template variable, registered at link time.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `prompt = "..."`, `argument = "..."` | the prompt and the argument completed | none |
/// | `resource_template = "..."`, `variable = "..."` | the URI template and the variable completed | none |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
///
/// Exactly one pair is required. The function takes the value typed so far
/// and an optional `RequestContext`, and returns `Vec<String>` or
/// `Result<Vec<String>, E>` (an error becomes a `-32603` JSON-RPC error);
/// at most 100 values are sent, with `total` and `hasMore` set.
#[proc_macro_attribute]
pub fn completion(attr: TokenStream, item: TokenStream) -> TokenStream {
    completion::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Declares a typed JSON-RPC method on a unit struct: the tag that
/// serializes to its wire name (and refuses any other), and its
/// `Method` implementation.
///
/// | key of `#[mcp(...)]` | meaning | default |
/// |---|---|---|
/// | `name = "vendor/method"` | the wire name | required |
/// | `params = Type` | the params type (`#[derive(Params)]` on it) | required |
/// | `result = Type` | the result type of a complete answer | required |
/// | `eras = "modern"` | `"all"`, `"modern"` (2026-07-28) or `"legacy"` (2025-11-25) | `"all"` |
/// | `target = "member"` | the params member that names the target (`Mcp-Name` on HTTP) | none |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
///
/// Derive nothing else on the struct: `Clone`, `Copy`, `Default`, `Debug`,
/// `Serialize` and `Deserialize` come with it.
#[proc_macro_derive(Method, attributes(mcp))]
pub fn derive_method(item: TokenStream) -> TokenStream {
    method_type::expand_method(item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Declares a typed JSON-RPC notification on a unit struct: the tag that
/// serializes to its wire name (and refuses any other), and its
/// `NotificationMethod` implementation, for a handler an extension
/// contributes (`Contributions::notification`) or a notification it sends
/// (`RequestContext::notify`).
///
/// | key of `#[mcp(...)]` | meaning | default |
/// |---|---|---|
/// | `name = "vendor/event"` | the wire name | required |
/// | `params = Type` | the params type (`#[derive(Params)]` on it) | required |
/// | `eras = "modern"` | `"all"`, `"modern"` (2026-07-28) or `"legacy"` (2025-11-25) | `"all"` |
/// | `crate = path` | the path of `mcp_server`, when renamed | `::mcp_server` |
#[proc_macro_derive(Notification, attributes(mcp))]
pub fn derive_notification(item: TokenStream) -> TokenStream {
    method_type::expand_notification(item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Marks a `Serialize + Deserialize` type as the params of methods.
#[proc_macro_derive(Params, attributes(mcp))]
pub fn derive_params(item: TokenStream) -> TokenStream {
    method_type::expand_params(item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Registers a customizer for the one tool `#[tool]` made of a function,
/// by the tool's resolved wire name: what an extension's own attribute
/// expands to, to attach metadata or behaviour to a tool.
///
/// `customize_tool!(my_tool_fn, customizer_expression)`, or with
/// `, crate = path` when `mcp_server` is renamed. The customizer is a
/// `HandlerCustomizer<Tool>`; the function's module must be in scope.
#[proc_macro]
pub fn customize_tool(input: TokenStream) -> TokenStream {
    tool::expand_customize(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// The wire name `#[tool]` gave a function (`tool_name!(my_tool_fn)`), as a
/// `&'static str`.
#[proc_macro]
pub fn tool_name(input: TokenStream) -> TokenStream {
    tool::expand_name(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
