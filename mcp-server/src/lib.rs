//! A Model Context Protocol server framework whose extensions activate by
//! being linked.
//!
//! Application authors contribute tools, prompts and resources; extension
//! crates register members of five seams — **Contributors**, **Customizers**,
//! **Interceptors**, **Stores / Sources / Strategies** and **Sinks** — through
//! `inventory` at link time, so linking a crate activates it. At boot a
//! [`Builder`] collects every registration, unions the contributors (failing
//! on any collision, naming both parties), folds the customizers, selects one
//! member per strategy seam, and builds the pipeline of every method; the
//! result is one immutable [`Server`].
//!
//! | seam word | when it runs | merge rule | members |
//! |---|---|---|---|
//! | [`Contributor`](contributor::Contributor) | once, at boot | union; a collision fails boot naming both | tools, prompts, resources, templates, completions, methods |
//! | [`Customizer`](customizer::HandlerCustomizer) | once per target, at boot | folded in order; may not change identity | call-tool, get-prompt, read-resource, read-resource-template, method, server-capabilities |
//! | [`Interceptor`](interceptor) | per request | sorted by order, then name; lower is outermost | raw, typed, handler-chain (six strata), alternate-result |
//! | [`Store`](store) / [`Source`](source) / [`Strategy`](strategy) | chosen at boot, used per request | exactly one active; default when none; two fail boot | event store, principal source, key strategy, and any crate's own ([`seam::OneActive`]) |
//! | [`Sink`](sink) | at run time | one-way delivery | progress, log messages, changes |
//!
//! Any crate can declare seams of its own ([`seam`]), read its section of
//! the one configuration ([`config`]), attach to a tool by name
//! ([`Item::customizer_for`]), and check the assembled server
//! ([`boot::Validator`]), with the public API only; [`prelude`] has the
//! names an extension uses.
//!
//! # Linking activates
//!
//! An extension registers itself only if the final binary links it, and
//! Rust links a dependency only when some code names it. An application that
//! uses nothing else from an extension crate names it once at its root:
//!
//! ```ignore
//! use mcp_tasks as _;
//! ```
//!
//! [`Builder::expect_extension`] turns a forgotten `use` into a boot error
//! whose help line is that very `use`.

// The layers, bottom first (docs/adr/0012-the-layers-of-mcp-server.md):
// each imports only the layers below it.
pub mod boot;
pub mod context;
mod dispatch;
pub mod handler;
pub mod prelude;
pub mod seam;
pub mod server;
pub mod testing;
pub mod transport;
mod vocabulary;

pub use context::RequestContext;
pub use server::Server;
pub use vocabulary::future::BoxFuture;
pub use vocabulary::{auth, config};

/// The MCP wire model this framework speaks.
pub use mcp_core as core;

/// What macro output uses; not a stable API, and never needed by hand:
/// extensions register with [`register!`] and the public constructors.
#[doc(hidden)]
pub mod __private {
    pub use inventory;
    pub use schemars;
    pub use serde;
    pub use serde_json;
}

/// Declares a typed method (`#[derive(Method)]`), and the trait it implements.
pub use mcp_core::method::{Method, Params};
pub use mcp_macros::tool;
pub use mcp_macros::tools;
pub use mcp_macros::{Method, Params};
pub use mcp_macros::{completion, prompt, resource, resource_template};
pub use mcp_macros::{
    contributor, customizer, guard, interceptor, method, sink, source, store, strategy,
};
pub use mcp_macros::{customize_tool, tool_name};

/// The guides under `docs/`, compiled as doc tests.
#[cfg(doctest)]
mod guides {
    #[doc = include_str!("../../docs/getting-started.md")]
    struct GettingStarted;
    #[doc = include_str!("../../docs/extension-author.md")]
    struct ExtensionAuthor;
    #[doc = include_str!("../../docs/transports.md")]
    struct Transports;
    #[doc = include_str!("../../docs/rounds-and-subscriptions.md")]
    struct RoundsAndSubscriptions;
}
