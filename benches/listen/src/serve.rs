//! `listen-bench serve PORT STREAMS`: a framework server with one tool,
//! `publish`, that publishes `notifications/tools/list_changed`, served
//! over Streamable HTTP at `http://127.0.0.1:PORT/mcp`.
//!
//! Either server is bound with `transport::http::bind` (a 4,096 deep
//! accept queue) and served with `transport::http::serve_on`, so it speaks
//! HTTP/1.1 and HTTP/2 with prior knowledge (h2c) alike.
//!
//! `SERVER_KIND=bare` serves, instead of the framework, a bare axum
//! handler that answers a listen request with an SSE stream fed by a
//! broadcast channel, and a call with a fixed result (the floor: hyper,
//! axum, one channel receiver per stream): it tells the framework's share
//! of the memory from the HTTP stack's.

use std::convert::Infallible;
use std::net::SocketAddr;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::sink::Change;
use mcp_server::transport::http::{HttpConfig, bind, router, serve_on};
use mcp_server::{Server, origin};
use serde_json::{Value, json};
use tokio::signal::unix::SignalKind;
use tokio::sync::broadcast;

/// Listeners allowed beyond the streams held, for the warm-up's.
const SPARE_LISTENERS: usize = 100;

/// What the server process serves, from `SERVER_KIND`, as the report
/// names it.
pub(crate) fn variant() -> String {
    let kind = if bare() { "bare axum SSE" } else { "framework" };
    format!("{kind}, transport::http::serve_on")
}

fn bare() -> bool {
    std::env::var("SERVER_KIND").is_ok_and(|k| k == "bare")
}

/// Serves until the process is interrupted (`SIGINT` or `SIGTERM`), then
/// returns, so a profiler around it sees a normal exit.
pub(crate) fn run(port: u16, streams: usize) -> Result<(), String> {
    let app = if bare() {
        bare_router()
    } else {
        router(server(streams), "/mcp", HttpConfig::default())
    };
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?
        .block_on(async move {
            let listener = bind(addr).map_err(|e| format!("cannot bind {addr}: {e}"))?;
            let mut terminate = tokio::signal::unix::signal(SignalKind::terminate())
                .map_err(|e| format!("cannot watch SIGTERM: {e}"))?;
            let served = serve_on(listener, app);
            tokio::select! {
                served = served => served.map_err(|e| format!("serving on {addr} failed: {e}")),
                _ = tokio::signal::ctrl_c() => Ok(()),
                _ = terminate.recv() => Ok(()),
            }
        })
}

/// The server: the tool `publish`, and room for `streams` listeners.
fn server(streams: usize) -> Server {
    Server::builder()
        .without_linked()
        .setting(
            "server.request_state_key",
            "listen-bench secret of at least 32 bytes!!",
        )
        // The default cap is 10,000 listeners.
        .setting("server.max_listeners", streams + SPARE_LISTENERS)
        .contributor(
            origin!(),
            "bench",
            contributor_fn(|c| {
                c.tool(
                    publish_tool(),
                    handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                        ctx.changes().publish(Change::tools_list_changed());
                        Ok(CallToolResult::text("published"))
                    }),
                );
            }),
        )
        .build()
}

/// The tool `publish`, which takes no arguments.
fn publish_tool() -> Tool {
    let schema = json!({"type": "object"});
    Tool {
        name: "publish".into(),
        description: Some("Publishes notifications/tools/list_changed".into()),
        input_schema: serde_json::from_value(schema).unwrap_or_default(),
        ..Default::default()
    }
}

/// The bare peer: `POST /mcp` with `Mcp-Method: subscriptions/listen`
/// streams an acknowledgement, then one notification per publish; any
/// other `POST` publishes and answers with a fixed result. No checks.
fn bare_router() -> Router {
    let (changes, _) = broadcast::channel::<()>(64);
    Router::new()
        .route("/mcp", axum::routing::post(bare_post))
        .with_state(changes)
}

/// One SSE event carrying `message`.
fn event(message: &Value) -> Bytes {
    let mut frame = b"event: message\ndata: ".to_vec();
    frame.extend_from_slice(&serde_json::to_vec(message).unwrap_or_default());
    frame.extend_from_slice(b"\n\n");
    Bytes::from(frame)
}

async fn bare_post(State(changes): State<broadcast::Sender<()>>, request: Request) -> Response {
    let listen = request
        .headers()
        .get("mcp-method")
        .is_some_and(|m| m == "subscriptions/listen");
    let Ok(body) = axum::body::to_bytes(request.into_body(), 4 << 20).await else {
        return StatusCode::PAYLOAD_TOO_LARGE.into_response();
    };
    let id = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v.get("id").cloned())
        .unwrap_or(Value::Null);
    if !listen {
        let _ = changes.send(());
        let result = json!({"jsonrpc": "2.0", "id": id, "result": {
            "content": [{"type": "text", "text": "published"}]
        }});
        return (
            [(CONTENT_TYPE, "application/json")],
            serde_json::to_vec(&result).unwrap_or_default(),
        )
            .into_response();
    }
    let meta = json!({"io.modelcontextprotocol/subscriptionId": id});
    let ack = event(
        &json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
        "params": {"_meta": meta, "notifications": {"toolsListChanged": true}}}),
    );
    let changed = event(
        &json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
        "params": {"_meta": meta}}),
    );
    let state = (Some(ack), changed, changes.subscribe());
    let stream = futures_util::stream::unfold(state, |(first, changed, mut heard)| async move {
        if let Some(first) = first {
            return Some((Ok::<_, Infallible>(first), (None, changed, heard)));
        }
        loop {
            match heard.recv().await {
                Ok(()) => return Some((Ok(changed.clone()), (None, changed, heard))),
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    (
        [
            (CONTENT_TYPE, "text/event-stream"),
            (CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}
