//! Helpers shared by the telemetry tests: the test server, and the spans a
//! test's requests made.
#![allow(dead_code, unreachable_pub)]

use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonObject;
use mcp_server::core::prompts::{GetPrompt, GetPromptResult, Prompt};
use mcp_server::core::resources::Resource;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::handler::resource::read_handler;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::GuardAttacher;
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::{Server, origin};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry::{Key, Value};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use tracing::subscriber::DefaultGuard;
use tracing_subscriber::layer::SubscriberExt;

// The crate under test registers itself when linked.
use mcp_telemetry as _;

/// The URI of the test server's one resource.
pub const NOTE: &str = "mem://notes/1";

/// A tool named `name` with an object input schema.
fn tool(name: &str) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    Tool {
        name: name.into(),
        input_schema: schema,
        ..Default::default()
    }
}

/// The test server: tools `get_weather` (answers), `fail` (answers
/// `isError: true`), `crash` (fails with `-32603`) and `admin_reset`
/// (which a guard hides from everyone); prompt `greeting`; resource
/// [`NOTE`].
pub fn server() -> Server {
    Server::builder()
        .named("telemetry-test", "1.0.0")
        .without_environment()
        .contributor(
            origin!(),
            "test-items",
            contributor_fn(|c| {
                c.tool(
                    tool("get_weather"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        Ok(CallToolResult::text("sunny"))
                    }),
                );
                c.tool(
                    tool("fail"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        Ok(CallToolResult::error("the weather station is down"))
                    }),
                );
                c.tool(
                    tool("crash"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        Err::<CallToolResult, _>(ErrorObject::internal_error(
                            "Internal error: the station burned",
                        ))
                    }),
                );
                c.tool(
                    tool("admin_reset"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        Ok(CallToolResult::text("reset"))
                    }),
                );
                let greeting = Prompt {
                    name: "greeting".into(),
                    ..Default::default()
                };
                c.prompt(
                    greeting,
                    handler_fn::<GetPrompt, _, _, _>(|_, _| async {
                        Ok(GetPromptResult::default())
                    }),
                );
                let note = Resource {
                    uri: NOTE.into(),
                    name: "note".into(),
                    ..Default::default()
                };
                c.resource(
                    note,
                    read_handler(Some("text/plain"), |_, _| async {
                        Ok("remember the milk".to_owned())
                    }),
                );
            }),
        )
        .register(
            origin!(),
            "admins-only",
            0,
            Item::customizer_for::<Tool>(
                "admin_reset",
                GuardAttacher::new(guard_fn("admins-only", |_, _| {
                    Decision::deny("admins only")
                })),
            ),
        )
        .build()
}

/// The spans finished while it is alive, on this thread, exported to
/// memory through the OpenTelemetry layer.
pub struct Spans {
    exporter: InMemorySpanExporter,
    _provider: SdkTracerProvider,
    _default: DefaultGuard,
}

impl Spans {
    /// Starts recording this thread's spans.
    pub fn record() -> Self {
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(exporter.clone())
            .build();
        let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("tests"));
        let subscriber = tracing_subscriber::registry().with(layer);
        Self {
            exporter,
            _provider: provider,
            _default: tracing::subscriber::set_default(subscriber),
        }
    }

    /// Every span finished so far, oldest first.
    pub fn finished(&self) -> Vec<SpanData> {
        self.exporter.get_finished_spans().unwrap()
    }

    /// The one span finished so far.
    pub fn only(&self) -> SpanData {
        let mut spans = self.finished();
        assert_eq!(spans.len(), 1, "{spans:#?}");
        spans.remove(0)
    }
}

/// The value of attribute `key` of `span`, as text.
pub fn attribute(span: &SpanData, key: &str) -> Option<String> {
    let key = Key::from(key.to_owned());
    span.attributes
        .iter()
        .find(|kv| kv.key == key)
        .map(|kv| match &kv.value {
            Value::String(s) => s.to_string(),
            other => other.to_string(),
        })
}

/// The namespaces of the attributes the conventions name (the layer adds
/// its own: timings, code locations, threads).
const CONVENTIONS: [&str; 7] = [
    "mcp.", "gen_ai.", "jsonrpc.", "rpc.", "error.", "network.", "client.",
];

/// Every attribute of `span` the conventions name, as `key=value` text, sorted.
pub fn attributes(span: &SpanData) -> Vec<String> {
    let mut all: Vec<String> = span
        .attributes
        .iter()
        .filter(|kv| CONVENTIONS.iter().any(|c| kv.key.as_str().starts_with(c)))
        .map(|kv| format!("{}={}", kv.key, kv.value))
        .collect();
    all.sort();
    all
}
