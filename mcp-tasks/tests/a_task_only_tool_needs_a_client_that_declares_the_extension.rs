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

/// Serves `runtime_only_task`, a tool described by data.
struct Runtime;

impl mcp_server::seam::contributor::catalog::CatalogContributor for Runtime {
    fn name(&self) -> &str {
        "runtime"
    }

    fn load(&self) -> Result<mcp_server::catalog::CatalogChange, mcp_server::boot::Diagnostic> {
        let mut schema = mcp_server::core::json::JsonObject::new();
        schema.insert("type".into(), "object".into());
        let tool = mcp_server::core::tools::Tool {
            name: "runtime_only_task".into(),
            input_schema: schema,
            ..Default::default()
        };
        let answer = mcp_server::handler::handler_fn::<mcp_server::core::tools::CallTool, _, _, _>(
            |_, _| async { Ok(mcp_server::core::tools::CallToolResult::text("ran")) },
        );
        Ok(mcp_server::catalog::CatalogChange::new(mcp_server::origin!()).add_tool(tool, answer))
    }
}

#[tokio::test]
async fn a_runtime_tool_opted_into_tasks_by_name_is_refused_to_a_client_without_the_extension() {
    use mcp_server::seam::Item;
    let server = Server::builder()
        .register(
            mcp_server::origin!(),
            "runtime",
            0,
            Item::catalog_contributor(Runtime),
        )
        .register(
            mcp_server::origin!(),
            "runtime-task",
            0,
            Item::customizer_for("runtime_only_task", mcp_tasks::RunsAsTask::required()),
        )
        .build();
    let listed = server
        .tools()
        .into_iter()
        .find(|t| t.name == "runtime_only_task")
        .unwrap();
    assert_eq!(
        serde_json::to_value(listed.execution.and_then(|e| e.task_support)).unwrap(),
        "required"
    );
    let refused = MemoryClient::new(&server)
        .request_raw(
            "tools/call",
            json!({"name": "runtime_only_task", "arguments": {}}),
        )
        .await
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
}
