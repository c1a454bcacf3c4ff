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
use axum::http::{Request, Response, StatusCode};
use futures_util::StreamExt;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_server::{RequestContext, Server, tool};
use mcp_tests::redis::RedisServer;
use mcp_tests::sse::{Event, next_event};
use serde_json::{Value, json};
use tokio::sync::Notify;
use tower::ServiceExt;

use mcp_redis as _;

const LEGACY: &str = "2025-11-25";

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

async fn send(app: &Router, request: Request<Body>) -> Response<Body> {
    app.clone().oneshot(request).await.unwrap()
}

fn post(session: Option<&str>, body: &Value) -> Request<Body> {
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

async fn json_of(response: Response<Body>) -> (StatusCode, Value) {
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Opens a session on `app` for a client that can sample; its id.
async fn initialize(app: &Router) -> String {
    let body = request(
        0,
        "initialize",
        json!({"protocolVersion": LEGACY, "capabilities": {"sampling": {}},
            "clientInfo": {"name": "old", "version": "1"}}),
    );
    let response = send(app, post(None, &body)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = send(app, post(Some(&session), &initialized)).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    session
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

/// Reads SSE events off a response body.
struct Events {
    body: axum::body::BodyDataStream,
    buffer: String,
}

impl Events {
    fn of(response: Response<Body>) -> Self {
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Self {
            body: response.into_body().into_data_stream(),
            buffer: String::new(),
        }
    }

    /// The next event with fields; `None` when the stream ends.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = next_event(&mut self.buffer) {
                return Some(event);
            }
            let chunk = self.body.next().await?.unwrap();
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// Every event until the stream ends.
    async fn rest(mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while let Some(event) = self.next().await {
            events.push(event);
        }
        events
    }
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
    let session = initialize(&a).await;
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
    let session = initialize(&a).await;
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
    let session = initialize(&a).await;
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
    let session = initialize(&a).await;
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
