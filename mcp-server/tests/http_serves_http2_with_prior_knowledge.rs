//! `serve_on` speaks HTTP/2 with prior knowledge as well as HTTP/1.1: one
//! connection carries a call and several listen streams at once.

#![cfg(feature = "http2")]

mod support;

use std::time::Duration;

use axum::body::Body;
use futures_util::StreamExt;
use mcp_server::seam::sink::Change;
use mcp_server::transport::http::{HttpConfig, bind, router, serve_on};
use serde_json::{Value, json};
use support::{add_text_tool, server_with};

/// The body's text, read until `until` holds for it (or the body ends).
async fn collect_frames(body: hyper::body::Incoming, until: impl Fn(&str) -> bool) -> String {
    let mut stream = Body::new(body).into_data_stream();
    let mut text = String::new();
    while !until(&text) {
        match stream.next().await {
            Some(Ok(chunk)) => text.push_str(std::str::from_utf8(&chunk).unwrap()),
            _ => break,
        }
    }
    text
}

fn request(method: &str, name: Option<&str>, id: Value, params: Value) -> hyper::Request<Body> {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let mut builder = hyper::Request::post("http://127.0.0.1/mcp")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method);
    if let Some(name) = name {
        builder = builder.header("mcp-name", name);
    }
    builder
        .body(Body::from(serde_json::to_vec(&body).unwrap()))
        .unwrap()
}

#[tokio::test]
async fn one_http2_connection_carries_a_call_and_several_listen_streams() {
    let server = server_with(|c| add_text_tool(c, "quick", "done"));
    let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_on(
        listener,
        router(server.clone(), "/mcp", HttpConfig::default()),
    ));

    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(tcp),
    )
    .await
    .unwrap();
    tokio::spawn(connection);

    let mut streams = Vec::new();
    for id in 0..3 {
        let listen = request(
            "subscriptions/listen",
            None,
            json!(id),
            json!({"notifications": {"toolsListChanged": true}}),
        );
        let response = sender.send_request(listen).await.unwrap();
        assert_eq!(response.version(), hyper::Version::HTTP_2);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        streams.push(response.into_body());
    }
    for _ in 0..100 {
        if server.listeners() == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.listeners(), 3);

    let call = request(
        "tools/call",
        Some("quick"),
        json!(9),
        json!({"name": "quick"}),
    );
    let response = sender.send_request(call).await.unwrap();
    let text = collect_frames(response.into_body(), |_| false).await;
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "done");

    server.changes().publish(Change::tools_list_changed());
    for body in streams {
        let text = tokio::time::timeout(
            Duration::from_secs(5),
            collect_frames(body, |t| t.contains("notifications/tools/list_changed")),
        )
        .await
        .unwrap();
        assert!(
            text.contains("notifications/subscriptions/acknowledged"),
            "{text}"
        );
        assert!(text.contains("notifications/tools/list_changed"), "{text}");
    }
}
