//! A pipe closed right after its requests (`echo '{…}' | server`) gets an
//! answer to every request it sent, every time; a drain that begins while
//! requests run reads nothing more and answers what it read; a question to
//! the client, which can no longer answer, is cancelled and its handler
//! still answers.

mod support;

use std::time::Duration;

use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use serde_json::{Value, json};
use support::{server_with, tool};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn server() -> mcp_server::Server {
    server_with(|c| {
        c.tool(
            tool("slow"),
            handler_fn::<CallTool, _, _, _>(|_, _| async {
                tokio::time::sleep(Duration::from_millis(30)).await;
                Ok(CallToolResult::text("slow done"))
            }),
        );
        c.tool(
            tool("asks"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                match ctx.list_roots().await {
                    Ok(_) => Ok(CallToolResult::text("roots")),
                    Err(error) => Ok(CallToolResult::text(format!("no roots: {error}"))),
                }
            }),
        );
    })
}

fn call(id: u64, name: &str) -> String {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {"roots": {}}});
    format!(
        "{}\n",
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": name, "arguments": {}, "_meta": meta}})
    )
}

/// Writes `input` and closes it at once; every line the server wrote.
async fn pipe(server: mcp_server::Server, input: String) -> Vec<Value> {
    let (mut to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, mut from_server) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(mcp_server::transport::stdio::serve(
        server, server_in, server_out,
    ));
    to_server.write_all(input.as_bytes()).await.unwrap();
    drop(to_server);
    let mut out = String::new();
    from_server.read_to_string(&mut out).await.unwrap();
    serving.await.unwrap().unwrap();
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_pipes_closed_after_their_requests_get_every_answer() {
    let server = server();
    for round in 0..100 {
        let input = (1..=3).map(|id| call(id, "slow")).collect::<String>();
        let answers = pipe(server.clone(), input).await;
        let mut ids: Vec<u64> = answers.iter().map(|a| a["id"].as_u64().unwrap()).collect();
        ids.sort_unstable();
        assert_eq!(ids, [1, 2, 3], "round {round}: {answers:?}");
        assert!(
            answers
                .iter()
                .all(|a| a["result"]["content"][0]["text"] == "slow done"),
            "round {round}: {answers:?}"
        );
    }
}

#[tokio::test]
async fn a_question_to_a_client_that_left_is_cancelled_and_its_request_still_answered() {
    // A 2025-11-25 session, whose server asks its client questions as
    // requests of its own: the client declares roots, calls, and leaves
    // before it could answer (whether or not the question went out).
    let input = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {"roots": {}},
            "clientInfo": {"name": "pipe", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
               "params": {"name": "asks", "arguments": {}}}),
    ]
    .iter()
    .map(|line| format!("{line}\n"))
    .collect();
    let answers = pipe(server(), input).await;
    let answer = answers
        .iter()
        .find(|a| a["id"] == 7 && a.get("method").is_none());
    let answer = answer.unwrap_or_else(|| panic!("no answer: {answers:?}"));
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        text.starts_with("no roots") && text.contains("cancelled"),
        "{answer}"
    );
}

#[tokio::test]
async fn a_drain_reads_nothing_more_and_answers_what_it_read() {
    let server = server();
    let shutdown = server.shutdown().clone();
    let (mut to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, mut from_server) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(mcp_server::transport::stdio::serve(
        server, server_in, server_out,
    ));
    to_server
        .write_all(call(1, "slow").as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    shutdown.begin();
    // Input stays open: the drain alone ends the transport.
    let mut out = String::new();
    from_server.read_to_string(&mut out).await.unwrap();
    serving.await.unwrap().unwrap();
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!(answers[0]["result"]["content"][0]["text"], "slow done");
    drop(to_server);
}
