//! Attribute macros for the `mcp-server` framework: the authoring surface for
//! tools (and, in time, prompts, resources and every seam word).
//!
//! Application code reaches these through `mcp_server`, which re-exports
//! them; their expansion names only `::mcp_server` paths (or the path given
//! with `crate = ...`), so the application needs no other dependency.

mod attr;
mod doc;
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
