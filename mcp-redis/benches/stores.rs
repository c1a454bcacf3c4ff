//! Task store operations per second and their latency, for the in-memory,
//! SQLite and Redis stores (the last with its client cache of task records
//! off, then on), measured in one run with the same workload.
//!
//! `cargo bench -p mcp-redis --bench stores` (needs `redis-server`; with
//! `taskset` installed, Redis runs on CPU 0: run the benchmark itself on
//! CPU 1, `taskset -c 1 cargo bench -p mcp-redis --bench stores`, after a
//! `--no-run` build). Each store gets `TASKS` tasks created, then `READS`
//! reads (`get`: each task's first read and nine more), `READS` reads more
//! (`get again`: every task read before and unchanged since) and `UPDATES`
//! updates (alternately asking for and answering an input), each phase by
//! `WORKERS` concurrent callers; every operation is timed. It prints one
//! table, with each store's throughput as a ratio to the in-memory
//! store's.

mod common;

use std::sync::Arc;
use std::time::Instant;

use common::Measured;
use mcp_server::{Server, tool};
use mcp_tasks::record::{TaskRecord, Update, Wire, now_ms};
use mcp_tasks::store::{MemoryTaskStore, SqliteTaskStore, TaskStore};
use serde_json::json;

use mcp_redis as _;

const TASKS: usize = 2_000;
const READS: usize = 20_000;
const UPDATES: usize = 10_000;
const WORKERS: usize = 32;

/// Echoes its text (`mcp-tasks` wraps the tool methods, so a server has one).
#[tool]
async fn echo(text: String) -> String {
    text
}

async fn measure<F, Fut>(ops: usize, op: F) -> Measured
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send,
{
    let op = Arc::new(op);
    let started = Instant::now();
    let workers: Vec<_> = (0..WORKERS)
        .map(|worker| {
            let op = op.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(ops / WORKERS + 1);
                let mut n = worker;
                while n < ops {
                    let began = Instant::now();
                    op(n).await;
                    latencies.push(began.elapsed());
                    n += WORKERS;
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(ops);
    for worker in workers {
        latencies.extend(worker.await.expect("a worker"));
    }
    Measured {
        ops,
        took: started.elapsed(),
        latencies,
    }
}

/// Reads every task `READS / TASKS` times, by `WORKERS` callers.
async fn reads(store: Arc<dyn TaskStore>, ids: Arc<Vec<String>>) -> Measured {
    measure(READS, move |n| {
        let (s, i) = (store.clone(), ids.clone());
        async move {
            s.get(&i[n % TASKS]).await.expect("get").expect("a task");
        }
    })
    .await
}

/// Creates, reads, reads again and updates on `store`; the four phases'
/// measurements.
async fn run(label: &str, store: Arc<dyn TaskStore>) -> [Measured; 4] {
    let ids: Arc<Vec<String>> = Arc::new(
        (0..TASKS)
            .map(|n| format!("{}-{n}-{}", label.replace([',', ' '], ""), now_ms()))
            .collect(),
    );
    let (s, i) = (store.clone(), ids.clone());
    let create = measure(TASKS, move |n| {
        let (s, i) = (s.clone(), i.clone());
        async move {
            let mut record = TaskRecord::new(&i[n], "bench", Wire::Extension, "echo", now_ms());
            record.ttl_ms = Some(3_600_000);
            s.create(record).await.expect("create");
        }
    })
    .await;
    let read = reads(store.clone(), ids.clone()).await;
    let read_again = reads(store.clone(), ids.clone()).await;
    let (s, i) = (store.clone(), ids.clone());
    let update = measure(UPDATES, move |n| {
        let (s, i) = (s.clone(), i.clone());
        async move {
            // Each task is updated UPDATES / TASKS times: ask, answer, ask…
            let round = n / TASKS;
            let key = format!("k{}", round / 2);
            let change = match round % 2 {
                0 => Update::Ask(object(json!({ key: {"method": "elicitation/create"} }))),
                _ => Update::Respond(object(json!({ key: {"action": "decline"} }))),
            };
            s.update(&i[n % TASKS], change, now_ms())
                .await
                .expect("update")
                .expect("a task");
        }
    })
    .await;
    [create, read, read_again, update]
}

fn object(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    match value {
        serde_json::Value::Object(object) => object,
        _ => unreachable!("an object"),
    }
}

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut redis, port) = common::redis_server(dir.path());
    let redis_store = |client_cache: bool| {
        Server::builder()
            .setting("redis.url", format!("redis://127.0.0.1:{port}"))
            .setting("redis.client_cache", client_cache)
            .build()
            .active::<dyn TaskStore>()
            .expect("the Redis task store")
    };
    let (uncached, cached) = (redis_store(false), redis_store(true));
    let sqlite: Arc<dyn TaskStore> =
        Arc::new(SqliteTaskStore::open(dir.path().join("tasks.db")).expect("SQLite opens"));
    let memory: Arc<dyn TaskStore> = Arc::new(MemoryTaskStore::default());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let results = runtime.block_on(async {
        let mut results = Vec::new();
        for (label, store) in [
            ("memory", memory),
            ("sqlite", sqlite),
            ("redis, cache off", uncached),
            ("redis", cached),
        ] {
            results.push((label, run(label, store).await));
        }
        results
    });
    let _ = redis.kill();
    let _ = redis.wait();
    println!(
        "\n{TASKS} creates, {READS} reads, {READS} reads again, {UPDATES} updates per store, {WORKERS} concurrent callers\n"
    );
    println!("| store | operation | ops/s | p50 | p99 | vs memory |");
    println!("|---|---|--:|--:|--:|--:|");
    let memory_rates: Vec<f64> = results[0].1.iter().map(Measured::per_second).collect();
    for (label, measured) in results {
        for (n, (name, mut m)) in ["create", "get", "get again", "update"]
            .into_iter()
            .zip(measured)
            .enumerate()
        {
            let rate = m.per_second();
            let (p50, p99) = (m.percentile(0.5), m.percentile(0.99));
            println!(
                "| {label} | {name} | {rate:.0} | {p50:.1?} | {p99:.1?} | {:.2}x |",
                rate / memory_rates[n]
            );
        }
    }
}
