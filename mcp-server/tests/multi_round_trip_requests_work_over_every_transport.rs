//! One multi round-trip exchange (two inputs in the first round, one in the
//! second, the answer in the third) over Streamable HTTP with JSON and with
//! SSE replies, and over stdio; the in-memory client has its own tests.

mod support;

use std::future::Future;

use axum::Router;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_server::transport::stdio;
use mcp_tests::http::{Events, json_body, post_modern, send};
use serde_json::{Value, json};
use support::rounds::{Runs, SURVEY_TEXT, responses_to, survey_server};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const SECRET: &str = "a shared secret of more than thirty-two bytes";

/// The survey's params, with `_meta` declaring every input capability.
fn survey_params() -> Value {
    json!({"name": "survey", "arguments": {"topic": "tea"}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}}
    }})
}

/// Runs the three rounds through `call`, which sends params with a new id
/// each time and returns the `result`.
async fn three_rounds<F, Fut>(mut call: F)
where
    F: FnMut(Value) -> Fut,
    Fut: Future<Output = Value>,
{
    let params = survey_params();
    let first = call(params.clone()).await;
    assert_eq!(first["resultType"], "input_required", "{first}");
    assert_eq!(first["inputRequests"].as_object().unwrap().len(), 2);
    let mut retry = params.clone();
    retry["inputResponses"] = responses_to(&first);
    retry["requestState"] = first["requestState"].clone();
    let second = call(retry).await;
    assert_eq!(second["resultType"], "input_required", "{second}");
    assert_eq!(second["inputRequests"].as_object().unwrap().len(), 1);
    let mut retry = params.clone();
    retry["inputResponses"] = responses_to(&second);
    retry["requestState"] = second["requestState"].clone();
    let third = call(retry).await;
    assert_eq!(third["resultType"], "complete", "{third}");
    assert_eq!(third["content"][0]["text"], SURVEY_TEXT);
}

fn app() -> Router {
    router(
        survey_server(SECRET, Runs::default()),
        "/mcp",
        HttpConfig::default(),
    )
}

/// A modern `tools/call` of the survey with `params`, from a client that accepts `accept`.
fn survey_call(id: i64, params: &Value, accept: &str) -> axum::http::Request<axum::body::Body> {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    let mut request = post_modern("tools/call", Some("survey"), &body);
    request
        .headers_mut()
        .insert("accept", accept.parse().unwrap());
    request
}

#[tokio::test]
async fn over_http_with_json_replies() {
    let app = app();
    let mut id = 0;
    three_rounds(|params| {
        id += 1;
        let request = survey_call(id, &params, "application/json, text/event-stream");
        let app = app.clone();
        async move {
            let response = send(&app, request).await;
            assert_eq!(response.headers()["content-type"], "application/json");
            let body = json_body(response).await;
            assert_eq!(body["id"], id);
            body["result"].clone()
        }
    })
    .await;
}

#[tokio::test]
async fn over_http_with_sse_replies() {
    let app = app();
    let mut id = 0;
    three_rounds(|params| {
        id += 1;
        let request = survey_call(id, &params, "text/event-stream, application/json");
        let app = app.clone();
        async move {
            let mut events = Events::of(send(&app, request).await);
            let message = events.next().await.expect("the response event").json();
            assert_eq!(message["id"], id);
            message["result"].clone()
        }
    })
    .await;
}

#[tokio::test]
async fn over_stdio() {
    let server = survey_server(SECRET, Runs::default());
    let (client, transport) = tokio::io::duplex(64 * 1024);
    let (transport_in, transport_out) = tokio::io::split(transport);
    let serving = tokio::spawn(stdio::serve(server, transport_in, transport_out));
    let (output, input) = tokio::io::split(client);
    let input = std::sync::Arc::new(tokio::sync::Mutex::new(input));
    let output = std::sync::Arc::new(tokio::sync::Mutex::new(BufReader::new(output).lines()));
    let mut id = 0;
    three_rounds(|params| {
        id += 1;
        let (input, output) = (input.clone(), output.clone());
        async move {
            let message =
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
            let mut line = serde_json::to_vec(&message).unwrap();
            line.push(b'\n');
            input.lock().await.write_all(&line).await.unwrap();
            let line = output.lock().await.next_line().await.unwrap().unwrap();
            let answer: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(answer["id"], id);
            answer["result"].clone()
        }
    })
    .await;
    drop(input);
    serving.abort();
}
