//! Tools contributed at boot are listed in a deterministic order, paginated
//! with opaque cursors, and called through the pipeline.

mod support;

use mcp_server::core::error::ErrorCode;
use mcp_server::core::json::JsonValue;
use mcp_server::testing::MemoryClient;
use serde_json::json;
use support::with_tools;

#[tokio::test]
async fn a_contributed_tool_is_called_and_answers() {
    let server = with_tools(&["echo"]).build();
    let client = MemoryClient::new(&server);
    let result = client.call_tool("echo", json!({})).await.unwrap();
    assert_eq!(
        result.content[0],
        mcp_server::core::content::ContentBlock::text("echo")
    );
}

#[tokio::test]
async fn an_unknown_tool_is_invalid_params_naming_it() {
    let server = with_tools(&["echo"]).build();
    let error = MemoryClient::new(&server)
        .call_tool("nope", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(error.message, "Unknown tool: nope");
}

#[tokio::test]
async fn tools_are_listed_in_name_order_whatever_the_contribution_order() {
    let server = with_tools(&["zeta", "alpha", "mid"]).build();
    let names: Vec<String> = MemoryClient::new(&server)
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["alpha", "mid", "zeta"]);
}

#[tokio::test]
async fn lists_are_paginated_with_opaque_cursors_and_carry_cache_hints() {
    let server = with_tools(&["a", "b", "c", "d", "e"]).page_size(2).build();
    let client = MemoryClient::new(&server);
    let first = client.request_raw("tools/list", json!({})).await.unwrap();
    assert_eq!(first["tools"].as_array().unwrap().len(), 2);
    assert_eq!(first["resultType"], "complete");
    assert_eq!(first["ttlMs"], 0);
    assert_eq!(first["cacheScope"], "private");
    let cursor = first["nextCursor"].as_str().unwrap().to_owned();
    assert!(!cursor.contains('2'), "the cursor is opaque: {cursor}");
    let second = client
        .request_raw("tools/list", json!({"cursor": cursor}))
        .await
        .unwrap();
    assert_eq!(second["tools"][0]["name"], "c");
    assert_eq!(client.list_tools().await.unwrap().len(), 5);
}

#[tokio::test]
async fn a_cursor_the_server_did_not_issue_is_invalid_params() {
    let server = with_tools(&["a"]).build();
    let error = MemoryClient::new(&server)
        .request_raw("tools/list", json!({"cursor": "forged"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
}

#[tokio::test]
async fn a_server_without_tools_does_not_route_tools_methods() {
    let server = support::builder().build();
    let error = MemoryClient::new(&server)
        .request_raw("tools/list", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
    assert!(server.capabilities().tools.is_none());
}

#[tokio::test]
async fn discover_names_the_server_its_versions_and_capabilities() {
    let server = with_tools(&["a"]).instructions("be brief").build();
    let result: JsonValue = MemoryClient::new(&server)
        .request_raw("server/discover", json!({}))
        .await
        .unwrap();
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"][0], "2026-07-28");
    assert_eq!(
        result["capabilities"]["tools"],
        json!({"listChanged": true})
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "test"
    );
    assert_eq!(result["instructions"], "be brief");
    assert_eq!(result["cacheScope"], "public");
}
