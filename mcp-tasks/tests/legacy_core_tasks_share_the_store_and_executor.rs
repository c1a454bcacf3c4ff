//! Core tasks of 2025-11-25, over the same store and executor: the nested
//! create result, `tasks/get`, the blocking `tasks/result` that asks the
//! task's questions on its own stream, `tasks/list`, `tasks/cancel`, and the
//! rules that differ from the extension.

use std::time::Duration;

use mcp_server::context::InputError;
use mcp_server::context::Negotiated;
use mcp_server::core::elicitation::{ElicitRequestFormParams, ElicitRequestParams};
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, RequestContext, Server, tool};
use serde_json::{Value, json};

/// Sleeps, then answers.
#[tool]
async fn legacy_nap(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("slept {millis} ms")
}
mcp_tasks::task!(legacy_nap);

/// Only ever a task.
#[tool]
async fn legacy_only_task() -> String {
    "done".into()
}
mcp_tasks::task!(legacy_only_task, required);

/// Reports a tool error.
#[tool]
async fn legacy_tool_error() -> Result<String, String> {
    Err("it broke".into())
}
mcp_tasks::task!(legacy_tool_error);

/// Never a task.
#[tool]
async fn legacy_plain() -> String {
    "plain".into()
}

/// Asks a name.
#[tool]
async fn legacy_ask(ctx: RequestContext) -> Result<String, InputError> {
    let form = ElicitRequestParams::Form(ElicitRequestFormParams {
        message: "Name?".into(),
        ..Default::default()
    });
    let answer = ctx.elicit(form).await?;
    let name = serde_json::to_value(answer.content.unwrap_or_default().get("name")).unwrap();
    Ok(format!("Hello, {}!", name.as_str().unwrap_or_default()))
}
mcp_tasks::task!(legacy_ask);

fn legacy(server: &Server) -> MemoryClient {
    let session = Negotiated {
        protocol_version: "2025-11-25".into(),
        client_capabilities: serde_json::from_value(json!({"elicitation": {}})).unwrap(),
        ..Default::default()
    };
    let answers =
        |method: &'static str, _params: Value| -> BoxFuture<'static, Result<Value, InputError>> {
            assert_eq!(method, "elicitation/create");
            Box::pin(async { Ok(json!({"action": "accept", "content": {"name": "Grace"}})) })
        };
    MemoryClient::new(server)
        .legacy(session)
        .with_requester(answers)
}

async fn create(client: &MemoryClient, name: &str, arguments: Value) -> String {
    let created = client
        .request_raw(
            "tools/call",
            json!({"name": name, "arguments": arguments, "task": {"ttl": 60000}}),
        )
        .await
        .unwrap();
    assert!(
        created.get("taskId").is_none(),
        "the legacy create result nests the task: {created}"
    );
    assert_eq!(created["task"]["status"], "working");
    assert_eq!(created["task"]["ttl"], 60000);
    created["task"]["taskId"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_task_augmented_call_is_polled_and_its_result_fetched_with_related_task_meta() {
    let server = Server::builder().build();
    let client = legacy(&server);
    let id = create(&client, "legacy_nap", json!({"millis": 50})).await;
    let got = client
        .request_raw("tasks/get", json!({"taskId": id}))
        .await
        .unwrap();
    assert_eq!(got["taskId"], id);
    assert!(
        got.get("ttlMs").is_none() && got.get("ttl").is_some(),
        "legacy field names: {got}"
    );
    let result = client
        .request_raw("tasks/result", json!({"taskId": id}))
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "slept 50 ms");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        id
    );
}

#[tokio::test]
async fn tasks_result_asks_the_tasks_questions_on_its_own_stream() {
    let server = Server::builder().build();
    let client = legacy(&server);
    let id = create(&client, "legacy_ask", json!({})).await;
    let result = client
        .request_raw("tasks/result", json!({"taskId": id}))
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "Hello, Grace!");
}

#[tokio::test]
async fn a_tool_error_fails_a_legacy_task() {
    let server = Server::builder().build();
    let client = legacy(&server);
    let id = create(&client, "legacy_tool_error", json!({})).await;
    let result = client
        .request_raw("tasks/result", json!({"taskId": id}))
        .await
        .unwrap();
    assert_eq!(result["isError"], true);
    let got = client
        .request_raw("tasks/get", json!({"taskId": id}))
        .await
        .unwrap();
    assert_eq!(got["status"], "failed");
}

#[tokio::test]
async fn task_support_is_enforced_both_ways_with_method_not_found() {
    let server = Server::builder().build();
    let client = legacy(&server);
    let forbidden = client
        .request_raw("tools/call", json!({"name": "legacy_plain", "task": {}}))
        .await
        .unwrap_err();
    assert_eq!(forbidden.code.0, -32601);
    let required = client
        .request_raw("tools/call", json!({"name": "legacy_only_task"}))
        .await
        .unwrap_err();
    assert_eq!(required.code.0, -32601);
    let tools = client.list_tools().await.unwrap();
    let support = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        serde_json::to_value(tool.execution.as_ref().and_then(|e| e.task_support)).unwrap()
    };
    assert_eq!(support("legacy_nap"), "optional");
    assert_eq!(support("legacy_only_task"), "required");
    assert_eq!(support("legacy_plain"), Value::Null);
}

#[tokio::test]
async fn list_pages_the_callers_own_tasks_and_cancel_returns_the_task() {
    let server = Server::builder().build();
    let client = legacy(&server);
    let mut ids = Vec::new();
    for _ in 0..55 {
        ids.push(create(&client, "legacy_nap", json!({"millis": 60000})).await);
    }
    let first = client.request_raw("tasks/list", json!({})).await.unwrap();
    let page: Vec<&str> = first["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["taskId"].as_str().unwrap())
        .collect();
    assert_eq!(page.len(), 50);
    let cursor = first["nextCursor"].as_str().expect("a second page");
    let second = client
        .request_raw("tasks/list", json!({"cursor": cursor}))
        .await
        .unwrap();
    let rest = second["tasks"].as_array().unwrap().len();
    assert!(rest >= 5, "the second page has the rest");
    for id in &ids {
        let cancelled = client
            .request_raw("tasks/cancel", json!({"taskId": id}))
            .await
            .unwrap();
        assert_eq!(
            (cancelled["taskId"].as_str(), cancelled["status"].as_str()),
            (Some(id.as_str()), Some("cancelled"))
        );
    }
    let again = client
        .request_raw("tasks/cancel", json!({"taskId": ids[0]}))
        .await
        .unwrap_err();
    assert_eq!(
        again.code.0, -32602,
        "cancelling an ended task is refused on 2025-11-25"
    );
}

#[tokio::test]
async fn the_legacy_params_task_is_ignored_on_2026_07_28() {
    let server = Server::builder().build();
    let modern = MemoryClient::new(&server);
    let answer = modern
        .request_raw(
            "tools/call",
            json!({"name": "legacy_nap", "arguments": {"millis": 1}, "task": {"ttl": 1000}}),
        )
        .await
        .unwrap();
    assert_eq!(answer["content"][0]["text"], "slept 1 ms");
}

#[test]
fn the_boot_report_names_the_task_store_and_executor() {
    let server = Server::builder().build();
    let report = server.report();
    let winner = |seam: &str| {
        report
            .selections
            .iter()
            .find(|s| s.seam == seam)
            .unwrap()
            .winner
            .clone()
    };
    assert_eq!(winner("TaskStore"), "MemoryTaskStore");
    assert_eq!(winner("ExecutionStrategy"), "InProcessExecutor");
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Server::builder()
        .setting("tasks.store", "sqlite")
        .setting(
            "tasks.sqlite_path",
            dir.path().join("t.db").display().to_string(),
        )
        .build();
    assert_eq!(
        sqlite
            .report()
            .selections
            .iter()
            .find(|s| s.seam == "TaskStore")
            .unwrap()
            .winner,
        "SqliteTaskStore"
    );
    let errors = Server::builder()
        .setting("tasks.store", "sqlite")
        .setting("tasks.sqlite_path", "/proc/no/such/dir/tasks.db")
        .try_build()
        .unwrap_err();
    let text = errors.to_string();
    assert!(text.starts_with("error[tasks::store_unavailable]: the SQLite task store at `/proc/no/such/dir/tasks.db` cannot be opened"), "{text}");
    let errors = Server::builder()
        .setting("tasks.store", "postgres")
        .try_build()
        .unwrap_err();
    assert!(
        errors
            .to_string()
            .contains("error[mcp::invalid_setting]: setting `tasks.store` is invalid"),
        "{errors}"
    );
}
