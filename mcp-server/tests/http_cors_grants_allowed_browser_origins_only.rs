//! Streamable HTTP: CORS is off unless origins are allowed. An allowed
//! origin's preflight is granted the methods and the MCP headers (and no
//! others), and its responses, errors included, carry the grant; any other
//! origin, or a foreign `Host`, is refused with `403` and no grant.

mod support;

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{LEGACY, call_body, headers, json_body, post, post_bytes, send};
use serde_json::{Value, json};
use support::{add_text_tool, server_with};

/// The web application allowed to call the endpoint.
const APP: &str = "https://app.example.com";

/// The endpoint's own host name.
const HOST: &str = "mcp.example.com";

/// The endpoint with a tool `echo`, serving `HOST`.
fn app(config: HttpConfig) -> Router {
    let server = server_with(|c| add_text_tool(c, "echo", "echoed"));
    router(server, "/mcp", config.allow_host(HOST))
}

/// CORS on for `APP`.
fn cors() -> HttpConfig {
    HttpConfig::default().cors_allow_origin(APP)
}

/// A browser's preflight from `origin` to `host` for a `POST` with these
/// request headers.
fn preflight(origin: &str, host: &str, requested: &str) -> Request<Body> {
    Request::options("/mcp")
        .header("host", host)
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", requested)
        .body(Body::empty())
        .unwrap()
}

/// A modern `tools/call` of `echo` from a page of `origin`, to `host`.
fn call_from(origin: &str, host: &str) -> Request<Body> {
    let mut sent = headers("tools/call", Some("echo"));
    sent.extend_from_slice(&[("origin", origin), ("host", host)]);
    post_bytes(&sent, serde_json::to_vec(&call_body(1, "echo")).unwrap())
}

/// `request`, as sent by a page of `APP` to `HOST`.
fn from_app(mut request: Request<Body>) -> Request<Body> {
    let headers = request.headers_mut();
    headers.insert("origin", APP.parse().unwrap());
    headers.insert("host", HOST.parse().unwrap());
    request
}

/// A request without a body, from a page of `APP`, on `session`.
fn bodiless_from_app(method: &str, session: Option<&str>) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri("/mcp")
        .header("accept", "text/event-stream");
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", LEGACY);
    }
    from_app(request.body(Body::empty()).unwrap())
}

/// The names of the `Access-Control-*` headers of `response`.
fn cors_headers<B>(response: &Response<B>) -> Vec<String> {
    response
        .headers()
        .keys()
        .map(|name| name.as_str().to_owned())
        .filter(|name| name.starts_with("access-control-"))
        .collect()
}

/// Every value of a comma-separated list header, lowercased.
fn list<B>(response: &Response<B>, name: &str) -> Vec<String> {
    response
        .headers()
        .get_all(name)
        .iter()
        .flat_map(|value| value.to_str().unwrap().split(','))
        .map(|item| item.trim().to_ascii_lowercase())
        .filter(|item| !item.is_empty())
        .collect()
}

/// Asserts the grant of an actual response to `APP`.
fn assert_granted<B>(response: &Response<B>) {
    let headers = response.headers();
    assert_eq!(headers["access-control-allow-origin"], APP, "{headers:?}");
    let exposed = list(response, "access-control-expose-headers");
    for name in ["mcp-session-id", "mcp-protocol-version"] {
        assert!(exposed.contains(&name.to_owned()), "{name}: {exposed:?}");
    }
    assert!(
        list(response, "vary").contains(&"origin".to_owned()),
        "{headers:?}"
    );
}

/// Asserts a `403` JSON-RPC refusal without any CORS grant.
async fn assert_refused_without_grant(response: Response<Body>) -> Value {
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(
        cors_headers(&response).is_empty(),
        "{:?}",
        response.headers()
    );
    let body = json_body(response).await;
    assert_eq!(body["error"]["code"], -32600, "{body}");
    body
}

#[tokio::test]
async fn a_default_endpoint_sends_no_cors_headers() {
    let app = app(HttpConfig::default());
    let page = "http://localhost:5173";
    let response = send(&app, preflight(page, "localhost:8080", "content-type")).await;
    assert!(cors_headers(&response).is_empty(), "{response:?}");
    assert!(response.headers().get("vary").is_none(), "{response:?}");
    let response = send(&app, call_from(page, "localhost:8080")).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(cors_headers(&response).is_empty(), "{response:?}");
    assert!(response.headers().get("vary").is_none(), "{response:?}");
    // An origin named only for CORS elsewhere is just foreign here.
    assert_refused_without_grant(send(&app, call_from(APP, HOST)).await).await;
}

#[tokio::test]
async fn an_allowed_origins_preflight_for_tools_call_is_granted() {
    let app = app(cors());
    let requested = "mcp-protocol-version, mcp-method, mcp-name, mcp-param-city, content-type";
    let response = send(&app, preflight(APP, HOST, requested)).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let headers = response.headers();
    assert_eq!(headers["access-control-allow-origin"], APP);
    assert!(list(&response, "vary").contains(&"origin".to_owned()));
    let methods = list(&response, "access-control-allow-methods");
    for method in ["get", "post", "delete", "options"] {
        assert!(
            methods.contains(&method.to_owned()),
            "{method}: {methods:?}"
        );
    }
    let granted = list(&response, "access-control-allow-headers");
    for name in
        requested
            .split(", ")
            .chain(["accept", "authorization", "mcp-session-id", "last-event-id"])
    {
        assert!(granted.contains(&name.to_owned()), "{name}: {granted:?}");
    }
    assert_eq!(headers["access-control-max-age"], "7200");
    assert!(headers.get("access-control-allow-credentials").is_none());
}

#[tokio::test]
async fn header_names_in_a_preflight_are_matched_without_case() {
    let app = app(cors());
    let requested = "Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Param-City";
    let response = send(&app, preflight(APP, HOST, requested)).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let granted = list(&response, "access-control-allow-headers");
    for name in requested.split(", ") {
        let name = name.to_ascii_lowercase();
        assert!(granted.contains(&name), "{name}: {granted:?}");
    }
}

#[tokio::test]
async fn a_requested_header_outside_the_mcp_set_is_not_granted() {
    let app = app(cors());
    let response = send(
        &app,
        preflight(APP, HOST, "content-type, x-api-key, mcp-method, cookie"),
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let granted = list(&response, "access-control-allow-headers");
    assert!(granted.contains(&"mcp-method".to_owned()), "{granted:?}");
    for name in ["x-api-key", "cookie"] {
        assert!(!granted.contains(&name.to_owned()), "{name}: {granted:?}");
    }
}

#[tokio::test]
async fn a_disallowed_origins_preflight_and_post_are_refused_403_without_cors_headers() {
    let app = app(cors());
    for origin in [
        "https://evil.example.com",
        "http://app.example.com",
        "https://app.example.com.evil.com",
        "null",
    ] {
        let body =
            assert_refused_without_grant(send(&app, preflight(origin, HOST, "content-type")).await)
                .await;
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("Origin"),
            "{origin}: {body}"
        );
        assert_refused_without_grant(send(&app, call_from(origin, HOST)).await).await;
    }
}

#[tokio::test]
async fn an_allowed_origins_post_carries_the_origin_and_the_exposed_headers() {
    let app = app(cors());
    let response = send(&app, call_from(APP, HOST)).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_granted(&response);
    let body = json_body(response).await;
    assert_eq!(body["result"]["content"][0]["text"], "echoed", "{body}");
}

#[tokio::test]
async fn an_allowed_origins_error_responses_carry_the_grant_too() {
    let app = app(cors().max_body_bytes(256));
    // A header that does not match the body: 400.
    let mut sent = headers("tools/call", Some("other"));
    sent.extend_from_slice(&[("origin", APP), ("host", HOST)]);
    let mismatch = post_bytes(&sent, serde_json::to_vec(&call_body(1, "echo")).unwrap());
    // A GET without a session: 405; an unknown session: 404.
    let unknown = "0123456789abcdef0123456789abcdef";
    let mut big = call_body(2, "echo");
    big["params"]["arguments"] = json!({"padding": "x".repeat(1024)});
    let mut sent = headers("tools/call", Some("echo"));
    sent.extend_from_slice(&[("origin", APP), ("host", HOST)]);
    let too_large = post_bytes(&sent, serde_json::to_vec(&big).unwrap());
    for (request, status) in [
        (mismatch, StatusCode::BAD_REQUEST),
        (
            bodiless_from_app("GET", None),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            bodiless_from_app("DELETE", Some(unknown)),
            StatusCode::NOT_FOUND,
        ),
        (too_large, StatusCode::PAYLOAD_TOO_LARGE),
    ] {
        let response = send(&app, request).await;
        assert_eq!(response.status(), status);
        assert_granted(&response);
    }
}

#[tokio::test]
async fn a_legacy_session_from_an_allowed_origin_reads_its_id_and_streams_with_the_grant() {
    let app = app(cors());
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {},
        "clientInfo": {"name": "browser", "version": "1"}}});
    let response = send(&app, from_app(post(None, &initialize))).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_granted(&response);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = send(&app, from_app(post(Some(&session), &initialized))).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    assert_granted(&response);

    let stream = send(&app, bodiless_from_app("GET", Some(&session))).await;
    assert_eq!(stream.status(), StatusCode::OK);
    assert_eq!(stream.headers()["content-type"], "text/event-stream");
    assert_granted(&stream);
    drop(stream);

    let ended = send(&app, bodiless_from_app("DELETE", Some(&session))).await;
    assert!(ended.status().is_success(), "{ended:?}");
    assert_granted(&ended);
}

#[tokio::test]
async fn a_wrong_host_with_an_allowed_origin_is_still_refused() {
    let app = app(cors());
    for host in ["evil.example.com", "app.example.com"] {
        let body =
            assert_refused_without_grant(send(&app, preflight(APP, host, "content-type")).await)
                .await;
        assert!(
            body["error"]["message"].as_str().unwrap().contains("Host"),
            "{host}: {body}"
        );
        assert_refused_without_grant(send(&app, call_from(APP, host)).await).await;
    }
}

#[tokio::test]
async fn a_wildcard_grants_every_origin_a_literal_star_and_still_checks_the_host() {
    let app = app(HttpConfig::default().cors_allow_origin("*"));
    let page = "https://anything.example";
    let response = send(&app, preflight(page, HOST, "content-type, mcp-method")).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    assert!(
        response
            .headers()
            .get("access-control-allow-credentials")
            .is_none()
    );
    let response = send(&app, call_from(page, HOST)).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    assert_refused_without_grant(send(&app, call_from(page, "evil.example.com")).await).await;
}

#[tokio::test]
async fn the_preflight_max_age_is_configurable() {
    let app = app(cors().cors_max_age(Duration::from_secs(600)));
    let response = send(&app, preflight(APP, HOST, "content-type")).await;
    assert_eq!(response.headers()["access-control-max-age"], "600");
}

#[tokio::test]
async fn an_options_request_that_is_no_preflight_names_the_methods() {
    let app = app(cors());
    let plain = || Request::options("/mcp").body(Body::empty()).unwrap();
    let response = send(&app, plain()).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        list(&response, "allow"),
        ["get", "post", "delete", "options"]
    );
    assert!(cors_headers(&response).is_empty(), "{response:?}");
    // An allowed origin gets its grant on the answer.
    let response = send(&app, from_app(plain())).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_granted(&response);
}
