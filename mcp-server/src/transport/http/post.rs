//! `POST`: one JSON-RPC message per request. A request gets its response
//! as JSON, or as an SSE stream when something must reach the client before
//! the response; a notification or a client's response gets `202`.

use std::sync::Arc;

use axum::extract::{Request as HttpRequest, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::{self, Message, Request};
use mcp_core::version::{self, Era};
use tokio_util::sync::CancellationToken;

use super::accept::Mode;
use super::endpoint::Endpoint;
use super::headers::{self, Mirrored, SESSION_ID};
use super::intercept::Attached;
use super::outlet::{Outlet, OutletSink};
use super::response::{self, status_in, status_of};
use super::session::HttpSession;
use super::work::Work;
use super::{admission, auth, deadline, sse};
use crate::auth::Principal;
use crate::transport::{Admitted, ClientRequester, Outcome, Peer, Refusal, Requester};

/// Serves a `POST` to the endpoint.
pub(crate) async fn post(State(endpoint): State<Arc<Endpoint>>, request: HttpRequest) -> Response {
    if let Some(refusal) = super::drain::refusal(&endpoint.server) {
        // The body is read first: a connection closed with input unread is
        // reset, and the reset can reach the client before the refusal.
        let _ = admission::body(request.into_body(), &endpoint.config).await;
        return refusal;
    }
    let (parts, body) = request.into_parts();
    let mode = match admission::admit(&parts.headers, &endpoint.config) {
        Ok(mode) => mode,
        Err(refusal) => return refusal,
    };
    let bytes = match admission::body(body, &endpoint.config).await {
        Ok(bytes) => bytes,
        Err(refusal) => return refusal,
    };
    let message = match jsonrpc::decode(&bytes) {
        Ok(message) => message,
        Err(error) => return response::error(StatusCode::BAD_REQUEST, error.id, error.error),
    };
    let principal = match auth::caller(
        &endpoint.server,
        &parts.headers,
        &parts.uri,
        request_id(&message),
    )
    .await
    {
        Ok(principal) => principal,
        Err(refusal) => return refusal,
    };
    let sent = Sent {
        headers: &parts.headers,
        mode,
        principal,
        attached: Attached::of(&parts),
    };
    match headers::text(&parts.headers, &SESSION_ID) {
        Ok(Some(session_id)) => {
            // A session answers only the caller that opened it.
            let session = match endpoint.sessions.find(session_id, &sent.principal).await {
                Ok(session) => session,
                Err(unavailable) => {
                    return super::session::unavailable(request_id(&message), &unavailable);
                }
            };
            let Some(session) = session else {
                return response::error(
                    StatusCode::NOT_FOUND,
                    request_id(&message),
                    ErrorObject::invalid_request(
                        "Session not found: it expired or was deleted; send `initialize` again",
                    ),
                );
            };
            legacy(&endpoint, session, sent, message).await
        }
        Ok(None) => sessionless(&endpoint, sent, message).await,
        Err(error) => response::error(StatusCode::BAD_REQUEST, request_id(&message), error),
    }
}

/// What a `POST` sent besides its message.
struct Sent<'h> {
    headers: &'h HeaderMap,
    /// The response mode its `Accept` asks for.
    mode: Mode,
    /// Who sent it.
    principal: Arc<Principal>,
    /// What its HTTP interceptors attached for its message.
    attached: Option<Attached>,
}

fn request_id(message: &Message) -> Option<jsonrpc::RequestId> {
    match message {
        Message::Request(request) => Some(request.id.clone()),
        _ => None,
    }
}

/// A message on a legacy session.
async fn legacy(
    endpoint: &Arc<Endpoint>,
    session: Arc<HttpSession>,
    sent: Sent<'_>,
    message: Message,
) -> Response {
    let Sent {
        headers,
        mode,
        principal,
        attached,
    } = sent;
    // Any supported version is accepted: clients send older ones on some requests.
    if let Ok(Some(sent)) = headers::text(headers, &headers::PROTOCOL_VERSION)
        && !version::SUPPORTED.contains(&sent)
    {
        return response::error(
            StatusCode::BAD_REQUEST,
            request_id(&message),
            ErrorObject::invalid_request(format!("Unsupported MCP-Protocol-Version: {sent}")),
        );
    }
    let request = match message {
        Message::Response(answer) => {
            let id = answer_id(&answer);
            if session.outbound.settle(answer) {
                return response::accepted();
            }
            // Nothing here waits for it: it came too late, or the request
            // it answers was sent by an instance that is gone.
            return response::error(
                StatusCode::BAD_REQUEST,
                None,
                ErrorObject::invalid_request(format!(
                    "No request of id {id} is waiting for this answer: it was answered, \
                     cancelled or timed out, or the server instance that sent it is gone; \
                     the answer is dropped"
                )),
            );
        }
        Message::Notification(notification) => {
            let peer = Peer::on(session.session.clone()).with_principal(principal);
            let peer = Attached::seed(attached.as_ref(), peer);
            if endpoint
                .server
                .admit_notification(&notification, &peer)
                .await
            {
                session.in_flight.notify(&notification);
            }
            return response::accepted();
        }
        Message::Request(request) => request,
    };
    if !session.session.is_initialized() && request.method != "initialize" {
        return response::error(
            StatusCode::BAD_REQUEST,
            Some(request.id),
            ErrorObject::invalid_request("The session is not initialized: send `initialize` first"),
        );
    }
    let cancellation = session.start(request.id.clone());
    let request_id = request.id.clone();
    let kept = session.clone();
    let outlet = Outlet::new(Some(session.streams.clone()));
    // Requests to the client ride this call's own stream.
    let stream = outlet.clone();
    let requester: Arc<dyn ClientRequester> = Arc::new(Requester {
        outbound: session.outbound.clone(),
        send: move |bytes| stream.send(bytes),
    });
    let peer = Peer::on(session.session.clone())
        .with_principal(principal)
        .with_notifications(Arc::new(OutletSink(outlet.clone())))
        .with_cancellation(cancellation.clone())
        .with_requester(Some(requester), endpoint.config.input_timeout);
    let peer = Attached::seed(attached.as_ref(), peer);
    let id = request.id.clone();
    // A session is made only once `initialize` is answered: its answer is
    // never a stream, so it is never sent before that. With a shared
    // session store, what changes the session is answered (as JSON) once
    // the change is kept for the other instances.
    let settles = SETTLING.contains(&request.method.as_str());
    let mode = if request.method == "initialize" || (settles && endpoint.sessions.shared()) {
        Mode::Json
    } else {
        mode
    };
    // Cancellable by `notifications/cancelled` until the handler ends,
    // however its response goes out (or fails to).
    let done = Done(Some(Box::new(move || kept.stop(&id))));
    let call = Call {
        admission: endpoint.server.admit(request, &peer, None).await,
        cancellation,
        outlet,
        cancel_on_close: false,
        mode,
        done: Some(done),
    };
    let answer = respond(endpoint, call).await;
    if settles
        && answer.status() == StatusCode::OK
        && let Err(error) = endpoint.sessions.persist(&session).await
    {
        tracing::warn!(session = %session.id, %error, "a session's change was not shared");
        return super::session::unavailable(Some(request_id), &error);
    }
    answer
}

/// The id a client's answer names, as text for an error message.
fn answer_id(answer: &jsonrpc::Response) -> String {
    let id = match answer {
        jsonrpc::Response::Result(result) => Some(&result.id),
        jsonrpc::Response::Error(error) => error.id.as_ref(),
    };
    id.and_then(|id| serde_json::to_string(id).ok())
        .unwrap_or_else(|| "null".to_owned())
}

/// The methods whose success changes what a session keeps.
const SETTLING: &[&str] = &[
    "initialize",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// A message without a session: a legacy `initialize`, or a modern message.
async fn sessionless(endpoint: &Arc<Endpoint>, sent: Sent<'_>, message: Message) -> Response {
    let headers = sent.headers;
    let sent_version = headers::text(headers, &headers::PROTOCOL_VERSION)
        .ok()
        .flatten();
    let legacy_header = sent_version.is_none_or(|v| version::era_of(v) == Some(Era::Legacy));
    let request = match message {
        Message::Request(request) if request.method == "initialize" && legacy_header => {
            // Boxed, as are the other paths taken once per session or
            // stream: a request's future holds only what it needs.
            return Box::pin(initialize(endpoint, sent, request)).await;
        }
        Message::Request(request) => request,
        Message::Notification(notification) => {
            let peer = Peer::modern().with_principal(sent.principal);
            let peer = Attached::seed(sent.attached.as_ref(), peer);
            endpoint
                .server
                .admit_notification(&notification, &peer)
                .await;
            return response::accepted();
        }
        Message::Response(_) => {
            return response::error(
                StatusCode::BAD_REQUEST,
                None,
                ErrorObject::invalid_request(
                    "A response needs the Mcp-Session-Id of the session whose request it answers",
                ),
            );
        }
    };
    let Sent {
        mode,
        principal,
        attached,
        ..
    } = sent;
    let outlet = Outlet::new(None);
    // Cancelled when the client stops reading, by the token it comes with.
    let peer = Peer::modern()
        .with_principal(principal)
        .with_notifications(Arc::new(OutletSink(outlet.clone())))
        .with_requester(None, endpoint.config.input_timeout);
    let peer = Attached::seed(attached.as_ref(), peer);
    let admission = endpoint
        .server
        .admit(request, &peer, Some(&Mirrored(headers)))
        .await;
    // A request that breaks the transport's rules is a 4xx, as JSON.
    let admission = match admission {
        Err(refusal) if refusal.is_malformed() => {
            let outcome = refusal.into_outcome();
            let status = outcome.error().map_or(StatusCode::BAD_REQUEST, |e| {
                status_of(e).max(StatusCode::BAD_REQUEST)
            });
            return response::outcome_with(status, outcome);
        }
        admission => admission,
    };
    let call = Call {
        admission,
        cancellation: peer.cancellation.clone(),
        outlet,
        cancel_on_close: true,
        mode,
        done: None,
    };
    respond(endpoint, call).await
}

/// Mints a session and runs `initialize` on it; the session lives on only
/// if `initialize` was answered without error.
async fn initialize(endpoint: &Arc<Endpoint>, sent: Sent<'_>, request: Request) -> Response {
    let Some(session) = endpoint.sessions.create(sent.principal.subject.clone()) else {
        return response::error(
            StatusCode::SERVICE_UNAVAILABLE,
            Some(request.id),
            ErrorObject::internal_error(format!(
                "Too many sessions: {} are live; retry later",
                endpoint.config.max_sessions
            )),
        );
    };
    let id = session.id.clone();
    let mut answer = legacy(endpoint, session.clone(), sent, Message::Request(request)).await;
    if !session.session.is_initialized() || answer.status() == StatusCode::SERVICE_UNAVAILABLE {
        // Refused, or not kept where other instances find it: no session after all.
        endpoint.sessions.remove(&id);
        if answer.status() == StatusCode::OK {
            *answer.status_mut() = StatusCode::BAD_REQUEST;
        }
        return answer;
    }
    if let Ok(value) = HeaderValue::from_str(&id) {
        answer.headers_mut().insert(&SESSION_ID, value);
    }
    answer
}

/// One request on its way to its handler, with what its transport decided.
struct Call {
    /// The request as admitted, or the refusal to answer with.
    admission: Result<Admitted, Refusal>,
    /// Cancels the request.
    cancellation: CancellationToken,
    outlet: Arc<Outlet>,
    /// Whether the client's closing the response stream cancels the
    /// request (modern requests).
    cancel_on_close: bool,
    mode: Mode,
    /// Runs when the handler finishes, however the response goes out.
    done: Option<Done>,
}

/// Runs its function when dropped: when the handler ends, panics, or never
/// starts because the server is busy.
struct Done(Option<Box<dyn FnOnce() + Send>>);

impl Drop for Done {
    fn drop(&mut self) {
        if let Some(done) = self.0.take() {
            done();
        }
    }
}

/// Runs a request and answers: JSON when nothing had to go out before the
/// response (or the client reads only JSON), SSE otherwise.
async fn respond(endpoint: &Arc<Endpoint>, call: Call) -> Response {
    let Call {
        admission,
        cancellation,
        outlet,
        cancel_on_close,
        mode,
        done,
    } = call;
    let guard = cancel_on_close.then(|| cancellation.clone().drop_guard());
    let mut running = match admission {
        Err(refusal) => {
            drop(done);
            Work::new(std::future::ready(refusal.into_outcome()))
        }
        Ok(admitted)
            if admitted.era() == Era::Modern && admitted.method() == "subscriptions/listen" =>
        {
            let listen = respond_listen(endpoint, admitted, outlet, mode, guard);
            return Box::pin(listen).await;
        }
        Ok(admitted) => {
            // The permit is held while the handler runs.
            let Ok(permit) = endpoint.running.clone().try_acquire_owned() else {
                return response::error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    Some(admitted.id().clone()),
                    ErrorObject::internal_error(format!(
                        "Server busy: {} requests are already running; retry later",
                        endpoint.config.max_concurrent
                    )),
                );
            };
            let server = endpoint.server.clone();
            let timeout = endpoint.config.request_timeout;
            // A drain waits for the request until its answer is made.
            let held = server.shutdown().hold();
            Work::new(async move {
                let (id, era) = (admitted.id().clone(), admitted.era());
                let outcome = match deadline::within(timeout, server.serve(admitted)).await {
                    Some(outcome) => outcome,
                    None => {
                        cancellation.cancel();
                        Outcome::failure(
                            id,
                            era,
                            ErrorObject::internal_error(format!(
                                "Request timed out after {} s and was cancelled",
                                timeout.as_secs_f64()
                            )),
                        )
                    }
                };
                drop(permit);
                drop(done);
                drop(held);
                outcome
            })
        }
    };
    let finished = match mode {
        // A client that cannot read a stream gets the response alone.
        Mode::Json => {
            outlet.close();
            Some((&mut running).await)
        }
        Mode::Stream | Mode::JsonUnlessNeeded => tokio::select! {
            outcome = &mut running => Some(outcome),
            () = outlet.needs_stream() => None,
        },
    };
    // A refusal with its own HTTP status is plain JSON, even to a client
    // that prefers a stream: a stream's status is always 200.
    let refused = |outcome: &Outcome| {
        outcome
            .error()
            .is_some_and(|e| status_in(outcome.era(), e) != StatusCode::OK)
    };
    let finished = match finished {
        Some(outcome)
            if mode == Mode::Json
                || refused(&outcome)
                || (mode == Mode::JsonUnlessNeeded && !outlet.holds_messages()) =>
        {
            if let Some(guard) = guard {
                guard.disarm();
            }
            return response::outcome(outcome);
        }
        // Done, but something went out first: the answer follows it on a stream.
        other => other,
    };
    let frames = outlet.start_stream(endpoint.config.retry, endpoint.config.stream_backlog);
    let streaming = outlet.clone();
    tokio::spawn(async move {
        let outcome = match finished {
            Some(outcome) => outcome,
            None => running.await,
        };
        streaming.finish(&outcome.encode());
    });
    drop(outlet);
    sse::response(sse::body(frames, None, guard))
}

/// Runs a `subscriptions/listen` request. A listen stream is long-lived by
/// design: it holds no request permit (the listeners have their own cap),
/// no timeout cuts it, and one task runs it, which delivers the listen
/// result on the stream itself once the stream has started. An answer
/// before anything was streamed (a refusal) goes out as plain JSON, with
/// its status.
async fn respond_listen(
    endpoint: &Arc<Endpoint>,
    admitted: Admitted,
    outlet: Arc<Outlet>,
    mode: Mode,
    guard: Option<tokio_util::sync::DropGuard>,
) -> Response {
    let id = admitted.id().clone();
    if mode == Mode::Json {
        return response::error(
            StatusCode::NOT_ACCEPTABLE,
            Some(id),
            ErrorObject::invalid_request(
                "subscriptions/listen answers with a stream: Accept must include text/event-stream",
            ),
        );
    }
    let server = endpoint.server.clone();
    let streaming = outlet.clone();
    let mut running = tokio::spawn(async move {
        let outcome = server.serve(admitted).await;
        let status = outcome.error().map_or(StatusCode::OK, status_of);
        let bytes = outcome.encode();
        // Handed back only when no stream started: the caller answers with it.
        (!streaming.finish_if_streaming(&bytes)).then_some((status, bytes))
    });
    let ended = |answer: Result<Option<(StatusCode, Vec<u8>)>, _>| {
        answer.ok().flatten().unwrap_or_else(|| {
            let error =
                ErrorObject::internal_error("Internal error: the request ended without an answer");
            let status = status_of(&error);
            let outcome = Outcome::failure(id.clone(), Era::Modern, error);
            (status, outcome.encode())
        })
    };
    let early = tokio::select! {
        answer = &mut running => Some(ended(answer)),
        () = outlet.needs_stream() => None,
    };
    // Done with nothing sent first: plain JSON, with its status.
    let early = match early {
        Some((status, bytes)) if !outlet.holds_messages() => {
            if let Some(guard) = guard {
                guard.disarm();
            }
            return response::json(status, bytes);
        }
        early => early,
    };
    let frames = outlet.start_stream(endpoint.config.retry, endpoint.config.stream_backlog);
    // Done with the acknowledgement waiting, or the answer came back just
    // before the stream started: it goes out on the stream.
    let late = match early {
        Some(answer) => Some(answer),
        None if outlet.answered() => Some(ended(running.await)),
        None => None,
    };
    if let Some((_, bytes)) = late {
        outlet.finish(&bytes);
    }
    drop(outlet);
    let keep_alive = Some(endpoint.config.keep_alive);
    sse::response(sse::body(frames, keep_alive, guard))
}
