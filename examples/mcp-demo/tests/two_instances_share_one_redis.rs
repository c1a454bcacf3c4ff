//! Two `mcp-demo` processes on one real Redis answer as one server: a task
//! created through A is polled, and cancelled, through B; a request state
//! issued by A is accepted once by B; a listen stream held on B hears a
//! change published through A. With `redis.queue` on, `mcp-demo --worker`
//! processes run the tasks: one answered through B while a worker runs
//! it, and one whose first worker was killed with SIGKILL, taken over by a
//! second. Each instance is its own process, spoken to over stdio with
//! 2026-07-28 requests.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mcp_tests::redis::RedisServer;
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-demo");
const KEY: &str = "0123456789abcdef0123456789abcdef-shared-by-both";

/// One instance: `mcp-demo --stdio` on the shared Redis.
struct Instance {
    child: Child,
    input: ChildStdin,
    /// Every line it prints, read on a thread so a test can wait with a limit.
    lines: mpsc::Receiver<Value>,
    next_id: i64,
}

/// The settings of instances and workers that queue their tasks.
const QUEUED: &[(&str, &str)] = &[
    ("MCP_REDIS__QUEUE", "true"),
    ("MCP_REDIS__CLAIM_AFTER_MS", "1500"),
];

/// `mcp-demo --worker` on the shared Redis; killed with SIGKILL when dropped.
struct Worker(Child);

impl Worker {
    fn start(redis: &RedisServer) -> Self {
        let child = Command::new(BINARY)
            .arg("--worker")
            .env("MCP_REDIS__URL", redis.url())
            .envs(QUEUED.iter().copied())
            .env_remove("MCP_TASKS__STORE")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        Self(child)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // `Child::kill` sends SIGKILL: the worker gets no chance to tidy up.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The jobs the workers' group holds, taken but not acknowledged.
fn pending_jobs(redis: &RedisServer) -> usize {
    let mut connection = redis::Client::open(redis.url())
        .unwrap()
        .get_connection()
        .unwrap();
    let reply: redis::RedisResult<redis::streams::StreamPendingReply> = redis::cmd("XPENDING")
        .arg("mcp:jobs")
        .arg("workers")
        .query(&mut connection);
    reply.map_or(0, |reply| reply.count())
}

impl Instance {
    fn start(redis: &RedisServer) -> Self {
        Self::start_with(redis, &[])
    }

    fn start_with(redis: &RedisServer, settings: &[(&str, &str)]) -> Self {
        let mut child = Command::new(BINARY)
            .arg("--stdio")
            .env("MCP_REDIS__URL", redis.url())
            .envs(settings.iter().copied())
            .env("MCP_REQUEST_STATE_KEY", KEY)
            .env_remove("MCP_TASKS__STORE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in output.lines() {
                let Ok(line) = line else { return };
                let Ok(message) = serde_json::from_str(&line) else {
                    continue;
                };
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Self {
            child,
            input,
            lines,
            next_id: 0,
        }
    }

    /// Writes a request of `method` with `params` (given the modern `_meta`)
    /// as one line of its input, without waiting for the answer; its id.
    fn write_request(&mut self, method: &str, mut params: Value) -> i64 {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {
                "elicitation": {},
                "extensions": {"io.modelcontextprotocol/tasks": {}}
            }
        });
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.input, "{request}").unwrap();
        self.input.flush().unwrap();
        id
    }

    /// The next message, within 10 s.
    fn next(&self) -> Value {
        self.lines
            .recv_timeout(Duration::from_secs(10))
            .expect("a message within 10 s")
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.write_request(method, params);
        loop {
            let message = self.next();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    fn task(&mut self, id: &str) -> Value {
        self.request("tasks/get", json!({"taskId": id}))["result"].clone()
    }

    /// Creates a task calling `tool`.
    fn create(&mut self, tool: &str, arguments: Value) -> String {
        let handle = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        handle["result"]["taskId"]
            .as_str()
            .unwrap_or_else(|| panic!("a task: {handle}"))
            .to_owned()
    }

    /// Polls task `id` until its status is `status`, within `limit`.
    fn wait_for(&mut self, id: &str, status: &str, limit: Duration) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let task = self.task(id);
            if task["status"] == status {
                return task;
            }
            assert!(
                Instant::now() < deadline,
                "task {id} is not {status}: {task}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_task_created_through_one_instance_is_polled_and_cancelled_through_the_other() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (mut a, mut b) = (Instance::start(&redis), Instance::start(&redis));
    let quick = a.request(
        "tools/call",
        json!({"name": "slow_compute", "arguments": {"seconds": 0, "label": "quick"}}),
    );
    let quick = quick["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_owned();
    let deadline = Instant::now() + Duration::from_secs(30);
    while b.task(&quick)["status"] == "working" {
        assert!(Instant::now() < deadline, "the quick task did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
    let done = b.task(&quick);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Computed `quick` in 0 s"
    );

    let slow = a.request(
        "tools/call",
        json!({"name": "slow_compute", "arguments": {"seconds": 600, "label": "slow"}}),
    );
    let slow = slow["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_owned();
    assert_eq!(b.task(&slow)["status"], "working");
    let cancelled = b.request("tasks/cancel", json!({"taskId": slow}));
    assert!(cancelled.get("error").is_none(), "{cancelled}");
    assert_eq!(a.task(&slow)["status"], "cancelled");
    assert_eq!(b.task(&slow)["status"], "cancelled");
}

#[test]
fn a_request_state_issued_by_one_instance_is_accepted_once_by_the_other() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (mut a, mut b) = (Instance::start(&redis), Instance::start(&redis));
    let call = json!({"name": "test_input_required_result_elicitation", "arguments": {}});
    let first = a.request("tools/call", call.clone())["result"].clone();
    assert_eq!(first["resultType"], "input_required", "{first}");
    let mut retry = call.clone();
    retry["inputResponses"] =
        json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}});
    retry["requestState"] = first["requestState"].clone();
    let on_b = b.request("tools/call", retry.clone());
    assert_eq!(
        on_b["result"]["content"][0]["text"], "Hello, Ada!",
        "{on_b}"
    );
    let replayed_on_a = a.request("tools/call", retry);
    assert_eq!(
        replayed_on_a["error"]["data"]["reason"], "used",
        "{replayed_on_a}"
    );
}

#[test]
fn a_listen_stream_on_one_instance_hears_a_change_published_through_the_other() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (mut a, mut b) = (Instance::start(&redis), Instance::start(&redis));
    b.write_request(
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let ack = b.next();
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    let triggered = a.request(
        "tools/call",
        json!({"name": "test_trigger_tool_change", "arguments": {}}),
    );
    assert!(triggered.get("error").is_none(), "{triggered}");
    let heard = b.next();
    assert_eq!(
        heard["method"], "notifications/tools/list_changed",
        "{heard}"
    );
}

#[test]
fn a_worker_process_runs_a_task_created_through_a_and_answered_through_b() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let mut a = Instance::start_with(&redis, QUEUED);
    let mut b = Instance::start_with(&redis, QUEUED);
    let quick = a.create("slow_compute", json!({"seconds": 0, "label": "queued"}));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        b.task(&quick)["status"],
        "working",
        "queued until a worker runs it"
    );
    let _worker = Worker::start(&redis);
    let done = b.wait_for(&quick, "completed", Duration::from_secs(30));
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Computed `queued` in 0 s"
    );

    // The worker's handler asks; the answer comes through B, from the store.
    let asking = a.create("confirm_delete", json!({"filename": "notes.txt"}));
    let waiting = b.wait_for(&asking, "input_required", Duration::from_secs(30));
    assert!(waiting["inputRequests"]["confirm"].is_object(), "{waiting}");
    let updated = b.request(
        "tasks/update",
        json!({"taskId": asking, "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": true}}}}),
    );
    assert!(updated.get("error").is_none(), "{updated}");
    let done = a.wait_for(&asking, "completed", Duration::from_secs(30));
    assert_eq!(done["result"]["content"][0]["text"], "Deleted notes.txt");
}

#[test]
fn a_job_whose_worker_was_killed_is_taken_over_by_a_second_worker() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let mut a = Instance::start_with(&redis, QUEUED);
    let first = Worker::start(&redis);
    let id = a.create("slow_compute", json!({"seconds": 3, "label": "survivor"}));
    let deadline = Instant::now() + Duration::from_secs(30);
    while pending_jobs(&redis) == 0 {
        assert!(
            Instant::now() < deadline,
            "the first worker never took the job"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(first);
    assert_eq!(a.task(&id)["status"], "working");
    let _second = Worker::start(&redis);
    let done = a.wait_for(&id, "completed", Duration::from_secs(60));
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Computed `survivor` in 3 s"
    );
    assert_eq!(pending_jobs(&redis), 0, "the second worker acknowledged it");
}
