//! Streamable HTTP, 2025-11-25: a session's SSE events are numbered and
//! kept, so a client whose POST stream broke resumes it with `GET` and
//! `Last-Event-ID` (disconnecting does not cancel); the standalone `GET`
//! stream carries list changes and updates of subscribed resources only,
//! and ends with the session.

mod support;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use mcp_server::Server;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::sink::Change;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{Event, Events, LEGACY, initialize, post, send};
use serde_json::{Value, json};
use support::{server_with, tool};
use tokio::sync::Notify;

/// Signals between a test and the `resumable` tool.
#[derive(Clone, Default)]
struct Signals {
    proceed: Arc<Notify>,
    returning: Arc<Notify>,
}

/// The server (to publish changes through) and its endpoint. Tool
/// `resumable` reports progress, waits to be told to proceed, and returns.
fn app(signals: Signals) -> (Server, Router) {
    let server = server_with(move |c| {
        let signals = signals.clone();
        c.tool(
            tool("resumable"),
            handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                let signals = signals.clone();
                async move {
                    ctx.progress().report(1.0, Some(2.0), Some("half"));
                    signals.proceed.notified().await;
                    signals.returning.notify_one();
                    Ok(CallToolResult::text("resumed"))
                }
            }),
        );
    });
    let app = router(server.clone(), "/mcp", HttpConfig::default());
    (server, app)
}

/// A `GET` of the session's standalone stream, resumed after `last_event_id` when given.
fn get(session: &str, last_event_id: Option<&str>) -> Request<Body> {
    let mut request = Request::get("/mcp")
        .header("accept", "text/event-stream")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", LEGACY);
    if let Some(last) = last_event_id {
        request = request.header("last-event-id", last);
    }
    request.body(Body::empty()).unwrap()
}

/// A call of `resumable` with a progress token.
fn call_resumable(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "resumable", "_meta": {"progressToken": "r"}}})
}

/// Starts a `resumable` call and reads its priming event; returns its id
/// and the stream.
async fn start_call(app: &Router, session: &str, id: i64) -> (String, Events) {
    let mut events = Events::of(send(app, post(Some(session), &call_resumable(id))).await);
    let priming = events.next().await.unwrap();
    assert_eq!(priming.data, "");
    assert!(priming.retry.is_some());
    (priming.id.expect("the priming event has an id"), events)
}

fn assert_progress(event: &Event) {
    assert!(
        event.id.is_some(),
        "a replayed event keeps its id: {event:?}"
    );
    let message = event.json();
    assert_eq!(message["method"], "notifications/progress", "{message}");
    assert_eq!(message["params"]["progressToken"], "r");
}

fn assert_result(event: &Event, id: i64) {
    assert!(event.id.is_some(), "{event:?}");
    let message = event.json();
    assert_eq!(message["id"], id, "{message}");
    assert_eq!(message["result"]["content"][0]["text"], "resumed");
}

#[tokio::test]
async fn a_broken_stream_is_resumed_from_the_priming_event_after_the_call_finished() {
    let signals = Signals::default();
    let (_, app) = app(signals.clone());
    let session = initialize(&app).await;
    let (priming, events) = start_call(&app, &session, 2).await;
    // Disconnecting is not cancelling: the call goes on.
    drop(events);
    signals.proceed.notify_one();
    tokio::time::timeout(Duration::from_secs(2), signals.returning.notified())
        .await
        .expect("the call runs on after the disconnect");
    tokio::time::sleep(Duration::from_millis(30)).await;

    let mut resumed = Events::of(send(&app, get(&session, Some(&priming))).await);
    let progress = resumed.next().await.unwrap();
    assert_progress(&progress);
    let result = resumed.next().await.unwrap();
    assert_result(&result, 2);
    assert_ne!(progress.id, result.id);
    assert_ne!(progress.id.as_deref(), Some(priming.as_str()));
    assert!(
        resumed.next().await.is_none(),
        "the replay ends with the response"
    );
}

#[tokio::test]
async fn a_stream_resumed_while_the_call_runs_replays_then_streams_on() {
    let signals = Signals::default();
    let (_, app) = app(signals.clone());
    let session = initialize(&app).await;
    let (priming, events) = start_call(&app, &session, 3).await;
    drop(events);

    let mut resumed = Events::of(send(&app, get(&session, Some(&priming))).await);
    assert_progress(&resumed.next().await.unwrap());
    signals.proceed.notify_one();
    assert_result(&resumed.next().await.unwrap(), 3);
    assert!(resumed.next().await.is_none());
}

#[tokio::test]
async fn resuming_after_a_later_event_replays_only_what_followed_it() {
    let signals = Signals::default();
    let (_, app) = app(signals.clone());
    let session = initialize(&app).await;
    let (_, mut events) = start_call(&app, &session, 4).await;
    let progress = events.next().await.unwrap();
    assert_progress(&progress);
    drop(events);
    signals.proceed.notify_one();
    tokio::time::timeout(Duration::from_secs(2), signals.returning.notified())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(30)).await;

    let mut resumed = Events::of(send(&app, get(&session, progress.id.as_deref())).await);
    assert_result(&resumed.next().await.unwrap(), 4);
    assert!(resumed.next().await.is_none());
}

#[tokio::test]
async fn a_session_cannot_resume_another_sessions_stream() {
    let signals = Signals::default();
    let (_, app) = app(signals.clone());
    let owner = initialize(&app).await;
    let intruder = initialize(&app).await;
    let (priming, events) = start_call(&app, &owner, 5).await;
    drop(events);
    let mut stolen = Events::of(send(&app, get(&intruder, Some(&priming))).await);
    signals.proceed.notify_one();
    assert!(
        stolen.next().await.is_none(),
        "nothing of another session is replayed"
    );
}

#[tokio::test]
async fn the_standalone_stream_carries_list_changes() {
    let (server, app) = app(Signals::default());
    let session = initialize(&app).await;
    let other = initialize(&app).await;
    let mut stream = Events::of(send(&app, get(&session, None)).await);
    let mut other_stream = Events::of(send(&app, get(&other, None)).await);
    server.changes().publish(Change::tools_list_changed());
    server.changes().publish(Change::prompts_list_changed());
    for events in [&mut stream, &mut other_stream] {
        let tools = events.next().await.unwrap();
        assert!(tools.id.is_some(), "{tools:?}");
        let message = tools.json();
        assert_eq!(message["jsonrpc"], "2.0");
        assert_eq!(message["method"], "notifications/tools/list_changed");
        assert!(message.get("id").is_none(), "a notification: {message}");
        let prompts = events.next().await.unwrap();
        assert_eq!(
            prompts.json()["method"],
            "notifications/prompts/list_changed"
        );
        assert_ne!(tools.id, prompts.id);
    }
}

#[tokio::test]
async fn the_standalone_stream_carries_updates_of_subscribed_resources_only() {
    let (server, app) = app(Signals::default());
    let session = initialize(&app).await;
    let subscribe = json!({"jsonrpc": "2.0", "id": 6, "method": "resources/subscribe",
        "params": {"uri": "file:///watched"}});
    let response = send(&app, post(Some(&session), &subscribe)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(body, json!({"jsonrpc": "2.0", "id": 6, "result": {}}));

    let mut stream = Events::of(send(&app, get(&session, None)).await);
    server
        .changes()
        .publish(Change::resource_updated("file:///ignored"));
    server
        .changes()
        .publish(Change::resource_updated("file:///watched"));
    let update = stream.next().await.unwrap().json();
    assert_eq!(update["method"], "notifications/resources/updated");
    assert_eq!(update["params"]["uri"], "file:///watched", "{update}");

    let unsubscribe = json!({"jsonrpc": "2.0", "id": 7, "method": "resources/unsubscribe",
        "params": {"uri": "file:///watched"}});
    let response = send(&app, post(Some(&session), &unsubscribe)).await;
    assert_eq!(response.status(), StatusCode::OK);
    server
        .changes()
        .publish(Change::resource_updated("file:///watched"));
    server.changes().publish(Change::resources_list_changed());
    let next = stream.next().await.unwrap().json();
    assert_eq!(
        next["method"], "notifications/resources/list_changed",
        "no update after unsubscribing: {next}"
    );
}

#[tokio::test]
async fn the_standalone_stream_ends_with_the_session() {
    let (server, app) = app(Signals::default());
    let session = initialize(&app).await;
    let mut stream = Events::of(send(&app, get(&session, None)).await);
    assert!(stream.silent_for(Duration::from_millis(50)).await);
    let deleted = Request::delete("/mcp")
        .header("mcp-session-id", &session)
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&app, deleted).await.status(), StatusCode::OK);
    assert!(stream.next().await.is_none(), "the stream ends");
    // Changes after the end reach nobody, and nothing breaks.
    server.changes().publish(Change::tools_list_changed());
}

#[tokio::test]
async fn the_standalone_stream_resumes_after_its_last_event_and_goes_on() {
    let (server, app) = app(Signals::default());
    let session = initialize(&app).await;
    let mut stream = Events::of(send(&app, get(&session, None)).await);
    server.changes().publish(Change::tools_list_changed());
    server.changes().publish(Change::resources_list_changed());
    let first = stream.next().await.unwrap();
    let second = stream.next().await.unwrap();
    drop(stream);
    let mut resumed = Events::of(send(&app, get(&session, first.id.as_deref())).await);
    let replayed = resumed.next().await.unwrap();
    assert_eq!(replayed.id, second.id);
    assert_eq!(
        replayed.json()["method"],
        "notifications/resources/list_changed"
    );
    // Resumed, it is the standalone stream again: later changes follow.
    server.changes().publish(Change::prompts_list_changed());
    let later = resumed.next().await.unwrap();
    assert_eq!(later.json()["method"], "notifications/prompts/list_changed");
}

#[tokio::test]
async fn a_change_goes_out_on_only_one_stream_of_a_session() {
    let (server, app) = app(Signals::default());
    let session = initialize(&app).await;
    let first = send(&app, get(&session, None)).await;
    let second = send(&app, get(&session, None)).await;
    // The second standalone stream is refused while the first is open.
    assert_eq!(second.status(), StatusCode::CONFLICT);
    let mut streams = vec![Events::of(first)];
    server.changes().publish(Change::tools_list_changed());
    let mut delivered = 0;
    for stream in &mut streams {
        if let Ok(Some(event)) =
            tokio::time::timeout(Duration::from_millis(200), stream.next()).await
        {
            assert_eq!(event.json()["method"], "notifications/tools/list_changed");
            delivered += 1;
        }
    }
    assert_eq!(delivered, 1, "one change, one stream");
}
