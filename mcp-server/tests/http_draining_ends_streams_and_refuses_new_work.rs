//! Once a server's shutdown begins, its HTTP endpoint refuses new work
//! with `503`, `Connection: close` and `Retry-After`; a listen stream ends
//! with its listen result; a legacy session's standalone stream closes
//! with a `retry` hint, so its client reconnects elsewhere; `/readyz`
//! fails while `/healthz` passes; and the probes run the health checks
//! crates contribute, each within its timeout, naming each by status
//! only. `serve_until_drained` returns once the request it held answered,
//! and a drain ends only once the events a session streamed are written.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::contributor::health::{HealthCheck, Probe};
use mcp_server::seam::store::{EventId, EventStore, MemoryEventStore, Replay, Unavailable};
use mcp_server::transport::http::{HttpConfig, bind, router, serve_until_drained};
use mcp_server::{BoxFuture, Server};
use mcp_tests::http::{
    Events, call_body, headers, initialize, initialize_with, json_body, post, post_bytes, send,
};
use serde_json::{Value, json};
use support::{builder, origin, tool};

fn server() -> Server {
    builder()
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(|c| {
                c.tool(
                    tool("slow"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        tokio::time::sleep(Duration::from_millis(300)).await;
                        Ok(CallToolResult::text("slow done"))
                    }),
                );
            }),
        )
        .register(
            origin("db", 1),
            "db",
            0,
            Item::health_check(HealthCheck::new("db", Probe::Readiness, || async {
                Err("connection refused by postgres://admin:hunter2@db".to_owned())
            })),
        )
        .register(
            origin("disk", 1),
            "disk",
            0,
            Item::health_check(
                HealthCheck::new("disk", Probe::Both, || async {
                    std::future::pending::<()>().await;
                    Ok(())
                })
                .timeout(Duration::from_millis(50)),
            ),
        )
        .register(
            origin("cpu", 1),
            "cpu",
            0,
            Item::health_check(HealthCheck::new("cpu", Probe::Liveness, || async {
                Ok(())
            })),
        )
        .build()
}

fn listen() -> Request<Body> {
    let body = json!({"jsonrpc": "2.0", "id": "l", "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}},
        "notifications": {"toolsListChanged": true}}});
    post_bytes(
        &headers("subscriptions/listen", None),
        serde_json::to_vec(&body).unwrap(),
    )
}

async fn probe(app: &axum::Router, path: &str) -> (StatusCode, Value) {
    let response = send(app, Request::get(path).body(Body::empty()).unwrap()).await;
    let status = response.status();
    (status, json_body(response).await)
}

#[tokio::test]
async fn probes_name_each_check_by_status_and_never_say_why() {
    let app = router(server(), "/mcp", HttpConfig::default());
    let (status, ready) = probe(&app, "/readyz").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let names: Vec<(&str, &str)> = ready["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["status"].as_str().unwrap()))
        .collect();
    assert_eq!(names, [("db", "fail"), ("disk", "timeout")], "{ready}");
    assert!(!ready.to_string().contains("hunter2"), "{ready}");
    assert!(ready["checks"][1]["durationMs"].as_u64().unwrap() >= 50);
    let (status, live) = probe(&app, "/healthz").await;
    assert_eq!(
        status,
        StatusCode::SERVICE_UNAVAILABLE,
        "disk counts for both: {live}"
    );
    let live_names: Vec<&str> = live["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(live_names, ["cpu", "disk"]);
    // The boot report lists the checks.
    assert!(server().report().to_string().contains("health check `db`"));
}

#[tokio::test]
async fn a_drain_refuses_new_work_and_ends_listen_and_legacy_streams() {
    let server = builder().build();
    let app = router(server.clone(), "/mcp", HttpConfig::default());
    let mut listening = Events::of(send(&app, listen()).await);
    assert_eq!(
        listening.next().await.unwrap().json()["method"],
        "notifications/subscriptions/acknowledged"
    );
    let session = initialize(&app).await;
    let standalone = send(
        &app,
        Request::get("/mcp")
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-11-25")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(standalone.status(), StatusCode::OK);
    let mut standalone = Events::unchecked(standalone);
    assert_eq!(probe(&app, "/readyz").await.0, StatusCode::OK);

    server.shutdown().begin();
    let result = listening.next().await.unwrap().json();
    assert_eq!(result["id"], "l");
    assert_eq!(result["result"]["resultType"], "complete");
    assert!(listening.next().await.is_none(), "the listen stream ended");
    let rest = standalone.rest().await;
    assert!(standalone.raw.contains("retry: "), "{}", standalone.raw);
    drop(rest);

    let refused = send(
        &app,
        post(
            Some(&session),
            &json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
        ),
    )
    .await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(refused.headers()["connection"], "close");
    assert_eq!(refused.headers()["retry-after"], "1");
    let (status, ready) = probe(&app, "/readyz").await;
    assert_eq!(
        (status, ready["draining"].clone()),
        (StatusCode::SERVICE_UNAVAILABLE, json!(true))
    );
    assert_eq!(probe(&app, "/healthz").await.0, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_until_drained_returns_once_the_call_it_held_is_answered() {
    let server = server();
    let shutdown = server.shutdown().clone();
    let begin = shutdown.clone();
    let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let port = listener.local_addr().unwrap().port();
    let config = HttpConfig::default();
    let app = router(server, "/mcp", config.clone());
    let serving =
        tokio::spawn(async move { serve_until_drained(listener, app, &config, &shutdown).await });
    let call = tokio::task::spawn_blocking(move || {
        let body = call_body(1, "slow").to_string();
        let mut sent = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        sent.extend(headers("tools/call", Some("slow")));
        mcp_tests::http::http1_request(port, "POST", "/mcp", &sent, body.as_bytes()).json()
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    begin.begin();
    let answer = call.await.unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "slow done");
    let drained = tokio::time::timeout(Duration::from_secs(3), serving)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(drained.cut, 0);
}

/// An event store on another machine: each write lands 100 ms after it
/// was asked for, and is counted then.
#[derive(Default)]
struct SlowEvents {
    kept: MemoryEventStore,
    landed: AtomicUsize,
}

impl EventStore for SlowEvents {
    fn append<'a>(
        &'a self,
        session: &'a str,
        id: EventId,
        message: Vec<u8>,
    ) -> BoxFuture<'a, Result<(), Unavailable>> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            self.kept.append(session, id, message).await?;
            self.landed.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
    }

    fn replay_after<'a>(
        &'a self,
        session: &'a str,
        last_event_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<Replay>, Unavailable>> {
        self.kept.replay_after(session, last_event_id)
    }

    fn forget<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<(), Unavailable>> {
        self.kept.forget(session)
    }

    fn is_shared(&self) -> bool {
        true
    }
}

#[tokio::test]
async fn a_drain_ends_only_once_every_event_a_session_streamed_is_written() {
    let events = Arc::new(SlowEvents::default());
    let server = builder()
        .supply::<dyn EventStore>(origin("remote", 1), "slow-events", events.clone())
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(|c| {
                c.tool(
                    tool("chatty"),
                    handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                        for step in 1..=3 {
                            ctx.progress().report(f64::from(step), Some(3.0), None);
                        }
                        Ok(CallToolResult::text("said it all"))
                    }),
                );
            }),
        )
        .build();
    let app = router(server.clone(), "/mcp", HttpConfig::default());
    let session = initialize(&app).await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "chatty", "_meta": {"progressToken": 7}}});
    let streamed = Events::of(send(&app, post(Some(&session), &call)).await)
        .rest()
        .await;
    let numbered = streamed.iter().filter(|e| e.id.is_some()).count();
    assert!(
        numbered >= 4,
        "progress and result were numbered: {streamed:?}"
    );

    server.shutdown().begin();
    let drained = tokio::time::timeout(Duration::from_secs(5), server.shutdown().drained())
        .await
        .expect("the writes finish well within the deadline");
    assert_eq!(drained.cut, 0);
    assert_eq!(
        events.landed.load(Ordering::SeqCst),
        numbered,
        "every streamed event is in the store when the drain ends"
    );
}

#[tokio::test]
async fn a_drain_cancels_a_question_waiting_on_the_client_and_the_call_is_still_answered() {
    let server = builder()
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(|c| {
                c.tool(
                    tool("ask"),
                    handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                        let params = serde_json::from_value(json!({
                            "message": "Your name?",
                            "requestedSchema": {"type": "object", "properties": {}}
                        }))
                        .unwrap();
                        Ok(match ctx.elicit(params).await {
                            Ok(_) => CallToolResult::text("answered"),
                            Err(error) => CallToolResult::error(error.to_string()),
                        })
                    }),
                );
            }),
        )
        .build();
    let app = router(server.clone(), "/mcp", HttpConfig::default());
    let session = initialize_with(&app, json!({"elicitation": {}})).await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "ask"}});
    let mut streamed = Events::of(send(&app, post(Some(&session), &call)).await);
    let asked = loop {
        let event = streamed.next().await.expect("the question comes");
        if !event.data.is_empty() {
            break event.json();
        }
    };
    assert_eq!(asked["method"], "elicitation/create");

    server.shutdown().begin();
    let answer = streamed.next().await.expect("the call is answered").json();
    assert_eq!(answer["id"], 2);
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(streamed.next().await.is_none());
    let drained = tokio::time::timeout(Duration::from_secs(2), server.shutdown().drained())
        .await
        .expect("nothing is left waiting on the client");
    assert_eq!(drained.cut, 0);
}
