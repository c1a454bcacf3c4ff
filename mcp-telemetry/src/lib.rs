//! OpenTelemetry for `mcp-server`: a span and a metric point for every
//! request, as the OpenTelemetry semantic conventions for MCP name them.
//!
//! Activate it by linking: `use mcp_telemetry as _;` in the application's
//! crate root. Every request and client notification then gets a SERVER
//! span named `{mcp.method.name} {target}` (`tools/call get_weather`), a
//! child of the trace the client sent in `params._meta.traceparent`, and a
//! point in `mcp.server.operation.duration`; each 2025-11-25 session, a
//! point in `mcp.server.session.duration`. The spans are `tracing` spans,
//! so they go wherever the process's subscriber sends them; with none
//! installed (and metrics not recorded) a request costs one check more.
//! A binary exports to an OTLP collector with [`install`] (the `otlp`
//! feature), as the `telemetry` section ([`TelemetrySection`]) configures.
//!
//! A tool or prompt name is recorded only once the name resolved to a
//! target the caller may see: a call to a tool that does not exist and a
//! call the guards deny look the same, in telemetry as on the wire.
//!
//! ```standalone_crate
//! use mcp_server::testing::MemoryClient;
//! use mcp_server::{Server, tool};
//! use opentelemetry::trace::TracerProvider as _;
//! use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider};
//! use tracing_subscriber::layer::SubscriberExt;
//!
//! use mcp_telemetry as _;
//!
//! /// Tells the weather.
//! #[tool]
//! async fn get_weather(city: String) -> String {
//!     format!("sunny in {city}")
//! }
//!
//! let exporter = InMemorySpanExporter::default();
//! let provider = SdkTracerProvider::builder().with_simple_exporter(exporter.clone()).build();
//! let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("guide"));
//! let _subscriber = tracing::subscriber::set_default(tracing_subscriber::registry().with(layer));
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let server = Server::builder().build();
//! let client = MemoryClient::new(&server);
//! client.call_tool("get_weather", serde_json::json!({"city": "Oslo"})).await.unwrap();
//! client.call_tool("get_secrets", serde_json::json!({})).await.unwrap_err();
//! # });
//! let names: Vec<_> = exporter.get_finished_spans().unwrap().into_iter().map(|s| s.name).collect();
//! assert_eq!(names, ["tools/call get_weather", "tools/call"]);
//! ```
//!
//! | module | holds |
//! |---|---|
//! | [`names`] | the attribute keys and metric names of the conventions |
//! | [`config`] | the `telemetry` section |
//! | [`install()`] | the subscriber and meter provider of a binary |
//! | [`record_metrics`] | recording metrics with a meter provider of one's own |
//!
//! The guide is [docs/telemetry.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/telemetry.md).

#![cfg_attr(docsrs, feature(doc_cfg))]
pub mod config;
mod install;
mod interceptor;
mod metrics;
pub mod names;
#[cfg(feature = "otlp")]
mod otlp;
mod outcome;
mod parent;
mod request;
mod resolved;
mod session;
mod span;

use mcp_server::boot::BootContext;
use mcp_server::seam::TargetKind;
use mcp_server::seam::interceptor::Scope;
use mcp_server::seam::interceptor::Stratum;
use mcp_server::seam::{Extension, Item, Registration};
use mcp_server::{origin, register};

pub use config::TelemetrySection;
pub use install::{InstallError, TelemetryGuard, install};
pub use metrics::record_metrics;

use crate::config::Kept;
use crate::interceptor::ObserveRequests;
use crate::resolved::NoteResolved;

/// Outermost of all: the span covers the whole pipeline.
const OUTERMOST: i32 = i32::MIN;

fn extension(_: &BootContext) -> Item {
    Item::extension(Extension::new(
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION"),
    ))
}

fn requests(boot: &BootContext) -> Item {
    Kept::read(boot);
    Item::raw_interceptor(ObserveRequests)
}

/// Notes the resolved target of `kind` right after its guards.
fn resolved(kind: TargetKind) -> Item {
    Item::handler_interceptor(Stratum::Validation, Scope::Kind(kind), NoteResolved)
}

fn resolved_tools(_: &BootContext) -> Item {
    resolved(TargetKind::Tool)
}

fn resolved_prompts(_: &BootContext) -> Item {
    resolved(TargetKind::Prompt)
}

register!(Registration::extension(
    origin!(),
    "mcp-telemetry",
    extension
));
register!(Registration::new(
    origin!(),
    "telemetry-requests",
    OUTERMOST,
    requests
));
register!(Registration::new(
    origin!(),
    "telemetry-resolved-tools",
    OUTERMOST,
    resolved_tools
));
register!(Registration::new(
    origin!(),
    "telemetry-resolved-prompts",
    OUTERMOST,
    resolved_prompts
));

/// The guide under `docs/`, compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/telemetry.md")]
struct Guide;
