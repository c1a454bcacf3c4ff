//! A tool or prompt name becomes part of a span (its name, an attribute)
//! only once it resolved to a target the caller may see: a name nobody
//! registered, or one the guards hide, leaves the span named after the
//! method alone, and the two look the same.

mod support;

use mcp_server::testing::MemoryClient;
use opentelemetry::trace::{SpanKind, Status};
use opentelemetry_sdk::trace::SpanData;
use serde_json::json;
use support::{Spans, attribute, attributes, server};

/// Whether `name` is in the span's name or any of its attributes. (Its
/// events are the framework's own: the guards' DEBUG lines, which a
/// subscriber that exports should keep out.)
fn named_anywhere(span: &SpanData, name: &str) -> bool {
    span.name.contains(name)
        || span
            .attributes
            .iter()
            .any(|kv| kv.value.to_string().contains(name))
}

#[tokio::test]
async fn a_resolved_tool_call_is_a_server_span_named_after_its_tool() {
    let spans = Spans::record();
    let server = server();
    MemoryClient::new(&server)
        .call_tool("get_weather", json!({}))
        .await
        .unwrap();
    let span = spans.only();
    assert_eq!(span.name, "tools/call get_weather");
    assert_eq!(span.span_kind, SpanKind::Server);
    assert_eq!(span.status, Status::Unset);
    assert_eq!(
        attributes(&span),
        [
            "gen_ai.operation.name=execute_tool",
            "gen_ai.tool.name=get_weather",
            "jsonrpc.request.id=1",
            "mcp.method.name=tools/call",
            "mcp.protocol.version=2026-07-28",
        ]
    );
}

#[tokio::test]
async fn an_unknown_tool_leaves_its_name_nowhere_and_is_not_an_error() {
    let spans = Spans::record();
    let server = server();
    let error = MemoryClient::new(&server)
        .call_tool("get_secrets", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32602);
    let span = spans.only();
    assert_eq!(span.name, "tools/call");
    assert_eq!(
        span.status,
        Status::Unset,
        "the caller's mistake, not the server's"
    );
    assert_eq!(attribute(&span, "gen_ai.tool.name"), None);
    assert_eq!(attribute(&span, "error.type"), None);
    assert_eq!(
        attribute(&span, "rpc.response.status_code").as_deref(),
        Some("-32602")
    );
    assert!(!named_anywhere(&span, "get_secrets"), "{span:?}");
}

#[tokio::test]
async fn a_guarded_denial_looks_exactly_like_an_unknown_tool() {
    let spans = Spans::record();
    let server = server();
    let client = MemoryClient::new(&server);
    let hidden = client
        .call_tool("admin_reset", json!({}))
        .await
        .unwrap_err();
    let unknown = client
        .call_tool("get_secrets", json!({}))
        .await
        .unwrap_err();
    assert_eq!(hidden.code, unknown.code);
    let [hidden, unknown] = <[_; 2]>::try_from(spans.finished()).unwrap();
    assert_eq!(hidden.name, unknown.name);
    assert_eq!(hidden.name, "tools/call");
    assert_eq!(hidden.status, unknown.status);
    // Alike but for the request's id.
    let without_id = |span| {
        let mut all = attributes(span);
        all.retain(|a| !a.starts_with("jsonrpc.request.id="));
        all
    };
    assert_eq!(without_id(&hidden), without_id(&unknown));
    assert!(!named_anywhere(&hidden, "admin_reset"), "{hidden:?}");
}

#[tokio::test]
async fn a_resolved_prompt_names_its_span_and_an_unknown_one_does_not() {
    let spans = Spans::record();
    let server = server();
    let client = MemoryClient::new(&server);
    client
        .request_raw("prompts/get", json!({"name": "greeting"}))
        .await
        .unwrap();
    client
        .request_raw("prompts/get", json!({"name": "farewell"}))
        .await
        .unwrap_err();
    let [known, unknown] = <[_; 2]>::try_from(spans.finished()).unwrap();
    assert_eq!(known.name, "prompts/get greeting");
    assert_eq!(
        attribute(&known, "gen_ai.prompt.name").as_deref(),
        Some("greeting")
    );
    assert_eq!(attribute(&known, "gen_ai.operation.name"), None);
    assert_eq!(unknown.name, "prompts/get");
    assert_eq!(attribute(&unknown, "gen_ai.prompt.name"), None);
    assert!(!named_anywhere(&unknown, "farewell"), "{unknown:?}");
}

#[tokio::test]
async fn a_tool_added_at_runtime_is_named_as_a_tool_of_boot_is() {
    let spans = Spans::record();
    let server = server();
    let mut schema = mcp_server::core::json::JsonObject::new();
    schema.insert("type".into(), "object".into());
    let tool = mcp_server::core::tools::Tool {
        name: "get_tide".into(),
        input_schema: schema,
        ..Default::default()
    };
    let answer = mcp_server::handler::handler_fn::<mcp_server::core::tools::CallTool, _, _, _>(
        |_, _| async { Ok(mcp_server::core::tools::CallToolResult::text("high")) },
    );
    server
        .catalog()
        .apply(
            mcp_server::catalog::CatalogChange::new(mcp_server::origin!()).add_tool(tool, answer),
        )
        .unwrap();
    MemoryClient::new(&server)
        .call_tool("get_tide", json!({}))
        .await
        .unwrap();
    let span = spans.only();
    assert_eq!(span.name, "tools/call get_tide");
    assert_eq!(
        attribute(&span, "gen_ai.tool.name").as_deref(),
        Some("get_tide")
    );
}
