//! The span of one request, a SERVER span of the conventions: opened with
//! every attribute empty, so that a span no subscriber wants costs only
//! the check, and filled in as the facts become known.

use mcp_server::seam::interceptor::RawCall;
use opentelemetry::trace::TraceContextExt;
use serde::Deserialize;
use tracing::Span;
use tracing::field::{Empty, display};
use tracing_opentelemetry::OpenTelemetrySpanExt;

use crate::names;
use crate::outcome::Outcome;
use crate::request::Request;
use crate::resolved::Resolved;

/// The methods whose params name a resource (`mcp.resource.uri`).
const RESOURCE_METHODS: [&str; 3] = [
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// A new span for one request, its fields not recorded yet; disabled when
/// no subscriber wants it.
pub(crate) fn open() -> Span {
    tracing::info_span!(
        target: "mcp_telemetry",
        "mcp.server",
        "otel.name" = Empty,
        "otel.kind" = "server",
        "otel.status_code" = Empty,
        "otel.status_description" = Empty,
        "mcp.method.name" = Empty,
        "mcp.protocol.version" = Empty,
        "mcp.session.id" = Empty,
        "mcp.resource.uri" = Empty,
        "gen_ai.operation.name" = Empty,
        "gen_ai.tool.name" = Empty,
        "gen_ai.prompt.name" = Empty,
        "network.transport" = Empty,
        "jsonrpc.request.id" = Empty,
        "rpc.response.status_code" = Empty,
        "error.type" = Empty,
    )
}

/// Records on `span` what `call`, described by `request`, says before it
/// is served.
pub(crate) fn record_request(span: &Span, call: &RawCall<'_>, request: &Request<'_>) {
    span.record("otel.name", request.method);
    span.record(names::METHOD_NAME, request.method);
    if let Some(version) = request.protocol_version {
        span.record(names::PROTOCOL_VERSION, version);
    }
    if let Some(session) = request.session_id {
        span.record(names::SESSION_ID, session);
    }
    if let Some(transport) = request.transport {
        span.record(names::NETWORK_TRANSPORT, transport);
    }
    if let Some(id) = request.id {
        span.record(names::REQUEST_ID, display(id));
    }
    if request.is_tool_call() {
        span.record(names::OPERATION_NAME, names::EXECUTE_TOOL);
    }
    if RESOURCE_METHODS.contains(&request.method)
        && let Some(uri) = resource_uri(call)
    {
        span.record(names::RESOURCE_URI, uri.as_str());
    }
}

/// Records on `span` how the request described by `request` ended.
pub(crate) fn record_outcome(span: &Span, request: &Request<'_>, outcome: &Outcome<'_>) {
    if let Some(target) = &outcome.target {
        let key = match target {
            Resolved::Tool(_) => names::TOOL_NAME,
            Resolved::Prompt(_) => names::PROMPT_NAME,
        };
        span.record(key, target.name());
        let name = format!("{} {}", request.method, target.name());
        span.record("otel.name", name.as_str());
        // An OpenTelemetry span started already (the request's own spans
        // needed its context) takes its new name only this way.
        span.context().span().update_name(name);
    }
    if let Some(code) = outcome.code {
        span.record(names::STATUS_CODE, display(code));
    }
    if let Some(failure) = outcome.failure {
        span.record(names::ERROR_TYPE, failure.error_type().as_str());
        span.record("otel.status_code", "error");
        if let Some(message) = outcome.message {
            span.record("otel.status_description", message);
        }
    }
}

/// The `uri` of a resource method's params.
fn resource_uri(call: &RawCall<'_>) -> Option<String> {
    #[derive(Deserialize)]
    struct Params {
        uri: String,
    }
    let params = serde_json::from_str::<Params>(call.params()?.get()).ok()?;
    Some(params.uri)
}
