//! A client that stops reading while the server keeps sending cannot make
//! the server's memory grow: an SSE stream past its backlog is closed, a
//! stdio client past its backlog is disconnected, and a stdio client over
//! its concurrency limit is refused at once.
//!
//! Each test floods 128 MiB of notifications at a client that reads none
//! of them, and checks that the process grew by far less than that.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::body::to_bytes;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::Contributions;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_server::transport::stdio::{StdioConfig, serve_with};
use mcp_tests::http::{call_body, headers, post_bytes, send};
use serde_json::json;
use support::{server_with, tool};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// One flood message: 64 KiB of text.
const MESSAGE: usize = 64 << 10;
/// Messages per flood: 128 MiB in all.
const MESSAGES: usize = 2048;
/// The most the process may grow while a bounded flood runs.
const FLAT: usize = 48 << 20;

/// The floods run one at a time, so each measures only itself.
static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

/// Set when a flood has sent its last message.
static FLOODED: AtomicBool = AtomicBool::new(false);

/// Waits until the running flood has sent everything.
async fn flooded() {
    for _ in 0..600 {
        if FLOODED.swap(false, Ordering::AcqRel) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the flood did not end within a minute");
}

/// The process's resident memory, in bytes.
fn resident() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// Adds `flood`, which reports 128 MiB of progress, and `wait`, which
/// sleeps for a second.
fn tools(c: &mut Contributions) {
    c.tool(
        tool("flood"),
        handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
            let text = "x".repeat(MESSAGE);
            for i in 0..MESSAGES {
                ctx.progress().report(i as f64, None, Some(&text));
                if i % 64 == 0 {
                    tokio::task::yield_now().await;
                }
            }
            FLOODED.store(true, Ordering::Release);
            Ok(CallToolResult::text("flooded"))
        }),
    );
    c.tool(
        tool("wait"),
        handler_fn::<CallTool, _, _, _>(|_, _| async move {
            tokio::time::sleep(Duration::from_secs(1)).await;
            Ok(CallToolResult::text("waited"))
        }),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_sse_stream_whose_client_stops_reading_is_closed_and_memory_stays_flat() {
    let _one = ONE_AT_A_TIME.lock().await;
    FLOODED.store(false, Ordering::Release);
    let config = HttpConfig::default().max_stream_backlog_bytes(1 << 20);
    let app = router(server_with(tools), "/mcp", config);
    let before = resident();
    let mut body = call_body(1, "flood");
    body["params"]["_meta"]["progressToken"] = json!("p");
    let request = post_bytes(
        &headers("tools/call", Some("flood")),
        serde_json::to_vec(&body).unwrap(),
    );
    // The stream starts with the first notification; nobody reads it
    // while the tool floods it.
    let response = send(&app, request).await;
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    flooded().await;
    let grown = resident().saturating_sub(before);
    assert!(
        grown < FLAT,
        "the server grew by {} MiB for a client that read nothing",
        grown >> 20
    );
    // The client reading now finds the stream closed with an error.
    let read = tokio::time::timeout(
        Duration::from_secs(30),
        to_bytes(response.into_body(), usize::MAX),
    )
    .await
    .expect("the closed stream ends");
    assert!(read.is_err(), "an overflowed stream ends with an error");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stdio_client_that_stops_reading_is_disconnected_and_memory_stays_flat() {
    let _one = ONE_AT_A_TIME.lock().await;
    FLOODED.store(false, Ordering::Release);
    let server = server_with(tools);
    let (mut to_server, server_in) = tokio::io::duplex(1 << 16);
    // The client never reads what the server writes.
    let (server_out, _never_read) = tokio::io::duplex(1 << 16);
    let config = StdioConfig::default().max_backlog_bytes(1 << 20);
    let serving = tokio::spawn(serve_with(server, server_in, server_out, config));
    let before = resident();
    let mut request = call_body(1, "flood");
    request["params"]["_meta"]["progressToken"] = json!("p");
    let mut line = serde_json::to_vec(&request).unwrap();
    line.push(b'\n');
    to_server.write_all(&line).await.unwrap();
    let ended = tokio::time::timeout(Duration::from_secs(30), serving)
        .await
        .expect("the server disconnects the client")
        .unwrap();
    let error = ended.expect_err("a client that stopped reading is disconnected");
    assert!(error.to_string().contains("stopped reading"), "{error}");
    let grown = resident().saturating_sub(before);
    assert!(
        grown < FLAT,
        "the server grew by {} MiB for a client that read nothing",
        grown >> 20
    );
}

#[tokio::test]
async fn a_stdio_request_over_the_concurrency_limit_is_refused_at_once() {
    let server = server_with(tools);
    let (mut to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let config = StdioConfig::default().max_concurrent_requests(2);
    let serving = tokio::spawn(serve_with(server, server_in, server_out, config));
    for id in 1..=3 {
        let mut line = serde_json::to_vec(&call_body(id, "wait")).unwrap();
        line.push(b'\n');
        to_server.write_all(&line).await.unwrap();
    }
    let mut lines = BufReader::new(from_server).lines();
    let first: serde_json::Value =
        serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(
        first["id"], 3,
        "the third request is answered first: {first}"
    );
    assert!(
        first["error"]["message"]
            .as_str()
            .unwrap()
            .contains("2 requests are already running"),
        "{first}"
    );
    for _ in 0..2 {
        let answer: serde_json::Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(answer["result"]["content"][0]["text"], "waited");
    }
    drop(to_server);
    serving.await.unwrap().unwrap();
}
