//! The example, run as a user runs it, answers its tool over HTTP.

use std::process::{Command, Stdio};

use mcp_tests::http::{free_port, spawn_listening};
use serde_json::json;

#[test]
fn hello_answers_a_2026_07_28_call() {
    let port = free_port();
    let server = spawn_listening(
        Command::new(env!("CARGO_BIN_EXE_hello-http"))
            .arg(format!("127.0.0.1:{port}"))
            .stderr(Stdio::null()),
        port,
    );
    let call = json!({"name": "hello", "arguments": {"name": "Ada"}});
    let answer = server.request("tools/call", Some("hello"), call);
    assert_eq!(
        answer["result"]["content"][0]["text"], "Hello, Ada!",
        "{answer}"
    );
}
