//! `http-echo-peer ADDRESS:PORT`: answers every `POST /mcp` holding a
//! JSON-RPC `tools/call` with a text result, and nothing else: no protocol,
//! no sessions, no checks. It is the floor a framework's HTTP path is
//! measured against, written as fast as axum and serde allow.
//!
//! The request is decoded into borrowed, typed fields: the id is kept as
//! raw JSON, the method and tool name are borrowed strings, and an `echo`
//! call's `text` argument is borrowed unless it holds an escape. The reply
//! is serialized from borrowed fields into one buffer. No `Value` is built
//! either way. A call with a `text` argument is answered with that text
//! (the framework's `echo`); one without, with the text `mcp-demo`'s
//! `test_simple_text` gives.

use std::borrow::Cow;
use std::net::SocketAddr;

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// What `test_simple_text` answers.
const SIMPLE_TEXT: &str = "This is a simple text response for testing.";

/// The parts of a JSON-RPC request an answer needs, borrowed from the body.
#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow)]
    id: &'a RawValue,
    #[serde(borrow)]
    method: &'a str,
    #[serde(borrow, default)]
    params: Option<Params<'a>>,
}

/// A `tools/call`'s params: the tool and its arguments.
#[derive(Deserialize)]
struct Params<'a> {
    #[serde(borrow)]
    name: &'a str,
    #[serde(borrow, default)]
    arguments: Option<Arguments<'a>>,
}

/// The one argument `echo` takes.
#[derive(Deserialize)]
struct Arguments<'a> {
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
}

/// The JSON-RPC answer, serialized from borrowed fields.
#[derive(Serialize)]
struct Reply<'a> {
    jsonrpc: &'static str,
    id: &'a RawValue,
    result: CallResult<'a>,
}

/// A `tools/call` result with one text block.
#[derive(Serialize)]
struct CallResult<'a> {
    content: [Text<'a>; 1],
}

/// A text content block.
#[derive(Serialize)]
struct Text<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    text: &'a str,
}

async fn answer(body: Bytes) -> Response {
    let Ok(request) = serde_json::from_slice::<Request<'_>>(&body) else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let Some(params) = request.params.filter(|_| request.method == "tools/call") else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let text = match params.arguments.and_then(|arguments| arguments.text) {
        Some(text) if params.name == "echo" => text,
        _ => Cow::Borrowed(SIMPLE_TEXT),
    };
    let reply = Reply {
        jsonrpc: "2.0",
        id: request.id,
        result: CallResult {
            content: [Text {
                kind: "text",
                text: &text,
            }],
        },
    };
    let mut bytes = Vec::with_capacity(96 + text.len());
    if serde_json::to_writer(&mut bytes, &reply).is_err() {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    }
    let mut response = Response::new(bytes.into());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

fn main() -> std::io::Result<()> {
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8090)));
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async move {
            use axum::serve::ListenerExt;
            let listener = tokio::net::TcpListener::bind(addr).await?.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            let app = Router::new().route("/mcp", post(answer));
            axum::serve(listener, app).await
        })
}
