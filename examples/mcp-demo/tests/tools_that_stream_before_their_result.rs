//! Log messages, progress and list changes the tools send while they run.

use std::sync::{Arc, Mutex};

use mcp_demo as _;
use mcp_server::context::Negotiated;
use mcp_server::core::json::JsonValue;
use mcp_server::core::jsonrpc::Notification;
use mcp_server::core::logging::LoggingLevel;
use mcp_server::seam::sink::{Change, ChangeSink};
use mcp_server::testing::MemoryClient;
use serde_json::json;

/// A 2025-11-25 client that set its log level to `debug`, as the suite does.
fn legacy_client() -> MemoryClient {
    MemoryClient::new(&mcp_demo::server()).legacy(Negotiated {
        protocol_version: "2025-11-25".into(),
        log_level: Some(LoggingLevel::Debug),
        ..Negotiated::default()
    })
}

/// The params of the notifications named `method`, in order.
fn params_of(notifications: &[Notification], method: &str) -> Vec<JsonValue> {
    notifications
        .iter()
        .filter(|n| n.method == method)
        .map(|n| serde_json::from_str(n.params.as_ref().unwrap().get()).unwrap())
        .collect()
}

#[tokio::test]
async fn the_logging_tool_sends_three_info_messages_about_fifty_milliseconds_apart() {
    let client = legacy_client();
    let started = std::time::Instant::now();
    let result = client
        .request_raw(
            "tools/call",
            json!({"name": "test_tool_with_logging", "arguments": {}}),
        )
        .await
        .unwrap();
    assert!(started.elapsed() >= std::time::Duration::from_millis(100));
    assert_eq!(
        result["content"][0]["text"],
        "Tool with logging executed successfully"
    );
    let logs = params_of(&client.take_notifications(), "notifications/message");
    assert_eq!(
        logs,
        [
            json!({"level": "info", "data": "Tool execution started"}),
            json!({"level": "info", "data": "Tool processing data"}),
            json!({"level": "info", "data": "Tool execution completed"}),
        ]
    );
}

#[tokio::test]
async fn the_progress_tool_reports_non_decreasing_progress_with_the_numeric_token_and_answers_it() {
    let client = legacy_client();
    let result = client
        .request_raw(
            "tools/call",
            json!({"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": 1}}),
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "1");
    let reports = params_of(&client.take_notifications(), "notifications/progress");
    assert!(reports.len() >= 3, "{reports:?}");
    let progress: Vec<f64> = reports
        .iter()
        .map(|r| r["progress"].as_f64().unwrap())
        .collect();
    assert_eq!(progress, [0.0, 50.0, 100.0]);
    assert!(progress.windows(2).all(|w| w[0] <= w[1]));
    for report in &reports {
        assert_eq!(
            report["progressToken"],
            json!(1),
            "the token as sent: a number"
        );
        assert_eq!(report["total"], json!(100));
    }
}

#[tokio::test]
async fn the_progress_tool_echoes_a_string_token_and_reports_nothing_without_one() {
    let client = legacy_client();
    let result = client
        .request_raw(
            "tools/call",
            json!({"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "progress-test-1"}}),
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "progress-test-1");
    client.take_notifications();
    client
        .request_raw(
            "tools/call",
            json!({"name": "test_tool_with_progress", "arguments": {}}),
        )
        .await
        .unwrap();
    assert!(params_of(&client.take_notifications(), "notifications/progress").is_empty());
}

#[tokio::test]
async fn the_2026_logging_tool_logs_nothing_unless_the_request_sets_a_log_level() {
    let client = MemoryClient::new(&mcp_demo::server());
    let result = client
        .request_raw(
            "tools/call",
            json!({"name": "test_logging_tool", "arguments": {}}),
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "Logging evaluated");
    assert!(client.take_notifications().is_empty());

    client
        .request_raw(
            "tools/call",
            json!({"name": "test_logging_tool", "arguments": {}, "_meta": {"io.modelcontextprotocol/logLevel": "info"}}),
        )
        .await
        .unwrap();
    let levels: Vec<JsonValue> = params_of(&client.take_notifications(), "notifications/message")
        .into_iter()
        .map(|p| p["level"].clone())
        .collect();
    assert_eq!(
        levels,
        [json!("info"), json!("warning")],
        "debug is below the level asked for"
    );
}

/// Keeps every published change.
#[derive(Debug, Clone, Default)]
struct Changes(Arc<Mutex<Vec<Change>>>);

impl ChangeSink for Changes {
    fn publish(&self, change: Change) {
        self.0.lock().unwrap().push(change);
    }
}

#[tokio::test]
async fn the_trigger_tools_publish_a_tool_list_change_and_a_prompt_list_change() {
    let changes = Changes::default();
    let server = mcp_demo::builder().change_sink(changes.clone()).build();
    let client = MemoryClient::new(&server);
    for tool in ["test_trigger_tool_change", "test_trigger_prompt_change"] {
        let result = client
            .request_raw("tools/call", json!({"name": tool, "arguments": {}}))
            .await
            .unwrap();
        assert_eq!(result["content"][0]["text"], "Mutation triggered");
    }
    assert_eq!(
        *changes.0.lock().unwrap(),
        [Change::tools_list_changed(), Change::prompts_list_changed()]
    );
}
