//! Linking activates: this test binary does not link `mcp-tasks`, and the
//! server has no tasks capability, no tasks methods and no task metadata.

use mcp_server::core::version::Era;
use mcp_server::testing::MemoryClient;
use mcp_server::{Server, tool};
use serde_json::json;

/// Works.
#[tool]
async fn plain_work() -> String {
    "worked".into()
}

#[tokio::test]
async fn without_the_extension_linked_nothing_of_tasks_is_served() {
    let server = Server::builder().build();
    assert!(
        !server
            .capabilities()
            .has_extension("io.modelcontextprotocol/tasks")
    );
    assert!(server.capabilities_in(Era::Legacy).tasks.is_none());
    for method in [
        "tasks/get",
        "tasks/update",
        "tasks/cancel",
        "tasks/result",
        "tasks/list",
    ] {
        assert!(
            !server.serves(method, Era::Modern) && !server.serves(method, Era::Legacy),
            "{method}"
        );
    }
    let client = MemoryClient::new(&server).with_capabilities(
        serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
            .unwrap(),
    );
    let result = client
        .request_raw("tools/call", json!({"name": "plain_work"}))
        .await
        .unwrap();
    assert_eq!(result["resultType"], "complete");
    let error = client
        .request_raw("tasks/get", json!({"taskId": "t"}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32601);
    assert!(server.tools().iter().all(|t| t.execution.is_none()));
}
