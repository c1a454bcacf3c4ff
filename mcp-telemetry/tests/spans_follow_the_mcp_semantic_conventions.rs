//! Each span carries the attributes the conventions name, and is an error
//! exactly when the server failed: a tool result with `isError: true`, or
//! an error code other than the five that mean the caller's mistake.

mod support;

use mcp_server::testing::MemoryClient;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{json_body, post, post_modern, send};
use opentelemetry::trace::Status;
use serde_json::json;
use support::{NOTE, Spans, attribute, server};

#[tokio::test]
async fn a_tool_result_with_is_error_is_a_tool_error() {
    let spans = Spans::record();
    let server = server();
    let result = MemoryClient::new(&server)
        .call_tool("fail", json!({}))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    let span = spans.only();
    assert_eq!(span.name, "tools/call fail");
    assert_eq!(
        attribute(&span, "error.type").as_deref(),
        Some("tool_error")
    );
    assert_eq!(span.status, Status::error(""));
    assert_eq!(
        attribute(&span, "rpc.response.status_code"),
        None,
        "the answer is a result"
    );
}

#[tokio::test]
async fn a_server_error_is_a_span_error_with_its_code_and_message() {
    let spans = Spans::record();
    let server = server();
    let error = MemoryClient::new(&server)
        .call_tool("crash", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32603);
    let span = spans.only();
    assert_eq!(span.name, "tools/call crash");
    assert_eq!(attribute(&span, "error.type").as_deref(), Some("-32603"));
    assert_eq!(
        attribute(&span, "rpc.response.status_code").as_deref(),
        Some("-32603")
    );
    assert_eq!(span.status, Status::error(error.message));
}

#[tokio::test]
async fn a_resource_read_records_its_uri_but_is_named_after_its_method() {
    let spans = Spans::record();
    let server = server();
    MemoryClient::new(&server)
        .request_raw("resources/read", json!({"uri": NOTE}))
        .await
        .unwrap();
    let span = spans.only();
    assert_eq!(span.name, "resources/read");
    assert_eq!(attribute(&span, "mcp.resource.uri").as_deref(), Some(NOTE));
    assert_eq!(attribute(&span, "gen_ai.operation.name"), None);
}

#[tokio::test]
async fn a_notification_of_a_method_the_protocol_lacks_is_recorded_as_other() {
    let spans = Spans::record();
    let server = server();
    let client = MemoryClient::new(&server);
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}}))
        .await;
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/x-7f3a", "params": {}}))
        .await;
    let [cancelled, made_up] = <[_; 2]>::try_from(spans.finished()).unwrap();
    assert_eq!(cancelled.name, "notifications/cancelled");
    assert_eq!(attribute(&cancelled, "jsonrpc.request.id"), None);
    assert_eq!(made_up.name, "_OTHER");
    assert_eq!(
        attribute(&made_up, "mcp.method.name").as_deref(),
        Some("_OTHER")
    );
}

#[tokio::test]
async fn http_spans_name_their_legacy_session_and_transport_and_modern_ones_have_no_session() {
    let spans = Spans::record();
    let app = router(server(), "/mcp", HttpConfig::default());
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "old", "version": "1"}}});
    let response = send(&app, post(None, &initialize)).await;
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather"}});
    let answer = json_body(send(&app, post(Some(&session), &call)).await).await;
    assert_eq!(answer["result"]["content"][0]["text"], "sunny", "{answer}");
    let modern = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_weather", "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}}});
    let answer = json_body(
        send(
            &app,
            post_modern("tools/call", Some("get_weather"), &modern),
        )
        .await,
    )
    .await;
    assert_eq!(answer["result"]["content"][0]["text"], "sunny", "{answer}");

    let [initialized, legacy, modern] = <[_; 3]>::try_from(spans.finished()).unwrap();
    assert_eq!(initialized.name, "initialize");
    for span in [&initialized, &legacy] {
        assert_eq!(attribute(span, "mcp.session.id"), Some(session.clone()));
        assert_eq!(attribute(span, "network.transport").as_deref(), Some("tcp"));
    }
    assert_eq!(legacy.name, "tools/call get_weather");
    assert_eq!(
        attribute(&legacy, "mcp.protocol.version").as_deref(),
        Some("2025-11-25")
    );
    assert_eq!(modern.name, "tools/call get_weather");
    assert_eq!(
        attribute(&modern, "mcp.session.id"),
        None,
        "2026-07-28 has no sessions"
    );
    assert_eq!(
        attribute(&modern, "mcp.protocol.version").as_deref(),
        Some("2026-07-28")
    );
}
