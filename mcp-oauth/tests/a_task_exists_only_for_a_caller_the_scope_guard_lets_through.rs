//! A task tool behind a scope guard: a caller with the scope gets a task
//! that completes and is read with `tasks/get`; a caller without it is
//! refused (answered as for an unknown tool, or challenged with `403`) and
//! no task exists for it, nor may it read the other caller's task.

mod support;

use axum::http::{Request, StatusCode};
use mcp_server::auth::INSUFFICIENT_PERMISSION;
use mcp_server::tool;
use mcp_tasks::store::TaskStore;
use mcp_tests::http::{VERSION, post_modern};
use serde_json::{Value, json};
use support::{Issuer, app, ask, bearing, server};

use mcp_oauth as _;

/// Indexes the notes, as a task.
#[tool]
async fn index_notes(folder: String) -> String {
    format!("indexed {folder}")
}
mcp_tasks::task!(index_notes);
mcp_oauth::require_scope!(tool "index_notes", "notes:write");

/// Rebuilds every index, as a task.
#[tool]
async fn rebuild_indexes() -> String {
    "rebuilt".into()
}
mcp_tasks::task!(rebuild_indexes);
mcp_oauth::require_scope!(tool "rebuild_indexes", "notes:admin", challenge);

/// A modern request of `method` (its `Mcp-Name` is `name`) from a client
/// that declares the tasks extension, bearing `token`.
fn tasks_request(
    method: &str,
    name: &str,
    params: Value,
    token: &str,
) -> Request<axum::body::Body> {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {
            "extensions": {"io.modelcontextprotocol/tasks": {}}
        }
    });
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    bearing(post_modern(method, Some(name), &body), Some(token))
}

fn call(tool: &str, arguments: Value, token: &str) -> Request<axum::body::Body> {
    tasks_request(
        "tools/call",
        tool,
        json!({"name": tool, "arguments": arguments}),
        token,
    )
}

fn get(id: &str, token: &str) -> Request<axum::body::Body> {
    tasks_request("tasks/get", id, json!({"taskId": id}), token)
}

async fn tasks_of(store: &dyn TaskStore, owner: &str) -> usize {
    store.list(owner, None, 10_000).await.unwrap().len()
}

#[tokio::test]
async fn an_authorised_callers_task_completes_and_a_caller_without_the_scope_gets_no_task() {
    let issuer = Issuer::start().await;
    let server = server(&issuer, &[]);
    let store = server.active::<dyn TaskStore>().unwrap();
    let app = app(server);

    let writer = issuer.token("carol", "notes:read notes:write");
    let handle = ask(
        &app,
        call("index_notes", json!({"folder": "inbox"}), &writer),
    )
    .await;
    assert_eq!(handle.status, StatusCode::OK, "{}", handle.body);
    assert_eq!(
        handle.body["result"]["resultType"], "task",
        "{}",
        handle.body
    );
    let id = handle.body["result"]["taskId"].as_str().unwrap().to_owned();
    let mut task = Value::Null;
    for _ in 0..500 {
        task = ask(&app, get(&id, &writer)).await.body["result"].clone();
        if task["status"] != "working" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(task["result"]["content"][0]["text"], "indexed inbox");
    assert_eq!(tasks_of(&*store, "carol").await, 1);

    let reader = issuer.token("bob", "notes:read");
    let hidden = ask(
        &app,
        call("index_notes", json!({"folder": "inbox"}), &reader),
    )
    .await;
    assert_eq!(hidden.code(), Some(-32602), "{}", hidden.body);
    assert_eq!(hidden.body["error"]["message"], "Unknown tool: index_notes");
    assert_eq!(hidden.challenge, None);
    let challenged = ask(&app, call("rebuild_indexes", json!({}), &reader)).await;
    assert_eq!(
        challenged.status,
        StatusCode::FORBIDDEN,
        "{}",
        challenged.body
    );
    assert_eq!(challenged.code(), Some(INSUFFICIENT_PERMISSION.0));
    assert!(
        challenged
            .challenge
            .as_deref()
            .unwrap()
            .contains(r#"error="insufficient_scope", scope="notes:admin""#)
    );
    assert!(challenged.body.get("result").is_none());
    assert_eq!(
        tasks_of(&*store, "bob").await,
        0,
        "no task exists for the refused caller"
    );

    let theirs = ask(&app, get(&id, &reader)).await;
    let never = "0".repeat(32);
    let unknown = ask(&app, get(&never, &reader)).await;
    assert_eq!(theirs.code(), Some(-32602), "{}", theirs.body);
    assert_eq!(
        theirs.body["error"]["message"]
            .as_str()
            .unwrap()
            .replace(&id, "ID"),
        unknown.body["error"]["message"]
            .as_str()
            .unwrap()
            .replace(&never, "ID"),
        "the refused caller reads the other's task exactly as an unknown one"
    );
    assert_eq!(tasks_of(&*store, "carol").await, 1);
}
