//! Helpers shared by the Streamable HTTP tests.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, BodyDataStream, to_bytes};
use axum::http::{Request, Response, StatusCode};
use futures_util::StreamExt;
use mcp_server::Server;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::{Contributions, contributor_fn};
use serde_json::{Value, json};
use tokio::sync::Notify;
use tower::ServiceExt;

use super::{builder, origin, tool};

/// The modern protocol version, whose requests stand alone.
pub const VERSION: &str = "2026-07-28";

/// The legacy protocol version, whose requests live in sessions.
pub const LEGACY: &str = "2025-11-25";

/// Signals between a test and its tools.
#[derive(Clone, Default)]
pub struct Signals {
    pub started: Arc<Notify>,
    pub release: Arc<Notify>,
    pub cancelled: Arc<Notify>,
}

/// A server with what `contribute` adds, from contributor `tools` of `app`.
pub fn server_with(contribute: impl Fn(&mut Contributions) + Send + Sync + 'static) -> Server {
    builder()
        .contributor(origin("app", 1), "tools", contributor_fn(contribute))
        .build()
}

/// Adds a tool `name` that answers with `text`.
pub fn add_text_tool(c: &mut Contributions, name: &str, text: &'static str) {
    c.tool(
        tool(name),
        handler_fn::<CallTool, _, _, _>(move |_, _| async move { Ok(CallToolResult::text(text)) }),
    );
}

/// A legacy POST of `body`, on `session` when given (with the legacy version header).
pub fn post(session: Option<&str>, body: &Value) -> Request<Body> {
    let mut request = Request::post("/mcp")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", LEGACY);
    }
    request
        .body(Body::from(serde_json::to_vec(body).unwrap()))
        .unwrap()
}

/// A POST with exactly these headers (besides content negotiation) and body bytes.
pub fn post_bytes(headers: &[(&str, &str)], body: Vec<u8>) -> Request<Body> {
    let mut request = Request::post("/mcp")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::from(body)).unwrap()
}

/// The standard headers of a modern request, all right.
pub fn headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![("mcp-protocol-version", VERSION), ("mcp-method", method)];
    if let Some(name) = name {
        headers.push(("mcp-name", name));
    }
    headers
}

/// A modern `tools/call` body whose `_meta` has the version and no capabilities.
pub fn call_body(id: i64, name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "_meta": {
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {}
    }}})
}

/// Sends `request` to the endpoint; its response.
pub async fn send(app: &Router, request: Request<Body>) -> Response<Body> {
    app.clone().oneshot(request).await.unwrap()
}

/// The JSON body of `response`.
pub async fn json_body(response: Response<Body>) -> Value {
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

/// The status and JSON body of a response that must be JSON.
pub async fn answer(app: &Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = send(app, request).await;
    let status = response.status();
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "a JSON-RPC answer is JSON"
    );
    (status, json_body(response).await)
}

/// Initializes a legacy session with no client capabilities; its id.
pub async fn initialize(app: &Router) -> String {
    initialize_with(app, json!({})).await
}

/// Initializes a legacy session whose client declared `capabilities`; its id.
pub async fn initialize_with(app: &Router, capabilities: Value) -> String {
    let body = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": capabilities,
        "clientInfo": {"name": "old", "version": "1"}}});
    let response = send(app, post(None, &body)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(
        send(app, post(Some(&session), &initialized)).await.status(),
        StatusCode::ACCEPTED
    );
    session
}

pub use mcp_tests::sse::Event;

/// Reads the events of an SSE response body.
pub struct Events {
    body: BodyDataStream,
    buffer: String,
    /// Everything read so far, as sent.
    pub raw: String,
}

impl Events {
    /// The events of `response`, which must be a `200` SSE stream.
    pub fn of(response: Response<Body>) -> Self {
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Self::unchecked(response)
    }

    /// The events of `response`, whatever its status and content type.
    pub fn unchecked(response: Response<Body>) -> Self {
        Self {
            body: response.into_body().into_data_stream(),
            buffer: String::new(),
            raw: String::new(),
        }
    }

    /// The next event (comments skipped); `None` when the stream ends.
    pub async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = mcp_tests::sse::next_event(&mut self.buffer) {
                return Some(event);
            }
            let chunk = tokio::time::timeout(Duration::from_secs(5), self.body.next())
                .await
                .expect("the stream goes on or ends within 5 s")?
                .unwrap();
            let text = std::str::from_utf8(&chunk).unwrap();
            self.raw.push_str(text);
            self.buffer.push_str(text);
        }
    }

    /// Every remaining event, to the end of the stream.
    pub async fn rest(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while let Some(event) = self.next().await {
            events.push(event);
        }
        events
    }

    /// Whether nothing arrives within `wait` (the stream neither ends nor speaks).
    pub async fn silent_for(&mut self, wait: Duration) -> bool {
        self.buffer.is_empty() && tokio::time::timeout(wait, self.body.next()).await.is_err()
    }
}

/// Asserts a JSON-RPC error response with this code, and this id or none at all.
pub fn assert_error(body: &Value, code: i64, id: Option<Value>) {
    assert_eq!(body["jsonrpc"], "2.0", "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(body["error"]["message"].is_string(), "{body}");
    assert!(body.get("result").is_none(), "{body}");
    match id {
        Some(id) => assert_eq!(body["id"], id, "{body}"),
        None => assert!(body.get("id").is_none(), "no id was read: {body}"),
    }
}
