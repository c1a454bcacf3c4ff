//! With `redis.queue` on, a task goes to a job stream on a real Redis and a
//! worker (a server booted from the same application) runs it: the outcome
//! is read where the task was made, a `tasks/cancel` there interrupts the
//! run, and a job whose worker went silent is taken over by another.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use mcp_server::testing::MemoryClient;
use mcp_server::{Server, tool};
use mcp_tests::redis::RedisServer;
use redis::AsyncCommands;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use mcp_redis::Worker;

static RUNS: AtomicUsize = AtomicUsize::new(0);
static SLOW_RUNS: AtomicUsize = AtomicUsize::new(0);
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Doubles a number.
#[tool]
async fn queued_double(n: i64) -> String {
    format!("{}", n * 2)
}
mcp_tasks::task!(queued_double);

/// Triples a number, and counts its runs.
#[tool]
async fn queued_triple(n: i64) -> String {
    RUNS.fetch_add(1, Ordering::SeqCst);
    format!("{}", n * 3)
}
mcp_tasks::task!(queued_triple);

/// Works for two seconds (past `claim_after_ms`), and counts its runs.
#[tool]
async fn queued_slow() -> String {
    SLOW_RUNS.fetch_add(1, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_secs(2)).await;
    "slow".into()
}
mcp_tasks::task!(queued_slow);

/// Runs until cancelled; notes that it was stopped.
#[tool]
async fn queued_forever() -> String {
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
mcp_tasks::task!(queued_forever);

fn instance(redis: &RedisServer) -> Server {
    Server::builder()
        .setting("redis.url", redis.url())
        .setting("redis.queue", true)
        .setting("redis.claim_after_ms", 600)
        .build()
}

fn client(server: &Server) -> MemoryClient {
    MemoryClient::new(server).with_capabilities(
        serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
            .unwrap(),
    )
}

async fn create(client: &MemoryClient, tool: &str, arguments: Value) -> String {
    let handle = client
        .request_raw("tools/call", json!({"name": tool, "arguments": arguments}))
        .await
        .unwrap();
    handle["taskId"].as_str().expect("a task").to_owned()
}

async fn wait_for(client: &MemoryClient, id: &str, status: &str) -> Value {
    for _ in 0..400 {
        let task = client
            .request_raw("tasks/get", json!({"taskId": id}))
            .await
            .unwrap();
        if task["status"] == status {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("task {id} did not become {status}");
}

/// Runs a worker on its own server until the returned token fires.
fn start_worker(redis: &RedisServer) -> (CancellationToken, tokio::task::JoinHandle<()>) {
    let stop = CancellationToken::new();
    let worker = Worker::of(&instance(redis)).expect("a worker");
    let running = tokio::spawn(worker.run(stop.clone()));
    (stop, running)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_task_waits_for_a_worker_and_its_outcome_is_read_where_it_was_made() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let a = instance(&redis);
    let report = a.report().to_string();
    assert!(report.contains("RedisQueueExecutor"), "{report}");
    let ada = client(&a);
    let id = create(&ada, "queued_double", json!({"n": 21})).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        wait_for(&ada, &id, "working").await["status"],
        "working",
        "nothing runs it here"
    );
    let (stop, running) = start_worker(&redis);
    let done = wait_for(&ada, &id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "42");
    stop.cancel();
    running.await.unwrap();
    let mut connection = redis_connection(&redis).await;
    let left: usize = connection.xlen("mcp:jobs").await.unwrap();
    assert_eq!(left, 0, "the job was acknowledged and deleted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_received_where_the_task_was_made_stops_it_on_the_worker() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let a = instance(&redis);
    let ada = client(&a);
    let (stop, running) = start_worker(&redis);
    let id = create(&ada, "queued_forever", json!({})).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!STOPPED.load(Ordering::SeqCst));
    ada.request_raw("tasks/cancel", json!({"taskId": id}))
        .await
        .unwrap();
    for _ in 0..200 {
        if STOPPED.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(STOPPED.load(Ordering::SeqCst), "the handler was dropped");
    assert_eq!(
        wait_for(&ada, &id, "cancelled").await["status"],
        "cancelled"
    );
    stop.cancel();
    tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .expect("the worker stops")
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_taken_by_a_worker_that_went_silent_is_taken_over_and_runs_once() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let a = instance(&redis);
    let ada = client(&a);
    let before = RUNS.load(Ordering::SeqCst);
    let id = create(&ada, "queued_triple", json!({"n": 5})).await;
    // A consumer of the workers' group takes the job and dies without a word.
    let mut connection = redis_connection(&redis).await;
    let () = connection
        .xgroup_create_mkstream("mcp:jobs", "workers", "0")
        .await
        .unwrap();
    let taken: redis::streams::StreamReadReply = connection
        .xread_options(
            &["mcp:jobs"],
            &[">"],
            &redis::streams::StreamReadOptions::default()
                .group("workers", "dead")
                .count(1),
        )
        .await
        .unwrap();
    assert_eq!(
        taken.keys[0].ids.len(),
        1,
        "the dead consumer holds the job"
    );
    let (stop, running) = start_worker(&redis);
    let done = wait_for(&ada, &id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "15");
    assert_eq!(RUNS.load(Ordering::SeqCst), before + 1);
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_running_longer_than_the_claim_time_is_not_taken_over_while_its_worker_lives() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let a = instance(&redis);
    let ada = client(&a);
    let workers = [start_worker(&redis), start_worker(&redis)];
    let id = create(&ada, "queued_slow", json!({})).await;
    let done = wait_for(&ada, &id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "slow");
    assert_eq!(SLOW_RUNS.load(Ordering::SeqCst), 1, "one run, renewed");
    for (stop, running) in workers {
        stop.cancel();
        running.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_queue_setting_tasks_run_where_they_are_made() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let a = Server::builder().setting("redis.url", redis.url()).build();
    assert!(
        a.report()
            .to_string()
            .contains("`redis.queue` is off: tasks run where they are created")
    );
    let ada = client(&a);
    let id = create(&ada, "queued_double", json!({"n": 4})).await;
    let done = wait_for(&ada, &id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "8");
}

async fn redis_connection(redis: &RedisServer) -> redis::aio::MultiplexedConnection {
    redis::Client::open(redis.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap()
}

static HANDED_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Runs for an hour the first time, and at once after.
#[tool]
async fn queued_handed_back() -> String {
    if HANDED_RUNS.fetch_add(1, Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_secs(3600)).await;
    }
    "finished elsewhere".into()
}
mcp_tasks::task!(queued_handed_back);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_whose_drain_deadline_passes_hands_its_job_back_at_once() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let a = instance(&redis);
    let ada = client(&a);
    // A claim time far longer than the test: only a hand-back lets B run it.
    let worker_server = |drain: u64| {
        Server::builder()
            .setting("redis.url", redis.url())
            .setting("redis.queue", true)
            .setting("redis.claim_after_ms", 120_000)
            .setting("server.drain_timeout_s", drain)
            .build()
    };
    let first = worker_server(1);
    let stop_first = CancellationToken::new();
    let running = tokio::spawn(Worker::of(&first).unwrap().run(stop_first.clone()));
    let id = create(&ada, "queued_handed_back", json!({})).await;
    for _ in 0..200 {
        if HANDED_RUNS.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        HANDED_RUNS.load(Ordering::SeqCst),
        1,
        "the first worker took it"
    );
    // SIGTERM, as the demo's worker maps it: stop taking jobs, drain.
    first.shutdown().begin();
    stop_first.cancel();
    tokio::time::timeout(Duration::from_secs(5), running)
        .await
        .expect("the first worker ends once its deadline hands the job back")
        .unwrap();
    let second = worker_server(30);
    let stop_second = CancellationToken::new();
    let running = tokio::spawn(Worker::of(&second).unwrap().run(stop_second.clone()));
    let done = wait_for(&ada, &id, "completed").await;
    assert_eq!(HANDED_RUNS.load(Ordering::SeqCst), 2, "{done}");
    stop_second.cancel();
    running.await.unwrap();
}
