//! `GET` and `DELETE` on a legacy session: the standalone SSE stream (or
//! the resumption of a broken one, by `Last-Event-ID`), and the end of the
//! session. Both are refused in this order: a forbidden `Host` or `Origin`
//! (`403`), for a `GET` an `Accept` without `text/event-stream` (`406`),
//! refused credentials (`401`, or `400` for a token in the query string),
//! then a missing, malformed or unknown session (`405`, `400`, `404`); a
//! session opened by another caller is unknown.

use std::sync::Arc;

use super::frames::{self, FrameSender};
use axum::extract::{Request as HttpRequest, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;
use mcp_core::error::ErrorObject;

use super::endpoint::Endpoint;
use super::headers::{self, LAST_EVENT_ID, SESSION_ID};
use super::response;
use super::session::HttpSession;
use super::{accept, auth, sse};
use crate::seam::store::EventId;
use crate::transport::ChangeFeed;

/// The session a `GET` or `DELETE` names, or the response that refuses
/// it; `stream` when the request asks for a stream (a `GET`), whose
/// `Accept` must then read one.
#[allow(
    clippy::result_large_err,
    reason = "the refusal is the response itself, returned at once"
)]
async fn session_of(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    uri: &Uri,
    stream: bool,
) -> Result<Arc<HttpSession>, Response> {
    if let Err(why) = super::rebinding::check(headers, &endpoint.config) {
        return Err(response::error(
            StatusCode::FORBIDDEN,
            None,
            ErrorObject::invalid_request(why),
        ));
    }
    if stream && !accept::reads_a_stream(headers) {
        return Err(response::error(
            StatusCode::NOT_ACCEPTABLE,
            None,
            ErrorObject::invalid_request(
                "Not Acceptable: a GET answers with a stream; Accept must include text/event-stream",
            ),
        ));
    }
    let principal = auth::caller(&endpoint.server, headers, uri, None).await?;
    match headers::text(headers, &SESSION_ID) {
        Ok(Some(id)) => match endpoint.sessions.find(id, &principal).await {
            Ok(Some(session)) => Ok(session),
            Ok(None) => Err(response::error(
                StatusCode::NOT_FOUND,
                None,
                ErrorObject::invalid_request(
                    "Session not found: it expired or was deleted; send `initialize` again",
                ),
            )),
            Err(unavailable) => Err(super::session::unavailable(None, &unavailable)),
        },
        // Without a session there is nothing to stream or end: 2026-07-28
        // clients do neither.
        Ok(None) => Err(response::error(
            StatusCode::METHOD_NOT_ALLOWED,
            None,
            ErrorObject::invalid_request(
                "GET and DELETE need the Mcp-Session-Id of a 2025-11-25 session",
            ),
        )),
        Err(error) => Err(response::error(StatusCode::BAD_REQUEST, None, error)),
    }
}

/// Serves a `GET`: resumes a stream after `Last-Event-ID`, or opens the
/// session's standalone stream for list changes and resource updates.
pub(crate) async fn get(State(endpoint): State<Arc<Endpoint>>, request: HttpRequest) -> Response {
    if let Some(refusal) = super::drain::refusal(&endpoint.server) {
        return refusal;
    }
    let headers = request.headers();
    let session = match session_of(&endpoint, headers, request.uri(), true).await {
        Ok(session) => session,
        Err(response) => return response,
    };
    let (frames, reader) = frames::channel(endpoint.config.stream_backlog);
    let last = headers::text(headers, &LAST_EVENT_ID).ok().flatten();
    let stream = last.and_then(EventId::parse).map(|id| id.stream);
    if let (Some(last), Some(stream)) = (last, stream)
        && stream != STANDALONE
    {
        let resumed = match session.streams.outlet(stream) {
            // The response is still to come: replay, then stream on.
            Some(outlet) => outlet.resume(last, frames).await,
            // The stream ended, or its request ran on another instance:
            // replay what is kept, and end.
            None => session.streams.replay(last, &frames).await.map(drop),
        };
        return match resumed {
            Ok(()) => sse::response(sse::body(reader, None, ())),
            Err(unavailable) => super::session::unavailable(None, &unavailable),
        };
    }
    if !session.claim_standalone(&frames) {
        return response::error(
            StatusCode::CONFLICT,
            None,
            ErrorObject::invalid_request(
                "This session's standalone stream is already open; resume a broken stream with Last-Event-ID",
            ),
        );
    }
    // Resuming the standalone stream: what it missed, then what comes.
    if let Some(last) = last.filter(|_| stream == Some(STANDALONE))
        && let Err(unavailable) = session.streams.replay(last, &frames).await
    {
        return super::session::unavailable(None, &unavailable);
    }
    forward_changes(&endpoint, &session, frames);
    sse::response(sse::body(reader, None, ()))
}

/// The number of the standalone stream in event ids.
const STANDALONE: u64 = 0;

/// Serves a `DELETE`: ends the session.
pub(crate) async fn delete(
    State(endpoint): State<Arc<Endpoint>>,
    request: HttpRequest,
) -> Response {
    let session = match session_of(&endpoint, request.headers(), request.uri(), false).await {
        Ok(session) => session,
        Err(response) => return response,
    };
    if let Err(error) = endpoint.sessions.end(&session.id).await {
        tracing::warn!(%error, "an ended session's shared copy stays until it expires");
    }
    let mut response = Response::new(axum::body::Body::empty());
    *response.status_mut() = StatusCode::OK;
    response
}

/// Sends the server's changes on a standalone stream until its reader or
/// the session goes away, with a keep-alive comment when idle.
fn forward_changes(endpoint: &Arc<Endpoint>, session: &Arc<HttpSession>, frames: FrameSender) {
    let mut feed = ChangeFeed::new(&endpoint.server, session.session.clone());
    let (endpoint, session) = (endpoint.clone(), session.clone());
    let keep_alive = endpoint.config.keep_alive;
    let shutdown = endpoint.server.shutdown().clone();
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(keep_alive);
        ticks.tick().await;
        loop {
            let frame = tokio::select! {
                () = session.ended.cancelled() => return,
                () = shutdown.draining() => {
                    // The instance goes away: the client reconnects (to
                    // another one) after the hint, and resumes from its
                    // last event id.
                    let _ = frames.send(sse::retry(endpoint.config.retry));
                    return;
                }
                () = frames.closed() => {
                    // A listener counts as activity until it leaves.
                    session.touch();
                    return;
                }
                notification = feed.next() => {
                    let Some(notification) = notification else { return };
                    let Ok(bytes) = serde_json::to_vec(&notification) else { continue };
                    let id = session.streams.append(STANDALONE, &bytes);
                    sse::event(Some(&id), &bytes)
                }
                _ = ticks.tick() => {
                    // An open stream keeps the session in use, here and in a shared store.
                    endpoint.sessions.refresh(&session);
                    sse::keep_alive()
                }
            };
            if frames.send(frame).is_err() {
                return;
            }
        }
    });
}
