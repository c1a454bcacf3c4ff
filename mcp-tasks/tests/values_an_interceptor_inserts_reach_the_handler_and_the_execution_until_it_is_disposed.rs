//! What an interceptor stores in the request context with `insert` reaches
//! a typed tool's handler and a task's `Execution::context`, and disposing
//! of the execution releases it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use mcp_server::core::error::ErrorObject;
use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult};
use mcp_server::seam::Item;
use mcp_server::seam::interceptor::{Answer, TypedInterceptor, TypedNext};
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, RequestContext, Server, origin, tool};
use mcp_tasks::executor::{Execution, ExecutionStrategy, StartError};
use mcp_tasks::record::{Outcome, Update, now_ms};
use serde_json::{Value, json};

/// What the interceptor stamps on a call: its label, as it saw it.
#[derive(Clone)]
struct Stamp(String);

/// A value held by the request context; the test watches when it goes.
#[derive(Debug)]
struct Held;

/// Tells what the interceptor stamped on this call.
#[tool]
async fn read_the_stamp(ctx: RequestContext, label: String) -> String {
    let stamp = ctx.get::<Stamp>().map_or("no stamp".to_owned(), |s| s.0);
    format!("{label}: {stamp}")
}
mcp_tasks::task!(read_the_stamp);

/// The `Held` values one test's interceptor stored, by the call's label.
type Watched = Arc<Mutex<HashMap<String, Weak<Held>>>>;

/// Stores a `Stamp` of the call's label and a fresh `Arc<Held>` in the
/// request context, keeping only a `Weak` to the latter.
struct Stamping(Watched);

impl TypedInterceptor<CallTool> for Stamping {
    fn intercept<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        let label = params
            .arguments
            .as_ref()
            .and_then(|a| a.get("label"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        ctx.insert(Stamp(format!("stamped {label}")));
        let held = Arc::new(Held);
        self.0.lock().unwrap().insert(label, Arc::downgrade(&held));
        ctx.insert(held);
        next.run(params)
    }
}

/// Keeps every execution it is handed, and starts none.
struct Keeper(Arc<Mutex<Vec<Execution>>>);

impl ExecutionStrategy for Keeper {
    fn start(&self, execution: Execution) -> BoxFuture<'static, Result<(), StartError>> {
        self.0.lock().unwrap().push(execution);
        Box::pin(async { Ok(()) })
    }
}

struct Setup {
    server: Server,
    watched: Watched,
    kept: Arc<Mutex<Vec<Execution>>>,
}

fn setup() -> Setup {
    let watched = Watched::default();
    let kept = Arc::new(Mutex::new(Vec::new()));
    let server = Server::builder()
        .supply::<dyn ExecutionStrategy>(origin!(), "keeper", Arc::new(Keeper(kept.clone())))
        .register(
            origin!(),
            "stamping",
            0,
            Item::typed::<CallTool>(Stamping(watched.clone())),
        )
        .build();
    Setup {
        server,
        watched,
        kept,
    }
}

fn tasks_client(server: &Server) -> MemoryClient {
    MemoryClient::new(server).with_capabilities(
        serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
            .unwrap(),
    )
}

/// Creates a task of `read_the_stamp` with `label`; its kept execution.
async fn create(setup: &Setup, label: &str) -> Execution {
    let handle = tasks_client(&setup.server)
        .request_raw(
            "tools/call",
            json!({"name": "read_the_stamp", "arguments": {"label": label}}),
        )
        .await
        .unwrap();
    let id = handle["taskId"].as_str().expect("a task handle");
    let execution = setup.kept.lock().unwrap().pop().unwrap();
    assert_eq!(execution.task_id(), id);
    execution
}

/// Whether `held` is released, waiting for the request's own work (the
/// follower that tells listeners of the task's end) to let go of it.
async fn released(held: &Weak<Held>) -> bool {
    for _ in 0..500 {
        if held.upgrade().is_none() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn a_value_an_interceptor_inserts_reaches_a_typed_tools_handler() {
    let setup = setup();
    let result = MemoryClient::new(&setup.server)
        .call_tool("read_the_stamp", json!({"label": "plain call"}))
        .await
        .unwrap();
    assert_eq!(
        result.content,
        [mcp_server::core::content::ContentBlock::text(
            "plain call: stamped plain call"
        )]
    );
}

#[tokio::test]
async fn a_value_an_interceptor_inserts_reaches_the_tasks_execution_context_and_its_handler() {
    let setup = setup();
    let execution = create(&setup, "in a task").await;
    let context = execution.context().expect("not disposed of yet");
    assert_eq!(
        context.get::<Stamp>().map(|s| s.0).as_deref(),
        Some("stamped in a task")
    );
    assert!(context.get::<Arc<Held>>().is_some());
    drop(context);
    execution.run_pipeline_locally().await.unwrap();
    let done = execution
        .store()
        .get(execution.task_id())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        done.result.unwrap()["content"][0]["text"],
        "in a task: stamped in a task"
    );
}

#[tokio::test]
async fn a_finished_run_disposes_of_the_execution_and_releases_what_interceptors_inserted() {
    let setup = setup();
    let execution = create(&setup, "run here").await;
    let held = setup.watched.lock().unwrap()["run here"].clone();
    assert!(held.upgrade().is_some(), "the execution holds it");
    execution.run_pipeline_locally().await.unwrap();
    assert!(execution.is_disposed());
    assert!(execution.context().is_none());
    assert!(
        released(&held).await,
        "the value is released while the execution is still held"
    );
    drop(execution);
}

#[tokio::test]
async fn disposing_of_a_task_handed_elsewhere_releases_what_interceptors_inserted_once_it_ends() {
    let setup = setup();
    let execution = create(&setup, "handed off").await;
    let held = setup.watched.lock().unwrap()["handed off"].clone();
    execution.dispose();
    assert!(execution.context().is_none());
    let result =
        serde_json::from_value(json!({"content": [{"type": "text", "text": "done elsewhere"}]}))
            .unwrap();
    execution
        .store()
        .update(
            execution.task_id(),
            Update::Finish(Outcome::completed(result)),
            now_ms(),
        )
        .await
        .unwrap();
    assert!(
        released(&held).await,
        "the value is released while the execution is still held"
    );
    drop(execution);
}
