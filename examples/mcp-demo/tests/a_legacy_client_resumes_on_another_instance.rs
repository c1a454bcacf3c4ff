//! Two `mcp-demo --http` processes on one real Redis serve a 2025-11-25
//! client as one server: its session, opened on A, with the log level it
//! set there, goes on on B; and after A is killed with SIGKILL, the
//! response stream it broke on A resumes on B with exactly what it
//! missed. Spoken to in plain HTTP/1.1 over TCP.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_tests::redis::RedisServer;
use mcp_tests::sse::{Event, next_event};
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-demo");
const LEGACY: &str = "2025-11-25";

/// `mcp-demo --http` on the shared Redis; killed with SIGKILL when dropped.
struct Instance {
    child: Child,
    port: u16,
}

impl Instance {
    fn start(redis: &RedisServer) -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap();
        let child = Command::new(BINARY)
            .args(["--http", &format!("127.0.0.1:{port}")])
            .env("MCP_REDIS__URL", redis.url())
            .env_remove("MCP_TASKS__STORE")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "mcp-demo did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Self { child, port }
    }

    /// Kills it with SIGKILL: nothing it has not written yet gets written.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends one request; its status, headers and body reader.
    fn send(&self, method: &str, headers: &[(&str, &str)], body: Option<&Value>) -> Reply {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut head = format!(
            "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\
             Content-Length: {}\r\n",
            self.port,
            body.len()
        );
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        let status = status.split(' ').nth(1).unwrap().parse().unwrap();
        let mut headers = HashMap::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').unwrap();
            headers.insert(name.to_ascii_lowercase(), value.trim().to_owned());
        }
        let chunked = headers
            .get("transfer-encoding")
            .is_some_and(|t| t.eq_ignore_ascii_case("chunked"));
        Reply {
            status,
            headers,
            body: BufReader::new(Body {
                reader,
                chunked,
                left: 0,
                done: false,
            }),
            buffer: String::new(),
        }
    }

    /// POSTs `message` in `session`.
    fn post(&self, session: Option<&str>, message: &Value) -> Reply {
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        if let Some(session) = session {
            headers.push(("Mcp-Session-Id", session));
            headers.push(("Mcp-Protocol-Version", LEGACY));
        }
        self.send("POST", &headers, Some(message))
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A response: its status, headers and body.
struct Reply {
    status: u16,
    headers: HashMap<String, String>,
    body: BufReader<Body>,
    /// What was read off the body and not taken as an event yet.
    buffer: String,
}

impl Reply {
    fn json(mut self) -> Value {
        let mut text = String::new();
        self.body.read_to_string(&mut text).unwrap();
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("JSON: {text}"))
    }

    /// The next SSE event with fields; `None` at the end.
    fn event(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = next_event(&mut self.buffer) {
                return Some(event);
            }
            let mut chunk = [0u8; 4096];
            let n = self.body.read(&mut chunk).ok()?;
            if n == 0 {
                return None;
            }
            self.buffer
                .push_str(std::str::from_utf8(&chunk[..n]).unwrap());
        }
    }

    /// Every event until the stream ends.
    fn events(mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while let Some(event) = self.event() {
            events.push(event);
        }
        events
    }
}

/// A response body: chunked, or until the connection closes.
struct Body {
    reader: BufReader<TcpStream>,
    chunked: bool,
    left: usize,
    done: bool,
}

impl Read for Body {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.chunked {
            return self.reader.read(buf);
        }
        if self.done {
            return Ok(0);
        }
        if self.left == 0 {
            let mut size = String::new();
            self.reader.read_line(&mut size)?;
            self.left = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if self.left == 0 {
                self.done = true;
                return Ok(0);
            }
        }
        let wanted = buf.len().min(self.left);
        let n = self.reader.read(&mut buf[..wanted])?;
        self.left -= n;
        if self.left == 0 {
            let mut end = String::new();
            self.reader.read_line(&mut end)?;
        }
        Ok(n)
    }
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[test]
fn a_legacy_client_keeps_its_session_on_b_and_resumes_there_after_a_is_killed() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (mut a, b) = (Instance::start(&redis), Instance::start(&redis));

    let initialize = request(
        0,
        "initialize",
        json!({"protocolVersion": LEGACY, "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}),
    );
    let opened = a.post(None, &initialize);
    assert_eq!(opened.status, 200);
    let session = opened.headers["mcp-session-id"].clone();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(a.post(Some(&session), &initialized).status, 202);
    let set = request(1, "logging/setLevel", json!({"level": "warning"}));
    let set = a.post(Some(&session), &set);
    assert_eq!(set.status, 200);
    assert!(set.json()["result"].is_object());

    // B knows the session, and the level A set: only the warning goes out.
    let logging = request(2, "tools/call", json!({"name": "test_logging_tool"}));
    let on_b = b.post(Some(&session), &logging);
    assert_eq!(on_b.status, 200);
    let logged: Vec<Value> = if on_b.headers["content-type"].starts_with("text/event-stream") {
        on_b.events()
            .into_iter()
            .filter(|event| !event.data.is_empty())
            .map(|event| event.json())
            .collect()
    } else {
        vec![on_b.json()]
    };
    let levels: Vec<_> = logged
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .map(|m| m["params"]["level"].clone())
        .collect();
    assert_eq!(levels, [json!("warning")], "{logged:?}");
    assert_eq!(logged.last().unwrap()["id"], 2);

    // A stream on A breaks after its first progress; A finishes, then dies.
    let progress = request(
        3,
        "tools/call",
        json!({"name": "test_tool_with_progress", "_meta": {"progressToken": "p"}}),
    );
    let mut stream = a.post(Some(&session), &progress);
    assert_eq!(stream.status, 200);
    let priming = stream.event().unwrap().id;
    let first = stream.event().unwrap();
    assert_eq!(first.json()["method"], "notifications/progress");
    let first = first.id;
    drop(stream);
    std::thread::sleep(Duration::from_millis(600));
    a.kill();

    let resume = |last: &str| {
        let reply = b.send(
            "GET",
            &[
                ("Accept", "text/event-stream"),
                ("Mcp-Session-Id", &session),
                ("Mcp-Protocol-Version", LEGACY),
                ("Last-Event-ID", last),
            ],
            None,
        );
        assert_eq!(reply.status, 200);
        reply.events()
    };
    let missed = resume(first.as_deref().unwrap());
    let messages: Vec<Value> = missed.iter().map(Event::json).collect();
    assert_eq!(
        messages.len(),
        3,
        "two progress reports, then the result: {messages:?}"
    );
    assert_eq!(messages[0]["params"]["progress"], 50.0);
    assert_eq!(messages[1]["params"]["progress"], 100.0);
    assert_eq!(messages[2]["id"], 3);
    assert_eq!(messages[2]["result"]["content"][0]["text"], "p");

    // From the priming event: the first progress too, under its own id.
    let all = resume(priming.as_deref().unwrap());
    assert_eq!(all.len(), 4, "{all:?}");
    assert_eq!(all[0].id, first);
}
