//! Streamable HTTP, 2025-11-25: `initialize` mints an `Mcp-Session-Id`; the
//! session answers the legacy lifecycle methods and ordinary requests
//! without `_meta`, accepts any supported `MCP-Protocol-Version`, and ends
//! with `DELETE` or after idling (then `404`); sessions are capped (`503`).

mod support;

use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{LEGACY, answer, initialize, post, send};
use serde_json::{Value, json};
use support::with_tools;

/// An endpoint with tools `echo` and `other`.
fn app(config: HttpConfig) -> Router {
    router(with_tools(&["echo", "other"]).build(), "/mcp", config)
}

/// A JSON-RPC request body.
fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// An `initialize` body asking for `version`, with no client capabilities.
fn initialize_body(id: i64, version: &str) -> Value {
    request(
        id,
        "initialize",
        json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}),
    )
}

/// A request of `method` without a body, accepting a stream, on `session`
/// when given.
fn without_body(method: &str, session: Option<&str>) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri("/mcp")
        .header("accept", "text/event-stream");
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request.body(Body::empty()).unwrap()
}

/// Asserts a JSON-RPC error with this code and id.
fn assert_error(body: &Value, code: i64, id: Option<i64>) {
    assert_eq!(body["jsonrpc"], "2.0", "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(body["error"]["message"].is_string(), "{body}");
    match id {
        Some(id) => assert_eq!(body["id"], id, "{body}"),
        None => assert!(body.get("id").is_none(), "{body}"),
    }
}

#[tokio::test]
async fn initialize_mints_a_random_visible_session_id_and_echoes_the_version() {
    let app = app(HttpConfig::default());
    let response = send(&app, post(None, &initialize_body(1, LEGACY))).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/json");
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(session.len(), 32, "{session}");
    assert!(
        session
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && (0x21..=0x7e).contains(&b)),
        "{session}"
    );
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(body["id"], 1);
    assert_eq!(body["result"]["protocolVersion"], LEGACY);
    assert_eq!(body["result"]["serverInfo"]["name"], "test");
    assert_eq!(
        body["result"]["capabilities"]["tools"],
        json!({"listChanged": true})
    );
    let other = send(&app, post(None, &initialize_body(2, LEGACY))).await;
    assert_ne!(
        other.headers()["mcp-session-id"].to_str().unwrap(),
        session,
        "every initialize mints its own session"
    );
}

#[tokio::test]
async fn initialize_echoes_an_older_supported_version_and_offers_the_newest_for_an_unknown_one() {
    let app = app(HttpConfig::default());
    for (asked, answered) in [
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("1999-01-01", LEGACY),
    ] {
        let response = send(&app, post(None, &initialize_body(1, asked))).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.headers().contains_key("mcp-session-id"));
        let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["result"]["protocolVersion"], answered, "{asked}");
    }
}

#[tokio::test]
async fn an_initialize_without_valid_params_mints_no_session() {
    let app = app(HttpConfig::default().max_sessions(1));
    let bad = json!({"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": {"protocolVersion": 5}});
    let response = send(&app, post(None, &bad)).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(!response.headers().contains_key("mcp-session-id"));
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_error(&body, -32602, Some(9));
    // The failed attempt took no place under the cap.
    initialize(&app).await;
}

#[tokio::test]
async fn the_initialized_notification_is_accepted_with_an_empty_202() {
    let app = app(HttpConfig::default());
    let response = send(&app, post(None, &initialize_body(1, LEGACY))).await;
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = send(&app, post(Some(&session), &initialized)).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    assert!(
        to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn ping_and_set_level_answer_exactly_an_empty_object() {
    let app = app(HttpConfig::default());
    let session = initialize(&app).await;
    let (status, body) = answer(&app, post(Some(&session), &request(2, "ping", json!({})))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
    let ping_without_params = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
    let (_, body) = answer(&app, post(Some(&session), &ping_without_params)).await;
    assert_eq!(body, json!({"jsonrpc": "2.0", "id": 3, "result": {}}));
    let (status, body) = answer(
        &app,
        post(
            Some(&session),
            &request(4, "logging/setLevel", json!({"level": "warning"})),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({"jsonrpc": "2.0", "id": 4, "result": {}}));
}

#[tokio::test]
async fn requests_on_a_session_need_no_meta() {
    let app = app(HttpConfig::default());
    let session = initialize(&app).await;
    let list = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list"});
    let (status, body) = answer(&app, post(Some(&session), &list)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["id"], 5);
    let names: Vec<&str> = body["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["echo", "other"]);
    let (status, body) = answer(
        &app,
        post(
            Some(&session),
            &request(6, "tools/call", json!({"name": "other"})),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["result"]["content"][0]["text"], "other");
}

#[tokio::test]
async fn legacy_errors_are_ordinary_200_responses() {
    let app = app(HttpConfig::default());
    let session = initialize(&app).await;
    let (status, body) = answer(
        &app,
        post(
            Some(&session),
            &request(7, "tools/call", json!({"name": "nope"})),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_error(&body, -32602, Some(7));
    let (status, body) = answer(
        &app,
        post(Some(&session), &request(8, "things/frob", json!({}))),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_error(&body, -32601, Some(8));
}

#[tokio::test]
async fn any_supported_protocol_version_header_is_accepted_on_a_session() {
    let app = app(HttpConfig::default());
    let session = initialize(&app).await;
    for version in [Some("2025-03-26"), Some("2025-06-18"), Some(LEGACY), None] {
        let mut sent = post(Some(&session), &request(9, "ping", json!({})));
        match version {
            Some(version) => {
                sent.headers_mut()
                    .insert("mcp-protocol-version", version.parse().unwrap());
            }
            None => {
                sent.headers_mut().remove("mcp-protocol-version");
            }
        }
        let (status, body) = answer(&app, sent).await;
        assert_eq!(status, StatusCode::OK, "{version:?}: {body}");
        assert_eq!(body["result"], json!({}));
    }
}

#[tokio::test]
async fn an_unsupported_protocol_version_header_on_a_session_is_a_400() {
    let app = app(HttpConfig::default());
    let session = initialize(&app).await;
    let mut sent = post(Some(&session), &request(10, "ping", json!({})));
    sent.headers_mut()
        .insert("mcp-protocol-version", "1999-01-01".parse().unwrap());
    let (status, body) = answer(&app, sent).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32600, Some(10));
}

#[tokio::test]
async fn an_unknown_session_is_not_found_on_every_method() {
    let app = app(HttpConfig::default());
    let unknown = "0123456789abcdef0123456789abcdef";
    let (status, body) = answer(&app, post(Some(unknown), &request(11, "ping", json!({})))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_error(&body, -32600, Some(11));
    for method in ["GET", "DELETE"] {
        let (status, body) = answer(&app, without_body(method, Some(unknown))).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method}");
        assert_error(&body, -32600, None);
    }
}

#[tokio::test]
async fn delete_ends_the_session() {
    let app = app(HttpConfig::default());
    let session = initialize(&app).await;
    let response = send(&app, without_body("DELETE", Some(&session))).await;
    assert_eq!(response.status(), StatusCode::OK);
    let (status, body) = answer(&app, post(Some(&session), &request(12, "ping", json!({})))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_error(&body, -32600, Some(12));
    let (status, _) = answer(&app, without_body("GET", Some(&session))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = answer(&app, without_body("DELETE", Some(&session))).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "a second DELETE finds nothing"
    );
}

#[tokio::test]
async fn get_and_delete_without_a_session_are_not_allowed() {
    let app = app(HttpConfig::default());
    for method in ["GET", "DELETE"] {
        let (status, body) = answer(&app, without_body(method, None)).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
        assert_error(&body, -32600, None);
    }
}

#[tokio::test]
async fn an_idle_session_expires_and_activity_keeps_it_alive() {
    let app = app(HttpConfig::default().session_idle_timeout(Duration::from_millis(250)));
    let session = initialize(&app).await;
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let (status, _) = answer(&app, post(Some(&session), &request(13, "ping", json!({})))).await;
        assert_eq!(status, StatusCode::OK, "activity keeps the session alive");
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, body) = answer(&app, post(Some(&session), &request(14, "ping", json!({})))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_error(&body, -32600, Some(14));
}

#[tokio::test]
async fn sessions_are_capped_until_one_expires_or_is_deleted() {
    let app = app(HttpConfig::default()
        .max_sessions(1)
        .session_idle_timeout(Duration::from_millis(200)));
    let first = initialize(&app).await;
    let response = send(&app, post(None, &initialize_body(15, LEGACY))).await;
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(!response.headers().contains_key("mcp-session-id"));
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_error(&body, -32603, Some(15));
    // The first is still served.
    let (status, _) = answer(&app, post(Some(&first), &request(16, "ping", json!({})))).await;
    assert_eq!(status, StatusCode::OK);

    tokio::time::sleep(Duration::from_millis(250)).await;
    let second = initialize(&app).await;
    assert_ne!(second, first);
    let (status, _) = answer(&app, post(Some(&first), &request(17, "ping", json!({})))).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "the expired one made room");

    let response = send(&app, without_body("DELETE", Some(&second))).await;
    assert_eq!(response.status(), StatusCode::OK);
    initialize(&app).await;
}
