//! The HTTP requests of both protocol eras: a stateless 2026-07-28
//! `tools/call`, and the `initialize`, `notifications/initialized`,
//! `tools/call` and `DELETE` of a 2025-11-25 session.

use axum::body::Body;
use hyper::Request;
use hyper::header::{ACCEPT, CONTENT_TYPE};
use hyper::http::request::Builder;
use serde_json::{Value, json};

use crate::calls::ToolCall;

/// The stateless era.
pub(crate) const MODERN: &str = "2026-07-28";

/// The session era.
pub(crate) const LEGACY: &str = "2025-11-25";

/// The endpoint's path.
const PATH: &str = "/mcp";

/// A `POST` of JSON to the endpoint that accepts either kind of answer.
fn post() -> Builder {
    Request::post(PATH)
        .header(CONTENT_TYPE, "application/json")
        .header(ACCEPT, "application/json, text/event-stream")
}

/// `builder` with `body` as JSON.
fn with_json(builder: Builder, body: &Value) -> Result<Request<Body>, String> {
    builder
        .body(Body::from(body.to_string()))
        .map_err(|e| format!("cannot build a request: {e}"))
}

/// A stateless 2026-07-28 `tools/call` with id `id`: the version, method
/// and tool in the headers, the version and client capabilities in
/// `_meta`.
pub(crate) fn modern_call(id: u64, call: &ToolCall) -> Result<Request<Body>, String> {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {}
        },
        "name": call.name,
        "arguments": call.arguments,
    }});
    let builder = post()
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tools/call")
        .header("mcp-name", call.name);
    with_json(builder, &body)
}

/// The `initialize` that opens a 2025-11-25 session, with id `id`.
pub(crate) fn initialize(id: u64) -> Result<Request<Body>, String> {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": LEGACY,
        "capabilities": {},
        "clientInfo": {"name": "soak-bench", "version": env!("CARGO_PKG_VERSION")},
    }});
    with_json(post(), &body)
}

/// A `POST` on `session`.
fn on_session(session: &str) -> Builder {
    post()
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", LEGACY)
}

/// The `notifications/initialized` that completes the session's opening.
pub(crate) fn initialized(session: &str) -> Result<Request<Body>, String> {
    let body = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    with_json(on_session(session), &body)
}

/// A `tools/call` with id `id` on `session`.
pub(crate) fn session_call(
    id: u64,
    call: &ToolCall,
    session: &str,
) -> Result<Request<Body>, String> {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": call.name,
        "arguments": call.arguments,
    }});
    with_json(on_session(session), &body)
}

/// The `DELETE` that ends `session`.
pub(crate) fn end_session(session: &str) -> Result<Request<Body>, String> {
    Request::delete(PATH)
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", LEGACY)
        .body(Body::empty())
        .map_err(|e| format!("cannot build a request: {e}"))
}
