//! Streamable HTTP, 2026-07-28: a response is plain JSON unless a
//! notification must reach the client first, then an SSE stream without
//! event ids that ends with the response; closing that stream cancels the
//! request, and a handler that needs a client capability the request did
//! not declare fails the whole request with `-32021`.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use mcp_server::core::elicitation::ElicitRequestParams;
use mcp_server::core::logging::LoggingLevel;
use mcp_server::core::sampling::CreateMessageRequestParams;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{Event, Events, call_body, headers, json_body, post_bytes, send};
use serde_json::{Value, json};
use support::{add_text_tool, server_with, tool};
use tokio::sync::Notify;

/// What the `linger` and `still` tools saw.
#[derive(Clone, Default)]
struct Seen {
    started: Arc<Notify>,
    cancelled: Arc<AtomicBool>,
    noticed: Arc<Notify>,
}

/// The endpoint, with the default configuration.
fn app(seen: Seen) -> Router {
    app_with(seen, HttpConfig::default())
}

/// The endpoint and its tools, with this configuration.
fn app_with(seen: Seen, config: HttpConfig) -> Router {
    let server = server_with(move |c| {
        add_text_tool(c, "quiet", "shh");
        c.tool(
            tool("progress"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                ctx.progress().report(1.0, Some(2.0), Some("half"));
                tokio::time::sleep(Duration::from_millis(10)).await;
                ctx.progress().report(2.0, Some(2.0), Some("all"));
                tokio::time::sleep(Duration::from_millis(10)).await;
                Ok(CallToolResult::text("done"))
            }),
        );
        c.tool(
            tool("flash"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                ctx.progress().report(1.0, None, None);
                Ok(CallToolResult::text("flashed"))
            }),
        );
        c.tool(
            tool("chatty"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                ctx.log()
                    .log(LoggingLevel::Warning, Some("chatty"), "careful");
                ctx.log()
                    .log(LoggingLevel::Debug, Some("chatty"), "too fine");
                tokio::time::sleep(Duration::from_millis(10)).await;
                Ok(CallToolResult::text("said"))
            }),
        );
        c.tool(
            tool("panic"),
            handler_fn::<CallTool, _, _, _>(|_, _| async move {
                if true {
                    panic!("the tool broke");
                }
                Ok(CallToolResult::text("unreachable"))
            }),
        );
        let still = seen.clone();
        c.tool(
            tool("still"),
            handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                let seen = still.clone();
                async move {
                    seen.started.notify_one();
                    ctx.cancellation().cancelled().await;
                    seen.cancelled.store(true, Ordering::SeqCst);
                    seen.noticed.notify_one();
                    Ok(CallToolResult::text("cancelled"))
                }
            }),
        );
        let seen = seen.clone();
        c.tool(
            tool("linger"),
            handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                let seen = seen.clone();
                async move {
                    ctx.progress().report(1.0, None, Some("started"));
                    ctx.cancellation().cancelled().await;
                    seen.cancelled.store(true, Ordering::SeqCst);
                    seen.noticed.notify_one();
                    Ok(CallToolResult::text("cancelled"))
                }
            }),
        );
        c.tool(
            tool("sample"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                let params: CreateMessageRequestParams = serde_json::from_value(json!({
                    "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                    "maxTokens": 10
                }))
                .unwrap();
                Ok(match ctx.sample(params).await {
                    Ok(_) => CallToolResult::text("sampled"),
                    Err(error) => CallToolResult::error(error.to_string()),
                })
            }),
        );
        c.tool(
            tool("elicit"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                let params: ElicitRequestParams = serde_json::from_value(json!({
                    "message": "name?",
                    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
                }))
                .unwrap();
                Ok(match ctx.elicit(params).await {
                    Ok(_) => CallToolResult::text("elicited"),
                    Err(error) => CallToolResult::error(error.to_string()),
                })
            }),
        );
    });
    router(server, "/mcp", config)
}

/// A modern `tools/call` of `name` with all headers right and `extra` in `_meta`.
fn call(id: i64, name: &str, extra: Value) -> Request<Body> {
    let mut body = call_body(id, name);
    for (key, value) in extra.as_object().unwrap() {
        body["params"]["_meta"][key] = value.clone();
    }
    post_bytes(
        &headers("tools/call", Some(name)),
        serde_json::to_vec(&body).unwrap(),
    )
}

#[tokio::test]
async fn a_tool_that_sends_nothing_first_is_answered_with_plain_json() {
    let app = app(Seen::default());
    // Even with a progress token: nothing was reported, so no stream.
    let response = send(&app, call(1, "quiet", json!({"progressToken": "p"}))).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body = json_body(response).await;
    assert_eq!(body["id"], 1);
    assert_eq!(body["result"]["content"][0]["text"], "shh");
}

#[tokio::test]
async fn progress_is_streamed_before_the_response_without_event_ids() {
    let app = app(Seen::default());
    let response = send(&app, call(2, "progress", json!({"progressToken": "tok"}))).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    assert_eq!(response.headers()["cache-control"], "no-cache");
    assert_eq!(response.headers()["x-accel-buffering"], "no");
    let mut events = Events::unchecked(response);
    let all = events.rest().await;
    assert_eq!(
        all.len(),
        3,
        "two progress events and the response: {all:?}"
    );
    for (event, progress) in all[..2].iter().zip([1.0, 2.0]) {
        let message = event.json();
        assert_eq!(message["method"], "notifications/progress");
        assert_eq!(message["params"]["progressToken"], "tok");
        assert_eq!(message["params"]["progress"], progress);
        assert_eq!(message["params"]["total"], 2.0);
        assert!(message.get("id").is_none(), "a notification: {message}");
    }
    let response = all[2].json();
    assert_eq!(response["id"], 2);
    assert_eq!(response["result"]["content"][0]["text"], "done");
    assert_eq!(response["result"]["resultType"], "complete");
    assert!(all.iter().all(|e| e.id.is_none() && e.retry.is_none()));
    assert!(
        !events.raw.lines().any(|l| l.starts_with("id:")),
        "a modern stream has no event ids: {}",
        events.raw
    );
}

#[tokio::test]
async fn a_tool_that_reports_progress_and_returns_at_once_still_sends_its_response() {
    let app = app(Seen::default());
    // `respond` selects between the handler finishing and a notification
    // forcing a stream; when both are ready either may win, so try often.
    for id in 0..32 {
        let response = send(&app, call(id, "flash", json!({"progressToken": id}))).await;
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        let all = Events::unchecked(response).rest().await;
        let last = all.last().map(Event::json);
        assert_eq!(
            last.as_ref().map(|m| m["id"].clone()),
            Some(json!(id)),
            "attempt {id}: the stream ends with the response: {all:?}"
        );
        assert_eq!(all[0].json()["method"], "notifications/progress");
    }
}

#[tokio::test]
async fn log_messages_the_request_opted_into_are_streamed_first() {
    let app = app(Seen::default());
    let response = send(
        &app,
        call(
            3,
            "chatty",
            json!({"io.modelcontextprotocol/logLevel": "info"}),
        ),
    )
    .await;
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let all = Events::unchecked(response).rest().await;
    assert_eq!(all.len(), 2, "{all:?}");
    let log = all[0].json();
    assert_eq!(log["method"], "notifications/message");
    assert_eq!(log["params"]["level"], "warning");
    assert_eq!(log["params"]["data"], "careful");
    assert_eq!(all[1].json()["result"]["content"][0]["text"], "said");
}

#[tokio::test]
async fn without_a_log_level_log_messages_do_not_force_a_stream() {
    let app = app(Seen::default());
    let response = send(&app, call(4, "chatty", json!({}))).await;
    assert_eq!(response.headers()["content-type"], "application/json");
    assert_eq!(
        json_body(response).await["result"]["content"][0]["text"],
        "said"
    );
}

#[tokio::test]
async fn closing_the_stream_cancels_the_request() {
    let seen = Seen::default();
    let app = app(seen.clone());
    let response = send(&app, call(5, "linger", json!({"progressToken": 5}))).await;
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut events = Events::unchecked(response);
    let first = events.next().await.unwrap();
    assert_eq!(first.json()["method"], "notifications/progress");
    assert!(!seen.cancelled.load(Ordering::SeqCst), "still running");
    drop(events);
    tokio::time::timeout(Duration::from_secs(2), seen.noticed.notified())
        .await
        .expect("the handler sees its cancellation once the stream is closed");
    assert!(seen.cancelled.load(Ordering::SeqCst));
}

#[tokio::test]
async fn sampling_without_the_client_capability_fails_the_request_with_32021() {
    let app = app(Seen::default());
    let response = send(&app, call(6, "sample", json!({}))).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body = json_body(response).await;
    assert_eq!(body["id"], 6);
    assert_eq!(body["error"]["code"], -32021, "{body}");
    assert!(body.get("result").is_none());
    assert_eq!(
        body["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}}),
        "{body}"
    );
}

#[tokio::test]
async fn elicitation_without_the_client_capability_fails_the_request_with_32021() {
    let app = app(Seen::default());
    let response = send(&app, call(7, "elicit", json!({}))).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body = json_body(response).await;
    assert_eq!(body["id"], 7);
    assert_eq!(body["error"]["code"], -32021, "{body}");
    assert_eq!(
        body["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {}}),
        "{body}"
    );
}

#[tokio::test]
async fn a_client_that_goes_away_before_any_answer_cancels_the_request() {
    let seen = Seen::default();
    let app = app(seen.clone());
    let waiting = {
        let app = app.clone();
        tokio::spawn(async move { send(&app, call(8, "still", json!({}))).await })
    };
    tokio::time::timeout(Duration::from_secs(2), seen.started.notified())
        .await
        .unwrap();
    // The connection closes: the server's future for the POST is dropped.
    waiting.abort();
    tokio::time::timeout(Duration::from_secs(2), seen.noticed.notified())
        .await
        .expect("the handler sees its cancellation");
    assert!(seen.cancelled.load(Ordering::SeqCst));
}

#[tokio::test]
async fn a_streaming_request_that_runs_too_long_ends_its_stream_with_the_timeout_error() {
    let seen = Seen::default();
    let app = app_with(
        seen.clone(),
        HttpConfig::default().request_timeout(Duration::from_millis(100)),
    );
    let response = send(&app, call(9, "linger", json!({"progressToken": 9}))).await;
    let all = Events::unchecked(response).rest().await;
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!(all[0].json()["method"], "notifications/progress");
    let error = all[1].json();
    assert_eq!(error["id"], 9);
    assert_eq!(error["error"]["code"], -32603, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("timed out"),
        "{error}"
    );
}

#[tokio::test]
async fn a_handler_that_panics_is_answered_with_an_internal_error() {
    let app = app(Seen::default());
    let response = send(&app, call(10, "panic", json!({}))).await;
    assert_eq!(response.headers()["content-type"], "application/json");
    let body = json_body(response).await;
    assert_eq!(body["id"], 10);
    assert_eq!(body["error"]["code"], -32603, "{body}");
    // And the endpoint serves on.
    let response = send(&app, call(11, "quiet", json!({}))).await;
    assert_eq!(
        json_body(response).await["result"]["content"][0]["text"],
        "shh"
    );
}

/// A modern request to a client that ranks a stream above JSON.
fn stream_first(id: i64, method: &str, name: Option<&str>, params: Value) -> Request<Body> {
    let mut body = call_body(id, name.unwrap_or("quiet"));
    body["method"] = json!(method);
    let meta = body["params"]["_meta"].clone();
    body["params"] = params;
    body["params"]["_meta"] = meta;
    let mut request = post_bytes(&headers(method, name), serde_json::to_vec(&body).unwrap());
    request.headers_mut().insert(
        "accept",
        "text/event-stream, application/json".parse().unwrap(),
    );
    request
}

#[tokio::test]
async fn a_client_that_ranks_streams_first_gets_even_a_quick_answer_as_a_stream() {
    let app = app(Seen::default());
    let response = send(
        &app,
        stream_first(12, "tools/call", Some("quiet"), json!({"name": "quiet"})),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let events = Events::unchecked(response).rest().await;
    assert_eq!(
        events.len(),
        1,
        "only the response, without a priming event"
    );
    assert_eq!(events[0].json()["result"]["content"][0]["text"], "shh");
}

#[tokio::test]
async fn a_refusal_keeps_its_status_even_for_a_client_that_ranks_streams_first() {
    let app = app(Seen::default());
    let response = send(&app, stream_first(13, "no/such", None, json!({}))).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body = json_body(response).await;
    assert_eq!(body["error"]["code"], -32601);
    assert_eq!(body["id"], 13);
}
