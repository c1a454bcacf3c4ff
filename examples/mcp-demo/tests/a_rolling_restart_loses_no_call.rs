//! A rolling restart, end to end: two `mcp-demo --http` instances and two
//! `--worker` processes on one real Redis, under a client load of
//! concurrent callers, listen streams and tasks. Instance A is restarted
//! with SIGTERM, then a worker, then instance B. The clients do what a
//! client behind a load balancer does: a `503`, a refused connection or
//! one closed before its answer began goes to the other instance.
//!
//! Zero calls fail, every listen stream ends with its listen result and is
//! opened again (and then hears a change), every task ends `completed`,
//! and every process stopped exits 0. The counts are printed.

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use mcp_tests::http::{
    Reply, ServerProcess, VERSION, free_port, spawn_listening, try_http1_request,
};
use mcp_tests::redis::RedisServer;
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-demo");
const KEY: &str = "0123456789abcdef0123456789abcdef-rolling-restart";
const TASKS: &str = "io.modelcontextprotocol/tasks";

/// What every process shares: Redis, queued tasks, the request-state key.
fn shared<'a>(command: &'a mut Command, redis: &RedisServer) -> &'a mut Command {
    command
        .env("MCP_REDIS__URL", redis.url())
        .env("MCP_REDIS__QUEUE", "true")
        .env("MCP_REDIS__CLAIM_AFTER_MS", "1500")
        .env("MCP_REQUEST_STATE_KEY", KEY)
        .env_remove("MCP_TASKS__STORE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
}

/// `mcp-demo --http` on `port`.
fn instance(redis: &RedisServer, port: u16) -> ServerProcess {
    let mut command = Command::new(BINARY);
    command.args(["--http", &format!("127.0.0.1:{port}")]);
    shared(&mut command, redis)
        .env("MCP_SERVER__DRAIN_TIMEOUT_S", "10")
        .stderr(Stdio::null());
    spawn_listening(&mut command, port)
}

/// `mcp-demo --worker` whose drain deadline is 1 s.
fn worker(redis: &RedisServer) -> Child {
    let mut command = Command::new(BINARY);
    command.arg("--worker");
    shared(&mut command, redis)
        .env("MCP_SERVER__DRAIN_TIMEOUT_S", "1")
        .stderr(Stdio::null());
    command.spawn().unwrap()
}

/// How many entries the job stream was ever given.
fn jobs_added(redis: &RedisServer) -> usize {
    let mut connection = redis::Client::open(redis.url())
        .unwrap()
        .get_connection()
        .unwrap();
    let info: std::collections::HashMap<String, redis::Value> = redis::cmd("XINFO")
        .arg("STREAM")
        .arg("mcp:jobs")
        .query(&mut connection)
        .unwrap();
    match info.get("entries-added") {
        Some(redis::Value::Int(added)) => usize::try_from(*added).unwrap(),
        other => panic!("XINFO STREAM says entries-added is {other:?}"),
    }
}

/// Sends SIGTERM to `pid`.
fn terminate(pid: u32) {
    let status = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// What the clients saw.
#[derive(Default)]
struct Counts {
    calls: AtomicUsize,
    failed: Mutex<Vec<String>>,
    refused_503: AtomicUsize,
    refused_connection: AtomicUsize,
    closed_before_answer: AtomicUsize,
    listens_opened: AtomicUsize,
    listens_ended_with_result: AtomicUsize,
    listens_cut: AtomicUsize,
    tasks: Mutex<Vec<String>>,
}

impl Counts {
    fn fail(&self, why: String) {
        self.failed.lock().unwrap().push(why);
    }
}

/// The two instances' ports, the way a load balancer knows them.
#[derive(Clone, Copy)]
struct Instances([u16; 2]);

impl Instances {
    /// Sends `message` (`method`, tool `name`) to instance `first`, then
    /// to the other whenever one refuses: `503`, a refused connection, or
    /// one closed before any answer. The answer and the instance that gave
    /// it; `None` after a minute of refusals.
    fn balance(
        self,
        first: usize,
        message: &Value,
        name: Option<&str>,
        patience: Duration,
        counts: &Counts,
    ) -> Option<(Reply, usize)> {
        let method = message["method"].as_str().unwrap();
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        headers.extend(mcp_tests::http::headers(method, name));
        let body = message.to_string();
        let until = Instant::now() + Duration::from_secs(60);
        let mut at = first % 2;
        while Instant::now() < until {
            match try_http1_request(
                self.0[at],
                "POST",
                "/mcp",
                &headers,
                body.as_bytes(),
                patience,
            ) {
                Ok(reply) if reply.status == 503 => {
                    counts.refused_503.fetch_add(1, Ordering::Relaxed);
                }
                Ok(reply) => return Some((reply, at)),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                    counts.refused_connection.fetch_add(1, Ordering::Relaxed);
                    // Both may be down for a moment: do not spin.
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(_) => {
                    counts.closed_before_answer.fetch_add(1, Ordering::Relaxed);
                }
            }
            at = 1 - at;
        }
        None
    }
}

/// The `_meta` of a modern request, declaring the tasks extension or not.
fn meta(tasks: bool) -> Value {
    let extensions = if tasks { json!({TASKS: {}}) } else { json!({}) };
    json!({"io.modelcontextprotocol/protocolVersion": VERSION,
           "io.modelcontextprotocol/clientCapabilities": {"extensions": extensions}})
}

fn call(id: usize, tool: &str, arguments: Value, tasks: bool) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments, "_meta": meta(tasks)}})
}

/// A caller: quick and 1 s calls, inline, one after another until `stop`.
fn caller(
    number: usize,
    instances: Instances,
    counts: Arc<Counts>,
    stop: Arc<AtomicBool>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut id = 0;
        while !stop.load(Ordering::Relaxed) {
            id += 1;
            let (tool, arguments) = if id % 3 == 0 {
                ("slow_compute", json!({"seconds": 1}))
            } else {
                ("greet", json!({"name": format!("caller {number}")}))
            };
            let message = call(id, tool, arguments, false);
            let Some((reply, _)) = instances.balance(
                number + id,
                &message,
                Some(tool),
                Duration::from_secs(15),
                &counts,
            ) else {
                counts.fail(format!("{tool} #{id}: refused everywhere for a minute"));
                continue;
            };
            let status = reply.status;
            match reply.try_json() {
                Ok(body) if status == 200 && body["result"]["content"][0]["text"].is_string() => {
                    counts.calls.fetch_add(1, Ordering::Relaxed);
                }
                Ok(body) => counts.fail(format!("{tool} #{id}: {status} {body}")),
                Err(why) => counts.fail(format!("{tool} #{id}: {status} {why}")),
            }
        }
    })
}

/// A task creator: a 2 s `slow_compute` task every 250 ms until `stop`.
fn tasker(instances: Instances, counts: Arc<Counts>, stop: Arc<AtomicBool>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut id = 0;
        while !stop.load(Ordering::Relaxed) {
            id += 1;
            let message = call(
                id,
                "slow_compute",
                json!({"seconds": 2, "label": format!("task {id}")}),
                true,
            );
            let Some((reply, _)) = instances.balance(
                id,
                &message,
                Some("slow_compute"),
                Duration::from_secs(15),
                &counts,
            ) else {
                counts.fail(format!("task #{id}: refused everywhere for a minute"));
                continue;
            };
            match reply.try_json() {
                Ok(body) if body["result"]["taskId"].is_string() => {
                    let task = body["result"]["taskId"].as_str().unwrap().to_owned();
                    counts.tasks.lock().unwrap().push(task);
                }
                Ok(body) => counts.fail(format!("task #{id}: {body}")),
                Err(why) => counts.fail(format!("task #{id}: {why}")),
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    })
}

/// A listener: holds a listen stream for tool changes, opening it again
/// (on whichever instance takes it) each time it ends, until `stop`; then
/// waits on its open stream for a change. Whether it heard one.
fn listener(
    number: usize,
    instances: Instances,
    counts: Arc<Counts>,
    stop: Arc<AtomicBool>,
    open: Arc<AtomicUsize>,
) -> JoinHandle<bool> {
    std::thread::spawn(move || {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let id = format!("listen-{number}-{attempt}");
            let message = json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
                "params": {"notifications": {"toolsListChanged": true}, "_meta": meta(false)}});
            let Some((mut stream, _)) = instances.balance(
                number + attempt,
                &message,
                None,
                Duration::from_secs(60),
                &counts,
            ) else {
                counts.fail(format!("{id}: refused everywhere for a minute"));
                return false;
            };
            let acknowledged = stream.event().map(|e| e.json());
            if acknowledged.as_ref().map(|a| &a["method"])
                != Some(&json!("notifications/subscriptions/acknowledged"))
            {
                counts.fail(format!("{id}: not acknowledged: {acknowledged:?}"));
                continue;
            }
            counts.listens_opened.fetch_add(1, Ordering::Relaxed);
            open.fetch_add(1, Ordering::SeqCst);
            let ended = loop {
                match stream.event().map(|e| e.json()) {
                    Some(event) if event["id"] == id => break Some(event),
                    Some(event) if event["method"] == "notifications/tools/list_changed" => {
                        if stop.load(Ordering::SeqCst) {
                            return true;
                        }
                    }
                    Some(_) => {}
                    None => break None,
                }
            };
            open.fetch_sub(1, Ordering::SeqCst);
            match ended {
                Some(result) if result["result"].is_object() => {
                    counts
                        .listens_ended_with_result
                        .fetch_add(1, Ordering::Relaxed);
                }
                Some(error) => counts.fail(format!("{id}: ended with {error}")),
                None => {
                    counts.listens_cut.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    })
}

/// Restarts `process` in place: SIGTERM, a clean exit, a new one on its port.
fn restart(process: &mut ServerProcess, redis: &RedisServer) {
    let port = process.port();
    process.terminate();
    let status = process
        .wait_for_exit(Duration::from_secs(15))
        .expect("a drained instance exits");
    assert!(
        status.success(),
        "instance on {port} exited with {status:?}"
    );
    *process = instance(redis, port);
}

/// Polls `task` through either instance until it is no longer `working`.
fn settle(instances: Instances, task: &str, counts: &Counts) -> Value {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get",
            "params": {"taskId": task, "_meta": meta(true)}});
        let (reply, _) = instances
            .balance(0, &message, Some(task), Duration::from_secs(10), counts)
            .expect("an instance answers");
        let body = reply.try_json().unwrap();
        let status = &body["result"]["status"];
        if status != "working" || Instant::now() > until {
            return body;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn restarting_each_instance_and_a_worker_under_load_fails_no_call() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (port_a, port_b) = (free_port(), free_port());
    let mut a = instance(&redis, port_a);
    let mut b = instance(&redis, port_b);
    let mut first_worker = worker(&redis);
    let mut second_worker = worker(&redis);
    let instances = Instances([port_a, port_b]);
    let counts = Arc::new(Counts::default());
    let stop = Arc::new(AtomicBool::new(false));
    let open = Arc::new(AtomicUsize::new(0));

    let callers: Vec<_> = (0..6)
        .map(|n| caller(n, instances, counts.clone(), stop.clone()))
        .collect();
    let taskers = tasker(instances, counts.clone(), stop.clone());
    let listeners: Vec<_> = (0..4)
        .map(|n| listener(n, instances, counts.clone(), stop.clone(), open.clone()))
        .collect();

    std::thread::sleep(Duration::from_millis(1500));
    restart(&mut a, &redis);
    std::thread::sleep(Duration::from_millis(1000));
    terminate(first_worker.id());
    let status = first_worker.wait().unwrap();
    assert!(status.success(), "the worker exited with {status:?}");
    let mut third_worker = worker(&redis);
    std::thread::sleep(Duration::from_millis(1000));
    restart(&mut b, &redis);
    std::thread::sleep(Duration::from_millis(1500));

    // The load ends; every listener holds an open stream, then hears a change.
    stop.store(true, Ordering::SeqCst);
    for caller in callers {
        caller.join().unwrap();
    }
    taskers.join().unwrap();
    let until = Instant::now() + Duration::from_secs(10);
    while open.load(Ordering::SeqCst) < listeners.len() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let change = call(0, "test_trigger_tool_change", json!({}), false);
    let (reply, _) = instances
        .balance(
            0,
            &change,
            Some("test_trigger_tool_change"),
            Duration::from_secs(10),
            &counts,
        )
        .unwrap();
    assert_eq!(reply.status, 200);
    let heard = listeners
        .into_iter()
        .map(|l| l.join().unwrap())
        .filter(|heard| *heard)
        .count();

    let tasks = counts.tasks.lock().unwrap().clone();
    let mut completed = 0;
    for task in &tasks {
        let settled = settle(instances, task, &counts);
        if settled["result"]["status"] == "completed" {
            completed += 1;
        } else {
            counts.fail(format!("task {task} ended {settled}"));
        }
    }
    // Every job entered the stream once, and once more for each hand-back.
    let handed_back = jobs_added(&redis) - tasks.len();
    for worker in [&mut second_worker, &mut third_worker] {
        terminate(worker.id());
        let status = worker.wait().unwrap();
        assert!(status.success(), "a worker exited with {status:?}");
    }

    let failed = counts.failed.lock().unwrap().clone();
    eprintln!(
        "rolling restart: {} calls answered; {} tasks created, {completed} completed, \
         {handed_back} jobs handed back by a stopping worker; {} listen streams opened, \
         {} ended with their result, {} cut, {heard} of 4 heard the last change; \
         retried elsewhere: {} answered 503, {} connections refused, {} closed before \
         an answer; {} failed",
        counts.calls.load(Ordering::Relaxed),
        tasks.len(),
        counts.listens_opened.load(Ordering::Relaxed),
        counts.listens_ended_with_result.load(Ordering::Relaxed),
        counts.listens_cut.load(Ordering::Relaxed),
        counts.refused_503.load(Ordering::Relaxed),
        counts.refused_connection.load(Ordering::Relaxed),
        counts.closed_before_answer.load(Ordering::Relaxed),
        failed.len(),
    );
    assert!(failed.is_empty(), "failed: {failed:#?}");
    assert_eq!(completed, tasks.len());
    assert!(!tasks.is_empty());
    assert_eq!(
        heard, 4,
        "every listener was opened again and heard the change"
    );
    assert_eq!(counts.listens_cut.load(Ordering::Relaxed), 0);
    assert!(
        counts.listens_ended_with_result.load(Ordering::Relaxed) >= 4,
        "each restart ended the streams it held with their result"
    );
    assert!(
        counts.refused_503.load(Ordering::Relaxed)
            + counts.refused_connection.load(Ordering::Relaxed)
            > 0
    );
}
