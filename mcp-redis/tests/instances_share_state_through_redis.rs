//! Two instances on one real Redis answer as one server: a task's events
//! cross from the instance that writes to the one that watches, a request
//! state claimed on one is refused on the other, a change published on one
//! reaches a listen stream held on the other; and an instance whose Redis
//! is gone fails requests quickly with a clear error, then recovers.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use mcp_server::core::ext::tasks::TaskStatus;
use mcp_server::seam::sink::Change;
use mcp_server::seam::store::UsedStateStore;
use mcp_server::testing::MemoryClient;
use mcp_server::{Server, tool};
use mcp_tasks::record::{Outcome, TaskEvent, TaskRecord, Update, Wire, now_ms};
use mcp_tasks::store::{StoreError, TaskStore};
use mcp_tests::redis::{RedisServer, first_answer};
use serde_json::json;

use mcp_redis as _;

/// Echoes its text: a tool, so that tool list changes are granted.
#[tool]
async fn echo(text: String) -> String {
    text
}

fn instance(redis: &RedisServer) -> Server {
    Server::builder()
        .setting("redis.url", redis.url())
        .setting("redis.timeout_ms", 500)
        .build()
}

fn tasks(server: &Server) -> Arc<dyn TaskStore> {
    server.active::<dyn TaskStore>().expect("a task store")
}

fn record(owner: &str) -> TaskRecord {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut record = TaskRecord::new(
        format!("task-{}-{n}", now_ms()),
        owner,
        Wire::Extension,
        "echo",
        now_ms(),
    );
    record.ttl_ms = Some(60_000);
    record
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_written_by_one_instance_reaches_a_watcher_on_another() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (instance(&redis), instance(&redis));
    let task = record("ada");
    tasks(&a).create(task.clone()).await.unwrap();
    let mut watching_on_a = tasks(&a).watch(&task.id);
    let applied = tasks(&b)
        .update(
            &task.id,
            Update::Finish(Outcome::cancelled("stop")),
            now_ms(),
        )
        .await
        .unwrap()
        .expect("b sees the task a created");
    assert_eq!(applied.record.status, TaskStatus::Cancelled);
    let event = tokio::time::timeout(Duration::from_secs(5), watching_on_a.next())
        .await
        .expect("the event crossed within 5 s");
    assert_eq!(event, Some(TaskEvent::Status(TaskStatus::Cancelled)));
    let on_a = tasks(&a).get(&task.id).await.unwrap().unwrap();
    assert_eq!(on_a.status, TaskStatus::Cancelled);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_state_claimed_on_one_instance_is_refused_on_another() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (instance(&redis), instance(&redis));
    let used = |s: &Server| {
        s.active::<dyn UsedStateStore>()
            .expect("a used-state store")
    };
    let expires = SystemTime::now() + Duration::from_secs(60);
    assert!(used(&a).claim("state-1", expires).await.unwrap());
    assert!(!used(&b).claim("state-1", expires).await.unwrap());
    assert!(!used(&a).claim("state-1", expires).await.unwrap());
    assert!(used(&b).claim("state-2", expires).await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_published_on_one_instance_reaches_a_listener_held_on_another() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (instance(&redis), instance(&redis));
    let mut on_b = MemoryClient::new(&b).listen(json!({"toolsListChanged": true}));
    let ack = on_b.next().await.expect("an acknowledgement");
    assert_eq!(ack.method, "notifications/subscriptions/acknowledged");
    let mut on_a = MemoryClient::new(&a).listen(json!({"toolsListChanged": true}));
    on_a.next().await.expect("an acknowledgement");
    a.changes().publish(Change::tools_list_changed());
    let heard = tokio::time::timeout(Duration::from_secs(5), on_b.next())
        .await
        .expect("b heard within 5 s")
        .expect("a notification");
    assert_eq!(heard.method, "notifications/tools/list_changed");
    let told = on_a.next().await.expect("a notification");
    assert_eq!(told.method, "notifications/tools/list_changed");
    assert!(
        on_a.next_within(Duration::from_millis(300)).await.is_none(),
        "a's listener is told once, not again when its own change comes back"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_redis_is_down_requests_fail_quickly_and_the_instance_recovers_by_itself() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let a = instance(&redis);
    let task = record("ada");
    tasks(&a).create(task.clone()).await.unwrap();
    redis.kill();
    let started = std::time::Instant::now();
    let failed = tasks(&a).get(&task.id).await.unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "it did not hang"
    );
    assert!(
        matches!(&failed, StoreError::Backend(why) if why.contains("reading a task on redis at 127.0.0.1:")),
        "{failed}"
    );
    let used = a.active::<dyn UsedStateStore>().unwrap();
    assert!(
        used.claim("s", SystemTime::now() + Duration::from_secs(60))
            .await
            .is_err()
    );
    redis.restart();
    let store = tasks(&a);
    let recovered = first_answer(|| store.get(&task.id)).await;
    // Not persisted: the restarted Redis is empty, and answers.
    assert_eq!(recovered, Some(None), "the instance reconnected by itself");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_tasks_survive_a_restart_of_a_redis_that_persists() {
    let Some(mut redis) = RedisServer::start_persistent() else {
        return;
    };
    let a = instance(&redis);
    let task = record("ada");
    tasks(&a).create(task.clone()).await.unwrap();
    tasks(&a)
        .update(
            &task.id,
            Update::Finish(Outcome::cancelled("stop")),
            now_ms(),
        )
        .await
        .unwrap();
    redis.restart();
    let mut read = None;
    for _ in 0..50 {
        if let Ok(found) = tasks(&a).get(&task.id).await {
            read = found;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let read = read.expect("the task survived the restart");
    assert_eq!(read.status, TaskStatus::Cancelled);
}

/// Hides the resource it customizes from every caller.
struct HideFromEveryone;

impl mcp_server::seam::customizer::HandlerCustomizer<mcp_server::core::resources::Resource>
    for HideFromEveryone
{
    fn customize(
        &self,
        config: &mut mcp_server::seam::customizer::HandlerConfig<
            mcp_server::core::resources::Resource,
        >,
    ) {
        config.add_guard(mcp_server::seam::guard::guard_fn("nobody", |_, _| {
            mcp_server::seam::guard::Decision::deny("private")
        }));
    }
}

/// An instance with the resources `file:///open` and `file:///secret`, the
/// second hidden from everyone.
fn instance_with_resources(redis: &RedisServer) -> Server {
    use mcp_server::core::resources::{ReadResource, ReadResourceResult, Resource};
    use mcp_server::handler::handler_fn;
    Server::builder()
        .setting("redis.url", redis.url())
        .contributor(
            mcp_server::origin!(),
            "resources",
            mcp_server::seam::contributor::contributor_fn(|c| {
                for uri in ["file:///open", "file:///secret"] {
                    c.resource(
                        Resource {
                            uri: uri.into(),
                            name: uri.into(),
                            ..Default::default()
                        },
                        handler_fn::<ReadResource, _, _, _>(|_, _| async {
                            Ok(ReadResourceResult::default())
                        }),
                    );
                }
            }),
        )
        .register(
            mcp_server::origin!(),
            "hide-secret",
            0,
            mcp_server::seam::Item::customizer_for::<Resource>("file:///secret", HideFromEveryone),
        )
        .build()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_from_another_instance_reaches_a_listener_only_if_its_own_guards_allow() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (
        instance_with_resources(&redis),
        instance_with_resources(&redis),
    );
    let mut on_b = MemoryClient::new(&b)
        .listen(json!({"resourceSubscriptions": ["file:///open", "file:///secret"]}));
    let ack = on_b.next().await.expect("an acknowledgement");
    assert_eq!(ack.method, "notifications/subscriptions/acknowledged");
    a.changes()
        .publish(Change::resource_updated("file:///secret"));
    a.changes()
        .publish(Change::resource_updated("file:///open"));
    let heard = tokio::time::timeout(Duration::from_secs(5), on_b.next())
        .await
        .expect("b heard within 5 s")
        .expect("a notification");
    assert_eq!(heard.method, "notifications/resources/updated");
    let params: serde_json::Value =
        serde_json::from_str(heard.params.as_ref().unwrap().get()).unwrap();
    assert_eq!(
        params["uri"], "file:///open",
        "the hidden resource's change came first"
    );
    assert!(
        on_b.next_within(Duration::from_millis(300)).await.is_none(),
        "the hidden resource's change reached the listener"
    );
}
