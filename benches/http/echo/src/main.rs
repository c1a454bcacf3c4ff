//! `http-echo-peer ADDRESS:PORT`: answers every `POST /mcp` holding a
//! JSON-RPC request with the result `mcp-demo`'s `test_simple_text` gives,
//! and nothing else: no protocol, no sessions, no checks. It is the
//! ceiling a framework's HTTP path is measured against.

use std::net::SocketAddr;

use axum::Router;
use axum::body::Bytes;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::post;
use serde_json::{Value, json};

async fn answer(body: Bytes) -> impl IntoResponse {
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let response = json!({
        "jsonrpc": "2.0",
        "id": request.get("id").cloned().unwrap_or(Value::Null),
        "result": {
            "content": [{"type": "text", "text": "This is a simple text response for testing."}]
        }
    });
    (
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::to_vec(&response).unwrap_or_default(),
    )
}

fn main() -> std::io::Result<()> {
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8090)));
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async move {
            use axum::serve::ListenerExt;
            let listener = tokio::net::TcpListener::bind(addr).await?.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            let app = Router::new().route("/mcp", post(answer));
            axum::serve(listener, app).await
        })
}
