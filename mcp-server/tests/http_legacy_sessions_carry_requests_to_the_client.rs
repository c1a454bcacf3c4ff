//! Streamable HTTP, 2025-11-25: a handler's elicitation or sampling goes to
//! the client as a JSON-RPC request on the SSE stream of the call that
//! asks (after a priming event); the client POSTs its response (`202`) and
//! the same stream carries the result built from it. A client without the
//! capability is never asked, and `notifications/cancelled` cancels the
//! request it names.

mod support;

use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use mcp_server::core::elicitation::ElicitRequestParams;
use mcp_server::core::sampling::CreateMessageRequestParams;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{Events, initialize_with, json_body, post, send};
use serde_json::{Value, json};
use support::{Signals, server_with, tool};

/// Tools: `ask` (elicits a name), `sample` (asks the model), `wait` (runs
/// until cancelled).
fn app(config: HttpConfig, signals: Signals) -> Router {
    let server = server_with(move |c| {
        c.tool(
            tool("ask"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                let params: ElicitRequestParams = serde_json::from_value(json!({
                    "message": "Your name?",
                    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
                }))
                .unwrap();
                Ok(match ctx.elicit(params).await {
                    Ok(answer) => {
                        let answer = serde_json::to_value(answer).unwrap();
                        match answer["content"]["name"].as_str() {
                            Some(name) => CallToolResult::text(format!("hello {name}")),
                            None => CallToolResult::text(format!("no name: {}", answer["action"])),
                        }
                    }
                    Err(error) => CallToolResult::error(error.to_string()),
                })
            }),
        );
        c.tool(
            tool("sample"),
            handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                let params: CreateMessageRequestParams = serde_json::from_value(json!({
                    "messages": [{"role": "user", "content": {"type": "text", "text": "2+2?"}}],
                    "maxTokens": 5
                }))
                .unwrap();
                Ok(match ctx.sample(params).await {
                    Ok(answer) => {
                        let answer = serde_json::to_value(answer).unwrap();
                        CallToolResult::text(format!(
                            "{} said {}",
                            answer["model"].as_str().unwrap(),
                            answer["content"]["text"].as_str().unwrap()
                        ))
                    }
                    Err(error) => CallToolResult::error(error.to_string()),
                })
            }),
        );
        let streaming = signals.clone();
        c.tool(
            tool("wait_streaming"),
            handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                let signals = streaming.clone();
                async move {
                    ctx.progress().report(1.0, None, Some("waiting"));
                    signals.started.notify_one();
                    ctx.cancellation().cancelled().await;
                    signals.cancelled.notify_one();
                    Ok(CallToolResult::text("cancelled"))
                }
            }),
        );
        let signals = signals.clone();
        c.tool(
            tool("wait"),
            handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                let signals = signals.clone();
                async move {
                    signals.started.notify_one();
                    ctx.cancellation().cancelled().await;
                    signals.cancelled.notify_one();
                    Ok(CallToolResult::text("cancelled"))
                }
            }),
        );
    });
    router(server, "/mcp", config)
}

/// A legacy `tools/call` body of `name`, without `_meta`.
fn call(id: i64, name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name}})
}

/// Reads the priming event and the request to the client that follows it.
async fn priming_then_request(events: &mut Events, method: &str) -> Value {
    let priming = events.next().await.unwrap();
    assert!(
        priming.id.as_deref().is_some_and(|id| !id.is_empty()),
        "{priming:?}"
    );
    assert_eq!(priming.retry.as_deref(), Some("1000"), "{priming:?}");
    assert_eq!(priming.data, "", "a priming event has empty data");
    let asked = events.next().await.unwrap();
    assert!(asked.id.is_some(), "a legacy event has an id: {asked:?}");
    assert_ne!(asked.id, priming.id);
    let request = asked.json();
    assert_eq!(request["jsonrpc"], "2.0");
    assert_eq!(request["method"], method, "{request}");
    assert!(
        request["id"].is_i64() || request["id"].is_string(),
        "a request: {request}"
    );
    request
}

/// The last event: the tool's response to `id`, after which the stream ends.
async fn response_then_end(events: &mut Events, id: i64) -> Value {
    let event = events.next().await.unwrap();
    assert!(event.id.is_some(), "{event:?}");
    let response = event.json();
    assert_eq!(response["id"], id, "{response}");
    assert!(
        events.next().await.is_none(),
        "the response ends the stream"
    );
    response
}

#[tokio::test]
async fn an_elicitation_goes_out_on_the_call_stream_and_its_answer_comes_back_by_post() {
    let app = app(HttpConfig::default(), Signals::default());
    let session = initialize_with(&app, json!({"elicitation": {}})).await;
    let response = send(&app, post(Some(&session), &call(2, "ask"))).await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut events = Events::of(response);
    let request = priming_then_request(&mut events, "elicitation/create").await;
    assert_eq!(request["params"]["message"], "Your name?");
    assert_eq!(
        request["params"]["requestedSchema"]["properties"]["name"]["type"],
        "string"
    );

    let answer = json!({"jsonrpc": "2.0", "id": request["id"],
        "result": {"action": "accept", "content": {"name": "Ada"}}});
    let accepted = send(&app, post(Some(&session), &answer)).await;
    assert_eq!(accepted.status(), StatusCode::ACCEPTED);
    assert!(
        to_bytes(accepted.into_body(), usize::MAX)
            .await
            .unwrap()
            .is_empty()
    );

    let response = response_then_end(&mut events, 2).await;
    assert_eq!(response["result"]["content"][0]["text"], "hello Ada");
    assert!(response["result"].get("isError").is_none(), "{response}");
}

#[tokio::test]
async fn a_sampling_request_goes_out_on_the_call_stream_and_its_answer_comes_back_by_post() {
    let app = app(HttpConfig::default(), Signals::default());
    let session = initialize_with(&app, json!({"sampling": {}})).await;
    let response = send(&app, post(Some(&session), &call(3, "sample"))).await;
    let mut events = Events::of(response);
    let request = priming_then_request(&mut events, "sampling/createMessage").await;
    assert_eq!(request["params"]["maxTokens"], 5);
    assert_eq!(request["params"]["messages"][0]["content"]["text"], "2+2?");

    let answer = json!({"jsonrpc": "2.0", "id": request["id"], "result": {
        "role": "assistant", "content": {"type": "text", "text": "4"}, "model": "tiny", "stopReason": "endTurn"}});
    assert_eq!(
        send(&app, post(Some(&session), &answer)).await.status(),
        StatusCode::ACCEPTED
    );
    let response = response_then_end(&mut events, 3).await;
    assert_eq!(response["result"]["content"][0]["text"], "tiny said 4");
}

#[tokio::test]
async fn a_client_error_answer_reaches_the_handler_as_a_refusal() {
    let app = app(HttpConfig::default(), Signals::default());
    let session = initialize_with(&app, json!({"elicitation": {}})).await;
    let mut events = Events::of(send(&app, post(Some(&session), &call(4, "ask"))).await);
    let request = priming_then_request(&mut events, "elicitation/create").await;
    let refusal = json!({"jsonrpc": "2.0", "id": request["id"],
        "error": {"code": -32600, "message": "user closed the dialog"}});
    assert_eq!(
        send(&app, post(Some(&session), &refusal)).await.status(),
        StatusCode::ACCEPTED
    );
    let response = response_then_end(&mut events, 4).await;
    assert_eq!(response["result"]["isError"], true, "{response}");
    let text = response["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("user closed the dialog"), "{text}");
}

#[tokio::test]
async fn a_client_that_never_answers_times_the_handler_out() {
    let app = app(
        HttpConfig::default().input_timeout(Duration::from_millis(100)),
        Signals::default(),
    );
    let session = initialize_with(&app, json!({"elicitation": {}})).await;
    let mut events = Events::of(send(&app, post(Some(&session), &call(5, "ask"))).await);
    priming_then_request(&mut events, "elicitation/create").await;
    let response = response_then_end(&mut events, 5).await;
    assert_eq!(response["result"]["isError"], true, "{response}");
}

#[tokio::test]
async fn a_client_without_the_capability_is_never_asked() {
    let app = app(HttpConfig::default(), Signals::default());
    let session = initialize_with(&app, json!({})).await;
    for (id, name, capability) in [(6, "ask", "elicitation"), (7, "sample", "sampling")] {
        let response = send(&app, post(Some(&session), &call(id, name))).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "no request went out, so no stream"
        );
        let body = json_body(response).await;
        assert_eq!(body["id"], id);
        assert!(
            body.get("error").is_none(),
            "legacy: the tool decides: {body}"
        );
        assert_eq!(body["result"]["isError"], true, "{body}");
        let text = body["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains(capability), "{text}");
    }
}

#[tokio::test]
async fn notifications_cancelled_cancels_the_request_it_names() {
    let signals = Signals::default();
    let app = app(HttpConfig::default(), signals.clone());
    let session = initialize_with(&app, json!({})).await;
    let running = {
        let app = app.clone();
        let session = session.clone();
        tokio::spawn(async move { send(&app, post(Some(&session), &call(8, "wait"))).await })
    };
    tokio::time::timeout(Duration::from_secs(2), signals.started.notified())
        .await
        .unwrap();
    // Another id cancels nothing.
    let other =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}});
    assert_eq!(
        send(&app, post(Some(&session), &other)).await.status(),
        StatusCode::ACCEPTED
    );
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 8, "reason": "changed my mind"}});
    assert_eq!(
        send(&app, post(Some(&session), &cancel)).await.status(),
        StatusCode::ACCEPTED
    );
    tokio::time::timeout(Duration::from_secs(2), signals.cancelled.notified())
        .await
        .expect("the handler saw its cancellation");
    let response = tokio::time::timeout(Duration::from_secs(2), running)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body = json_body(response).await;
    assert_eq!(body["id"], 8);
    assert_eq!(body["result"]["content"][0]["text"], "cancelled");
}

#[tokio::test]
async fn notifications_cancelled_cancels_a_request_whose_response_is_streaming() {
    let signals = Signals::default();
    let app = app(HttpConfig::default(), signals.clone());
    let session = initialize_with(&app, json!({})).await;
    let body = json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call",
        "params": {"name": "wait_streaming", "_meta": {"progressToken": "w"}}});
    let mut events = Events::of(send(&app, post(Some(&session), &body)).await);
    events.next().await.unwrap(); // priming
    assert_eq!(
        events.next().await.unwrap().json()["method"],
        "notifications/progress"
    );
    let cancel =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 11}});
    assert_eq!(
        send(&app, post(Some(&session), &cancel)).await.status(),
        StatusCode::ACCEPTED
    );
    tokio::time::timeout(Duration::from_millis(500), signals.cancelled.notified())
        .await
        .expect("the streaming request saw its cancellation");
    let response = response_then_end(&mut events, 11).await;
    assert_eq!(response["result"]["content"][0]["text"], "cancelled");
}

#[tokio::test]
async fn deleting_the_session_cancels_its_running_requests() {
    let signals = Signals::default();
    let app = app(HttpConfig::default(), signals.clone());
    let session = initialize_with(&app, json!({})).await;
    let running = {
        let app = app.clone();
        let session = session.clone();
        tokio::spawn(async move { send(&app, post(Some(&session), &call(12, "wait"))).await })
    };
    tokio::time::timeout(Duration::from_secs(2), signals.started.notified())
        .await
        .unwrap();
    let delete = Request::delete("/mcp")
        .header("mcp-session-id", &session)
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&app, delete).await.status(), StatusCode::OK);
    tokio::time::timeout(Duration::from_secs(2), signals.cancelled.notified())
        .await
        .expect("the end of the session cancels its requests");
    let response = tokio::time::timeout(Duration::from_secs(2), running)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(json_body(response).await["id"], 12);
}

#[tokio::test]
async fn the_answer_to_an_input_request_is_accepted_even_at_the_concurrency_limit() {
    let app = app(
        HttpConfig::default()
            .max_concurrent_requests(1)
            .input_timeout(Duration::from_secs(2)),
        Signals::default(),
    );
    let session = initialize_with(&app, json!({"elicitation": {}})).await;
    let mut events = Events::of(send(&app, post(Some(&session), &call(9, "ask"))).await);
    let request = priming_then_request(&mut events, "elicitation/create").await;
    let answer = json!({"jsonrpc": "2.0", "id": request["id"],
        "result": {"action": "accept", "content": {"name": "Ada"}}});
    let accepted = send(&app, post(Some(&session), &answer)).await;
    assert_eq!(
        accepted.status(),
        StatusCode::ACCEPTED,
        "a response is not a request: it must not be refused as one"
    );
    let response = response_then_end(&mut events, 9).await;
    assert_eq!(response["result"]["content"][0]["text"], "hello Ada");
}

#[tokio::test]
async fn notifications_cancelled_is_accepted_even_at_the_concurrency_limit() {
    let signals = Signals::default();
    let app = app(
        HttpConfig::default().max_concurrent_requests(1),
        signals.clone(),
    );
    let session = initialize_with(&app, json!({})).await;
    let running = {
        let app = app.clone();
        let session = session.clone();
        tokio::spawn(async move { send(&app, post(Some(&session), &call(10, "wait"))).await })
    };
    tokio::time::timeout(Duration::from_secs(2), signals.started.notified())
        .await
        .unwrap();
    let cancel =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 10}});
    let status = send(&app, post(Some(&session), &cancel)).await.status();
    running.abort();
    assert_eq!(status, StatusCode::ACCEPTED);
}
