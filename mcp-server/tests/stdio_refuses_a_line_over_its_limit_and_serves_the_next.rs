//! stdio: a line longer than `stdio::MAX_LINE` is refused without being
//! kept, and the line after it is served. (What stdio holds in common with
//! every line transport is in `stdio_holds_the_conversations`.)

mod support;

use std::time::Duration;

use mcp_server::transport::stdio;
use mcp_tests::conversation::{LineTransport, Stdio};
use serde_json::{Value, json};
use support::with_tools;
use tokio::io::AsyncWriteExt;

#[tokio::test]
async fn a_line_over_the_limit_is_refused_and_the_next_one_served() {
    let mut client = Stdio.connect(with_tools(&["echo"]).build()).await;
    let mut huge = vec![b' '; stdio::MAX_LINE + 10];
    huge.push(b'\n');
    // Written while the server reads, as a pipe would carry it.
    let (written, answer) = tokio::join!(
        client.input.write_all(&huge),
        tokio::time::timeout(Duration::from_secs(10), client.output.next_line())
    );
    written.unwrap();
    let answer: Value = serde_json::from_str(&answer.unwrap().unwrap().unwrap()).unwrap();
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("too large")
    );
    let modern = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}}});
    client.send(modern).await;
    assert_eq!(client.receive().await["id"], 2);
}
