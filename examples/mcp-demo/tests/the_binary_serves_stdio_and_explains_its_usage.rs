//! The `mcp-demo` binary: its command line, and a 2025-11-25 session over stdio.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-demo");

fn run(args: &[&str]) -> Output {
    Command::new(BINARY)
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .output()
        .unwrap()
}

#[test]
fn help_explains_both_transports_on_stdout_and_exits_zero() {
    for flag in ["--help", "-h"] {
        let output = run(&[flag]);
        assert_eq!(output.status.code(), Some(0));
        let help = String::from_utf8(output.stdout).unwrap();
        assert!(help.contains("--stdio"), "{help}");
        assert!(help.contains("--http <ADDRESS:PORT>"), "{help}");
        assert!(help.contains("--cors-origin <ORIGIN>"), "{help}");
        assert!(help.contains("/mcp"), "{help}");
    }
}

#[test]
fn no_argument_or_a_bad_one_prints_why_on_stderr_and_exits_two() {
    for args in [
        &[][..],
        &["--verbose"],
        &["--http"],
        &["--http", "localhost"],
        &["--stdio", "--http", "127.0.0.1:1"],
        &["--stdio", "--cors-origin", "https://app.example.com"],
        &["--http", "127.0.0.1:1", "--cors-origin"],
        &["--http", "127.0.0.1:1", "--cors-origin", "app.example.com"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains("try '--help'"), "{args:?}: {stderr}");
    }
}

/// A running `mcp-demo --stdio`, spoken to one line at a time.
struct StdioServer {
    child: Child,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
    next_id: i64,
}

impl StdioServer {
    fn start() -> Self {
        let mut child = Command::new(BINARY)
            .arg("--stdio")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take();
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
        let input = self.input.as_mut().unwrap();
        writeln!(input, "{message}").unwrap();
        input.flush().unwrap();
    }

    /// Sends a request; returns the notifications that came before its
    /// response, and the response.
    fn request(&mut self, method: &str, params: Value) -> (Vec<Value>, Value) {
        let id = self.next_id;
        self.next_id += 1;
        self.write_line(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut notifications = Vec::new();
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "stdout ended"
            );
            let message: Value = serde_json::from_str(&line).expect("stdout carries only JSON-RPC");
            if message["id"] == json!(id) {
                return (notifications, message);
            }
            notifications.push(message);
        }
    }

    /// Ends input and waits for a clean exit.
    fn finish(mut self) {
        drop(self.input.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            if Instant::now() > deadline {
                self.child.kill().unwrap();
                panic!("mcp-demo did not exit at end of input");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn a_stdio_session_initializes_lists_subscribes_and_streams_logs_before_the_result() {
    let mut server = StdioServer::start();
    let (_, initialized) = server.request(
        "initialize",
        json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"sampling": {}, "elicitation": {}},
            "clientInfo": {"name": "test", "version": "1"}
        }),
    );
    assert_eq!(initialized["result"]["serverInfo"]["name"], "mcp-demo");
    assert_eq!(initialized["result"]["protocolVersion"], "2025-11-25");
    server.write_line(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    assert_eq!(server.request("ping", json!({})).1["result"], json!({}));
    let (_, tools) = server.request("tools/list", json!({}));
    assert_eq!(tools["result"]["tools"].as_array().unwrap().len(), 41);
    for method in ["resources/subscribe", "resources/unsubscribe"] {
        let (_, answer) = server.request(method, json!({"uri": "test://watched-resource"}));
        assert!(answer.get("error").is_none(), "{method}: {answer}");
    }
    let (_, set) = server.request("logging/setLevel", json!({"level": "debug"}));
    assert_eq!(set["result"], json!({}));
    let (logs, called) = server.request(
        "tools/call",
        json!({"name": "test_tool_with_logging", "arguments": {}}),
    );
    assert_eq!(
        called["result"]["content"][0]["text"],
        "Tool with logging executed successfully"
    );
    let messages = logs
        .iter()
        .filter(|n| n["method"] == "notifications/message")
        .count();
    assert!(messages >= 3, "{logs:?}");
    server.finish();
}
