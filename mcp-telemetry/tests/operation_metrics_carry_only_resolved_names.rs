//! `mcp.server.operation.duration` gets a point for every request, with the
//! low-cardinality attributes of the conventions, a tool's name only when
//! the call resolved to it; `mcp.server.session.duration` one for every
//! 2025-11-25 session that ended.
//!
//! The meter provider is the process's own, shared by this file's tests:
//! each looks for the points of its own tools and methods.

mod support;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use mcp_server::testing::MemoryClient;
use opentelemetry::global;
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, SdkMeterProvider};
use serde_json::json;
use support::server;

/// One histogram point: its attributes, and how many values it counts.
#[derive(Debug)]
struct Point {
    attributes: BTreeMap<String, String>,
    count: u64,
}

/// The exporter of the process's meter provider, installed once.
fn exporter() -> &'static (InMemoryMetricExporter, SdkMeterProvider) {
    static METRICS: OnceLock<(InMemoryMetricExporter, SdkMeterProvider)> = OnceLock::new();
    METRICS.get_or_init(|| {
        let exporter = InMemoryMetricExporter::default();
        let provider = SdkMeterProvider::builder()
            .with_periodic_exporter(exporter.clone())
            .build();
        global::set_meter_provider(provider.clone());
        mcp_telemetry::record_metrics();
        (exporter, provider)
    })
}

/// The points of histogram `name` as the last export has them.
fn points(name: &str) -> Vec<Point> {
    let (exporter, provider) = exporter();
    provider.force_flush().unwrap();
    let exported = exporter.get_finished_metrics().unwrap();
    let Some(last) = exported.last() else {
        return Vec::new();
    };
    let mut points = Vec::new();
    for metric in last
        .scope_metrics()
        .flat_map(|scope| scope.metrics())
        .filter(|metric| metric.name() == name)
    {
        assert_eq!(metric.unit(), "s");
        let AggregatedMetrics::F64(MetricData::Histogram(histogram)) = metric.data() else {
            panic!("{name} is not a histogram of seconds");
        };
        for point in histogram.data_points() {
            points.push(Point {
                attributes: point
                    .attributes()
                    .map(|kv| (kv.key.to_string(), kv.value.to_string()))
                    .collect(),
                count: point.count(),
            });
        }
    }
    points
}

/// The attributes as `key=value` pairs.
fn pairs<const N: usize>(pairs: [(&str, &str); N]) -> BTreeMap<String, String> {
    pairs
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

#[tokio::test]
async fn a_resolved_tool_call_is_counted_under_its_tool() {
    exporter();
    let server = server();
    let client = MemoryClient::new(&server);
    client.call_tool("get_weather", json!({})).await.unwrap();
    client.call_tool("get_weather", json!({})).await.unwrap();
    client.call_tool("fail", json!({})).await.unwrap();
    let points = points("mcp.server.operation.duration");
    let weather = points
        .iter()
        .find(|p| p.attributes.get("gen_ai.tool.name").map(String::as_str) == Some("get_weather"))
        .expect("a point for get_weather");
    assert_eq!(
        weather.attributes,
        pairs([
            ("gen_ai.operation.name", "execute_tool"),
            ("gen_ai.tool.name", "get_weather"),
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2026-07-28"),
        ])
    );
    assert_eq!(weather.count, 2);
    let failed = points
        .iter()
        .find(|p| p.attributes.get("gen_ai.tool.name").map(String::as_str) == Some("fail"))
        .expect("a point for fail");
    assert_eq!(
        failed.attributes.get("error.type").map(String::as_str),
        Some("tool_error")
    );
}

#[tokio::test]
async fn unknown_and_hidden_tools_are_counted_without_a_name() {
    exporter();
    let server = server();
    let client = MemoryClient::new(&server);
    client
        .call_tool("x_unknown_9c1", json!({}))
        .await
        .unwrap_err();
    client
        .call_tool("admin_reset", json!({}))
        .await
        .unwrap_err();
    let points = points("mcp.server.operation.duration");
    let unnamed = points
        .iter()
        .find(|p| {
            p.attributes
                .get("rpc.response.status_code")
                .map(String::as_str)
                == Some("-32602")
        })
        .expect("a point for the refused calls");
    assert_eq!(
        unnamed.attributes,
        pairs([
            ("gen_ai.operation.name", "execute_tool"),
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2026-07-28"),
            ("rpc.response.status_code", "-32602"),
        ])
    );
    assert!(unnamed.count >= 2, "{unnamed:?}");
    for point in &points {
        let values: Vec<&String> = point.attributes.values().collect();
        assert!(
            !values
                .iter()
                .any(|v| *v == "x_unknown_9c1" || *v == "admin_reset"),
            "{point:?}"
        );
    }
}

#[tokio::test]
async fn a_legacy_session_is_measured_from_initialize_until_it_ends() {
    exporter();
    let server = server();
    let client = MemoryClient::new(&server).connected();
    client.initialize("2025-11-25").await.unwrap();
    client.request_raw("ping", json!({})).await.unwrap();
    assert!(
        points("mcp.server.session.duration").is_empty(),
        "the session has not ended"
    );
    drop(client);
    let sessions = points("mcp.server.session.duration");
    let [session] = sessions.as_slice() else {
        panic!("{sessions:?}");
    };
    assert_eq!(
        session.attributes,
        pairs([("mcp.protocol.version", "2025-11-25")])
    );
    assert_eq!(session.count, 1);
}
