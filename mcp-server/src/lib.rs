//! A Model Context Protocol server framework whose extensions activate by
//! being linked.
//!
//! Application authors contribute tools, prompts and resources; extension
//! crates register members of five seams — **Contributors**, **Customizers**,
//! **Interceptors**, **Stores / Sources / Strategies** and **Sinks** — through
//! `inventory` at link time, so linking a crate activates it. At boot a
//! [`Builder`](server::Builder) collects every registration, unions the
//! contributors (failing on any collision, naming both parties), folds the
//! customizers, selects one member per strategy seam, and builds the
//! pipeline of every method; the result is one immutable [`Server`].
//!
//! A tool is an `async fn` with [`#[tool]`](tool). The in-memory client of
//! [`testing`] calls it through the same pipeline a transport uses:
//!
//! ```standalone_crate
//! use mcp_server::core::tools::CallToolResult;
//! use mcp_server::prelude::*;
//! use mcp_server::testing::MemoryClient;
//!
//! /// Greets someone by name.
//! #[tool]
//! async fn greet(name: String) -> String {
//!     format!("Hello, {name}!")
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let server = Server::builder().named("my-server", "0.1.0").build();
//! let client = MemoryClient::new(&server);
//! let result = client.call_tool("greet", serde_json::json!({"name": "Ada"})).await.unwrap();
//! assert_eq!(result.content, CallToolResult::text("Hello, Ada!").content);
//! # });
//! ```
//!
//! A binary serves the same server over stdio
//! ([`serve_stdio`](transport::stdio::serve_stdio)) or, with the `http`
//! feature, over Streamable HTTP. The guides:
//!
//! - [docs/getting-started.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/getting-started.md):
//!   a project of your own, one tool, both transports;
//! - [docs/transports.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/transports.md):
//!   every transport and its settings;
//! - [docs/extension-author.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/extension-author.md):
//!   an extension crate, seam by seam.
//!
//! | module | what you reach for |
//! |---|---|
//! | [`prelude`] | one `use` for an application (`prelude::*`) or an extension (`prelude::extension::*`) |
//! | [`handler`] | what handlers are and return; [`tool`](handler::tool), [`prompt`](handler::prompt), [`resource`](handler::resource), [`completion`](handler::completion) |
//! | [`context`] | the [`RequestContext`] of a request, and the legacy session it comes on |
//! | [`seam`] | declaring seams and kinds, registering members; one module per seam word: [`contributor`](seam::contributor), [`customizer`](seam::customizer), [`interceptor`](seam::interceptor), [`guard`](seam::guard), [`store`](seam::store), [`source`](seam::source), [`strategy`](seam::strategy), [`sink`](seam::sink) |
//! | [`auth`] | who is calling: principals, credentials, challenges |
//! | [`config`] | the one configuration, read as typed sections |
//! | [`boot`] | what boot hands an extension, and how boot fails |
//! | [`server`] | the [`Server`], its builder and its boot report |
//! | [`catalog`] | the runtime catalog: tools added, replaced and removed while the server serves |
//! | [`transport`] | the interface every transport uses; [`stdio`](transport::stdio), and Streamable HTTP behind the `http` feature |
//! | [`testing`] | an in-memory client for tests |
//! | [`core`] | the wire model of both protocol eras |
//!
//! Any crate can declare seams of its own ([`seam`]), read its section of
//! the one configuration ([`config`]), attach to a tool by name
//! ([`Item::customizer_for`](seam::Item::customizer_for)), and check the
//! assembled server ([`boot::Validator`]), with the public API only.
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
//! [`Builder::expect_extension`](server::Builder::expect_extension) turns a
//! forgotten `use` into a boot error whose help line is that very `use`.

#![cfg_attr(docsrs, feature(doc_cfg))]
// The layers, bottom first (docs/adr/0012-the-layers-of-mcp-server.md):
// each imports only the layers below it.
pub mod boot;
pub mod catalog;
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
pub use mcp_core::method::{Method, NotificationMethod, Params};
pub use mcp_macros::tool;
pub use mcp_macros::tools;
pub use mcp_macros::{Method, Notification, Params};
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
