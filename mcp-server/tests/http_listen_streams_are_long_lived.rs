//! `subscriptions/listen` over Streamable HTTP: an SSE response held open on
//! a stateless server, outside the request permits and the request timeout,
//! with keep-alives; closing it lets go of the listener.

mod support;

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use mcp_server::Server;
use mcp_server::seam::sink::Change;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{Events, answer, call_body, headers, post_bytes, send};
use serde_json::{Value, json};
use support::{add_text_tool, server_with};

fn server() -> Server {
    server_with(|c| add_text_tool(c, "quick", "done"))
}

fn listen(id: Value, accept: &str) -> Request<Body> {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        },
        "notifications": {"toolsListChanged": true}
    }});
    let mut request = Request::post("/mcp")
        .header("content-type", "application/json")
        .header("accept", accept);
    for (name, value) in headers("subscriptions/listen", None) {
        request = request.header(name, value);
    }
    request
        .body(Body::from(serde_json::to_vec(&body).unwrap()))
        .unwrap()
}

fn app(server: &Server, config: HttpConfig) -> Router {
    router(server.clone(), "/mcp", config)
}

#[tokio::test]
async fn a_listen_stream_starts_with_the_acknowledgement_and_carries_tagged_changes() {
    let server = server();
    let app = app(&server, HttpConfig::default());
    let response = send(
        &app,
        listen(json!("listen-1"), "application/json, text/event-stream"),
    )
    .await;
    assert_eq!(response.headers()["x-accel-buffering"], "no");
    let mut events = Events::of(response);
    let ack = events.next().await.unwrap().json();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "listen-1"
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true})
    );
    assert!(
        events.raw.lines().all(|l| !l.starts_with("id:")),
        "modern streams carry no ids"
    );

    server.changes().publish(Change::prompts_list_changed());
    server.changes().publish(Change::tools_list_changed());
    let changed = events.next().await.unwrap().json();
    assert_eq!(changed["method"], "notifications/tools/list_changed");
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "listen-1"
    );

    server.end_subscriptions();
    let result = events.next().await.unwrap().json();
    assert_eq!(result["id"], "listen-1");
    assert_eq!(result["result"]["resultType"], "complete");
    assert_eq!(
        result["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "listen-1"
    );
    assert!(
        events.next().await.is_none(),
        "the stream ends after the result"
    );
}

#[tokio::test]
async fn a_listen_stream_holds_no_request_permit_outlives_the_request_timeout_and_keeps_alive() {
    let server = server();
    let config = HttpConfig::default()
        .max_concurrent_requests(1)
        .request_timeout(Duration::from_millis(100))
        .keep_alive(Duration::from_millis(50));
    let app = app(&server, config);
    let mut events = Events::of(send(&app, listen(json!(7), "text/event-stream")).await);
    events.next().await.unwrap();
    // Reading an idle stream: only keep-alive comments come.
    assert!(
        tokio::time::timeout(Duration::from_millis(300), events.next())
            .await
            .is_err()
    );
    assert!(events.raw.contains(": keep-alive"), "{}", events.raw);

    // The one request permit is free: a call is served while the stream is open.
    let body = serde_json::to_vec(&call_body(8, "quick")).unwrap();
    let (status, called) = answer(
        &app,
        post_bytes(&headers("tools/call", Some("quick")), body),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{called}");
    assert_eq!(called["result"]["content"][0]["text"], "done");

    // Past the request timeout, the stream still delivers.
    server.changes().publish(Change::tools_list_changed());
    let changed = events.next().await.unwrap().json();
    assert_eq!(changed["method"], "notifications/tools/list_changed");
}

#[tokio::test]
async fn closing_a_listen_stream_lets_go_of_its_listener() {
    let server = server();
    let app = app(&server, HttpConfig::default());
    let mut events = Events::of(send(&app, listen(json!(1), "text/event-stream")).await);
    events.next().await.unwrap();
    assert_eq!(server.listeners(), 1);
    drop(events);
    for _ in 0..100 {
        if server.listeners() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.listeners(), 0);
}

#[tokio::test]
async fn a_client_that_reads_only_json_cannot_listen() {
    let server = server();
    let app = app(&server, HttpConfig::default());
    let (status, refused) = answer(&app, listen(json!(1), "application/json")).await;
    assert_eq!(status, StatusCode::NOT_ACCEPTABLE);
    assert_eq!(refused["error"]["code"], -32600);
    assert_eq!(server.listeners(), 0);
}
