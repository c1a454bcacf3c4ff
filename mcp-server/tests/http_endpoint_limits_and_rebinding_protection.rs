//! Streamable HTTP: the endpoint bounds body size (`413`), concurrent
//! requests (`503`) and running time (a JSON-RPC error, the handler
//! cancelled), and refuses foreign `Host` and `Origin` headers (`403`),
//! every refusal a well-formed JSON-RPC error.

mod support;

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{answer, call_body, headers, post_bytes};
use serde_json::{Value, json};
use support::{Signals, add_text_tool, server_with, tool};

/// Tools: `echo`; `hold` (runs until released); `stall` (never returns
/// by itself, and reports its cancellation).
fn app(config: HttpConfig, signals: Signals) -> Router {
    let server = server_with(move |c| {
        add_text_tool(c, "echo", "echoed");
        let held = signals.clone();
        c.tool(
            tool("hold"),
            handler_fn::<CallTool, _, _, _>(move |_, _| {
                let signals = held.clone();
                async move {
                    signals.started.notify_one();
                    signals.release.notified().await;
                    Ok(CallToolResult::text("released"))
                }
            }),
        );
        let stalled = signals.clone();
        c.tool(
            tool("stall"),
            handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                let signals = stalled.clone();
                async move {
                    // The handler's future may be dropped on timeout:
                    // watch its token from outside.
                    let token = ctx.cancellation().clone();
                    let cancelled = signals.cancelled.clone();
                    tokio::spawn(async move {
                        token.cancelled().await;
                        cancelled.notify_one();
                    });
                    std::future::pending::<()>().await;
                    Ok(CallToolResult::text("never"))
                }
            }),
        );
    });
    router(server, "/mcp", config)
}

/// A modern `tools/call` with all headers right, plus `extra` headers.
fn call(id: i64, name: &str, extra: &[(&str, &str)]) -> Request<Body> {
    call_with(
        name,
        extra,
        serde_json::to_vec(&call_body(id, name)).unwrap(),
    )
}

/// A modern `tools/call` of `name` with this body, plus `extra` headers.
fn call_with(name: &str, extra: &[(&str, &str)], body: Vec<u8>) -> Request<Body> {
    let mut sent = headers("tools/call", Some(name));
    sent.extend_from_slice(extra);
    post_bytes(&sent, body)
}

/// Asserts a JSON-RPC error without id (the body was not read for it).
fn assert_refusal(body: &Value, code: i64) {
    assert_eq!(body["jsonrpc"], "2.0", "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(body["error"]["message"].is_string(), "{body}");
    assert!(body.get("id").is_none(), "{body}");
    assert!(body.get("result").is_none(), "{body}");
}

#[tokio::test]
async fn a_body_over_the_limit_is_refused_with_413() {
    let app = app(
        HttpConfig::default().max_body_bytes(256),
        Signals::default(),
    );
    let mut big = call_body(1, "echo");
    big["params"]["arguments"] = json!({"padding": "x".repeat(1024)});
    let (status, body) = answer(
        &app,
        call_with("echo", &[], serde_json::to_vec(&big).unwrap()),
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_refusal(&body, -32600);
    assert!(
        body["error"]["message"].as_str().unwrap().contains("256"),
        "the message names the limit: {body}"
    );
    // A body within the limit is served.
    let (status, body) = answer(&app, call(2, "echo", &[])).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn a_request_beyond_the_concurrency_limit_gets_503_until_one_finishes() {
    let signals = Signals::default();
    let app = app(
        HttpConfig::default().max_concurrent_requests(1),
        signals.clone(),
    );
    let running = {
        let app = app.clone();
        tokio::spawn(async move { answer(&app, call(1, "hold", &[])).await })
    };
    tokio::time::timeout(Duration::from_secs(2), signals.started.notified())
        .await
        .unwrap();
    let (status, body) = answer(&app, call(2, "echo", &[])).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    // The body was read: the refusal names the request.
    assert_eq!(body["error"]["code"], -32603, "{body}");
    assert_eq!(body["id"], 2, "{body}");
    signals.release.notify_one();
    let first = tokio::time::timeout(Duration::from_secs(2), running)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first.0, StatusCode::OK);
    assert_eq!(first.1["result"]["content"][0]["text"], "released");
    // The slot is free again.
    let (status, body) = answer(&app, call(3, "echo", &[])).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn a_request_that_runs_too_long_is_answered_with_an_error_and_cancelled() {
    let signals = Signals::default();
    let app = app(
        HttpConfig::default().request_timeout(Duration::from_millis(100)),
        signals.clone(),
    );
    let (status, body) =
        tokio::time::timeout(Duration::from_secs(2), answer(&app, call(7, "stall", &[])))
            .await
            .expect("the timeout answers the request");
    assert_eq!(status, StatusCode::OK, "an ordinary JSON-RPC error: {body}");
    assert_eq!(body["id"], 7);
    assert_eq!(body["error"]["code"], -32603);
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("timed out"), "{message}");
    tokio::time::timeout(Duration::from_secs(2), signals.cancelled.notified())
        .await
        .expect("the handler's cancellation token fired");
}

#[tokio::test]
async fn a_foreign_host_is_refused_with_403_on_every_method() {
    let app = app(HttpConfig::default(), Signals::default());
    let (status, body) = answer(&app, call(1, "echo", &[("host", "evil.example.com")])).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_refusal(&body, -32600);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("evil.example.com"),
        "{body}"
    );
    for host in ["localhost.evil.com", "evil.example.com:80", "127.0.0.2"] {
        let (status, _) = answer(&app, call(1, "echo", &[("host", host)])).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}");
    }
    for method in ["GET", "DELETE"] {
        let request = Request::builder()
            .method(method)
            .uri("/mcp")
            .header("host", "evil.example.com")
            .header("mcp-session-id", "0123456789abcdef0123456789abcdef")
            .body(Body::empty())
            .unwrap();
        let (status, body) = answer(&app, request).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{method}");
        assert_refusal(&body, -32600);
    }
}

#[tokio::test]
async fn a_foreign_origin_is_refused_with_403() {
    let app = app(HttpConfig::default(), Signals::default());
    for origin in [
        "http://evil.example.com",
        "https://localhost.evil.com",
        "null",
    ] {
        let (status, body) = answer(
            &app,
            call(1, "echo", &[("host", "localhost:8080"), ("origin", origin)]),
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{origin}");
        assert_refusal(&body, -32600);
    }
}

#[tokio::test]
async fn the_refusal_comes_before_the_body_is_read() {
    let app = app(HttpConfig::default(), Signals::default());
    let (status, body) = answer(
        &app,
        call_with(
            "echo",
            &[("origin", "http://evil.example.com")],
            b"{oops".to_vec(),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_refusal(&body, -32600);
}

#[tokio::test]
async fn loopback_hosts_and_origins_with_ports_are_accepted() {
    let app = app(HttpConfig::default(), Signals::default());
    for (host, origin) in [
        ("localhost", "http://localhost"),
        ("localhost:8080", "http://localhost:5173"),
        ("127.0.0.1:3000", "http://127.0.0.1:3000"),
        ("[::1]:9000", "http://[::1]:9000"),
        ("LOCALHOST:1", "HTTP://LOCALHOST:1"),
    ] {
        let (status, body) =
            answer(&app, call(1, "echo", &[("host", host), ("origin", origin)])).await;
        assert_eq!(status, StatusCode::OK, "{host} {origin}: {body}");
    }
}

#[tokio::test]
async fn allowed_hosts_and_origins_are_accepted_and_others_still_refused() {
    let app = app(
        HttpConfig::default()
            .allow_host("mcp.example.com")
            .allow_origin("https://app.example.com"),
        Signals::default(),
    );
    for host in ["mcp.example.com", "mcp.example.com:443", "MCP.example.com"] {
        let (status, body) = answer(&app, call(1, "echo", &[("host", host)])).await;
        assert_eq!(status, StatusCode::OK, "{host}: {body}");
    }
    let (status, _) = answer(
        &app,
        call(
            1,
            "echo",
            &[
                ("host", "mcp.example.com"),
                ("origin", "https://app.example.com"),
            ],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    for (host, origin) in [
        ("other.example.com", "https://app.example.com"),
        ("mcp.example.com", "https://other.example.com"),
        ("mcp.example.com", "http://app.example.com"),
    ] {
        let (status, body) =
            answer(&app, call(1, "echo", &[("host", host), ("origin", origin)])).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host} {origin}");
        assert_refusal(&body, -32600);
    }
}

#[tokio::test]
async fn allow_any_host_accepts_every_host_and_origin() {
    let app = app(HttpConfig::default().allow_any_host(), Signals::default());
    let (status, body) = answer(
        &app,
        call(
            1,
            "echo",
            &[
                ("host", "evil.example.com"),
                ("origin", "http://evil.example.com"),
            ],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}
