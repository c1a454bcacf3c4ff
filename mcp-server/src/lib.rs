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
//! | [`Source`](source) / [`Strategy`](strategy) | per request, chosen at boot | exactly one active; default when none; two fail boot | principal source, key strategy |
//! | [`Sink`](sink) | at run time | one-way delivery | progress, log messages, changes |
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

pub mod boot;
pub mod completion;
pub mod context;
pub mod contributor;
pub mod customizer;
mod dispatch;
pub mod error;
pub mod guard;
pub mod handler;
pub mod input;
pub mod interceptor;
pub mod legacy;
mod lock;
pub mod memory;
pub mod origin;
pub mod prompt;
pub mod registry;
pub mod reply;
pub mod resource;
pub mod server;
pub mod sink;
pub mod source;
pub mod store;
pub mod strategy;
pub mod target;
pub mod tool;
pub mod transport;
pub mod uri_template;

pub use boot::{BootError, BootErrors, BootReport, Builder};
pub use context::RequestContext;
pub use origin::Origin;
pub use registry::{Item, Registration};
pub use reply::{AlternateResult, Reply};
pub use server::{Caller, Server, Session};

/// The MCP wire model this framework speaks.
pub use mcp_core as core;

/// What macro output and hand-written registrations use; not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use inventory;
    pub use schemars;
    pub use serde;
    pub use serde_json;
}

pub use mcp_macros::tool;
pub use mcp_macros::tools;
pub use mcp_macros::{completion, prompt, resource, resource_template};
pub use mcp_macros::{
    contributor, customizer, guard, interceptor, method, sink, source, store, strategy,
};

/// The guides under `docs/`, compiled as doc tests.
#[cfg(doctest)]
mod guides {
    #[doc = include_str!("../../docs/getting-started.md")]
    struct GettingStarted;
    #[doc = include_str!("../../docs/extension-author.md")]
    struct ExtensionAuthor;
    #[doc = include_str!("../../docs/transports.md")]
    struct Transports;
}
