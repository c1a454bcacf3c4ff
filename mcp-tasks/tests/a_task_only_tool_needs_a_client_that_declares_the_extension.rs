//! A tool that runs only as a task (`task!(tool, required)`) refuses a
//! 2026-07-28 client that does not declare the tasks extension with
//! `-32021`, naming the extension it needs; the handler never runs and no
//! task exists.

use std::sync::Mutex;

use mcp_server::core::error::ErrorCode;
use mcp_server::testing::MemoryClient;
use mcp_server::{Server, tool};
use mcp_tasks::store::TaskStore;
use serde_json::json;

static RAN: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Records that it ran; only ever a task.
#[tool]
async fn only_as_a_task(label: String) -> String {
    RAN.lock().unwrap().push(label.clone());
    format!("ran {label}")
}
mcp_tasks::task!(only_as_a_task, required);

async fn tasks_of_anonymous(server: &Server) -> usize {
    let store = server.active::<dyn TaskStore>().unwrap();
    store.list("", None, 10_000).await.unwrap().len()
}

#[tokio::test]
async fn a_client_without_the_extension_calling_a_task_only_tool_gets_32021_naming_the_extension() {
    assert_eq!(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY.0, -32021);
    let server = Server::builder().build();
    let plain = MemoryClient::new(&server);
    let refused = plain
        .request_raw(
            "tools/call",
            json!({"name": "only_as_a_task", "arguments": {"label": "plain"}}),
        )
        .await
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(
        refused.message,
        "Missing required client capability: tool `only_as_a_task` runs only as a task \
         (extension `io.modelcontextprotocol/tasks`)"
    );
    assert_eq!(
        refused.data.unwrap()["requiredCapabilities"],
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
    assert!(
        !RAN.lock().unwrap().contains(&"plain".to_owned()),
        "the handler never ran"
    );
    assert_eq!(tasks_of_anonymous(&server).await, 0, "no task exists");
}

#[tokio::test]
async fn a_client_that_declares_the_extension_gets_the_task_only_tools_task() {
    let server = Server::builder().build();
    let declaring = MemoryClient::new(&server).with_capabilities(
        serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
            .unwrap(),
    );
    let handle = declaring
        .request_raw(
            "tools/call",
            json!({"name": "only_as_a_task", "arguments": {"label": "declared"}}),
        )
        .await
        .unwrap();
    assert_eq!(handle["resultType"], "task", "{handle}");
    assert_eq!(tasks_of_anonymous(&server).await, 1);
}
