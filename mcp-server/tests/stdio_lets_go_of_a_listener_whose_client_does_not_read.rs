//! `subscriptions/listen` over stdio: a listener whose client stops reading
//! is let go instead of the server's memory growing. (How listen streams
//! interleave with responses is in `stdio_holds_the_conversations`.)

mod support;

use std::time::Duration;

use mcp_server::seam::sink::Change;
use mcp_server::transport::stdio;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

#[tokio::test]
async fn a_stdio_listener_whose_client_does_not_read_is_let_go() {
    let server = support::server_with(|c| support::add_named_tool(c, "a"));
    // A small pipe: the writer blocks once the client stops reading.
    let (client, transport) = tokio::io::duplex(4 * 1024);
    let (transport_in, transport_out) = tokio::io::split(transport);
    let serving = tokio::spawn(stdio::serve(server.clone(), transport_in, transport_out));
    let (_unread, mut input) = tokio::io::split(client);
    let mut line = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": "l1",
        "method": "subscriptions/listen",
        "params": {"_meta": meta(), "notifications": {"toolsListChanged": true}}}))
    .unwrap();
    line.push(b'\n');
    input.write_all(&line).await.unwrap();
    for _ in 0..100 {
        if server.listeners() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.listeners(), 1);
    for _ in 0..2_000 {
        server.changes().publish(Change::tools_list_changed());
        tokio::task::yield_now().await;
    }
    for _ in 0..200 {
        if server.listeners() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.listeners(), 0, "the slow listener was closed");
    serving.abort();
}
