//! With `otlp_endpoint` set, `install` exports spans and metrics over
//! OTLP/HTTP with protobuf: a collector listening in this test receives
//! the span of a tool call, named and attributed as the conventions say,
//! and the operation histogram, under the configured service name.
#![cfg(feature = "otlp")]

mod support;

use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::routing::post;
use mcp_server::testing::MemoryClient;
use mcp_telemetry::TelemetrySection;
use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue};
use prost::Message;
use serde_json::json;
use support::server;
use tokio::sync::mpsc;

/// What the collector received.
#[derive(Debug)]
enum Received {
    Traces(ExportTraceServiceRequest),
    Metrics(ExportMetricsServiceRequest),
}

/// A collector on a port of its own: what it receives goes to the channel.
async fn collector() -> (String, mpsc::UnboundedReceiver<Received>) {
    let (sender, received) = mpsc::unbounded_channel();
    let app = Router::new()
        .route(
            "/v1/traces",
            post(
                |State(out): State<mpsc::UnboundedSender<Received>>, body: Bytes| async move {
                    let request =
                        ExportTraceServiceRequest::decode(body).expect("OTLP trace protobuf");
                    let _ = out.send(Received::Traces(request));
                },
            ),
        )
        .route(
            "/v1/metrics",
            post(
                |State(out): State<mpsc::UnboundedSender<Received>>, body: Bytes| async move {
                    let request =
                        ExportMetricsServiceRequest::decode(body).expect("OTLP metrics protobuf");
                    let _ = out.send(Received::Metrics(request));
                },
            ),
        )
        .with_state(sender);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{address}"), received)
}

/// The text of attribute `key` among `attributes`.
fn text<'a>(attributes: &'a [KeyValue], key: &str) -> Option<&'a str> {
    let value = attributes.iter().find(|kv| kv.key == key)?.value.as_ref()?;
    match value {
        AnyValue {
            value: Some(Value::StringValue(text)),
            ..
        } => Some(text),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_call_reaches_the_collector_as_a_span_and_a_histogram_point() {
    let (endpoint, mut received) = collector().await;
    let server = server();
    let section = TelemetrySection {
        otlp_endpoint: Some(endpoint),
        service_name: Some("weather-service".into()),
    };
    let guard = mcp_telemetry::install(&section).unwrap().unwrap();
    MemoryClient::new(&server)
        .call_tool("get_weather", json!({}))
        .await
        .unwrap();
    // The exporters block while they send: not on this runtime's threads.
    let guard = tokio::task::spawn_blocking(move || {
        guard.flush();
        guard
    })
    .await
    .unwrap();

    let (mut span, mut histogram) = (None, None);
    while span.is_none() || histogram.is_none() {
        let next = tokio::time::timeout(Duration::from_secs(10), received.recv())
            .await
            .expect("the collector heard nothing")
            .unwrap();
        match next {
            Received::Traces(traces) => {
                for resource in traces.resource_spans {
                    let attributes = &resource.resource.as_ref().unwrap().attributes;
                    assert_eq!(text(attributes, "service.name"), Some("weather-service"));
                    let found = resource
                        .scope_spans
                        .into_iter()
                        .flat_map(|scope| scope.spans)
                        .find(|span| span.name == "tools/call get_weather");
                    span = span.or(found);
                }
            }
            Received::Metrics(metrics) => {
                histogram = histogram.or(metrics
                    .resource_metrics
                    .into_iter()
                    .flat_map(|resource| resource.scope_metrics)
                    .flat_map(|scope| scope.metrics)
                    .find(|metric| metric.name == "mcp.server.operation.duration"));
            }
        }
    }
    let span = span.unwrap();
    // SPAN_KIND_SERVER
    assert_eq!(span.kind, 2);
    assert_eq!(
        text(&span.attributes, "mcp.method.name"),
        Some("tools/call")
    );
    assert_eq!(
        text(&span.attributes, "gen_ai.tool.name"),
        Some("get_weather")
    );
    assert_eq!(
        text(&span.attributes, "gen_ai.operation.name"),
        Some("execute_tool")
    );
    assert_eq!(
        text(&span.attributes, "mcp.protocol.version"),
        Some("2026-07-28")
    );
    assert_eq!(text(&span.attributes, "jsonrpc.request.id"), Some("1"));
    assert_eq!(histogram.unwrap().unit, "s");
    tokio::task::spawn_blocking(move || drop(guard))
        .await
        .unwrap();
}
