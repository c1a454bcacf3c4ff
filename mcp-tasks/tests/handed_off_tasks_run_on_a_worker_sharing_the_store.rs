//! A task handed off as data runs on another server (a worker) that shares
//! the store: as its caller, through the worker's guards, once, and
//! interrupted by a `tasks/cancel` received by the instance that made it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_server::auth::{Credentials, Principal};
use mcp_server::seam::Target;
use mcp_server::seam::guard::{Decision, Guard};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, RequestContext, Server, guard, origin, tool};
use mcp_tasks::executor::{Execution, ExecutionStrategy, StartError};
use mcp_tasks::handoff::{Handoff, HandoffError, run_handoff};
use mcp_tasks::store::{MemoryTaskStore, TaskStore};
use serde_json::{Value, json};

static RUNS: AtomicUsize = AtomicUsize::new(0);
static REVOKED: AtomicBool = AtomicBool::new(false);
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Says who called it, and counts its runs.
#[tool]
async fn handoff_whoami(ctx: RequestContext) -> String {
    RUNS.fetch_add(1, Ordering::SeqCst);
    format!(
        "ran for {}",
        ctx.principal().subject.as_deref().unwrap_or("?")
    )
}
mcp_tasks::task!(handoff_whoami);

/// Runs only while the grant stands.
#[tool]
async fn handoff_granted() -> String {
    "granted".into()
}
mcp_tasks::task!(handoff_granted);

/// Runs until cancelled; notes that it was stopped.
#[tool]
async fn handoff_forever() -> String {
    struct Stopped;
    impl Drop for Stopped {
        fn drop(&mut self) {
            STOPPED.store(true, Ordering::SeqCst);
        }
    }
    let _stopped = Stopped;
    tokio::time::sleep(Duration::from_secs(3600)).await;
    "never".into()
}
mcp_tasks::task!(handoff_forever);

/// Refuses `handoff_granted` once the grant is revoked.
#[derive(Default)]
struct Grant;

#[guard(on = "tool")]
impl Guard for Grant {
    fn name(&self) -> &str {
        "grant"
    }
    fn check(&self, _: &RequestContext, target: &Target) -> Decision {
        if target.name == "handoff_granted" && REVOKED.load(Ordering::SeqCst) {
            Decision::deny("the grant was revoked")
        } else {
            Decision::Allow
        }
    }
}

/// The bearer token names the caller.
struct Names;

impl PrincipalSource for Names {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        Arc::new(
            credentials
                .bearer()
                .map_or_else(Principal::anonymous, Principal::named),
        )
    }
}

/// Hands every execution off as data, for the test to pass to a worker.
#[derive(Default)]
struct Queue(Mutex<Vec<Handoff>>);

struct Enqueue(Arc<Queue>);

impl ExecutionStrategy for Enqueue {
    fn start(&self, execution: Execution) -> BoxFuture<'static, Result<(), StartError>> {
        self.0.0.lock().unwrap().push(Handoff::of(&execution));
        execution.dispose();
        Box::pin(async { Ok(()) })
    }
}

/// An instance that queues its tasks, and a worker, sharing one store.
fn pair() -> (Server, Server, Arc<Queue>) {
    let store: Arc<dyn TaskStore> = Arc::new(MemoryTaskStore::default());
    let queue = Arc::new(Queue::default());
    let instance = Server::builder()
        .supply::<dyn PrincipalSource>(origin!(), "names", Arc::new(Names))
        .supply::<dyn TaskStore>(origin!(), "shared", store.clone())
        .supply::<dyn ExecutionStrategy>(origin!(), "queue", Arc::new(Enqueue(queue.clone())))
        .build();
    let worker = Server::builder()
        .supply::<dyn PrincipalSource>(origin!(), "names", Arc::new(Names))
        .supply::<dyn TaskStore>(origin!(), "shared", store)
        .build();
    (instance, worker, queue)
}

fn client(server: &Server, who: &str) -> MemoryClient {
    MemoryClient::new(server)
        .with_credentials(Credentials::bearer_token(who))
        .with_capabilities(
            serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
                .unwrap(),
        )
}

async fn create(client: &MemoryClient, tool: &str, queue: &Queue) -> (String, Handoff) {
    let handle = client
        .request_raw("tools/call", json!({"name": tool, "arguments": {}}))
        .await
        .unwrap();
    let id = handle["taskId"].as_str().unwrap().to_owned();
    let handoff = queue.0.lock().unwrap().pop().expect("handed off");
    assert_eq!(handoff.task_id, id);
    (id, handoff)
}

async fn task(client: &MemoryClient, id: &str) -> Value {
    client
        .request_raw("tasks/get", json!({"taskId": id}))
        .await
        .unwrap()
}

#[tokio::test]
async fn a_handed_off_task_runs_on_the_worker_as_its_caller_and_its_outcome_is_read_where_it_was_made()
 {
    let (instance, worker, queue) = pair();
    let ada = client(&instance, "ada");
    let (id, handoff) = create(&ada, "handoff_whoami", &queue).await;
    assert_eq!(task(&ada, &id).await["status"], "working");
    let handoff: Handoff = serde_json::from_value(serde_json::to_value(&handoff).unwrap()).unwrap();
    let before = RUNS.load(Ordering::SeqCst);
    run_handoff(&worker, &handoff).await.unwrap();
    let done = task(&ada, &id).await;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["result"]["content"][0]["text"], "ran for ada");
    // Run again (a queue redelivered it): the task ended, nothing runs.
    run_handoff(&worker, &handoff).await.unwrap();
    assert_eq!(RUNS.load(Ordering::SeqCst), before + 1);
}

#[tokio::test]
async fn a_caller_who_lost_the_grant_before_the_worker_ran_the_task_gets_a_failed_task() {
    let (instance, worker, queue) = pair();
    let ada = client(&instance, "ada");
    let (id, handoff) = create(&ada, "handoff_granted", &queue).await;
    REVOKED.store(true, Ordering::SeqCst);
    let refused = run_handoff(&worker, &handoff).await;
    REVOKED.store(false, Ordering::SeqCst);
    assert!(
        matches!(refused, Err(HandoffError::Refused(_))),
        "{refused:?}"
    );
    let failed = task(&ada, &id).await;
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["error"]["message"], "Unknown tool: handoff_granted");
}

#[tokio::test]
async fn a_handoff_naming_another_tool_or_another_task_runs_nothing() {
    let (instance, worker, queue) = pair();
    let ada = client(&instance, "ada");
    let (id, handoff) = create(&ada, "handoff_granted", &queue).await;
    let before = RUNS.load(Ordering::SeqCst);
    let swapped = Handoff {
        tool: "handoff_whoami".into(),
        ..handoff.clone()
    };
    assert!(run_handoff(&worker, &swapped).await.is_err());
    let unknown = Handoff {
        task_id: "no-such-task".into(),
        ..handoff
    };
    assert!(run_handoff(&worker, &unknown).await.is_err());
    assert_eq!(RUNS.load(Ordering::SeqCst), before);
    assert_eq!(task(&ada, &id).await["status"], "failed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_received_where_the_task_was_made_interrupts_its_run_on_the_worker() {
    let (instance, worker, queue) = pair();
    let ada = client(&instance, "ada");
    let (id, handoff) = create(&ada, "handoff_forever", &queue).await;
    let running = tokio::spawn(async move { run_handoff(&worker, &handoff).await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!STOPPED.load(Ordering::SeqCst));
    ada.request_raw("tasks/cancel", json!({"taskId": id}))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .expect("the run stops")
        .unwrap()
        .unwrap();
    assert!(STOPPED.load(Ordering::SeqCst), "the handler was dropped");
    assert_eq!(task(&ada, &id).await["status"], "cancelled");
}
