//! A server binary of a test's own spoken to over stdio: the messages
//! written to its stdin, its answers read off its stdout once input ends.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs `command`, writes each of `messages` on its own line, closes its
/// input and returns every response it wrote, in the order written. A
/// server that answers everything it read before input ended (as the
/// framework's stdio transport does) has answered them all.
///
/// # Panics
///
/// When the program cannot run, or writes a line that is not JSON.
pub fn over_stdio(command: &mut Command, messages: &[Value]) -> Vec<Value> {
    let program = command.get_program().to_string_lossy().into_owned();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} does not start: {e}"));
    {
        let mut stdin = child.stdin.take().expect("piped stdin");
        for message in messages {
            writeln!(stdin, "{message}").expect("the server reads its input");
        }
    }
    let output = child.wait_with_output().expect("the server ends");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?}: {e}")))
        .filter(|message: &Value| message.get("id").is_some())
        .collect()
}

/// The messages that open a 2025-11-25 session over stdio, then `requests`
/// (each a `(method, params)`), numbered from 2.
pub fn session(requests: &[(&str, Value)]) -> Vec<Value> {
    let mut messages = vec![
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "mcp-tests", "version": "1.0.0"}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (n, (method, params)) in requests.iter().enumerate() {
        messages.push(
            serde_json::json!({"jsonrpc": "2.0", "id": n + 2, "method": method, "params": params}),
        );
    }
    messages
}
