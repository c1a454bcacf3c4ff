//! Draining and probes: once the server's [`Shutdown`] begins, the
//! endpoint refuses new work with `503`, `Connection: close` and
//! `Retry-After`, ends its listen streams with their results and its
//! legacy streams with a `retry` hint, cancels the questions its legacy
//! sessions wait on their clients for (an answer that reaches another
//! instance could not resume them), while `/healthz` stays `200` and
//! `/readyz` turns `503`.
//!
//! [`Shutdown`]: crate::server::Shutdown

use std::sync::{Arc, Weak};

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use mcp_core::error::ErrorObject;

use super::endpoint::Endpoint;
use super::response;
use crate::Server;
use crate::seam::contributor::health::Probe;

/// The answer to new work while the server drains, if it does.
pub(crate) fn refusal(server: &Server) -> Option<Response> {
    if !server.shutdown().is_draining() {
        return None;
    }
    let mut refused = response::error(
        StatusCode::SERVICE_UNAVAILABLE,
        None,
        ErrorObject::internal_error(
            "Server shutting down: it takes no new work; retry on another instance",
        ),
    );
    let headers = refused.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    Some(refused)
}

/// Ends the endpoint's listen streams and cancels its legacy sessions'
/// questions to their clients once the drain begins; holds the
/// endpoint weakly, so a router dropped before any drain leaves nothing.
pub(crate) fn watch(endpoint: &Arc<Endpoint>) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let shutdown = endpoint.server.shutdown().clone();
    let endpoint: Weak<Endpoint> = Arc::downgrade(endpoint);
    runtime.spawn(async move {
        shutdown.draining().await;
        if let Some(endpoint) = endpoint.upgrade() {
            endpoint.server.end_subscriptions();
            endpoint.sessions.close_questions();
        }
    });
}

/// Answers one probe as JSON: `200` when it passes, `503` otherwise; each
/// check by name, status and duration, nothing else.
pub(crate) async fn probe(server: Server, probe: Probe) -> Response {
    let health = server.health(probe).await;
    let status = if health.passes() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = serde_json::to_vec(&health).unwrap_or_default();
    let mut answer = Response::new(Body::from(body));
    *answer.status_mut() = status;
    let headers = answer.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if server.shutdown().is_draining() {
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    answer
}
