//! The project's demo server: every tool, prompt, resource, resource
//! template and completion the official MCP conformance suite calls
//! (the "everything server" contract), written only with the `mcp-server`
//! attribute macros. Linking this crate is enough to activate all of it;
//! [`server`] boots a server with it, and [`server_with`] one with a
//! command line's settings.
//!
//! | module | holds |
//! |---|---|
//! | [`tools`] | the `test_*` tools and `json_schema_2020_12_tool` |
//! | [`prompts`] | the `test_*` prompts |
//! | [`resources`] | the `test://` resources and the resource template |
//! | [`catalog`] | tools served from a JSON file and reloaded when it changes; an admin tool that adds an alias |
//! | [`completions`] | the completion of `test_prompt_with_arguments`' `arg1` |
//! | [`interceptors`] | a PII redactor and an injection guard (the `mcp-interceptors` extension) |
//! | [`media`] | the 1x1 PNG and the minimal WAV the contract sends |
//! | [`cli`] | the command line of the `mcp-demo` binary |
#![deny(missing_docs)]
#![cfg_attr(not(test), warn(unused_crate_dependencies))]

pub mod catalog;
pub mod cli;
pub mod completions;
pub mod interceptors;
pub mod media;
pub mod prompts;
pub mod resources;
pub mod tools;

use mcp_server::Server;
use mcp_server::boot::BootErrors;
use mcp_server::server::Builder;

// An OAuth resource server once `oauth.resource` is set (see docs/authorization.md).
use mcp_oauth as _;
// Tasks, request states and changes shared by every instance once
// `redis.url` is set, and a job queue for workers with `redis.queue` (see
// docs/scale-out.md).
use mcp_redis as _;
// The binary's `--worker` mode stops its worker with a cancellation token.
use tokio_util as _;
// Spans and metrics of every request; exported when `telemetry.otlp_endpoint` is set.
use mcp_telemetry as _;

// The skill that teaches an agent the sales tool and its chart, carried in
// the binary (`skills/sales-report`); more from `skills.dir` when it is set
// (see docs/skills.md).
mcp_skills::embed!("skills");

use crate::cli::Setting;

/// The name this server gives itself in `serverInfo`.
pub const NAME: &str = "mcp-demo";

/// A builder for the demo server, named and requiring this crate's items
/// (boot fails, naming the missing `use`, if they were not linked).
pub fn builder() -> Builder {
    Server::builder()
        .named(NAME, env!("CARGO_PKG_VERSION"))
        .expect_linked(env!("CARGO_PKG_NAME"))
        .expect_extension("mcp-tasks")
        .expect_extension("mcp-apps")
        .expect_extension("mcp-oauth")
        .expect_extension("mcp-telemetry")
        .expect_extension("mcp-interceptors")
}

/// The demo server, booted.
///
/// # Panics
///
/// When boot fails (two items with one name, for instance): a programming
/// error, with the boot diagnostics as the message.
pub fn server() -> Server {
    builder().build()
}

/// The demo server booted with `settings` (a command line's), which win
/// over the environment's.
///
/// ```
/// use mcp_demo::cli::Setting;
/// use serde_json::json;
///
/// let server = mcp_demo::server_with(&[Setting::new("--set server.page_size", "server.page_size", json!(10))]).unwrap();
/// assert_eq!(server.info().name, "mcp-demo");
///
/// let units = Setting::new("--set weather.units", "weather.units", json!("metric"));
/// let errors = mcp_demo::server_with(&[units]).unwrap_err();
/// assert!(errors.to_string().contains("error[mcp::unknown_setting]: setting `weather` is not known"));
/// assert!(errors.to_string().contains("= note: set on the command line by `--set weather.units`"));
/// ```
///
/// # Errors
///
/// Every reason boot failed, such as a setting no section reads.
pub fn server_with(settings: &[Setting]) -> Result<Server, BootErrors> {
    cli::settings::apply(builder(), settings).try_build()
}
