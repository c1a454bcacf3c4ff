//! The tools are listed and answer as §4 of the conformance contract says.

use mcp_demo as _;
use mcp_demo::media::{PNG_BASE64, WAV_BASE64};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonValue;
use mcp_server::testing::MemoryClient;
use serde_json::json;

/// Every tool of the contract, with the tasks scenarios' tools, `long_report`,
/// `sales_by_region` and the tools the demo's interceptors guard, by name.
const TOOLS: [&str; 41] = [
    "confirm_delete",
    "confirm_invoice",
    "customer_profile",
    "failing_job",
    "greet",
    "json_schema_2020_12_tool",
    "long_report",
    "multi_input",
    "protocol_error_job",
    "sales_by_region",
    "search_orders",
    "slow_compute",
    "support_ticket",
    "test_audio_content",
    "test_elicitation",
    "test_elicitation_sep1034_defaults",
    "test_elicitation_sep1330_enums",
    "test_embedded_resource",
    "test_error_handling",
    "test_image_content",
    "test_input_required_result_capabilities",
    "test_input_required_result_elicitation",
    "test_input_required_result_list_roots",
    "test_input_required_result_multi_round",
    "test_input_required_result_multiple_inputs",
    "test_input_required_result_request_state",
    "test_input_required_result_sampling",
    "test_input_required_result_tampered_state",
    "test_logging_tool",
    "test_missing_capability",
    "test_multiple_content_types",
    "test_param_headers",
    "test_reconnection",
    "test_sampling",
    "test_simple_text",
    "test_streaming_elicitation",
    "test_tool_with_logging",
    "test_tool_with_progress",
    "test_tool_with_task",
    "test_trigger_prompt_change",
    "test_trigger_tool_change",
];

async fn call(client: &MemoryClient, name: &str) -> Result<JsonValue, ErrorObject> {
    client
        .request_raw("tools/call", json!({"name": name, "arguments": {}}))
        .await
}

#[tokio::test]
async fn every_contract_tool_is_listed_with_a_description_and_an_object_schema() {
    let client = MemoryClient::new(&mcp_demo::server());
    let tools = client.list_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, TOOLS);
    for tool in &tools {
        assert!(
            tool.description.as_deref().is_some_and(|d| !d.is_empty()),
            "`{}` has no description",
            tool.name
        );
        assert_eq!(
            tool.input_schema.get("type"),
            Some(&json!("object")),
            "{}",
            tool.name
        );
    }
}

#[tokio::test]
async fn the_json_schema_2020_12_tool_lists_its_schema_verbatim() {
    let client = MemoryClient::new(&mcp_demo::server());
    let tools = client.list_tools().await.unwrap();
    let tool = tools
        .iter()
        .find(|t| t.name == "json_schema_2020_12_tool")
        .unwrap();
    let expected = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "address",
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
            }
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"}
        },
        "allOf": [
            {"anyOf": [{"required": ["name"]}, {"not": {"required": ["name"]}}]}
        ],
        "if": {"required": ["name"]},
        "then": {"properties": {"name": {"minLength": 1}}},
        "else": {},
        "additionalProperties": false
    });
    let listed = JsonValue::Object(tool.input_schema.clone());
    assert_eq!(listed, expected);
    assert_eq!(
        serde_json::to_string(&listed).unwrap(),
        serde_json::to_string(&expected).unwrap(),
        "members in the same order"
    );
}

#[tokio::test]
async fn the_json_schema_2020_12_tool_accepts_its_arguments_and_refuses_others() {
    let client = MemoryClient::new(&mcp_demo::server());
    let called = client
        .request_raw(
            "tools/call",
            json!({"name": "json_schema_2020_12_tool", "arguments": {"name": "Ada", "address": {"city": "London"}}}),
        )
        .await
        .unwrap();
    assert_eq!(
        called["content"][0]["text"],
        r#"JSON Schema 2020-12 tool called with: {"name":"Ada","address":{"city":"London"}}"#
    );
    let refused = client
        .request_raw(
            "tools/call",
            json!({"name": "json_schema_2020_12_tool", "arguments": {"nickname": "Ada"}}),
        )
        .await
        .unwrap();
    assert_eq!(
        refused["isError"], true,
        "additionalProperties is false: {refused}"
    );
}

#[tokio::test]
async fn the_simple_text_tool_answers_with_non_empty_text() {
    let result = call(&MemoryClient::new(&mcp_demo::server()), "test_simple_text")
        .await
        .unwrap();
    assert_eq!(
        result["content"],
        json!([{"type": "text", "text": "This is a simple text response for testing."}])
    );
    assert!(result.get("isError").is_none());
}

#[tokio::test]
async fn the_image_tool_answers_with_the_png() {
    let result = call(
        &MemoryClient::new(&mcp_demo::server()),
        "test_image_content",
    )
    .await
    .unwrap();
    assert_eq!(
        result["content"],
        json!([{"type": "image", "data": PNG_BASE64, "mimeType": "image/png"}])
    );
}

#[tokio::test]
async fn the_audio_tool_answers_with_a_wav_typed_exactly_audio_wav() {
    let result = call(
        &MemoryClient::new(&mcp_demo::server()),
        "test_audio_content",
    )
    .await
    .unwrap();
    assert_eq!(
        result["content"],
        json!([{"type": "audio", "data": WAV_BASE64, "mimeType": "audio/wav"}])
    );
}

#[tokio::test]
async fn the_embedded_resource_tool_answers_with_a_text_resource() {
    let result = call(
        &MemoryClient::new(&mcp_demo::server()),
        "test_embedded_resource",
    )
    .await
    .unwrap();
    assert_eq!(
        result["content"],
        json!([{"type": "resource", "resource": {
            "uri": "test://embedded-resource",
            "mimeType": "text/plain",
            "text": "This is an embedded resource content."
        }}])
    );
}

#[tokio::test]
async fn the_multiple_content_types_tool_answers_with_text_an_image_and_a_resource() {
    let result = call(
        &MemoryClient::new(&mcp_demo::server()),
        "test_multiple_content_types",
    )
    .await
    .unwrap();
    assert_eq!(
        result["content"],
        json!([
            {"type": "text", "text": "Multiple content types test:"},
            {"type": "image", "data": PNG_BASE64, "mimeType": "image/png"},
            {"type": "resource", "resource": {
                "uri": "test://mixed-content-resource",
                "mimeType": "application/json",
                "text": "{\"test\":\"data\",\"value\":123}"
            }}
        ])
    );
}

#[tokio::test]
async fn the_error_tool_answers_with_an_is_error_result_not_a_json_rpc_error() {
    let result = call(
        &MemoryClient::new(&mcp_demo::server()),
        "test_error_handling",
    )
    .await
    .unwrap();
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["content"][0]["text"],
        "This tool intentionally returns an error for testing"
    );
}

#[tokio::test]
async fn the_reconnection_tool_answers_after_about_a_hundred_milliseconds() {
    let client = MemoryClient::new(&mcp_demo::server());
    let started = std::time::Instant::now();
    let result = call(&client, "test_reconnection").await.unwrap();
    assert!(started.elapsed() >= std::time::Duration::from_millis(100));
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Reconnection test completed successfully.")
    );
}

#[tokio::test]
async fn sales_by_region_answers_in_text_and_in_figures_and_names_its_chart_view() {
    let client = MemoryClient::new(&mcp_demo::server());
    let listed = client.request_raw("tools/list", json!({})).await.unwrap();
    let tool = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "sales_by_region")
        .unwrap();
    assert_eq!(
        tool["_meta"],
        json!({"ui": {"resourceUri": "ui://mcp-demo/sales-chart"}})
    );
    let result = call(&client, "sales_by_region").await.unwrap();
    assert_eq!(
        result["content"][0]["text"],
        "Sales by region, Q3: North 120, South 95, East 143, West 88 (total 446 k$)"
    );
    assert_eq!(result["structuredContent"]["title"], "Sales by region, Q3");
    assert_eq!(
        result["structuredContent"]["bars"][2],
        json!({"label": "East", "value": 143})
    );
    let view = client
        .request_raw(
            "resources/read",
            json!({"uri": "ui://mcp-demo/sales-chart"}),
        )
        .await
        .unwrap();
    assert_eq!(view["contents"][0]["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(
        view["contents"][0]["text"],
        include_str!("../views/sales_chart.html")
    );
    // An unknown quarter is a tool error the model can correct.
    let unknown = client
        .request_raw(
            "tools/call",
            json!({"name": "sales_by_region", "arguments": {"quarter": "Q5"}}),
        )
        .await
        .unwrap();
    assert_eq!(unknown["isError"], true);
}
