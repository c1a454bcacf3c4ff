//! Streamable HTTP: every kind of bad input gets the HTTP status and the
//! JSON-RPC error that name what is wrong with it, with the request's id
//! when it could be read; a client that never finishes sending loses its
//! connection.
//!
//! One test per kind. Those about connections (head size, slow heads, slow
//! bodies) run over a real socket, served by `serve_on_with`.

mod support;

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use mcp_server::transport::http::{HttpConfig, bind, router, serve_on_with};
use mcp_tests::http::{
    LEGACY, VERSION, answer, assert_error, call_body, headers, initialize, post, post_bytes, send,
};
use serde_json::{Value, json};
use support::{add_text_tool, server_with};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An endpoint with a tool `echo`.
fn app(config: HttpConfig) -> Router {
    router(
        server_with(|c| add_text_tool(c, "echo", "echoed")),
        "/mcp",
        config,
    )
}

/// A POST with exactly these headers and body, nothing added.
fn bare_post(headers: &[(&str, &str)], body: Vec<u8>) -> Request<Body> {
    let mut request = Request::post("/mcp");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::from(body)).unwrap()
}

/// A modern `tools/call` of `echo`, all its headers right, with `body`.
fn call_with(body: Vec<u8>) -> Request<Body> {
    post_bytes(&headers("tools/call", Some("echo")), body)
}

/// A modern `tools/call` of `echo`, all right.
fn echo_body(id: i64) -> Vec<u8> {
    serde_json::to_vec(&call_body(id, "echo")).unwrap()
}

/// A legacy POST of raw bytes on `session`.
fn post_on(session: &str, body: Vec<u8>) -> Request<Body> {
    post_bytes(
        &[
            ("mcp-session-id", session),
            ("mcp-protocol-version", LEGACY),
        ],
        body,
    )
}

/// `levels` arrays, one inside the other.
fn nested_arrays(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

#[tokio::test]
async fn a_body_not_declared_as_json_is_refused_with_415() {
    let app = app(HttpConfig::default());
    let accept = ("accept", "application/json, text/event-stream");
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("application/jsonx"),
        None,
    ] {
        let mut sent = vec![accept];
        sent.extend(content_type.map(|t| ("content-type", t)));
        let sent = [sent, headers("tools/call", Some("echo"))].concat();
        let (status, body) = answer(&app, bare_post(&sent, echo_body(1))).await;
        assert_eq!(
            status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}"
        );
        assert_error(&body, -32600, None);
    }
}

#[tokio::test]
async fn json_with_parameters_or_in_any_case_is_accepted() {
    let app = app(HttpConfig::default());
    for content_type in ["application/json; charset=utf-8", "Application/JSON"] {
        let sent = [
            vec![
                ("accept", "application/json"),
                ("content-type", content_type),
            ],
            headers("tools/call", Some("echo")),
        ]
        .concat();
        let (status, body) = answer(&app, bare_post(&sent, echo_body(1))).await;
        assert_eq!(status, StatusCode::OK, "{content_type}: {body}");
        assert_eq!(body["result"]["content"][0]["text"], "echoed");
    }
}

#[tokio::test]
async fn an_accept_that_reads_neither_json_nor_a_stream_is_refused_with_406() {
    let app = app(HttpConfig::default());
    let content_type = ("content-type", "application/json");
    for accept in [
        Some("text/html"),
        Some("application/json;q=0, text/event-stream;q=0"),
        None,
    ] {
        let mut sent = vec![content_type];
        sent.extend(accept.map(|a| ("accept", a)));
        let sent = [sent, headers("tools/call", Some("echo"))].concat();
        let (status, body) = answer(&app, bare_post(&sent, echo_body(1))).await;
        assert_eq!(status, StatusCode::NOT_ACCEPTABLE, "{accept:?}");
        assert_error(&body, -32600, None);
    }
    for accept in [
        "*/*",
        "application/json",
        "text/event-stream, application/json",
    ] {
        let sent = [
            vec![content_type, ("accept", accept)],
            headers("tools/call", Some("echo")),
        ]
        .concat();
        let response = send(&app, bare_post(&sent, echo_body(1))).await;
        assert_eq!(response.status(), StatusCode::OK, "{accept}");
    }
}

/// A `GET` of `session`'s standalone stream with these extra headers.
fn get(session: Option<&str>, headers: &[(&str, &str)]) -> Request<Body> {
    let mut request = Request::get("/mcp");
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", LEGACY);
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::empty()).unwrap()
}

#[tokio::test]
async fn a_get_that_does_not_accept_a_stream_is_refused_with_406() {
    let app = app(HttpConfig::default());
    let session = initialize(&app).await;
    for accept in [
        Some("application/json"),
        Some("text/html, application/*"),
        Some("text/event-stream;q=0, application/json"),
        None,
    ] {
        let sent: Vec<_> = accept.map(|a| ("accept", a)).into_iter().collect();
        let (status, body) = answer(&app, get(Some(&session), &sent)).await;
        assert_eq!(status, StatusCode::NOT_ACCEPTABLE, "{accept:?}");
        assert_error(&body, -32600, None);
    }
    // One that does gets the stream, one at a time.
    for accept in [
        "text/event-stream",
        "application/json, text/event-stream",
        "*/*",
    ] {
        let response = send(&app, get(Some(&session), &[("accept", accept)])).await;
        assert_eq!(response.status(), StatusCode::OK, "{accept}");
        assert_eq!(response.headers()["content-type"], "text/event-stream");
    }
}

#[tokio::test]
async fn a_get_is_checked_for_its_host_then_its_accept_then_its_session() {
    let app = app(HttpConfig::default());
    let json = ("accept", "application/json");
    let unknown = "0123456789abcdef0123456789abcdef";
    for (request, status) in [
        (
            get(Some(unknown), &[json, ("host", "evil.example.com")]),
            StatusCode::FORBIDDEN,
        ),
        (get(Some(unknown), &[json]), StatusCode::NOT_ACCEPTABLE),
        (get(None, &[json]), StatusCode::NOT_ACCEPTABLE),
        (
            get(Some(unknown), &[("accept", "text/event-stream")]),
            StatusCode::NOT_FOUND,
        ),
        (
            get(None, &[("accept", "text/event-stream")]),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ] {
        let (got, body) = answer(&app, request).await;
        assert_eq!(got, status);
        assert_error(&body, -32600, None);
    }
}

#[tokio::test]
async fn bytes_that_are_not_json_are_a_parse_error_with_400() {
    let app = app(HttpConfig::default());
    for bytes in [
        b"{oops".to_vec(),
        b"".to_vec(),
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}".to_vec(),
    ] {
        let (status, body) = answer(&app, call_with(bytes)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_error(&body, -32700, None);
    }
}

#[tokio::test]
async fn nesting_too_deep_is_a_parse_error_with_400_wherever_it_is() {
    let app = app(HttpConfig::default());
    let deep = 100_000;
    let objects = format!("{}1{}", r#"{"a":"#.repeat(deep), "}".repeat(deep));
    let mut in_arguments = call_body(1, "echo");
    in_arguments["params"]["arguments"] = json!({"a": "NESTED"});
    let in_arguments = serde_json::to_string(&in_arguments)
        .unwrap()
        .replace(r#""NESTED""#, &nested_arrays(deep));
    for bytes in [nested_arrays(deep), objects, in_arguments] {
        let (status, body) = answer(&app, call_with(bytes.into_bytes())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_error(&body, -32700, None);
    }
    // On a legacy session too.
    let session = initialize(&app).await;
    let legacy = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"echo","arguments":{{"a":{}}}}}}}"#,
        nested_arrays(deep)
    );
    let (status, body) = answer(&app, post_on(&session, legacy.into_bytes())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32700, None);
}

#[tokio::test]
async fn a_body_over_the_limit_is_refused_with_413() {
    let app = app(HttpConfig::default().max_body_bytes(256));
    let mut big = call_body(1, "echo");
    big["params"]["arguments"] = json!({"padding": "x".repeat(1024)});
    let (status, body) = answer(&app, call_with(serde_json::to_vec(&big).unwrap())).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_error(&body, -32600, None);
}

#[tokio::test]
async fn a_wrong_protocol_version_header_is_refused_with_400() {
    let app = app(HttpConfig::default());
    // A modern request whose header differs from its `_meta`.
    let mut sent = headers("tools/call", Some("echo"));
    sent[0] = ("mcp-protocol-version", "2025-06-18");
    let (status, body) = answer(&app, post_bytes(&sent, echo_body(1))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32020, Some(json!(1)));
    // A modern request whose header and `_meta` agree on a version no one speaks.
    let unknown = "1999-01-01";
    sent[0] = ("mcp-protocol-version", unknown);
    let mut call = call_body(2, "echo");
    call["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!(unknown);
    let (status, body) = answer(&app, post_bytes(&sent, serde_json::to_vec(&call).unwrap())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32022, Some(json!(2)));
    // A legacy session's request with a version it does not support.
    let session = initialize(&app).await;
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
    let request = post_bytes(
        &[
            ("mcp-session-id", &session),
            ("mcp-protocol-version", unknown),
        ],
        serde_json::to_vec(&list).unwrap(),
    );
    let (status, body) = answer(&app, request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32600, Some(json!(3)));
}

#[tokio::test]
async fn an_unknown_session_is_refused_with_404() {
    let app = app(HttpConfig::default());
    let list = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"});
    let (status, body) = answer(&app, post(Some("0123456789abcdef0123456789abcdef"), &list)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_error(&body, -32600, Some(json!(4)));
}

#[tokio::test]
async fn a_batch_is_an_invalid_request_with_400() {
    let app = app(HttpConfig::default());
    let batch = format!("[{}]", String::from_utf8(echo_body(1)).unwrap());
    let (status, body) = answer(&app, call_with(batch.clone().into_bytes())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32600, None);
    let session = initialize(&app).await;
    let (status, body) = answer(&app, post_on(&session, batch.into_bytes())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32600, None);
}

#[tokio::test]
async fn params_that_do_not_fit_the_method_are_invalid_params() {
    let app = app(HttpConfig::default());
    // Not an object: refused with the envelope, as a malformed request.
    let mut call = call_body(5, "echo");
    call["params"] = json!(["echo"]);
    let (status, body) = answer(&app, call_with(serde_json::to_vec(&call).unwrap())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32602, Some(json!(5)));
    // An object of the wrong shape: an ordinary JSON-RPC error.
    let mut call = call_body(6, "echo");
    call["params"]["arguments"] = json!("not an object");
    let (status, body) = answer(&app, call_with(serde_json::to_vec(&call).unwrap())).await;
    assert_eq!(status, StatusCode::OK);
    assert_error(&body, -32602, Some(json!(6)));
}

#[tokio::test]
async fn an_unknown_method_is_method_not_found() {
    let app = app(HttpConfig::default());
    let mut call = call_body(7, "echo");
    call["method"] = json!("vendor/nothing");
    let (status, body) = answer(
        &app,
        post_bytes(
            &headers("vendor/nothing", None),
            serde_json::to_vec(&call).unwrap(),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "the 2026-07-28 status");
    assert_error(&body, -32601, Some(json!(7)));
    let session = initialize(&app).await;
    let legacy = json!({"jsonrpc": "2.0", "id": 8, "method": "vendor/nothing"});
    let (status, body) = answer(&app, post(Some(&session), &legacy)).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "a 2025-11-25 error is a JSON-RPC one"
    );
    assert_error(&body, -32601, Some(json!(8)));
}

#[tokio::test]
async fn a_notification_is_accepted_with_202_and_no_body() {
    let app = app(HttpConfig::default());
    let note = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1}});
    let modern = post_bytes(
        &headers("notifications/cancelled", None),
        serde_json::to_vec(&note).unwrap(),
    );
    let session = initialize(&app).await;
    let legacy = post(Some(&session), &note);
    for request in [modern, legacy] {
        let response = send(&app, request).await;
        assert_eq!(response.status(), StatusCode::ACCEPTED);
        let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        assert!(bytes.is_empty(), "{bytes:?}");
    }
}

/// Serves an endpoint with `config` on a loopback port; its address.
async fn serving(config: HttpConfig) -> SocketAddr {
    let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = listener.local_addr().unwrap();
    let app = app(config.clone());
    tokio::spawn(async move { serve_on_with(listener, app, &config).await });
    addr
}

/// The head of an HTTP/1.1 modern `tools/call` of `echo`, with `extra`
/// header lines, announcing a body of `length` bytes.
fn head(length: usize, extra: &str) -> String {
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json\r\nMCP-Protocol-Version: {VERSION}\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: echo\r\nContent-Length: {length}\r\n"
    );
    head.push_str(extra);
    head.push_str("\r\n");
    head
}

/// Everything the server sends until it closes the connection, which it
/// must do within 5 s.
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut received = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), async {
        let mut chunk = [0u8; 4096];
        // A reset after the answer counts as closing.
        while let Ok(read @ 1..) = stream.read(&mut chunk).await {
            received.extend_from_slice(&chunk[..read]);
        }
    })
    .await;
    let received = String::from_utf8_lossy(&received).into_owned();
    assert!(read.is_ok(), "the connection is still open: {received:?}");
    received
}

/// Everything the server at `addr` sends for a `tools/call` of `echo` with
/// `extra` header lines and its whole body, until it closes the connection.
async fn echo_exchange(addr: SocketAddr, extra: &str) -> String {
    let body = echo_body(1);
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(head(body.len(), extra).as_bytes())
        .await
        .unwrap();
    stream.write_all(&body).await.unwrap();
    until_closed(&mut stream).await
}

#[tokio::test]
async fn headers_over_the_limit_are_refused_with_431() {
    // The default limit, 64 KiB, is the server's own.
    let addr = serving(HttpConfig::default()).await;
    let body = echo_body(1);
    // Within the limit: served.
    let within = format!(
        "Authorization: Bearer {}\r\nConnection: close\r\n",
        "t".repeat(32 << 10)
    );
    let answer = echo_exchange(addr, &within).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // Beyond it: 431, and the connection closed.
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let beyond = format!("Authorization: Bearer {}\r\n", "t".repeat(100 << 10));
    let _ = stream.write_all(head(body.len(), &beyond).as_bytes()).await;
    let answer = until_closed(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
    // A configured limit, lower.
    let addr = serving(HttpConfig::default().max_header_bytes(16 << 10)).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let _ = stream.write_all(head(body.len(), &within).as_bytes()).await;
    let answer = until_closed(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
}

#[tokio::test]
async fn a_client_that_never_finishes_its_headers_loses_the_connection() {
    let addr = serving(HttpConfig::default().header_timeout(Duration::from_millis(200))).await;
    // Half a head, then nothing.
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl")
        .await
        .unwrap();
    until_closed(&mut stream).await;
    // Nothing at all, or too little to tell HTTP/1.1 from HTTP/2.
    for sent in [&b""[..], b"P"] {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(sent).await.unwrap();
        until_closed(&mut stream).await;
    }
}

/// Built without `http2`, the server speaks HTTP/1.1 only: a client that
/// opens with the HTTP/2 preface has its connection closed (hyper answers
/// nothing to a preface), never held, and the next connection is served.
#[cfg(not(feature = "http2"))]
#[tokio::test]
async fn without_http2_an_http2_preface_is_refused_and_the_connection_closed() {
    let addr = serving(HttpConfig::default()).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        .await
        .unwrap();
    let answer = until_closed(&mut stream).await;
    assert!(answer.is_empty(), "{answer:?}");
    let answer = echo_exchange(addr, "Connection: close\r\n").await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn a_client_that_never_finishes_its_body_gets_408_and_loses_the_connection() {
    let addr = serving(HttpConfig::default().body_timeout(Duration::from_millis(200))).await;
    let body = echo_body(1);
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(head(body.len(), "").as_bytes())
        .await
        .unwrap();
    // Half the body, then nothing.
    stream.write_all(&body[..body.len() / 2]).await.unwrap();
    let answer = until_closed(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let json = &answer[answer.find("\r\n\r\n").unwrap() + 4..];
    let json: Value = serde_json::from_str(json).unwrap();
    assert_error(&json, -32600, None);
}
