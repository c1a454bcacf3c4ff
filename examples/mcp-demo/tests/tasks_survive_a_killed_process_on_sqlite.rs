//! Tasks across the process boundary: durability of the SQLite task store
//! (a server process with tasks in flight is killed with SIGKILL, and a new
//! process on the same file answers `tasks/get` for every task with its last
//! recorded state), and the status notifications a 2025-11-25 session hears
//! on its stdio connection.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-demo");

/// `mcp-demo --stdio` on a SQLite task store, spoken to with 2026-07-28 requests.
struct Server {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next_id: i64,
}

impl Server {
    fn start(store: &Path) -> Self {
        let mut child = Command::new(BINARY)
            .arg("--stdio")
            .env("MCP_TASKS__STORE", "sqlite")
            .env("MCP_TASKS__SQLITE_PATH", store)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            input,
            output,
            next_id: 0,
        }
    }

    /// Writes `message` as one line of its input.
    fn write_line(&mut self, message: &Value) {
        writeln!(self.input, "{message}").unwrap();
        self.input.flush().unwrap();
    }

    fn read(&mut self) -> Value {
        let mut line = String::new();
        assert!(
            self.output.read_line(&mut line).unwrap() > 0,
            "stdout ended"
        );
        serde_json::from_str(&line).unwrap()
    }

    fn request(&mut self, method: &str, mut params: Value) -> Value {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}
        });
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.input, "{request}").unwrap();
        self.input.flush().unwrap();
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "stdout ended"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    fn task(&mut self, id: &str) -> Value {
        self.request("tasks/get", json!({"taskId": id}))["result"].clone()
    }
}

#[test]
fn tasks_on_sqlite_survive_a_sigkill_with_their_last_recorded_state() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("tasks.db");
    let mut first = Server::start(&store);
    let mut running = Vec::new();
    let mut finished = Vec::new();
    for n in 0..5 {
        let slow = first.request("tools/call", json!({"name": "slow_compute", "arguments": {"seconds": 600, "label": format!("slow-{n}")}}));
        running.push(
            slow["result"]["taskId"]
                .as_str()
                .expect("a task")
                .to_owned(),
        );
        let quick = first.request("tools/call", json!({"name": "slow_compute", "arguments": {"seconds": 0, "label": format!("quick-{n}")}}));
        finished.push(
            quick["result"]["taskId"]
                .as_str()
                .expect("a task")
                .to_owned(),
        );
    }
    let cancelled = running.pop().unwrap();
    first.request("tasks/cancel", json!({"taskId": cancelled}));
    let deadline = Instant::now() + Duration::from_secs(30);
    for id in finished.iter().chain([&cancelled]) {
        while first.task(id)["status"] == "working" {
            assert!(Instant::now() < deadline, "task {id} did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    // SIGKILL: no shutdown code runs.
    first.child.kill().unwrap();
    first.child.wait().unwrap();

    let mut second = Server::start(&store);
    for id in &running {
        assert_eq!(
            second.task(id)["status"],
            "working",
            "{id} was working when the process died"
        );
    }
    for (n, id) in finished.iter().enumerate() {
        let task = second.task(id);
        assert_eq!(task["status"], "completed", "{id}");
        assert_eq!(
            task["result"]["content"][0]["text"],
            format!("Computed `quick-{n}` in 0 s")
        );
    }
    assert_eq!(second.task(&cancelled)["status"], "cancelled");
    second.child.kill().unwrap();
    second.child.wait().unwrap();
}

#[test]
fn a_legacy_session_hears_the_status_of_the_tasks_it_created() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(&dir.path().join("tasks.db"));
    server.write_line(&json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}
    }}));
    assert_eq!(
        server.read()["result"]["capabilities"]["tasks"]["requests"]["tools"]["call"],
        json!({})
    );
    server.write_line(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    server.write_line(&json!({"jsonrpc": "2.0", "id": "call", "method": "tools/call", "params": {
        "name": "slow_compute", "arguments": {"seconds": 0, "label": "told"}, "task": {"ttl": 60000}
    }}));
    // The answer and the notification may come in either order.
    let (mut created, mut told) = (None, None);
    let deadline = Instant::now() + Duration::from_secs(30);
    while created.is_none() || told.is_none() {
        assert!(
            Instant::now() < deadline,
            "no answer or no completed status notification"
        );
        let message = server.read();
        if message["id"] == "call" {
            created = message["result"]["task"]["taskId"]
                .as_str()
                .map(str::to_owned);
        } else if message["method"] == "notifications/tasks/status"
            && message["params"]["status"] == "completed"
        {
            told = message["params"]["taskId"].as_str().map(str::to_owned);
        }
    }
    assert_eq!(
        told, created,
        "the notification names the task the call created"
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}
