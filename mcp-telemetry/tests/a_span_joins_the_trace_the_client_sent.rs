//! The W3C trace context a client sends in `params._meta` makes the
//! request's span a child of the client's span, in the client's trace.

mod support;

use mcp_server::testing::MemoryClient;
use opentelemetry::trace::{SpanId, TraceId};
use serde_json::json;
use support::{Spans, server};

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

#[tokio::test]
async fn a_traceparent_in_meta_becomes_the_parent_of_the_span() {
    let spans = Spans::record();
    let server = server();
    let params = json!({"name": "get_weather", "arguments": {}, "_meta": {
        "traceparent": format!("00-{TRACE}-{PARENT}-01"),
        "tracestate": "vendor=1",
    }});
    MemoryClient::new(&server)
        .request_raw("tools/call", params)
        .await
        .unwrap();
    let span = spans.only();
    assert_eq!(
        span.span_context.trace_id(),
        TraceId::from_hex(TRACE).unwrap()
    );
    assert_eq!(span.parent_span_id, SpanId::from_hex(PARENT).unwrap());
    assert_eq!(span.span_context.trace_state().get("vendor"), Some("1"));
}

#[tokio::test]
async fn without_a_traceparent_the_span_starts_a_trace_of_its_own() {
    let spans = Spans::record();
    let server = server();
    MemoryClient::new(&server)
        .call_tool("get_weather", json!({}))
        .await
        .unwrap();
    let span = spans.only();
    assert_ne!(
        span.span_context.trace_id(),
        TraceId::from_hex(TRACE).unwrap()
    );
    assert_eq!(span.parent_span_id, SpanId::INVALID);
}
