//! The `#[validator]` and `#[mutator]` attributes of `mcp-interceptors`:
//! they declare an interceptor and register it at link time.
//!
//! Application code reaches them through `mcp_interceptors`, which
//! re-exports them. Their expansion names `::mcp_interceptors` and
//! `::mcp_server` paths, so the crate using them depends on both.
//!
//! This crate has no example of its own: its doc tests cannot reach
//! `mcp_interceptors`. The compiled example is on the front page of
//! `mcp_interceptors` (a `#[validator]` on an `async fn`, run by a server);
//! the guide is [docs/interceptors.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/interceptors.md).
//!
//! Parse the item (a function or an `impl` block) → parse and check the keys
//! → expand (the item unchanged, then its registration in `const _`).

mod entries;
mod expand;
mod kind;
mod options;
mod target;

use proc_macro::TokenStream;

use crate::kind::Kind;

/// Declares a validator, registered at link time: it judges the payloads of
/// the events it hooks, all validators of a phase at once.
///
/// It goes on a function taking one `&Invocation` (`async` or not) and
/// returning a `Validation` or a `Result<Validation, E>` with `E: Display`
/// (an error is a failure of the validator, which `fail_open` decides on);
/// or on an `impl Validate for Type` block, where `Type: Default` and boot
/// builds one with `Default::default()`. The item is emitted unchanged.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `name = "..."` | the wire name, unique among the server's interceptors | the function's or the type's name |
/// | `version = "..."` | its version | none |
/// | `description = "..."` | what it does | the doc comment, lines joined with spaces |
/// | `request = ["tools/call", ...]` | the events it hooks in the request phase (`"*"` for every one) | none |
/// | `response = [...]` | the events it hooks in the response phase | none |
/// | `mode = "audit"` or `"active"` | an audit validator is run and recorded, and never blocks | active |
/// | `fail_open = bool` | whether a crash or a timeout lets the operation through | it blocks |
/// | `config = Type` | its configuration type (`Deserialize + JsonSchema`), advertised as `configSchema` | none |
/// | `timeout_ms = 250` | how long it may run | 10 s |
/// | `compat = "2025-11-25"` | the oldest protocol version it was written for | none |
///
/// At least one of `request` and `response` is given. Validators have no
/// `priority`. Event names are checked at boot.
///
/// ```ignore
/// use mcp_interceptors::{Invocation, Validation, validator};
///
/// /// Refuses calls without arguments.
/// #[validator(name = "needs-arguments", request = ["tools/call"])]
/// async fn needs_arguments(invocation: &Invocation) -> Validation {
///     match invocation.arguments() {
///         Some(_) => Validation::valid(),
///         None => Validation::invalid("no arguments"),
///     }
/// }
/// ```
#[proc_macro_attribute]
pub fn validator(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand(Kind::Validator, attr.into(), item.into()).into()
}

/// Declares a mutator, registered at link time: it rewrites the payloads of
/// the events it hooks, one mutator after another by priority.
///
/// It goes on a function taking one `&Invocation` (`async` or not) and
/// returning a `Mutation` or a `Result<Mutation, E>` with `E: Display` (an
/// error is a failure of the mutator, which `fail_open` decides on); or on
/// an `impl Mutate for Type` block, where `Type: Default` and boot builds
/// one with `Default::default()`. The item is emitted unchanged.
///
/// | key | meaning | default |
/// |---|---|---|
/// | `name = "..."` | the wire name, unique among the server's interceptors | the function's or the type's name |
/// | `version = "..."` | its version | none |
/// | `description = "..."` | what it does | the doc comment, lines joined with spaces |
/// | `request = ["tools/call", ...]` | the events it hooks in the request phase (`"*"` for every one) | none |
/// | `response = [...]` | the events it hooks in the response phase | none |
/// | `mode = "audit"` or `"active"` | an audit mutator is run and recorded, and its rewrites are not applied | active |
/// | `fail_open = bool` | whether a crash or a timeout lets the operation through | it blocks |
/// | `priority = -100` | its order among mutators in both phases: lower runs first, ties by name | 0 |
/// | `priority(request = -100, response = 100)` | its order per phase; a phase not given has 0 | 0 |
/// | `config = Type` | its configuration type (`Deserialize + JsonSchema`), advertised as `configSchema` | none |
/// | `timeout_ms = 250` | how long it may run | 10 s |
/// | `compat = "2025-11-25"` | the oldest protocol version it was written for | none |
///
/// At least one of `request` and `response` is given. Event names are
/// checked at boot.
///
/// ```ignore
/// use mcp_interceptors::{Invocation, Mutation, mutator};
///
/// /// Trims the text argument.
/// #[mutator(request = ["tools/call"], priority = -10)]
/// fn trim_text(invocation: &Invocation) -> Mutation {
///     let mut payload = invocation.payload_owned();
///     match payload.pointer_mut("/params/arguments/text") {
///         Some(text) => {
///             let trimmed = text.as_str().unwrap_or_default().trim().to_owned();
///             *text = trimmed.into();
///             Mutation::modified(payload)
///         }
///         None => Mutation::unchanged(),
///     }
/// }
/// ```
#[proc_macro_attribute]
pub fn mutator(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand(Kind::Mutator, attr.into(), item.into()).into()
}
