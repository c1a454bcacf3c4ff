//! `subscriptions/listen` over stdio: the stream's notifications interleave
//! with other responses on the one pipe, and `notifications/cancelled`
//! ends it without a response.

mod support;

use std::time::Duration;

use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::sink::Change;
use mcp_server::transport::stdio;
use serde_json::{Value, json};
use support::http::server_with;
use support::tool;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

#[tokio::test]
async fn listen_notifications_interleave_and_cancelled_ends_the_stream() {
    let server = server_with(|c| {
        c.tool(
            tool("touch"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                ctx.changes().publish(Change::tools_list_changed());
                Ok(CallToolResult::text("touched"))
            }),
        );
    });
    let (client, transport) = tokio::io::duplex(64 * 1024);
    let (transport_in, transport_out) = tokio::io::split(transport);
    let serving = tokio::spawn(stdio::serve(server.clone(), transport_in, transport_out));
    let (output, mut input) = tokio::io::split(client);
    let mut lines = BufReader::new(output).lines();
    let mut send = async |message: Value| {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        input.write_all(&line).await.unwrap();
    };
    let mut receive = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        serde_json::from_str(&line).unwrap()
    };

    send(
        json!({"jsonrpc": "2.0", "id": "l1", "method": "subscriptions/listen",
        "params": {"_meta": meta(), "notifications": {"toolsListChanged": true}}}),
    )
    .await;
    let ack = receive().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "l1"
    );

    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"_meta": meta(), "name": "touch"}}))
    .await;
    let mut seen = [receive().await, receive().await];
    seen.sort_by_key(|m| m.get("id").is_some());
    assert_eq!(seen[0]["method"], "notifications/tools/list_changed");
    assert_eq!(
        seen[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "l1"
    );
    assert_eq!(seen[1]["id"], 2);

    send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": "l1", "reason": "done listening"}}),
    )
    .await;
    for _ in 0..100 {
        if server.listeners() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.listeners(), 0);
    // The next line is the next request's answer: the cancelled stream answers nothing.
    send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"_meta": meta(), "name": "touch"}}))
    .await;
    let answer = receive().await;
    assert_eq!(answer["id"], 3, "{answer}");
    serving.abort();
}

#[tokio::test]
async fn a_stdio_listener_whose_client_does_not_read_is_let_go() {
    let server = support::http::server_with(|c| support::add_named_tool(c, "a"));
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
