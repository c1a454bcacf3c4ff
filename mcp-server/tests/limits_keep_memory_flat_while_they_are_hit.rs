//! Every limit of the HTTP endpoint refuses what passes it without keeping
//! anything of it: while thousands of requests hit the limit on sessions,
//! on listeners or on requests at once, the process stays within a few
//! MiB of where it started.

mod support;

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{LEGACY, call_body, headers, post, post_bytes, send};
use serde_json::json;
use support::{builder, origin, server_with, tool};
use tokio::sync::Mutex;

/// Requests sent past each limit.
const ATTEMPTS: usize = 10_000;
/// The most the process may grow while they are refused.
const FLAT: usize = 16 << 20;

/// The tests run one at a time, so each measures only itself.
static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

/// The process's resident memory, in bytes.
fn resident() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

fn assert_flat(before: usize, what: &str) {
    let grown = resident().saturating_sub(before);
    assert!(
        grown < FLAT,
        "{what}: the server grew by {} MiB while refusing",
        grown >> 20
    );
}

/// Sends `make(i)` for every attempt, 64 at a time; the statuses seen.
async fn flood(app: &Router, make: impl Fn(usize) -> Request<Body>) -> Vec<StatusCode> {
    flood_with(app, make, |r| r.status()).await
}

/// Sends `make(i)` for every attempt, 64 at a time; what `seen` makes of
/// each response, which is dropped then.
async fn flood_with<T>(
    app: &Router,
    make: impl Fn(usize) -> Request<Body>,
    seen: impl Fn(&axum::response::Response) -> T,
) -> Vec<T> {
    let mut all = Vec::with_capacity(ATTEMPTS);
    for batch in (0..ATTEMPTS).collect::<Vec<_>>().chunks(64) {
        let answers = futures_util::future::join_all(batch.iter().map(|i| send(app, make(*i))));
        all.extend(answers.await.iter().map(&seen));
    }
    all
}

#[tokio::test]
async fn refused_sessions_leave_nothing_behind() {
    let _one = ONE_AT_A_TIME.lock().await;
    let app = router(
        server_with(|_| {}),
        "/mcp",
        HttpConfig::default().max_sessions(8),
    );
    let initialize = |i: usize| {
        post(
            None,
            &json!({"jsonrpc": "2.0", "id": i, "method": "initialize", "params": {
                "protocolVersion": LEGACY, "capabilities": {},
                "clientInfo": {"name": "flood", "version": "1"}
            }}),
        )
    };
    // Warm up allocator pools and the first sessions.
    flood(&app, initialize).await;
    let before = resident();
    let statuses = flood(&app, initialize).await;
    assert!(
        statuses
            .iter()
            .all(|s| *s == StatusCode::SERVICE_UNAVAILABLE)
    );
    assert_flat(before, "sessions");
}

#[tokio::test]
async fn refused_listeners_leave_nothing_behind() {
    let _one = ONE_AT_A_TIME.lock().await;
    let server = builder()
        .setting("server.max_listeners", 8)
        .contributor(
            origin("app", 1),
            "none",
            mcp_server::seam::contributor::contributor_fn(|_| {}),
        )
        .build();
    let app = router(server, "/mcp", HttpConfig::default());
    let listen = |i: usize| {
        let body = json!({"jsonrpc": "2.0", "id": i, "method": "subscriptions/listen", "params": {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}
            },
            "notifications": {"toolsListChanged": true}
        }});
        post_bytes(
            &headers("subscriptions/listen", None),
            serde_json::to_vec(&body).unwrap(),
        )
    };
    // The first eight are held open for the whole test.
    let mut held = Vec::new();
    for i in 0..8 {
        let response = send(&app, listen(i)).await;
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        held.push(response);
    }
    flood(&app, listen).await;
    let before = resident();
    let kinds = flood_with(&app, listen, |r| {
        (r.status(), r.headers()["content-type"].clone())
    })
    .await;
    // Refused listens are ordinary JSON errors: none got a stream.
    assert!(
        kinds.iter().all(
            |(status, kind)| *status != StatusCode::INTERNAL_SERVER_ERROR
                && kind == "application/json"
        ),
        "{:?}",
        kinds.iter().find(|(_, kind)| kind != "application/json")
    );
    assert_flat(before, "listeners");
    drop(held);
}

#[tokio::test]
async fn requests_over_the_concurrency_limit_leave_nothing_behind() {
    let _one = ONE_AT_A_TIME.lock().await;
    let release = std::sync::Arc::new(tokio::sync::Notify::new());
    let waiting = release.clone();
    let server = server_with(move |c| {
        let waiting = waiting.clone();
        c.tool(
            tool("hold"),
            handler_fn::<CallTool, _, _, _>(move |_, _| {
                let waiting = waiting.clone();
                async move {
                    waiting.notified().await;
                    Ok(CallToolResult::text("released"))
                }
            }),
        );
    });
    let app = router(
        server,
        "/mcp",
        HttpConfig::default().max_concurrent_requests(4),
    );
    let call = |i: usize| {
        post_bytes(
            &headers("tools/call", Some("hold")),
            serde_json::to_vec(&call_body(i as i64, "hold")).unwrap(),
        )
    };
    // Four calls hold every permit until released.
    let holding: Vec<_> = (0..4)
        .map(|i| tokio::spawn(send_owned(app.clone(), call(i))))
        .collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    flood(&app, call).await;
    let before = resident();
    let statuses = flood(&app, call).await;
    assert!(
        statuses
            .iter()
            .all(|s| *s == StatusCode::SERVICE_UNAVAILABLE)
    );
    assert_flat(before, "requests at once");
    release.notify_waiters();
    for held in holding {
        assert_eq!(held.await.unwrap(), StatusCode::OK);
    }
}

async fn send_owned(app: Router, request: Request<Body>) -> StatusCode {
    send(&app, request).await.status()
}
