//! The binary answers a 2026-07-28 `tools/call` on stdio, then ends with
//! its input.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

#[test]
fn a_tool_call_on_stdin_is_answered_on_stdout() {
    let mut server = Command::new(env!("CARGO_BIN_EXE_stdio-server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let call = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {
            "name": "greet", "arguments": {"name": "Ada"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    });
    let mut input = server.stdin.take().expect("stdin is piped");
    writeln!(input, "{call}").expect("the request is written");
    // The answer comes before end of input is read: wait for it first.
    let mut output = std::io::BufReader::new(server.stdout.take().expect("stdout is piped"));
    let mut line = String::new();
    std::io::BufRead::read_line(&mut output, &mut line).expect("a line is answered");
    drop(input);
    let answer: Value = serde_json::from_str(&line).expect("the answer is JSON");
    assert_eq!(answer["id"], 1, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"], "Hello, Ada!",
        "{answer}"
    );
    assert!(server.wait().expect("the server exits").success());
}
