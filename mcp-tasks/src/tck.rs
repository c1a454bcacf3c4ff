//! The test kit of the task store contract: one call runs all of it
//! against any [`TaskStore`], so a third party's store (Redis, Postgres)
//! proves in its own tests that it behaves as the extension needs.
//!
//! ```
//! # tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap().block_on(async {
//! let store = std::sync::Arc::new(mcp_tasks::store::MemoryTaskStore::default());
//! mcp_tasks::tck::check(store).await;
//! # });
//! ```

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::ext::tasks::TaskStatus;
use mcp_server::core::json::JsonObject;
use serde_json::json;

use crate::record::{Outcome, TaskEvent, TaskRecord, Update, Wire, now_ms};
use crate::store::{StoreError, TaskStore};

/// A fresh id for one part of the kit.
fn id(part: &str) -> String {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("random bytes");
    let suffix: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("tck-{part}-{suffix}")
}

fn record(part: &str, owner: &str) -> TaskRecord {
    TaskRecord::new(id(part), owner, Wire::Extension, "tck_tool", now_ms())
}

fn object(value: serde_json::Value) -> JsonObject {
    match value {
        serde_json::Value::Object(object) => object,
        _ => JsonObject::new(),
    }
}

/// Runs the whole contract against `store`; panics, naming the broken rule,
/// at the first violation. Needs a multi-threaded tokio runtime.
pub async fn check(store: Arc<dyn TaskStore>) {
    creation(&*store).await;
    ownership_is_kept(&*store).await;
    transitions(&*store).await;
    terminal_is_final_under_concurrent_writers(store.clone()).await;
    ttl_purge(&*store).await;
    input_round_trip(&*store).await;
    watch_reports_changes(&*store).await;
    many_tasks_concurrently(store).await;
}

async fn creation(store: &dyn TaskStore) {
    let created = record("create", "ada");
    store
        .create(created.clone())
        .await
        .expect("create stores a new task");
    let read = store
        .get(&created.id)
        .await
        .expect("get")
        .expect("a created task resolves at once");
    assert_eq!(read, created, "a task reads back as it was created");
    assert!(
        matches!(
            store.create(created.clone()).await,
            Err(StoreError::Exists(_))
        ),
        "creating a task id twice is refused"
    );
    assert!(
        store.get("tck-no-such-task").await.expect("get").is_none(),
        "an unknown id reads as none"
    );
    let applied = store
        .update(
            "tck-no-such-task",
            Update::Finish(Outcome::cancelled("x")),
            now_ms(),
        )
        .await
        .expect("update");
    assert!(applied.is_none(), "updating an unknown id reports none");
}

async fn ownership_is_kept(store: &dyn TaskStore) {
    let mine = record("owner", "grace");
    let theirs = record("owner", "linus");
    store.create(mine.clone()).await.expect("create");
    store.create(theirs.clone()).await.expect("create");
    assert_eq!(
        store
            .get(&mine.id)
            .await
            .expect("get")
            .expect("exists")
            .owner,
        "grace",
        "the owner is kept"
    );
    let listed = store.list("grace", None, 1000).await.expect("list");
    assert!(
        listed.iter().any(|r| r.id == mine.id),
        "list has the owner's task"
    );
    assert!(
        listed.iter().all(|r| r.owner == "grace"),
        "list has only the owner's tasks"
    );
    let first = store.list("grace", None, 1).await.expect("list");
    assert_eq!(first.len(), 1, "list honours its limit");
    let after = store
        .list("grace", Some(&first[0].id), 1000)
        .await
        .expect("list");
    assert!(
        after.iter().all(|r| r.id != first[0].id),
        "a page starts after its cursor"
    );
}

async fn transitions(store: &dyn TaskStore) {
    let task = record("transitions", "ada");
    store.create(task.clone()).await.expect("create");
    let asked = store
        .update(
            &task.id,
            Update::Ask(object(json!({"q1": {"method": "elicitation/create"}}))),
            now_ms(),
        )
        .await
        .expect("update")
        .expect("exists");
    assert_eq!(
        asked.record.status,
        TaskStatus::InputRequired,
        "asking makes a task input_required"
    );
    let answered = store
        .update(
            &task.id,
            Update::Respond(object(json!({"q1": {"action": "accept"}}))),
            now_ms(),
        )
        .await
        .expect("update")
        .expect("exists");
    assert_eq!(
        answered.record.status,
        TaskStatus::Working,
        "answering every question makes it working again"
    );
    let failed = store
        .update(
            &task.id,
            Update::Finish(Outcome::failed(ErrorObject::internal_error("boom"))),
            now_ms(),
        )
        .await
        .expect("update")
        .expect("exists");
    assert_eq!(failed.record.status, TaskStatus::Failed, "a task may fail");
    assert_eq!(
        failed.record.error.as_ref().map(|e| e.message.as_str()),
        Some("boom"),
        "the error is kept"
    );
    for update in [
        Update::Finish(Outcome::completed(JsonObject::new())),
        Update::Finish(Outcome::cancelled("late")),
        Update::Ask(object(json!({"q2": {}}))),
        Update::Respond(object(json!({"q1": {}}))),
    ] {
        let after = store
            .update(&task.id, update, now_ms())
            .await
            .expect("update")
            .expect("exists");
        assert!(!after.changed(), "a terminal task changes no more");
        assert_eq!(
            after.record.status,
            TaskStatus::Failed,
            "a terminal status is final"
        );
    }
    let read = store.get(&task.id).await.expect("get").expect("exists");
    assert_eq!(
        read.status,
        TaskStatus::Failed,
        "a terminal status is final in the store"
    );
    assert!(
        read.updated_at_ms >= task.updated_at_ms,
        "lastUpdatedAt never moves back"
    );
    let later = record("clock", "ada");
    store.create(later.clone()).await.expect("create");
    let stale = store
        .update(&later.id, Update::Ask(object(json!({"k": {}}))), 0)
        .await
        .expect("update")
        .expect("exists");
    assert!(
        stale.changed(),
        "an update with an older clock still applies"
    );
    assert!(
        stale.record.updated_at_ms >= later.updated_at_ms,
        "an update with an older clock does not move lastUpdatedAt back"
    );
}

async fn terminal_is_final_under_concurrent_writers(store: Arc<dyn TaskStore>) {
    for round in 0..20 {
        let task = record("race", "ada");
        store.create(task.clone()).await.expect("create");
        let writers: Vec<_> = (0..8)
            .map(|n| {
                let store = store.clone();
                let id = task.id.clone();
                tokio::spawn(async move {
                    let outcome = match n % 3 {
                        0 => Outcome::completed(object(json!({"n": n}))),
                        1 => Outcome::failed(ErrorObject::internal_error(format!("writer {n}"))),
                        _ => Outcome::cancelled(format!("writer {n}")),
                    };
                    store
                        .update(&id, Update::Finish(outcome), now_ms())
                        .await
                        .expect("update")
                        .expect("exists")
                })
            })
            .collect();
        let mut winners = 0;
        for writer in writers {
            if writer.await.expect("writer").changed() {
                winners += 1;
            }
        }
        assert_eq!(
            winners, 1,
            "exactly one of concurrent writers ends a task (round {round})"
        );
    }
}

async fn ttl_purge(store: &dyn TaskStore) {
    let mut old = record("ttl", "ada");
    old.created_at_ms = now_ms() - 10_000;
    old.updated_at_ms = old.created_at_ms;
    old.ttl_ms = Some(1_000);
    let mut fresh = record("ttl", "ada");
    fresh.ttl_ms = Some(3_600_000);
    let mut unread = old.clone();
    unread.id = id("ttl");
    let mut forever = record("ttl", "ada");
    forever.ttl_ms = None;
    for r in [&old, &unread, &fresh, &forever] {
        store.create(r.clone()).await.expect("create");
    }
    assert!(
        store.get(&old.id).await.expect("get").is_none(),
        "an expired task reads as none"
    );
    // `unread` was never read: only purge can delete it.
    let purged = store.purge(now_ms()).await.expect("purge");
    assert!(purged >= 1, "purge deletes an expired task");
    assert!(
        store.get(&unread.id).await.expect("get").is_none(),
        "an expired task stays gone after purge"
    );
    assert!(
        store.get(&fresh.id).await.expect("get").is_some(),
        "purge keeps a task within its ttl"
    );
    assert!(
        store.get(&forever.id).await.expect("get").is_some(),
        "purge keeps a task without ttl"
    );
    assert!(
        store
            .list("ada", None, 10_000)
            .await
            .expect("list")
            .iter()
            .all(|r| r.id != old.id),
        "list leaves expired tasks out"
    );
}

async fn input_round_trip(store: &dyn TaskStore) {
    let task = record("input", "ada");
    store.create(task.clone()).await.expect("create");
    let questions = object(json!({
        "name": {"method": "elicitation/create", "params": {"message": "Name?"}},
        "age": {"method": "elicitation/create", "params": {"message": "Age?"}}
    }));
    store
        .update(&task.id, Update::Ask(questions.clone()), now_ms())
        .await
        .expect("update");
    let read = store.get(&task.id).await.expect("get").expect("exists");
    assert_eq!(
        read.input_requests, questions,
        "input requests are stored with the task"
    );
    let partial = store
        .update(
            &task.id,
            Update::Respond(object(
                json!({"name": {"action": "accept", "content": {"name": "Ada"}}, "unasked": {}}),
            )),
            now_ms(),
        )
        .await
        .expect("update")
        .expect("exists");
    assert_eq!(
        partial.record.status,
        TaskStatus::InputRequired,
        "a partial answer leaves the task input_required"
    );
    assert!(
        !partial.record.input_requests.contains_key("name"),
        "an answered request is no longer outstanding"
    );
    assert!(
        partial.record.input_requests.contains_key("age"),
        "an unanswered request stays outstanding"
    );
    assert!(
        !partial.record.input_responses.contains_key("unasked"),
        "answers nobody asked for are ignored"
    );
    assert_eq!(
        partial.record.input_responses.get("name"),
        Some(&json!({"action": "accept", "content": {"name": "Ada"}})),
        "the answer is stored with the task"
    );
    let again = store
        .update(
            &task.id,
            Update::Ask(object(json!({"name": {"method": "elicitation/create"}}))),
            now_ms(),
        )
        .await
        .expect("update")
        .expect("exists");
    assert!(
        !again.record.input_requests.contains_key("name"),
        "a key is never asked twice"
    );
}

async fn watch_reports_changes(store: &dyn TaskStore) {
    let task = record("watch", "ada");
    store.create(task.clone()).await.expect("create");
    let mut events = store.watch(&task.id);
    store
        .update(&task.id, Update::Ask(object(json!({"k": {}}))), now_ms())
        .await
        .expect("update");
    store
        .update(
            &task.id,
            Update::Respond(object(json!({"k": {"action": "decline"}}))),
            now_ms(),
        )
        .await
        .expect("update");
    store
        .update(
            &task.id,
            Update::Finish(Outcome::cancelled("stop")),
            now_ms(),
        )
        .await
        .expect("update");
    let mut seen = Vec::new();
    while let Ok(Some(event)) = tokio::time::timeout(Duration::from_secs(5), events.next()).await {
        let last = matches!(event, TaskEvent::Status(TaskStatus::Cancelled));
        seen.push(event);
        if last {
            break;
        }
    }
    assert!(
        seen.contains(&TaskEvent::Status(TaskStatus::InputRequired)),
        "watch reports input_required: {seen:?}"
    );
    assert!(
        seen.contains(&TaskEvent::Responded(vec!["k".into()])),
        "watch reports arriving answers: {seen:?}"
    );
    assert!(
        seen.contains(&TaskEvent::Status(TaskStatus::Cancelled)),
        "watch reports cancellation: {seen:?}"
    );
}

async fn many_tasks_concurrently(store: Arc<dyn TaskStore>) {
    let writers: Vec<_> = (0..64)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move {
                let task = record("many", "crowd");
                store.create(task.clone()).await.expect("create");
                for n in 0..5 {
                    let key = format!("k{n}");
                    store
                        .update(
                            &task.id,
                            Update::Ask(object(json!({ key.clone(): {} }))),
                            now_ms(),
                        )
                        .await
                        .expect("update");
                    store
                        .update(
                            &task.id,
                            Update::Respond(object(json!({ key: {"action": "accept"} }))),
                            now_ms(),
                        )
                        .await
                        .expect("update");
                }
                store
                    .update(
                        &task.id,
                        Update::Finish(Outcome::completed(JsonObject::new())),
                        now_ms(),
                    )
                    .await
                    .expect("update");
                task.id
            })
        })
        .collect();
    for writer in writers {
        let id = writer.await.expect("writer");
        let read = store.get(&id).await.expect("get").expect("exists");
        assert_eq!(
            read.status,
            TaskStatus::Completed,
            "concurrent updates of many tasks all land"
        );
        assert_eq!(
            read.input_responses.len(),
            5,
            "no answer is lost under concurrency"
        );
    }
}
