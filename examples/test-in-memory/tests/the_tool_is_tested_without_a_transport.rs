//! Tests written against the server in memory.

use mcp_server::testing::MemoryClient;
use serde_json::json;

#[tokio::test]
async fn boiling_water_is_212_fahrenheit() {
    let client = MemoryClient::new(&test_in_memory::server());
    let result = client
        .call_tool("to_fahrenheit", json!({"celsius": 100.0}))
        .await
        .unwrap();
    assert_eq!(result.structured_content, Some(json!(212.0)));
}

#[tokio::test]
async fn a_wrong_argument_is_an_error_the_model_can_read() {
    let client = MemoryClient::new(&test_in_memory::server());
    let result = client
        .call_tool("to_fahrenheit", json!({"celsius": "hot"}))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
}

#[tokio::test]
async fn the_tool_is_listed_with_its_schemas() {
    let client = MemoryClient::new(&test_in_memory::server());
    let tools = client.list_tools().await.unwrap();
    assert_eq!(tools[0].name, "to_fahrenheit");
    assert!(tools[0].output_schema.is_some());
}
