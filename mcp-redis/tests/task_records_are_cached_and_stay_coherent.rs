//! The client cache of task records (`redis.client_cache`, on by default)
//! on a real Redis: two stores, A and B, each with its own connections, as
//! two instances would be. A record B read before and that nobody changed
//! is answered from B's copy; once another instance, a script, an expiry,
//! a deletion or a flush changes it, Redis tells B, and B reads the record
//! as it now is.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mcp_redis::config::RedisSection;
use mcp_redis::{CacheStatistics, RedisTaskStore};
use mcp_server::core::ext::tasks::TaskStatus;
use mcp_tasks::record::{Outcome, TaskRecord, Update, Wire, now_ms};
use mcp_tasks::store::TaskStore;
use mcp_tests::redis::{RedisServer, first_answer};
use serde_json::json;

/// A store on `redis` with connections of its own, its client cache on or off.
fn store(redis: &RedisServer, client_cache: bool) -> RedisTaskStore {
    RedisTaskStore::open(&RedisSection {
        url: Some(redis.url()),
        client_cache,
        ..RedisSection::default()
    })
    .expect("a store")
}

/// What `store`'s cache did so far; all zero when it has none, so that
/// every assertion on hits fails with the cache off.
fn statistics(store: &RedisTaskStore) -> CacheStatistics {
    store.cache_statistics().unwrap_or_default()
}

/// A new `working` task of `owner`, kept for a minute.
fn record(owner: &str) -> TaskRecord {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut record = TaskRecord::new(
        format!("cached-{}-{n}", now_ms()),
        owner,
        Wire::Extension,
        "echo",
        now_ms(),
    );
    record.ttl_ms = Some(60_000);
    record
}

/// The `n`th of a series of changes: asks for input under a new key, then
/// answers it, and so on.
fn change(n: usize) -> Update {
    let key = format!("k{}", n / 2);
    if n.is_multiple_of(2) {
        Update::Ask(object(json!({ key: {"method": "elicitation/create"} })))
    } else {
        Update::Respond(object(json!({ key: {"action": "decline"} })))
    }
}

fn object(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    value.as_object().cloned().unwrap_or_default()
}

/// Waits (at most two seconds) until `store` has had more invalidations
/// than `before`; whether it did.
async fn invalidated_since(store: &RedisTaskStore, before: u64) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        if statistics(store).invalidations > before {
            return true;
        }
        // Not a timer: its millisecond would hide how soon the message came.
        tokio::task::yield_now().await;
    }
    false
}

/// Reads `id` on `store` `times` times, each expected to be `expected` and
/// answered from the copy.
async fn reads_from_the_copy(store: &RedisTaskStore, id: &str, expected: &TaskRecord, times: u64) {
    let before = statistics(store);
    for _ in 0..times {
        let read = store.get(id).await.unwrap().expect("the task");
        assert_eq!(&read, expected);
    }
    let after = statistics(store);
    assert_eq!(
        after.hits - before.hits,
        times,
        "reads of an unchanged record were answered from the copy ({before:?} -> {after:?})"
    );
    assert_eq!(after.misses, before.misses, "no read went to Redis");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_update_on_one_instance_invalidates_the_copy_another_instance_cached() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (store(&redis, true), store(&redis, true));
    let task = record("ada");
    a.create(task.clone()).await.unwrap();
    let first = b.get(&task.id).await.unwrap().expect("b sees the task");
    assert_eq!(first, task);
    reads_from_the_copy(&b, &task.id, &task, 10).await;

    let mut expected = task.clone();
    let (mut stale_at_once, mut told_after) = (0, Vec::new());
    for n in 0..20 {
        let before = statistics(&b);
        let applied = a
            .update(&task.id, change(n), now_ms())
            .await
            .unwrap()
            .expect("a updates the task");
        assert_ne!(applied.record, expected, "the update changed the record");
        expected = applied.record;
        let written = Instant::now();
        // Redis sends b its message with a's write; a read on b that
        // starts before b has it is still answered from the copy.
        if b.get(&task.id).await.unwrap().as_ref() != Some(&expected) {
            stale_at_once += 1;
        }
        assert!(
            invalidated_since(&b, before.invalidations).await,
            "Redis told b that the record changed"
        );
        told_after.push(written.elapsed());
        let read = b.get(&task.id).await.unwrap().expect("the task");
        assert_eq!(read, expected, "b reads the update once told of it");
        reads_from_the_copy(&b, &task.id, &expected, 3).await;
    }
    told_after.sort();
    eprintln!(
        "reads on b right after a's update that got the copy as it was: {stale_at_once} of 20; \
         b was told {:?} after the update returned (median; at most {:?})",
        told_after[told_after.len() / 2],
        told_after[told_after.len() - 1],
    );

    let before = statistics(&b);
    let finished = a
        .update(
            &task.id,
            Update::Finish(Outcome::completed(object(json!({"content": []})))),
            now_ms(),
        )
        .await
        .unwrap()
        .expect("a finishes the task");
    assert!(invalidated_since(&b, before.invalidations).await);
    let read = b.get(&task.id).await.unwrap().expect("the task");
    assert_eq!(read.status, TaskStatus::Completed);
    assert_eq!(read, finished.record);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_reads_its_own_update_at_once() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let a = store(&redis, true);
    let task = record("ada");
    a.create(task.clone()).await.unwrap();
    a.get(&task.id).await.unwrap().expect("the task");
    for n in 0..50 {
        let applied = a
            .update(&task.id, change(n), now_ms())
            .await
            .unwrap()
            .expect("the task");
        // Redis's message about a's write may come after the write returned;
        // a drops its copy itself.
        let read = a.get(&task.id).await.unwrap().expect("the task");
        assert_eq!(read, applied.record, "update {n} was read back at once");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_racing_a_read_never_leaves_a_stale_copy() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (store(&redis, true), Arc::new(store(&redis, true)));
    for round in 0..30 {
        let task = record("ada");
        a.create(task.clone()).await.unwrap();
        b.get(&task.id).await.unwrap().expect("the task");
        let stop = Arc::new(AtomicBool::new(false));
        let reading = tokio::spawn({
            let (b, id, stop) = (b.clone(), task.id.clone(), stop.clone());
            async move {
                while !stop.load(Ordering::Relaxed) {
                    b.get(&id).await.unwrap().expect("the task");
                    tokio::task::yield_now().await;
                }
            }
        });
        let mut last = None;
        for n in 0..40 {
            last = a.update(&task.id, change(n), now_ms()).await.unwrap();
        }
        stop.store(true, Ordering::Relaxed);
        reading.await.unwrap();
        // Well past the delivery of the last invalidation, and well within
        // the second after which a quiet connection stops copies being
        // served (that would hide a stale copy).
        tokio::time::sleep(Duration::from_millis(100)).await;
        let read = b.get(&task.id).await.unwrap().expect("the task");
        assert_eq!(
            Some(read),
            last.map(|applied| applied.record),
            "round {round}: b kept a copy older than the last write"
        );
    }
    let seen = statistics(&b);
    assert!(seen.hits > 0 && seen.invalidations > 0, "{seen:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_deleted_by_a_purge_a_plain_write_or_a_flush_is_not_answered_from_the_copy() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (store(&redis, true), store(&redis, true));
    let mut plain = redis::Client::open(redis.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();

    // A purge deletes in a script, by keys it builds itself.
    let task = record("ada");
    a.create(task.clone()).await.unwrap();
    b.get(&task.id).await.unwrap().expect("the task");
    reads_from_the_copy(&b, &task.id, &task, 2).await;
    let before = statistics(&b);
    assert!(a.purge(now_ms() + 120_000).await.unwrap() >= 1);
    assert!(invalidated_since(&b, before.invalidations).await);
    assert_eq!(b.get(&task.id).await.unwrap(), None, "purged");

    // A client that is no store at all.
    let task = record("ada");
    a.create(task.clone()).await.unwrap();
    b.get(&task.id).await.unwrap().expect("the task");
    reads_from_the_copy(&b, &task.id, &task, 2).await;
    let mut changed = task.clone();
    changed.status_message = Some("written by hand".into());
    let before = statistics(&b);
    redis::cmd("SET")
        .arg(format!("mcp:task:{}", task.id))
        .arg(serde_json::to_string(&changed).unwrap())
        .arg("KEEPTTL")
        .exec_async(&mut plain)
        .await
        .unwrap();
    assert!(invalidated_since(&b, before.invalidations).await);
    assert_eq!(b.get(&task.id).await.unwrap(), Some(changed));

    // A flush names no key: every copy goes.
    reads_from_the_copy(&b, &task.id, &b.get(&task.id).await.unwrap().unwrap(), 1).await;
    let before = statistics(&b);
    redis::cmd("FLUSHDB").exec_async(&mut plain).await.unwrap();
    assert!(invalidated_since(&b, before.invalidations).await);
    assert_eq!(b.get(&task.id).await.unwrap(), None, "flushed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_that_expires_in_redis_loses_its_copy() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (store(&redis, true), store(&redis, true));
    let mut task = record("ada");
    task.ttl_ms = Some(300);
    a.create(task.clone()).await.unwrap();
    b.get(&task.id).await.unwrap().expect("the task");
    let before = statistics(&b);
    // Nobody reads or writes it: Redis's own expiry cycle deletes it.
    assert!(
        invalidated_since(&b, before.invalidations).await,
        "the expiry was told"
    );
    assert_eq!(b.get(&task.id).await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn copies_go_with_the_connection_that_tracked_them() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let b = store(&redis, true);
    let task = record("ada");
    b.create(task.clone()).await.unwrap();
    b.get(&task.id).await.unwrap().expect("the task");
    reads_from_the_copy(&b, &task.id, &task, 2).await;
    // The restarted Redis is empty and tracks nothing for b: b's copy
    // went when its connection closed.
    redis.restart();
    let read = first_answer(|| b.get(&task.id)).await;
    assert_eq!(read, Some(None), "b reconnected and read the empty Redis");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_client_cache_off_every_read_goes_to_redis() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (store(&redis, true), store(&redis, false));
    assert_eq!(b.cache_statistics(), None);
    let task = record("ada");
    a.create(task.clone()).await.unwrap();
    assert_eq!(b.get(&task.id).await.unwrap(), Some(task.clone()));
    let applied = a
        .update(&task.id, change(0), now_ms())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(b.get(&task.id).await.unwrap(), Some(applied.record));
}
