//! Two HTTP instances on one real Redis serve a 2025-11-25 client as one
//! server: its session, opened on one, goes on on the other with what it
//! settled; a stream broken on one resumes on the other with exactly what
//! it missed; `DELETE` on one ends it on both; and while Redis is gone a
//! request that needs it is refused at once, then served again once Redis
//! is back.

use std::sync::LazyLock;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use mcp_server::transport::http::{HttpConfig, router};
use mcp_server::{RequestContext, Server, tool};
use mcp_tests::http::{Events, LEGACY, initialize_with, json_of, post, send};
use mcp_tests::redis::RedisServer;
use serde_json::{Value, json};
use tokio::sync::Notify;

use mcp_redis as _;

/// Lets `slow` return.
static PROCEED: LazyLock<Notify> = LazyLock::new(Notify::new);

/// What the caller's session settled, as JSON text.
#[tool]
async fn whoami(ctx: RequestContext) -> String {
    let session = ctx.session().and_then(|s| s.negotiated());
    let session = session.expect("a legacy session");
    json!({
        "version": session.protocol_version,
        "client": session.client_info.as_ref().map(|i| i.name.clone()),
        "level": session.log_level,
        "sampling": session.client_capabilities.sampling.is_some(),
    })
    .to_string()
}

/// Reports half its progress, waits to be let go, and answers.
#[tool]
async fn slow(ctx: RequestContext) -> String {
    ctx.progress().report(1.0, Some(2.0), Some("half"));
    PROCEED.notified().await;
    "done".to_owned()
}

fn instance(redis: &RedisServer) -> Router {
    let server = Server::builder()
        .setting("redis.url", redis.url())
        .setting("redis.timeout_ms", 500)
        .build();
    router(server, "/mcp", HttpConfig::default())
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Opens a session on `app` for a client that can sample; its id.
async fn open_session(app: &Router) -> String {
    initialize_with(app, json!({"sampling": {}})).await
}

/// What `whoami` says on `app`, or the error body.
async fn whoami_on(app: &Router, session: &str) -> (StatusCode, Value) {
    let call = request(9, "tools/call", json!({"name": "whoami"}));
    let (status, body) = json_of(send(app, post(Some(session), &call)).await).await;
    let text = body["result"]["content"][0]["text"].as_str();
    (
        status,
        text.map_or(body.clone(), |t| serde_json::from_str(t).unwrap()),
    )
}

fn resume(session: &str, last: &str) -> Request<Body> {
    Request::get("/mcp")
        .header("accept", "text/event-stream")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", LEGACY)
        .header("last-event-id", last)
        .body(Body::empty())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_opened_on_one_instance_goes_on_on_another_with_what_it_settled() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (instance(&redis), instance(&redis));
    let session = open_session(&a).await;
    let set = request(1, "logging/setLevel", json!({"level": "error"}));
    assert_eq!(
        json_of(send(&a, post(Some(&session), &set)).await).await.0,
        StatusCode::OK
    );

    let (status, settled) = whoami_on(&b, &session).await;
    assert_eq!(status, StatusCode::OK, "{settled}");
    assert_eq!(
        settled,
        json!({"version": LEGACY, "client": "old", "level": "error", "sampling": true})
    );

    // Kept in Redis with the session's idle time (30 minutes by default).
    let client = redis::Client::open(redis.url()).unwrap();
    let mut c = client.get_multiplexed_async_connection().await.unwrap();
    let ttl: i64 = redis::cmd("PTTL")
        .arg(format!("mcp:session:{session}"))
        .query_async(&mut c)
        .await
        .unwrap();
    assert!(ttl > 29 * 60 * 1000 && ttl <= 30 * 60 * 1000, "{ttl}");

    // An id no instance minted is unknown, not loaded from Redis as a session.
    assert_eq!(
        whoami_on(&b, "0123456789abcdef0123456789abcdef").await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_broken_on_one_instance_resumes_on_another_with_exactly_what_it_missed() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (instance(&redis), instance(&redis));
    let session = open_session(&a).await;
    let call = request(
        4,
        "tools/call",
        json!({"name": "slow", "_meta": {"progressToken": 4}}),
    );
    let mut events = Events::of(send(&a, post(Some(&session), &call)).await);
    let priming = events.next().await.unwrap().id.unwrap();
    let progress = events.next().await.unwrap();
    assert!(
        progress.data.contains("notifications/progress"),
        "{progress:?}"
    );
    drop(events);
    PROCEED.notify_one();

    // A keeps its events in Redis as they go out, without holding them
    // back: B replays them once they are there.
    let deadline = Instant::now() + Duration::from_secs(5);
    let replayed = loop {
        let replayed = Events::of(send(&b, resume(&session, &priming)).await)
            .rest()
            .await;
        if replayed.len() == 2 || Instant::now() > deadline {
            break replayed;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(
        replayed.len(),
        2,
        "the progress, then the result: {replayed:?}"
    );
    assert_eq!(replayed[0].id, progress.id);
    assert_eq!(replayed[0].data, progress.data);
    let result: Value = serde_json::from_str(&replayed[1].data).unwrap();
    assert_eq!(result["id"], 4);
    assert_eq!(result["result"]["content"][0]["text"], "done");

    let after = progress.id.unwrap();
    let rest = Events::of(send(&b, resume(&session, &after)).await)
        .rest()
        .await;
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert_eq!(rest[0].id, replayed[1].id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_deleted_on_one_instance_is_unknown_on_every_one() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (instance(&redis), instance(&redis));
    let session = open_session(&a).await;
    assert_eq!(whoami_on(&b, &session).await.0, StatusCode::OK);
    let delete = Request::delete("/mcp")
        .header("mcp-session-id", &session)
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&b, delete).await.status(), StatusCode::OK);
    let fresh = instance(&redis);
    assert_eq!(whoami_on(&fresh, &session).await.0, StatusCode::NOT_FOUND);
    assert_eq!(whoami_on(&b, &session).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_redis_is_gone_a_session_it_holds_is_refused_at_once_and_served_once_it_is_back() {
    let Some(mut redis) = RedisServer::start_persistent() else {
        return;
    };
    let a = instance(&redis);
    let session = open_session(&a).await;
    redis.kill();

    let b = instance(&redis);
    let started = Instant::now();
    let (status, body) = whoami_on(&b, &session).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["error"]["code"], -32603);
    assert_eq!(body["id"], 9);
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("loading a session"), "{message}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "refused at once"
    );

    redis.restart();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, body) = whoami_on(&b, &session).await;
        if status == StatusCode::OK {
            assert_eq!(body["client"], "old");
            break;
        }
        assert!(Instant::now() < deadline, "B did not recover: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
