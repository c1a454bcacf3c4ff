//! What sharing state through Redis costs a deployment, measured in one run
//! against the in-process peers:
//!
//! 1. `tasks/get` over Streamable HTTP (2026-07-28, stateless) with the
//!    in-memory, SQLite and Redis task stores: `HTTP_TASKS` tasks created
//!    over HTTP first, then `HTTP_GETS` reads by `CLIENTS` concurrent
//!    keep-alive HTTP/1.1 connections, every request timed.
//! 2. Change delivery: `LISTENERS` `subscriptions/listen` streams held on
//!    instance B, a change published on instance A sharing B's Redis, and
//!    the time until each listener heard it, over `PUBLISHES` publishes;
//!    the peer is one in-memory server that both holds and publishes.
//! 3. Queued tasks: `JOBS` tasks of a tool that answers at once created
//!    through instance A with `redis.queue` on and run by two [`Worker`]s,
//!    timed until every one is completed in the store; the peers are the
//!    same instance without `redis.queue` (the in-process executor, the
//!    Redis store) and an in-memory server.
//!
//! `taskset -c 1 cargo bench -p mcp-redis --bench scale` (needs
//! `redis-server`; with `taskset` installed Redis runs on CPU 0, so run the
//! benchmark on CPU 1, after a `--no-run` build). Everything but Redis
//! (servers, workers, clients) shares one runtime thread, as one instance
//! of a deployment would share its CPU. It prints one table.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::body::Body;
use hyper::Request;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use mcp_server::core::ext::tasks::TaskStatus;
use mcp_server::seam::sink::Change;
use mcp_server::testing::MemoryClient;
use mcp_server::transport::http::{HttpConfig, bind, router, serve_on};
use mcp_server::{Server, tool};
use mcp_tasks::store::TaskStore;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use mcp_redis::Worker;

/// Tasks created before `tasks/get` is measured.
const HTTP_TASKS: usize = 1_000;
/// `tasks/get` requests measured per store.
const HTTP_GETS: usize = 50_000;
/// Concurrent keep-alive HTTP/1.1 connections.
const CLIENTS: usize = 32;
/// Listen streams held on the instance that did not publish.
const LISTENERS: usize = 1_000;
/// Publishes measured (after one not measured).
const PUBLISHES: usize = 20;
/// Tasks run per executor.
const JOBS: usize = 5_000;
/// Concurrent callers creating them.
const CALLERS: usize = 32;

/// The protocol version every HTTP request declares.
const VERSION: &str = "2026-07-28";

/// Answers at once; runs as a task.
#[tool]
async fn quick() -> String {
    "done".into()
}
mcp_tasks::task!(quick);

/// One keep-alive HTTP/1.1 connection to a server's `/mcp`.
struct Connection {
    send: SendRequest<Body>,
    host: String,
    next_id: u64,
}

impl Connection {
    async fn open(port: u16) -> Self {
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("the server accepts");
        tcp.set_nodelay(true).expect("TCP_NODELAY");
        let (send, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
            .await
            .expect("an HTTP/1.1 connection");
        tokio::spawn(connection);
        Self {
            send,
            host: format!("127.0.0.1:{port}"),
            next_id: 0,
        }
    }

    /// A 2026-07-28 request of `method` whose `params` get the `_meta` of a
    /// client that declared the tasks extension; the JSON-RPC result, or
    /// what went wrong.
    async fn call(
        &mut self,
        method: &str,
        name: Option<&str>,
        mut params: Value,
    ) -> Result<Value, String> {
        self.next_id += 1;
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": VERSION,
            "io.modelcontextprotocol/clientCapabilities":
                {"extensions": {"io.modelcontextprotocol/tasks": {}}},
        });
        let body =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        let mut request = Request::post("/mcp")
            .header("host", &self.host)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", VERSION)
            .header("mcp-method", method);
        if let Some(name) = name {
            request = request.header("mcp-name", name);
        }
        let request = request
            .body(Body::from(serde_json::to_vec(&body).expect("JSON")))
            .expect("a request");
        self.send
            .ready()
            .await
            .map_err(|e| format!("connection: {e}"))?;
        let response = self
            .send
            .send_request(request)
            .await
            .map_err(|e| format!("request: {e}"))?;
        let status = response.status();
        let bytes = axum::body::to_bytes(Body::new(response.into_body()), usize::MAX)
            .await
            .map_err(|e| format!("body: {e}"))?;
        // JSON, or an SSE stream whose last `data:` line is the response.
        let json = match bytes.first() {
            Some(b'{') => &bytes[..],
            _ => {
                let text = std::str::from_utf8(&bytes).map_err(|e| e.to_string())?;
                let data = text
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .next_back()
                    .ok_or_else(|| format!("{status}: no response in {text}"))?;
                data.trim().as_bytes()
            }
        };
        let mut answer: Value = serde_json::from_slice(json).map_err(|e| e.to_string())?;
        match answer.get_mut("result") {
            Some(result) => Ok(result.take()),
            None => Err(format!("{status}: {answer}")),
        }
    }
}

/// `tasks/get` over HTTP with `server`'s task store: the reads measured,
/// and how many requests failed.
async fn http_gets(server: Server) -> (common::Measured, usize) {
    let listener = bind("127.0.0.1:0".parse().expect("an address")).expect("a port");
    let port = listener.local_addr().expect("its address").port();
    let serving = tokio::spawn(serve_on(
        listener,
        router(server.clone(), "/mcp", HttpConfig::default()),
    ));
    let mut connections = Vec::with_capacity(CLIENTS);
    for _ in 0..CLIENTS {
        connections.push(Connection::open(port).await);
    }
    // Create the tasks, each connection its share, then wait for them all
    // to be completed so that every read finds the same record.
    let created: Vec<_> = connections
        .into_iter()
        .enumerate()
        .map(|(n, mut connection)| {
            tokio::spawn(async move {
                let mut ids = Vec::new();
                for _ in (n..HTTP_TASKS).step_by(CLIENTS) {
                    let handle = connection
                        .call("tools/call", Some("quick"), json!({"name": "quick"}))
                        .await
                        .expect("a task is created");
                    let id = handle["taskId"].as_str().expect("a task handle");
                    ids.push(id.to_owned());
                }
                (connection, ids)
            })
        })
        .collect();
    let mut connections = Vec::with_capacity(CLIENTS);
    let mut ids = Vec::with_capacity(HTTP_TASKS);
    for task in created {
        let (connection, made) = task.await.expect("a client");
        connections.push(connection);
        ids.extend(made);
    }
    let store = server.active::<dyn TaskStore>().expect("a task store");
    all_completed(&*store, &ids).await;
    let ids = Arc::new(ids);
    let failed = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let clients: Vec<_> = connections
        .into_iter()
        .enumerate()
        .map(|(n, mut connection)| {
            let (ids, failed) = (ids.clone(), failed.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(HTTP_GETS / CLIENTS + 1);
                for op in (n..HTTP_GETS).step_by(CLIENTS) {
                    let id = &ids[op % ids.len()];
                    let began = Instant::now();
                    let task = connection
                        .call("tasks/get", Some(id), json!({"taskId": id}))
                        .await;
                    latencies.push(began.elapsed());
                    if !task.is_ok_and(|t| t["status"] == "completed") {
                        failed.fetch_add(1, Ordering::Relaxed);
                    }
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(HTTP_GETS);
    for client in clients {
        latencies.extend(client.await.expect("a client"));
    }
    let took = started.elapsed();
    serving.abort();
    let failed = failed.load(Ordering::Relaxed);
    (
        common::Measured {
            ops: HTTP_GETS,
            took,
            latencies,
        },
        failed,
    )
}

/// Waits until every task in `ids` is completed in `store` (a task seen
/// ended otherwise panics), checking them in order; the moment the last
/// was seen completed.
async fn all_completed(store: &dyn TaskStore, ids: &[String]) -> Instant {
    let deadline = Instant::now() + Duration::from_secs(120);
    for id in ids {
        loop {
            let record = store.get(id).await.expect("the store answers");
            match record.map(|r| r.status) {
                Some(TaskStatus::Completed) => break,
                Some(TaskStatus::Working) => {}
                other => panic!("task {id} is {other:?}"),
            }
            assert!(Instant::now() < deadline, "task {id} did not complete");
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
    Instant::now()
}

/// Delivery of `PUBLISHES` changes published on `publisher` to `LISTENERS`
/// listen streams held on `holder`: every listener's latency.
async fn delivery(publisher: &Server, holder: &Server) -> Vec<Duration> {
    let (heard, mut hearing) = mpsc::unbounded_channel::<Instant>();
    let mut listeners = tokio::task::JoinSet::new();
    for _ in 0..LISTENERS {
        let mut stream = MemoryClient::new(holder).listen(json!({"toolsListChanged": true}));
        let ack = stream.next().await.expect("an acknowledgement");
        assert_eq!(ack.method, "notifications/subscriptions/acknowledged");
        let heard = heard.clone();
        listeners.spawn(async move {
            while let Some(notification) = stream.next().await {
                assert_eq!(notification.method, "notifications/tools/list_changed");
                if heard.send(Instant::now()).is_err() {
                    break;
                }
            }
        });
    }
    drop(heard);
    let mut latencies = Vec::with_capacity(PUBLISHES * LISTENERS);
    // The first publish warms the path up and is not counted.
    for round in 0..=PUBLISHES {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let published = Instant::now();
        publisher.changes().publish(Change::tools_list_changed());
        for _ in 0..LISTENERS {
            let at = tokio::time::timeout(Duration::from_secs(10), hearing.recv())
                .await
                .expect("every listener heard within 10 s")
                .expect("the listeners live");
            if round > 0 {
                latencies.push(at - published);
            }
        }
    }
    listeners.abort_all();
    while listeners.join_next().await.is_some() {}
    latencies
}

/// `JOBS` tasks of `quick` created through `server` by `CALLERS` callers:
/// the time until all were created, and until all were completed.
async fn run_jobs(server: &Server) -> (Duration, Duration) {
    let client = Arc::new(
        MemoryClient::new(server).with_capabilities(
            serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
                .expect("client capabilities"),
        ),
    );
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let callers: Vec<_> = (0..CALLERS)
        .map(|_| {
            let (client, next) = (client.clone(), next.clone());
            tokio::spawn(async move {
                let mut made = Vec::new();
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= JOBS {
                        break made;
                    }
                    let handle = client
                        .request_raw("tools/call", json!({"name": "quick"}))
                        .await
                        .expect("a task is created");
                    let id = handle["taskId"].as_str().expect("a task handle");
                    made.push((n, id.to_owned()));
                }
            })
        })
        .collect();
    let mut made = Vec::with_capacity(JOBS);
    for caller in callers {
        made.extend(caller.await.expect("a caller"));
    }
    let created = started.elapsed();
    made.sort_unstable();
    let ids: Vec<String> = made.into_iter().map(|(_, id)| id).collect();
    let store = server.active::<dyn TaskStore>().expect("a task store");
    let done = all_completed(&*store, &ids).await;
    (created, done - started)
}

/// An instance on the Redis at `url`, its keys under `prefix`.
fn on_redis(url: &str, prefix: &str, queue: bool) -> Server {
    Server::builder()
        .setting("redis.url", url)
        .setting("redis.prefix", prefix)
        .setting("redis.queue", queue)
        .build()
}

/// The seam's selected member, for the table.
fn selected(server: &Server, seam: &str) -> String {
    server
        .report()
        .selections
        .iter()
        .find(|s| s.seam == seam)
        .map_or_else(|| "none".to_owned(), |s| s.winner.clone())
}

/// The machine's CPUs (`/proc/cpuinfo`), whatever the affinity.
fn machine_cpus() -> String {
    std::fs::read_to_string("/proc/cpuinfo").map_or_else(
        |_| "?".into(),
        |info| {
            let count = info.lines().filter(|l| l.starts_with("processor")).count();
            count.to_string()
        },
    )
}

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut redis, port) = common::redis_server(dir.path());
    let url = format!("redis://127.0.0.1:{port}");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let machine = machine_cpus();
    println!("{machine} CPUs on the machine, {cpus} available to the benchmark, 1 runtime thread");
    let mut ok = true;

    // 1. tasks/get over HTTP per task store.
    let sqlite_path = dir.path().join("tasks.db");
    let stores = [
        ("memory", Server::builder().build()),
        (
            "sqlite",
            Server::builder()
                .setting("tasks.store", "sqlite")
                .setting("tasks.sqlite_path", sqlite_path.display().to_string())
                .build(),
        ),
        ("redis", on_redis(&url, "http", false)),
    ];
    let mut gets = Vec::new();
    let mut memory_rate = None;
    for (label, server) in stores {
        let store = selected(&server, "TaskStore");
        let (mut m, failed) = runtime.block_on(http_gets(server));
        ok &= failed == 0;
        let rate = m.per_second();
        let base = *memory_rate.get_or_insert(rate);
        eprintln!("tasks/get over HTTP, {label}: {rate:.0}/s, {failed} failed");
        gets.push(format!(
            "| {label} | {store} | {rate:.0} | {:.2?} | {:.2?} | {:.2?} | {failed} | {:.2}x |",
            m.percentile(0.5),
            m.percentile(0.99),
            m.percentile(1.0),
            rate / base,
        ));
    }

    // 2. Change delivery across instances.
    let single = Server::builder().build();
    let (a, b) = (
        on_redis(&url, "deliver", false),
        on_redis(&url, "deliver", false),
    );
    let mut deliveries = Vec::new();
    let mut single_p50 = None;
    for (label, publisher, holder) in [
        ("one in-memory server publishes and holds", &single, &single),
        ("A publishes, B holds, one Redis", &a, &b),
    ] {
        let sink = selected(holder, "ChangeSink");
        let mut latencies = runtime.block_on(delivery(publisher, holder));
        let p50 = common::percentile(&mut latencies, 0.5);
        let base = *single_p50.get_or_insert(p50);
        eprintln!("delivery, {label}: p50 {p50:.2?}");
        deliveries.push(format!(
            "| {label} | {sink} | {} | {p50:.2?} | {:.2?} | {:.2?} | {:.2}x |",
            latencies.len(),
            common::percentile(&mut latencies, 0.99),
            common::percentile(&mut latencies, 1.0),
            p50.as_secs_f64() / base.as_secs_f64(),
        ));
    }
    drop((single, a, b));

    // 3. Queued tasks run by two workers, against the in-process executor.
    let in_process = on_redis(&url, "inproc", false);
    let memory = Server::builder().build();
    let queued = on_redis(&url, "queue", true);
    let stop = CancellationToken::new();
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let worker = Worker::of(&on_redis(&url, "queue", true)).expect("a worker");
            runtime.spawn(worker.run(stop.clone()))
        })
        .collect();
    let mut jobs = Vec::new();
    let mut in_process_rate = None;
    for (label, server) in [
        ("in-process executor, Redis store", &in_process),
        ("redis.queue, 2 workers, Redis store", &queued),
        ("in-process executor, memory store", &memory),
    ] {
        let (executor, store) = (
            selected(server, "ExecutionStrategy"),
            selected(server, "TaskStore"),
        );
        let (created, done) = runtime.block_on(run_jobs(server));
        let rate = JOBS as f64 / done.as_secs_f64();
        let base = *in_process_rate.get_or_insert(rate);
        eprintln!("jobs, {label}: {rate:.0}/s, created in {created:.2?}, done in {done:.2?}");
        jobs.push(format!(
            "| {label} | {executor}, {store} | {rate:.0} | {created:.2?} | {done:.2?} | {:.2}x |",
            rate / base,
        ));
    }
    stop.cancel();
    runtime.block_on(async {
        for worker in workers {
            worker.await.expect("a worker");
        }
    });
    drop(runtime);
    let _ = redis.kill();
    let _ = redis.wait();

    println!(
        "\n1. tasks/get over HTTP: {HTTP_TASKS} tasks created over HTTP, then {HTTP_GETS} \
         tasks/get by {CLIENTS} keep-alive HTTP/1.1 connections; ratio to memory\n"
    );
    println!("| store | TaskStore | req/s | p50 | p99 | max | failed | vs memory |");
    println!("|---|---|--:|--:|--:|--:|--:|--:|");
    gets.iter().for_each(|row| println!("{row}"));
    println!(
        "\n2. Delivery of a change to {LISTENERS} listen streams, {PUBLISHES} publishes: \
         time from publish to each listener; ratio of p50s\n"
    );
    println!("| setup | ChangeSink | heard | p50 | p99 | max | vs one server |");
    println!("|---|---|--:|--:|--:|--:|--:|");
    deliveries.iter().for_each(|row| println!("{row}"));
    println!(
        "\n3. {JOBS} tasks of a tool that answers at once, created by {CALLERS} in-memory \
         callers, until all are completed in the store; ratio to the in-process executor \
         on Redis\n"
    );
    println!("| executor | members | jobs/s | all created | all completed | vs in-process |");
    println!("|---|---|--:|--:|--:|--:|");
    jobs.iter().for_each(|row| println!("{row}"));
    assert!(ok, "some tasks/get requests failed");
}
