//! A tool that needs a scope is hidden from callers without it (absent from
//! lists, and called, answered as an unknown tool), or listed and refused
//! with a `403` step-up challenge; lists and calls always agree.

mod support;

use axum::http::StatusCode;
use mcp_server::auth::INSUFFICIENT_PERMISSION;
use mcp_server::tool;
use serde_json::json;
use support::{Issuer, METADATA_URL, app, ask, bearing, call, list, server};

use mcp_oauth as _;

/// Reads the notes.
#[tool(read_only)]
async fn read_notes() -> &'static str {
    "the notes"
}

/// Writes a note.
#[tool]
async fn write_note() -> &'static str {
    "written"
}
mcp_oauth::require_scope!(tool "write_note", "notes:write");

/// Deletes every note.
#[tool]
async fn purge_notes() -> &'static str {
    "purged"
}
mcp_oauth::require_scope!(tool "purge_notes", "notes:admin notes:write", challenge);

#[tokio::test]
async fn a_hidden_tool_is_absent_from_the_list_and_called_answers_as_unknown() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let reader = issuer.token("alice", "notes:read");
    let tools = ask(&app, list(Some(&reader))).await.tools();
    assert!(tools.contains(&"read_notes".to_owned()), "{tools:?}");
    assert!(!tools.contains(&"write_note".to_owned()), "{tools:?}");
    let hidden = ask(&app, call("write_note", Some(&reader))).await;
    let unknown = ask(&app, call("no_such_tool", Some(&reader))).await;
    assert_eq!(hidden.status, unknown.status);
    assert_eq!(hidden.challenge, None);
    assert_eq!(hidden.code(), Some(-32602));
    assert_eq!(
        hidden.body["error"]["message"]
            .as_str()
            .unwrap()
            .replace("write_note", "X"),
        unknown.body["error"]["message"]
            .as_str()
            .unwrap()
            .replace("no_such_tool", "X"),
        "a hidden tool answers exactly as an unknown one"
    );
    let writer = issuer.token("bob", "notes:read notes:write");
    assert!(
        ask(&app, list(Some(&writer)))
            .await
            .tools()
            .contains(&"write_note".to_owned())
    );
    let answer = ask(&app, call("write_note", Some(&writer))).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body["result"]["content"][0]["text"], "written");
}

#[tokio::test]
async fn a_challenging_tool_is_listed_and_its_call_gets_403_naming_every_scope_needed() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let writer = issuer.token("bob", "notes:write");
    assert!(
        ask(&app, list(Some(&writer)))
            .await
            .tools()
            .contains(&"purge_notes".to_owned())
    );
    let answer = ask(&app, call("purge_notes", Some(&writer))).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.body);
    assert_eq!(
        answer.challenge.as_deref(),
        Some(
            format!(
                r#"Bearer error="insufficient_scope", scope="notes:admin notes:write", resource_metadata="{METADATA_URL}", error_description="this needs the scope notes:admin notes:write""#
            )
            .as_str()
        )
    );
    assert_eq!(answer.code(), Some(INSUFFICIENT_PERMISSION.0));
    assert_eq!(answer.body["id"], json!(7));
    let admin = issuer.token("carol", "notes:admin notes:write");
    let answer = ask(&app, call("purge_notes", Some(&admin))).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body["result"]["content"][0]["text"], "purged");
}

#[tokio::test]
async fn a_legacy_session_gets_the_same_challenge_and_belongs_to_its_caller() {
    let issuer = Issuer::start().await;
    let app = app(server(&issuer, &[]));
    let writer = issuer.token("bob", "notes:write");
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "old", "version": "1"}}});
    let post = |token: Option<&str>, session: Option<&str>, body: &serde_json::Value| {
        bearing(mcp_tests::http::post(session, body), token)
    };
    let refused = ask(&app, post(None, None, &initialize)).await;
    assert_eq!(
        refused.status,
        StatusCode::UNAUTHORIZED,
        "initialize needs a token too"
    );
    let response = mcp_tests::http::send(&app, post(Some(&writer), None, &initialize)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    ask(&app, post(Some(&writer), Some(&session), &initialized)).await;
    let purge = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "purge_notes", "arguments": {}}});
    let answer = ask(&app, post(Some(&writer), Some(&session), &purge)).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.body);
    assert!(
        answer
            .challenge
            .as_deref()
            .unwrap()
            .contains("insufficient_scope")
    );
    assert_eq!(answer.code(), Some(INSUFFICIENT_PERMISSION.0));
    // Another caller cannot use bob's session, nor tell it exists.
    let mallory = issuer.token("mallory", "notes:admin notes:write");
    let answer = ask(&app, post(Some(&mallory), Some(&session), &purge)).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let list = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"});
    let answer = ask(&app, post(Some(&writer), Some(&session), &list)).await;
    assert_eq!(answer.status, StatusCode::OK);
    let get = axum::http::Request::get("/mcp")
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .header("authorization", format!("Bearer {mallory}"))
        .body(axum::body::Body::empty())
        .unwrap();
    assert_eq!(ask(&app, get).await.status, StatusCode::NOT_FOUND);
    let delete = axum::http::Request::delete("/mcp")
        .header("mcp-session-id", &session)
        .body(axum::body::Body::empty())
        .unwrap();
    assert_eq!(ask(&app, delete).await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_opaque_token_is_introspected_and_bound_to_this_resource() {
    let issuer = Issuer::start().await;
    let introspection = [
        (
            "oauth.introspection_endpoint",
            json!(format!("{}/introspect", issuer.url)),
        ),
        ("oauth.introspection_client_id", json!("mcp-server")),
        ("oauth.introspection_client_secret", json!("s3cret")),
    ];
    let app = app(server(&issuer, &introspection));
    issuer.opaque(
        "opaque-good",
        json!({"active": true, "iss": issuer.url, "aud": support::RESOURCE, "sub": "dave",
               "scope": "notes:write", "exp": support::now() + 60}),
    );
    issuer.opaque(
        "opaque-foreign",
        json!({"active": true, "iss": issuer.url, "aud": "https://other.example.test/mcp", "sub": "dave"}),
    );
    issuer.opaque("opaque-revoked", json!({"active": false}));
    let answer = ask(&app, call("write_note", Some("opaque-good"))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    for token in ["opaque-foreign", "opaque-revoked", "opaque-unknown"] {
        let answer = ask(&app, call("read_notes", Some(token))).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{token}");
        assert!(answer.challenge.unwrap().contains("invalid_token"));
    }
    assert_eq!(issuer.introspections(), 4);
    // A JWT still goes to the keys, not to introspection.
    let answer = ask(&app, call("read_notes", Some(&issuer.token("alice", "")))).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(issuer.introspections(), 4);
}
