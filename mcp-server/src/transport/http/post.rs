//! `POST`: one JSON-RPC message per request. A request gets its response
//! as JSON, or as an SSE stream when something must reach the client before
//! the response; a notification or a client's response gets `202`.

use std::sync::Arc;

use axum::extract::{Request as HttpRequest, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::jsonrpc::{self, Message, Request};
use mcp_core::meta::{self, RequestMeta};
use mcp_core::version::{self, Era};
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use tokio_util::sync::CancellationToken;

use super::accept::Mode;
use super::headers::{self, SESSION_ID};
use super::outlet::{Outlet, OutletSink};
use super::response::{self, status_of};
use super::session::HttpSession;
use super::work::Work;
use super::{Endpoint, admission, auth, sse};
use crate::input::ClientRequester;
use crate::reply::encode_error;
use crate::server::{Caller, Checked, ResultText, Server};
use crate::source::Principal;
use crate::transport::deadline;
use crate::transport::outbound::Requester;

/// Serves a `POST` to the endpoint.
pub(crate) async fn post(State(endpoint): State<Arc<Endpoint>>, request: HttpRequest) -> Response {
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
            let caller = Caller::on(session.connection.clone()).with_principal(principal);
            if endpoint.server.admit(&notification, &caller).await {
                session.running.notify(&notification);
            }
            return response::accepted();
        }
        Message::Request(request) => request,
    };
    if !session.connection.is_initialized() && request.method != "initialize" {
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
    let caller = Caller::on(session.connection.clone())
        .with_principal(principal)
        .with_notifications(Arc::new(OutletSink(outlet.clone())))
        .with_cancellation(cancellation)
        .with_requester(Some(requester), endpoint.config.input_timeout);
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
    let call = Call {
        request,
        checked: None,
        caller,
        outlet,
        cancel_on_close: None,
        mode,
        // Cancellable by `notifications/cancelled` until the handler ends,
        // however its response goes out (or fails to).
        done: Some(Done(Some(Box::new(move || kept.stop(&id))))),
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
            let caller = Caller::modern().with_principal(sent.principal);
            endpoint.server.admit(&notification, &caller).await;
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
        mode, principal, ..
    } = sent;
    let checked = match check_modern(&endpoint.server, headers, &request, &principal) {
        Ok(checked) => checked,
        // A malformed request is a 4xx; a hidden target answers with the
        // status an unknown one gets from the server.
        Err(Refused::Malformed(error)) => {
            return response::error(
                status_of(&error).max(StatusCode::BAD_REQUEST),
                Some(request.id),
                error,
            );
        }
        Err(Refused::Hidden(error)) => {
            return response::error(status_of(&error), Some(request.id), error);
        }
    };
    let outlet = Outlet::new(None);
    // Cancelled when the client stops reading, by the token it comes with.
    let caller = Caller::modern()
        .with_principal(principal)
        .with_notifications(Arc::new(OutletSink(outlet.clone())))
        .with_requester(None, endpoint.config.input_timeout);
    let cancellation = caller.cancellation.clone();
    let call = Call {
        request,
        checked: Some(checked),
        caller,
        outlet,
        cancel_on_close: Some(cancellation),
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
    if !session.connection.is_initialized() || answer.status() == StatusCode::SERVICE_UNAVAILABLE {
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

/// Only what the transport checks of a modern request's params: its
/// `_meta`, the member `Mcp-Name` mirrors, and the arguments of a tool
/// whose arguments are mirrored in headers.
#[derive(Default)]
struct Probe {
    meta: Option<RequestMeta>,
    target: Option<JsonValue>,
    arguments: Option<Box<serde_json::value::RawValue>>,
}

/// Reads a [`Probe`] out of params, skipping every other member undecoded.
struct ProbeSeed<'m> {
    target: Option<&'m str>,
    arguments: bool,
}

impl<'de> DeserializeSeed<'de> for ProbeSeed<'_> {
    type Value = Probe;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Probe, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ProbeSeed<'_> {
    type Value = Probe;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a params object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Probe, A::Error> {
        let mut probe = Probe::default();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            if key == "_meta" {
                probe.meta = map.next_value()?;
            } else if Some(&*key) == self.target {
                probe.target = Some(map.next_value()?);
            } else if self.arguments && key == "arguments" {
                probe.arguments = Some(map.next_value()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(probe)
    }
}

/// Why a modern request is refused before the server sees it.
enum Refused {
    /// Its headers or `_meta` break the transport's rules.
    Malformed(ErrorObject),
    /// Its headers break them, for a target the guards hide from the caller:
    /// the answer for an unknown target instead.
    Hidden(ErrorObject),
}

impl From<ErrorObject> for Refused {
    fn from(error: ErrorObject) -> Self {
        Refused::Malformed(error)
    }
}

/// A member name, borrowed from the body unless it holds escapes.
struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(key)))
            }
            fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(key.to_owned())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// The 2026-07-28 header and `_meta` rules, in the order the transport
/// specification gives them; the request's `_meta`, checked once for the
/// server to use.
fn check_modern(
    server: &Server,
    headers: &HeaderMap,
    request: &Request,
    principal: &Arc<Principal>,
) -> Result<Checked, Refused> {
    let header_version = headers::protocol_version(headers)?;
    let seed = ProbeSeed {
        target: server.target_member(&request.method, Era::Modern),
        arguments: request.method == "tools/call" && server.mirrors_params(),
    };
    let probe = match request.params.as_deref() {
        None => Probe::default(),
        Some(raw) => {
            let mut deserializer = serde_json::Deserializer::from_str(raw.get());
            seed.deserialize(&mut deserializer)
                .map_err(|e| ErrorObject::invalid_params(format!("Invalid params: {e}")))?
        }
    };
    let meta = probe.meta.unwrap_or_default();
    let Some(body_version) = meta.protocol_version.as_deref() else {
        return Err(crate::error::missing_meta(meta::PROTOCOL_VERSION).into());
    };
    if meta.client_capabilities.is_none() {
        return Err(crate::error::missing_meta(meta::CLIENT_CAPABILITIES).into());
    }
    if header_version != body_version {
        return Err(ErrorObject::header_mismatch(format!(
            "Header mismatch: MCP-Protocol-Version header value '{header_version}' does not match body value '{body_version}'"
        ))
        .into());
    }
    let checked = Checked::new(meta)?;
    let named = headers::check_method_and_name(headers, &request.method, probe.target.as_ref());
    let mirrored = match &probe.target {
        Some(JsonValue::String(tool)) if request.method == "tools/call" => {
            let mirrored = server.param_headers(tool);
            let arguments = probe
                .arguments
                .filter(|_| !mirrored.is_empty())
                .and_then(|raw| serde_json::from_str::<JsonObject>(raw.get()).ok());
            headers::check_params(headers, mirrored, arguments.as_ref())
        }
        _ => Ok(()),
    };
    // A target the guards hide answers as an unknown one would, whatever
    // its headers: an unknown one has no headers to check.
    if let Err(error) = named.and(mirrored) {
        let caller = Caller::modern().with_principal(principal.clone());
        return Err(
            match server.hidden(
                &request.method,
                Era::Modern,
                request.params.as_deref(),
                &caller,
            ) {
                Some(hidden) => Refused::Hidden(hidden),
                None => Refused::Malformed(error),
            },
        );
    }
    Ok(checked)
}

/// One request on its way to its handler, with what its transport decided.
struct Call {
    request: Request,
    /// The request's `_meta`, when the transport checked it.
    checked: Option<Checked>,
    caller: Caller,
    outlet: Arc<Outlet>,
    /// Fires when the client stops reading (modern requests: closing the
    /// stream cancels).
    cancel_on_close: Option<CancellationToken>,
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
        request,
        checked,
        caller,
        outlet,
        cancel_on_close,
        mode,
        done,
    } = call;
    let id = request.id.clone();
    let era = caller.era_for(&request.method);
    let guard = cancel_on_close.map(CancellationToken::drop_guard);
    if era == Era::Modern && request.method == "subscriptions/listen" {
        let listen = respond_listen(endpoint, (request, checked, caller), outlet, mode, guard);
        return Box::pin(listen).await;
    }
    // The permit is held while the handler runs.
    let Ok(permit) = endpoint.running.clone().try_acquire_owned() else {
        return response::error(
            StatusCode::SERVICE_UNAVAILABLE,
            Some(id),
            ErrorObject::internal_error(format!(
                "Server busy: {} requests are already running; retry later",
                endpoint.config.max_concurrent
            )),
        );
    };
    let server = endpoint.server.clone();
    let timeout = endpoint.config.request_timeout;
    let mut running = Work::new(async move {
        let token = caller.cancellation.clone();
        let answer = match deadline::within(timeout, server.answer(request, checked, &caller)).await
        {
            Some(answer) => answer,
            None => {
                token.cancel();
                Err(ErrorObject::internal_error(format!(
                    "Request timed out after {} s and was cancelled",
                    timeout.as_secs_f64()
                )))
            }
        };
        drop(permit);
        drop(done);
        answer
    });
    let finished = match mode {
        // A client that cannot read a stream gets the response alone.
        Mode::Json => {
            outlet.close();
            Some((&mut running).await)
        }
        Mode::Stream | Mode::JsonUnlessNeeded => tokio::select! {
            answer = &mut running => Some(answer),
            () = outlet.needs_stream() => None,
        },
    };
    // A refusal with its own HTTP status is plain JSON, even to a client
    // that prefers a stream: a stream's status is always 200.
    let refused = |answer: &Result<_, ErrorObject>| {
        answer
            .as_ref()
            .is_err_and(|e| status_in(era, e) != StatusCode::OK)
    };
    let finished = match finished {
        Some(answer)
            if mode == Mode::Json
                || refused(&answer)
                || (mode == Mode::JsonUnlessNeeded && !outlet.holds_messages()) =>
        {
            if let Some(guard) = guard {
                guard.disarm();
            }
            return match answer {
                Ok(result) => response::json(StatusCode::OK, result.response(&id)),
                Err(error) => response::error(status_in(era, &error), Some(id), error),
            };
        }
        // Done, but something went out first: the answer follows it on a stream.
        other => other,
    };
    let frames = outlet.start_stream(endpoint.config.retry, endpoint.config.stream_backlog);
    let streaming = outlet.clone();
    tokio::spawn(async move {
        let answer = match finished {
            Some(answer) => answer,
            None => running.await,
        };
        let bytes = encoded(id, answer);
        streaming.finish(&bytes);
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
    (request, checked, caller): (Request, Option<Checked>, Caller),
    outlet: Arc<Outlet>,
    mode: Mode,
    guard: Option<tokio_util::sync::DropGuard>,
) -> Response {
    let id = request.id.clone();
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
        let id = request.id.clone();
        let answer = server.answer(request, checked, &caller).await;
        let status = answer.as_ref().err().map_or(StatusCode::OK, status_of);
        let bytes = encoded(id, answer);
        // Handed back only when no stream started: the caller answers with it.
        (!streaming.finish_if_streaming(&bytes)).then_some((status, bytes))
    });
    let ended = |answer: Result<Option<(StatusCode, Vec<u8>)>, _>| {
        answer.ok().flatten().unwrap_or_else(|| {
            let error =
                ErrorObject::internal_error("Internal error: the request ended without an answer");
            (status_of(&error), encode_error(Some(id.clone()), error))
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

/// The status an error is answered with in `era`: a legacy error is an
/// ordinary `200` JSON-RPC response unless it is a challenge.
fn status_in(era: Era, error: &ErrorObject) -> StatusCode {
    match era {
        Era::Modern => status_of(error),
        Era::Legacy if crate::challenge::Challenge::of(error).is_some() => status_of(error),
        Era::Legacy => StatusCode::OK,
    }
}

/// The response to request `id` with `answer`, encoded.
fn encoded(id: jsonrpc::RequestId, answer: Result<ResultText, ErrorObject>) -> Vec<u8> {
    match answer {
        Ok(result) => result.response(&id),
        Err(error) => encode_error(Some(id), error),
    }
}
