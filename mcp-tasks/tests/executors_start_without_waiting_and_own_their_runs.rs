//! The executor seam: what an executor is handed, and what the extension
//! does around it, with `start` implementations that never wait for the
//! task to finish.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, Server, origin, tool};
use mcp_tasks::executor::{Execution, ExecutionError, ExecutionStrategy, StartError};
use mcp_tasks::record::{Outcome, Update, now_ms};
use serde_json::{Value, json};

static RAN: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Records that it ran.
#[tool]
async fn exec_probe(label: String) -> String {
    RAN.lock().unwrap().push(label.clone());
    format!("ran {label}")
}
mcp_tasks::task!(exec_probe);

/// Keeps every execution it is handed, and starts none.
#[derive(Default)]
struct Keep(Mutex<Vec<Execution>>);

/// The executor a test supplies, sharing its kept executions with the test.
struct Keeper(Arc<Keep>);

impl ExecutionStrategy for Keeper {
    fn start(&self, execution: Execution) -> BoxFuture<'static, Result<(), StartError>> {
        self.0.0.lock().unwrap().push(execution);
        Box::pin(async { Ok(()) })
    }
}

/// Refuses to start anything.
struct Refuse;

impl ExecutionStrategy for Refuse {
    fn start(&self, _: Execution) -> BoxFuture<'static, Result<(), StartError>> {
        Box::pin(async { Err(StartError("the queue is full".into())) })
    }
}

fn client(server: &Server) -> MemoryClient {
    MemoryClient::new(server).with_capabilities(
        serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
            .unwrap(),
    )
}

async fn create(client: &MemoryClient, label: &str) -> String {
    let handle = client
        .request_raw(
            "tools/call",
            json!({"name": "exec_probe", "arguments": {"label": label}}),
        )
        .await
        .unwrap();
    handle["taskId"].as_str().unwrap().to_owned()
}

async fn status(client: &MemoryClient, id: &str) -> Value {
    client
        .request_raw("tasks/get", json!({"taskId": id}))
        .await
        .unwrap()
}

fn kept_server() -> (Server, Arc<Keep>) {
    let keep = Arc::new(Keep::default());
    let server = Server::builder()
        .supply::<dyn ExecutionStrategy>(origin!(), "keep", Arc::new(Keeper(keep.clone())))
        .build();
    (server, keep)
}

#[tokio::test]
async fn the_context_has_the_task_and_the_tool_does_not_run_until_the_executor_runs_it() {
    let (server, keep) = kept_server();
    let client = client(&server);
    let id = create(&client, "context").await;
    let execution = keep.0.lock().unwrap().pop().unwrap();
    assert_eq!(execution.task_id(), id);
    assert_eq!(
        execution.task().status,
        mcp_server::core::ext::tasks::TaskStatus::Working
    );
    assert_eq!(execution.tool(), "exec_probe");
    assert_eq!(execution.arguments(), &json!({"label": "context"}));
    assert_eq!(execution.context().unwrap().method(), "tools/call");
    assert!(
        !RAN.lock().unwrap().contains(&"context".to_owned()),
        "not started yet"
    );
    assert_eq!(status(&client, &id).await["status"], "working");
    execution.run_pipeline_locally().await.unwrap();
    assert!(RAN.lock().unwrap().contains(&"context".to_owned()));
    let done = status(&client, &id).await;
    assert_eq!(
        (
            done["status"].as_str(),
            done["result"]["content"][0]["text"].as_str()
        ),
        (Some("completed"), Some("ran context"))
    );
    assert!(
        execution.is_disposed(),
        "the scope is disposed of once the pipeline ran"
    );
}

#[tokio::test]
async fn an_external_runtime_completes_a_task_through_the_store_alone() {
    let (server, keep) = kept_server();
    let client = client(&server);
    let id = create(&client, "external").await;
    let execution = keep.0.lock().unwrap().pop().unwrap();
    execution.dispose();
    let result =
        serde_json::from_value(json!({"content": [{"type": "text", "text": "done elsewhere"}]}))
            .unwrap();
    execution
        .store()
        .update(&id, Update::Finish(Outcome::completed(result)), now_ms())
        .await
        .unwrap();
    assert_eq!(
        status(&client, &id).await["result"]["content"][0]["text"],
        "done elsewhere"
    );
    assert!(
        !RAN.lock().unwrap().contains(&"external".to_owned()),
        "the tool never ran here"
    );
}

#[tokio::test]
async fn a_start_that_fails_marks_the_task_failed() {
    let server = Server::builder()
        .supply::<dyn ExecutionStrategy>(origin!(), "refuse", Arc::new(Refuse))
        .build();
    let client = client(&server);
    let id = create(&client, "refused").await;
    let task = status(&client, &id).await;
    assert_eq!(task["status"], "failed");
    assert!(
        task["error"]["message"]
            .as_str()
            .unwrap()
            .contains("the queue is full")
    );
}

#[tokio::test]
async fn cancel_fires_the_executors_token() {
    let (server, keep) = kept_server();
    let client = client(&server);
    let id = create(&client, "cancel-token").await;
    let execution = keep.0.lock().unwrap().pop().unwrap();
    let token = execution.cancellation();
    client
        .request_raw("tasks/cancel", json!({"taskId": id}))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(5), token.cancelled())
        .await
        .expect("the token fires");
}

#[tokio::test]
async fn dispose_is_idempotent_and_running_after_it_is_an_error() {
    let (server, keep) = kept_server();
    let client = client(&server);
    create(&client, "disposed").await;
    let execution = keep.0.lock().unwrap().pop().unwrap();
    execution.dispose();
    execution.dispose();
    assert!(execution.is_disposed());
    assert!(matches!(
        execution.run_pipeline_locally().await,
        Err(ExecutionError::Disposed)
    ));
    assert!(matches!(
        execution.run_pipeline_locally().await,
        Err(ExecutionError::AlreadyRan)
    ));
    assert!(!RAN.lock().unwrap().contains(&"disposed".to_owned()));
}

#[tokio::test]
async fn a_pipeline_started_after_cancellation_does_not_run_the_tool() {
    let (server, keep) = kept_server();
    let client = client(&server);
    let id = create(&client, "late").await;
    let execution = keep.0.lock().unwrap().pop().unwrap();
    client
        .request_raw("tasks/cancel", json!({"taskId": id}))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(5), execution.cancellation().cancelled())
        .await
        .unwrap();
    execution.run_pipeline_locally().await.unwrap();
    assert!(
        !RAN.lock().unwrap().contains(&"late".to_owned()),
        "a cancelled task's tool never starts"
    );
    assert_eq!(status(&client, &id).await["status"], "cancelled");
}
