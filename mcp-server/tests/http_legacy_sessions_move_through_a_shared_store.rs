//! Streamable HTTP, 2025-11-25, on several instances: with a shared
//! `SessionStore` and `EventStore`, a session opened on one instance goes
//! on on another with what it settled (version, client, log level,
//! subscriptions), for its owner only and within the other's session cap;
//! a broken stream resumes there with exactly what it missed; `DELETE`
//! ends it everywhere; a store that cannot be asked fails the request at
//! once. Without them (the defaults) a session stays where it was opened,
//! and an answer nobody waits for is refused.

mod support;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use mcp_server::BoxFuture;
use mcp_server::auth::{Credentials, Principal};
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::source::PrincipalSource;
use mcp_server::seam::store::{
    EventId, EventStore, MemoryEventStore, Replay, SessionRecord, SessionStore, Unavailable,
};
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{Events, LEGACY, answer, assert_error, initialize, post, send};
use serde_json::{Value, json};
use support::{builder, origin, tool};
use tokio::sync::Notify;

/// What every instance shares: sessions and events, in this process, and
/// a switch that makes both unreachable.
#[derive(Default)]
struct Shared {
    sessions: Mutex<HashMap<String, SessionRecord>>,
    events: MemoryEventStore,
    down: AtomicBool,
    loads: AtomicUsize,
}

impl Shared {
    fn check(&self) -> Result<(), Unavailable> {
        if self.down.load(Ordering::Relaxed) {
            return Err(Unavailable("the shared store is down".into()));
        }
        Ok(())
    }
}

/// The session store of one instance: the shared one.
struct Sessions(Arc<Shared>);

impl SessionStore for Sessions {
    fn save<'a>(
        &'a self,
        record: &'a SessionRecord,
        _: Duration,
    ) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move {
            self.0.check()?;
            let mut sessions = self.0.sessions.lock().unwrap();
            sessions.insert(record.id.clone(), record.clone());
            Ok(())
        })
    }

    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<SessionRecord>, Unavailable>> {
        Box::pin(async move {
            self.0.check()?;
            self.0.loads.fetch_add(1, Ordering::Relaxed);
            Ok(self.0.sessions.lock().unwrap().get(id).cloned())
        })
    }

    fn touch<'a>(&'a self, _: &'a str, _: Duration) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move { self.0.check() })
    }

    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move {
            self.0.check()?;
            self.0.sessions.lock().unwrap().remove(id);
            Ok(())
        })
    }
}

/// The event store of one instance: the shared one, answering later than
/// at once (as a store on another machine does).
struct SharedEvents(Arc<Shared>);

impl EventStore for SharedEvents {
    fn append<'a>(
        &'a self,
        session: &'a str,
        id: EventId,
        message: Vec<u8>,
    ) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move {
            tokio::task::yield_now().await;
            self.0.check()?;
            self.0.events.append(session, id, message).await
        })
    }

    fn replay_after<'a>(
        &'a self,
        session: &'a str,
        last_event_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<Replay>, Unavailable>> {
        Box::pin(async move {
            self.0.check()?;
            self.0.events.replay_after(session, last_event_id).await
        })
    }

    fn forget<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move {
            self.0.check()?;
            self.0.events.forget(session).await
        })
    }
}

/// Names the caller by its bearer token.
struct Bearers;

impl PrincipalSource for Bearers {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        Arc::new(
            credentials
                .bearer()
                .map_or_else(Principal::anonymous, Principal::named),
        )
    }
}

/// One instance on `shared` (none: the in-process defaults) with `config`.
/// Tool `whoami` answers with what the session settled; tool `resumable`
/// reports progress, waits for `proceed`, and returns.
fn instance(shared: Option<&Arc<Shared>>, config: HttpConfig, proceed: Arc<Notify>) -> Router {
    let mut builder = builder()
        .supply::<dyn PrincipalSource>(origin("auth", 1), "bearers", Arc::new(Bearers))
        .contributor(
            origin("app", 1),
            "tools",
            mcp_server::seam::contributor::contributor_fn(move |c| {
                c.tool(
                    tool("whoami"),
                    handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                        let session = ctx.session().and_then(|s| s.negotiated()).unwrap();
                        let text = json!({
                            "version": session.protocol_version,
                            "client": session.client_info.as_ref().map(|i| i.name.clone()),
                            "level": session.log_level,
                            "sampling": session.client_capabilities.sampling.is_some(),
                        });
                        Ok(CallToolResult::text(text.to_string()))
                    }),
                );
                let proceed = proceed.clone();
                c.tool(
                    tool("resumable"),
                    handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                        let proceed = proceed.clone();
                        async move {
                            ctx.progress().report(1.0, Some(2.0), Some("half"));
                            proceed.notified().await;
                            Ok(CallToolResult::text("resumed"))
                        }
                    }),
                );
            }),
        );
    if let Some(shared) = shared {
        builder = builder
            .supply::<dyn SessionStore>(
                origin("shared", 1),
                "shared-sessions",
                Arc::new(Sessions(shared.clone())),
            )
            .supply::<dyn EventStore>(
                origin("shared", 2),
                "shared-events",
                Arc::new(SharedEvents(shared.clone())),
            );
    }
    router(builder.build(), "/mcp", config)
}

/// Two instances on one shared store.
fn two(shared: &Arc<Shared>) -> (Router, Router, Arc<Notify>) {
    let proceed = Arc::new(Notify::new());
    let a = instance(Some(shared), HttpConfig::default(), proceed.clone());
    let b = instance(Some(shared), HttpConfig::default(), proceed.clone());
    (a, b, proceed)
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// What `whoami` says on `app` for `session`.
async fn whoami(app: &Router, session: &str) -> (StatusCode, Value) {
    let call = request(9, "tools/call", json!({"name": "whoami"}));
    let (status, body) = answer(app, post(Some(session), &call)).await;
    let text = body["result"]["content"][0]["text"].as_str();
    (
        status,
        text.map_or(body.clone(), |t| serde_json::from_str(t).unwrap()),
    )
}

/// The parameters of a `resumable` call, whose progress goes out as `token`.
fn resumable(token: i64) -> Value {
    json!({"name": "resumable", "_meta": {"progressToken": token}})
}

/// `request` sent as the caller `token` names.
fn as_caller(mut request: Request<Body>, token: &str) -> Request<Body> {
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

/// A `GET` resuming `session`'s stream after `last`.
fn resume(session: &str, last: &str) -> Request<Body> {
    Request::get("/mcp")
        .header("accept", "text/event-stream")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", LEGACY)
        .header("last-event-id", last)
        .body(Body::empty())
        .unwrap()
}

#[tokio::test]
async fn without_a_shared_store_a_session_stays_on_the_instance_that_opened_it() {
    let proceed = Arc::new(Notify::new());
    let a = instance(None, HttpConfig::default(), proceed.clone());
    let b = instance(None, HttpConfig::default(), proceed);
    let session = initialize(&a).await;
    assert_eq!(whoami(&a, &session).await.0, StatusCode::OK);
    let (status, body) = whoami(&b, &session).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_error(&body, -32600, Some(json!(9)));
}

#[tokio::test]
async fn a_session_opened_on_one_instance_goes_on_on_another_with_what_it_settled() {
    let shared = Arc::new(Shared::default());
    let (a, b, _) = two(&shared);
    let session = mcp_tests::http::initialize_with(&a, json!({"sampling": {}})).await;
    let set = request(1, "logging/setLevel", json!({"level": "error"}));
    assert_eq!(
        answer(&a, post(Some(&session), &set)).await.0,
        StatusCode::OK
    );
    let subscribe = request(2, "resources/subscribe", json!({"uri": "file:///watched"}));
    assert_eq!(
        answer(&a, post(Some(&session), &subscribe)).await.0,
        StatusCode::OK
    );

    let (status, settled) = whoami(&b, &session).await;
    assert_eq!(status, StatusCode::OK, "{settled}");
    assert_eq!(
        settled,
        json!({"version": LEGACY, "client": "old", "level": "error", "sampling": true})
    );
    let record = shared.sessions.lock().unwrap()[&session].clone();
    assert_eq!(
        record.subscriptions.into_iter().collect::<Vec<_>>(),
        ["file:///watched"]
    );
    // Taken over once: later requests cost no store call.
    whoami(&b, &session).await;
    assert_eq!(shared.loads.load(Ordering::Relaxed), 1);

    // A change made on B is what A's next taker sees.
    let set = request(3, "logging/setLevel", json!({"level": "debug"}));
    assert_eq!(
        answer(&b, post(Some(&session), &set)).await.0,
        StatusCode::OK
    );
    let c = instance(
        Some(&shared),
        HttpConfig::default(),
        Arc::new(Notify::new()),
    );
    assert_eq!(whoami(&c, &session).await.1["level"], "debug");
}

#[tokio::test]
async fn a_stream_broken_on_one_instance_resumes_on_another_with_exactly_what_it_missed() {
    let shared = Arc::new(Shared::default());
    let (a, b, proceed) = two(&shared);
    let session = initialize(&a).await;
    let call = request(4, "tools/call", resumable(4));
    let mut events = Events::of(send(&a, post(Some(&session), &call)).await);
    let priming = events.next().await.unwrap().id.unwrap();
    let progress = events.next().await.unwrap();
    assert_eq!(progress.json()["method"], "notifications/progress");
    drop(events);
    proceed.notify_one();
    tokio::time::sleep(Duration::from_millis(50)).await;

    let mut resumed = Events::of(send(&b, resume(&session, &priming)).await);
    let replayed = resumed.rest().await;
    let ids: Vec<_> = replayed.iter().map(|e| e.id.clone().unwrap()).collect();
    assert_eq!(replayed.len(), 2, "the progress, then the result: {ids:?}");
    assert_eq!(replayed[0].id, progress.id);
    assert_eq!(replayed[0].json()["method"], "notifications/progress");
    assert_eq!(replayed[1].json()["id"], 4);
    assert_eq!(
        replayed[1].json()["result"]["content"][0]["text"],
        "resumed"
    );

    // Resuming after the progress on B replays the result only.
    let after = progress.id.unwrap();
    let rest = Events::of(send(&b, resume(&session, &after)).await)
        .rest()
        .await;
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].json()["id"], 4);
}

#[tokio::test]
async fn streams_opened_on_two_instances_never_share_an_event_id() {
    let shared = Arc::new(Shared::default());
    let (a, b, proceed) = two(&shared);
    let session = initialize(&a).await;
    let mut ids = Vec::new();
    for (n, app) in [&a, &b, &a, &b].into_iter().enumerate() {
        let id = 10 + n as i64;
        let call = request(id, "tools/call", resumable(id));
        let mut events = Events::of(send(app, post(Some(&session), &call)).await);
        ids.push(events.next().await.unwrap().id.unwrap());
        ids.push(events.next().await.unwrap().id.unwrap());
        proceed.notify_one();
        ids.push(events.next().await.unwrap().id.unwrap());
    }
    let streams: std::collections::HashSet<_> = ids
        .iter()
        .map(|id| EventId::parse(id).unwrap().stream)
        .collect();
    assert_eq!(streams.len(), 4, "{ids:?}");
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
}

#[tokio::test]
async fn a_session_deleted_on_one_instance_is_unknown_on_another() {
    let shared = Arc::new(Shared::default());
    let (a, b, _) = two(&shared);
    let session = initialize(&a).await;
    assert_eq!(whoami(&b, &session).await.0, StatusCode::OK);
    let delete = Request::delete("/mcp")
        .header("mcp-session-id", &session)
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&a, delete).await.status(), StatusCode::OK);
    assert!(shared.sessions.lock().unwrap().is_empty());
    let c = instance(
        Some(&shared),
        HttpConfig::default(),
        Arc::new(Notify::new()),
    );
    assert_eq!(whoami(&c, &session).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn another_caller_cannot_take_a_session_over() {
    let shared = Arc::new(Shared::default());
    let (a, b, _) = two(&shared);
    let body = request(
        0,
        "initialize",
        json!({"protocolVersion": LEGACY, "capabilities": {},
        "clientInfo": {"name": "old", "version": "1"}}),
    );
    let response = send(&a, as_caller(post(None, &body), "ada")).await;
    assert_eq!(response.status(), StatusCode::OK);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let call = request(9, "tools/call", json!({"name": "whoami"}));
    for other in [Some("bob"), None] {
        let mut sent = post(Some(&session), &call);
        if let Some(token) = other {
            sent = as_caller(sent, token);
        }
        assert_eq!(answer(&b, sent).await.0, StatusCode::NOT_FOUND, "{other:?}");
    }
    let (status, _) = answer(&b, as_caller(post(Some(&session), &call), "ada")).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_session_taken_over_counts_towards_the_cap() {
    let shared = Arc::new(Shared::default());
    let proceed = Arc::new(Notify::new());
    let a = instance(Some(&shared), HttpConfig::default(), proceed.clone());
    let b = instance(
        Some(&shared),
        HttpConfig::default().max_sessions(1),
        proceed,
    );
    let first = initialize(&a).await;
    let second = initialize(&a).await;
    assert_eq!(whoami(&b, &first).await.0, StatusCode::OK);
    assert_eq!(whoami(&b, &second).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_store_that_cannot_be_asked_fails_the_request_at_once() {
    let shared = Arc::new(Shared::default());
    let (a, b, _) = two(&shared);
    let session = initialize(&a).await;
    shared.down.store(true, Ordering::Relaxed);
    let (status, body) = whoami(&b, &session).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_error(&body, -32603, Some(json!(9)));
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("the shared store is down"), "{message}");
    let resumed = send(&b, resume(&session, "1-0")).await;
    assert_eq!(resumed.status(), StatusCode::SERVICE_UNAVAILABLE);
    // A level that cannot be shared is refused, not silently kept here.
    let set = request(1, "logging/setLevel", json!({"level": "error"}));
    let (status, body) = answer(&a, post(Some(&session), &set)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_error(&body, -32603, Some(json!(1)));
    // A live session goes on without the store.
    assert_eq!(whoami(&a, &session).await.0, StatusCode::OK);
}

#[tokio::test]
async fn an_answer_no_request_waits_for_is_refused_with_400() {
    let app = instance(None, HttpConfig::default(), Arc::new(Notify::new()));
    let session = initialize(&app).await;
    let stray = json!({"jsonrpc": "2.0", "id": 77, "result": {}});
    let (status, body) = answer(&app, post(Some(&session), &stray)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32600, None);
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("No request of id 77"), "{message}");
}
