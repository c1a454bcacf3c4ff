//! Streamable HTTP, 2026-07-28: every POST stands alone, and its
//! `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers and its
//! `params._meta` are checked before it runs, each failure answered with
//! the HTTP status and JSON-RPC error the specification names.

mod support;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{HeaderValue, Request, StatusCode};
use mcp_server::core::prompts::{GetPrompt, GetPromptResult, Prompt};
use mcp_server::core::resources::Resource;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::handler::resource::read_handler;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_tests::http::{
    VERSION, answer, assert_error, headers, json_body, post_bytes, post_json, send,
};
use serde_json::{Value, json};
use support::{add_text_tool, server_with, tool};

/// An endpoint with a tool `echo`, a resource `file:///readme` and a prompt `greet`.
fn app() -> Router {
    let server = server_with(|c| {
        add_text_tool(c, "echo", "echoed");
        let mut mirrored = tool("query");
        mirrored.input_schema = serde_json::from_value(json!({
            "type": "object",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "sql": {"type": "string"}
            }
        }))
        .unwrap();
        c.tool(
            mirrored,
            handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("queried")) }),
        );
        c.resource(
            Resource {
                uri: "file:///readme".into(),
                name: "readme".into(),
                ..Default::default()
            },
            read_handler::<String, _, _>(Some("text/plain"), |_, _| async {
                Ok("read me".to_owned())
            }),
        );
        c.prompt(
            Prompt {
                name: "greet".into(),
                ..Default::default()
            },
            handler_fn::<GetPrompt, _, _, _>(|_, _| async { Ok(GetPromptResult::default()) }),
        );
    });
    router(server, "/mcp", HttpConfig::default())
}

/// The `_meta` every modern request carries.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test-client", "version": "1"}
    })
}

/// A request body whose params get the modern `_meta`.
fn body(id: Value, method: &str, mut params: Value) -> Value {
    params["_meta"] = meta();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn call_echo(id: Value) -> Value {
    body(id, "tools/call", json!({"name": "echo"}))
}

#[tokio::test]
async fn a_valid_tool_call_is_answered_with_json_that_names_the_server() {
    let app = app();
    let response = send(
        &app,
        post_json(&headers("tools/call", Some("echo")), &call_echo(json!(1))),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert!(
        response.headers().get("mcp-session-id").is_none(),
        "a modern request gets no session"
    );
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], 1);
    assert_eq!(body["result"]["resultType"], "complete");
    assert_eq!(body["result"]["content"][0]["text"], "echoed");
    assert_eq!(
        body["result"]["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "test", "version": "1.0.0"})
    );
}

#[tokio::test]
async fn a_missing_protocol_version_header_is_a_header_mismatch() {
    let app = app();
    let sent = [("mcp-method", "tools/call"), ("mcp-name", "echo")];
    let (status, body) = answer(&app, post_json(&sent, &call_echo(json!("a")))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32020, Some(json!("a")));
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("MCP-Protocol-Version"),
        "{body}"
    );
}

#[tokio::test]
async fn a_protocol_version_header_that_differs_from_the_meta_is_a_header_mismatch() {
    let app = app();
    for header in ["2025-11-25", "1999-01-01", "2026-07-29"] {
        let sent = [
            ("mcp-protocol-version", header),
            ("mcp-method", "tools/call"),
            ("mcp-name", "echo"),
        ];
        let (status, body) = answer(&app, post_json(&sent, &call_echo(json!(2)))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{header}");
        assert_error(&body, -32020, Some(json!(2)));
    }
}

#[tokio::test]
async fn a_request_without_its_required_meta_keys_is_invalid_params() {
    let app = app();
    let no_meta =
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo"}});
    let no_params = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
    let no_capabilities = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "echo", "_meta": {"io.modelcontextprotocol/protocolVersion": VERSION}}});
    let no_version = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "echo", "_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}});
    for (method, name, sent) in [
        ("tools/call", Some("echo"), no_meta),
        ("tools/list", None, no_params),
        ("tools/call", Some("echo"), no_capabilities),
        ("tools/call", Some("echo"), no_version),
    ] {
        let (status, body) = answer(&app, post_json(&headers(method, name), &sent)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{sent}");
        assert_error(&body, -32602, Some(json!(3)));
    }
}

#[tokio::test]
async fn an_unsupported_version_in_header_and_meta_names_the_supported_ones() {
    let app = app();
    let mut sent = call_echo(json!("v"));
    sent["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("1999-01-01");
    let request = post_json(
        &[
            ("mcp-protocol-version", "1999-01-01"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "echo"),
        ],
        &sent,
    );
    let (status, body) = answer(&app, request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32022, Some(json!("v")));
    let supported = body["error"]["data"]["supported"].as_array().unwrap();
    assert!(supported.contains(&json!(VERSION)), "{body}");
    assert_eq!(body["error"]["data"]["requested"], "1999-01-01");
}

#[tokio::test]
async fn a_missing_or_different_method_header_is_a_header_mismatch() {
    let app = app();
    let cases: [&[(&str, &str)]; 4] = [
        &[("mcp-protocol-version", VERSION), ("mcp-name", "echo")],
        &[
            ("mcp-protocol-version", VERSION),
            ("mcp-method", "tools/list"),
            ("mcp-name", "echo"),
        ],
        &[
            ("mcp-protocol-version", VERSION),
            ("mcp-method", "Tools/Call"),
            ("mcp-name", "echo"),
        ],
        &[
            ("mcp-protocol-version", VERSION),
            ("mcp-method", "TOOLS/CALL"),
            ("mcp-name", "echo"),
        ],
    ];
    for sent in cases {
        let (status, body) = answer(&app, post_json(sent, &call_echo(json!(4)))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{sent:?}");
        assert_error(&body, -32020, Some(json!(4)));
    }
}

#[tokio::test]
async fn a_method_without_a_target_needs_only_the_method_header() {
    let app = app();
    let (status, body) = answer(
        &app,
        post_json(
            &headers("tools/list", None),
            &body(json!(5), "tools/list", json!({})),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["result"]["tools"][0]["name"], "echo");
}

#[tokio::test]
async fn a_missing_or_different_name_header_is_a_header_mismatch() {
    let app = app();
    for name in [None, Some("other"), Some("Echo"), Some("echo2")] {
        let (status, body) = answer(
            &app,
            post_json(&headers("tools/call", name), &call_echo(json!(6))),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name:?}");
        assert_error(&body, -32020, Some(json!(6)));
    }
}

#[tokio::test]
async fn a_base64_name_header_is_decoded_before_it_is_compared() {
    let app = app();
    // "echo" as Base64.
    let (status, body) = answer(
        &app,
        post_json(
            &headers("tools/call", Some("=?base64?ZWNobw==?=")),
            &call_echo(json!(7)),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["result"]["content"][0]["text"], "echoed");
    // Base64 of something else is a mismatch.
    let (status, body) = answer(
        &app,
        post_json(
            &headers("tools/call", Some("=?base64?b3RoZXI=?=")),
            &call_echo(json!(7)),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32020, Some(json!(7)));
}

#[tokio::test]
async fn malformed_base64_in_the_name_header_is_a_header_mismatch() {
    let app = app();
    for bad in ["=?base64?ZWNobw?=", "=?base64?!!!!?=", "=?base64?/w==?="] {
        let (status, body) = answer(
            &app,
            post_json(&headers("tools/call", Some(bad)), &call_echo(json!(8))),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
        assert_error(&body, -32020, Some(json!(8)));
    }
}

#[tokio::test]
async fn a_header_with_bytes_a_header_may_not_hold_is_a_header_mismatch() {
    let app = app();
    let mut request = post_json(&headers("tools/call", None), &call_echo(json!(9)));
    request
        .headers_mut()
        .insert("mcp-name", HeaderValue::from_bytes(b"ech\xf6").unwrap());
    let (status, body) = answer(&app, request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32020, Some(json!(9)));
}

#[tokio::test]
async fn the_name_header_of_a_read_mirrors_the_uri_and_of_a_prompt_its_name() {
    let app = app();
    let read = body(
        json!(10),
        "resources/read",
        json!({"uri": "file:///readme"}),
    );
    let (status, _) = answer(
        &app,
        post_json(&headers("resources/read", Some("file:///other")), &read),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, body_read) = answer(
        &app,
        post_json(&headers("resources/read", Some("file:///readme")), &read),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body_read}");
    assert_eq!(body_read["result"]["contents"][0]["text"], "read me");

    let get = body(json!(11), "prompts/get", json!({"name": "greet"}));
    let (status, error) =
        answer(&app, post_json(&headers("prompts/get", Some("echo")), &get)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&error, -32020, Some(json!(11)));
    let (status, _) = answer(
        &app,
        post_json(&headers("prompts/get", Some("greet")), &get),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn an_unknown_method_is_not_found_with_404() {
    let app = app();
    let (status, body) = answer(
        &app,
        post_json(
            &headers("things/frobnicate", None),
            &body(json!("u"), "things/frobnicate", json!({})),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_error(&body, -32601, Some(json!("u")));
}

#[tokio::test]
async fn legacy_only_methods_with_modern_headers_are_not_found_with_404() {
    let app = app();
    let initialize = json!({
        "protocolVersion": VERSION,
        "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"}
    });
    for (method, params) in [
        ("ping", json!({})),
        ("initialize", initialize),
        ("logging/setLevel", json!({"level": "info"})),
        ("resources/subscribe", json!({"uri": "file:///readme"})),
    ] {
        let response = send(
            &app,
            post_json(&headers(method, None), &body(json!(12), method, params)),
        )
        .await;
        assert!(
            response.headers().get("mcp-session-id").is_none(),
            "{method}: no session is minted for a modern request"
        );
        let status = response.status();
        let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(status, StatusCode::NOT_FOUND, "{method}: {body}");
        assert_error(&body, -32601, Some(json!(12)));
    }
}

#[tokio::test]
async fn an_unknown_tool_is_invalid_params_in_an_ordinary_response() {
    let app = app();
    let (status, body) = answer(
        &app,
        post_json(
            &headers("tools/call", Some("nope")),
            &body(json!(13), "tools/call", json!({"name": "nope"})),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_error(&body, -32602, Some(json!(13)));
}

#[tokio::test]
async fn a_body_that_is_not_json_is_a_parse_error_without_id() {
    let app = app();
    let (status, body) = answer(
        &app,
        post_bytes(
            &headers("tools/list", None),
            b"{\"jsonrpc\": \"2.0\", oops".to_vec(),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32700, None);
}

#[tokio::test]
async fn a_batch_or_a_bare_value_is_an_invalid_request() {
    let app = app();
    let batch = serde_json::to_vec(&json!([call_echo(json!(1))])).unwrap();
    for sent in [batch, b"42".to_vec()] {
        let (status, body) =
            answer(&app, post_bytes(&headers("tools/call", Some("echo")), sent)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_error(&body, -32600, None);
    }
}

#[tokio::test]
async fn a_notification_is_accepted_with_an_empty_202() {
    let app = app();
    let notification =
        json!({"jsonrpc": "2.0", "method": "notifications/whatever", "params": {"_meta": meta()}});
    let response = send(
        &app,
        post_json(&headers("notifications/whatever", None), &notification),
    )
    .await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    assert!(bytes.is_empty());
}

#[tokio::test]
async fn a_response_without_a_session_is_an_invalid_request() {
    let app = app();
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
    let (status, body) = answer(
        &app,
        post_json(&[("mcp-protocol-version", VERSION)], &response),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, -32600, None);
}

#[tokio::test]
async fn list_results_carry_caching_hints() {
    let app = app();
    for (method, field) in [
        ("tools/list", "tools"),
        ("resources/list", "resources"),
        ("resources/templates/list", "resourceTemplates"),
        ("prompts/list", "prompts"),
        ("server/discover", "supportedVersions"),
    ] {
        let (status, body) = answer(
            &app,
            post_json(&headers(method, None), &body(json!(14), method, json!({}))),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{method}: {body}");
        let result = &body["result"];
        assert_eq!(result["resultType"], "complete", "{method}: {body}");
        assert!(result[field].is_array(), "{method}: {body}");
        assert!(result["ttlMs"].is_u64(), "{method}: {body}");
        assert!(
            matches!(result["cacheScope"].as_str(), Some("public" | "private")),
            "{method}: {body}"
        );
        assert!(
            result["_meta"]["io.modelcontextprotocol/serverInfo"].is_object(),
            "{method}: {body}"
        );
    }
}

#[tokio::test]
async fn a_read_result_carries_caching_hints() {
    let app = app();
    let read = body(
        json!(15),
        "resources/read",
        json!({"uri": "file:///readme"}),
    );
    let (status, body) = answer(
        &app,
        post_json(&headers("resources/read", Some("file:///readme")), &read),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let result = &body["result"];
    assert_eq!(result["resultType"], "complete", "{body}");
    assert!(result["ttlMs"].is_u64(), "{body}");
    assert!(
        matches!(result["cacheScope"].as_str(), Some("public" | "private")),
        "{body}"
    );
}

/// A `tools/call` of `query` with these arguments and extra headers.
fn query(arguments: Value, extra: &[(&'static str, &'static str)]) -> Request<Body> {
    let mut sent = headers("tools/call", Some("query"));
    sent.extend_from_slice(extra);
    post_json(
        &sent,
        &body(
            json!(30),
            "tools/call",
            json!({"name": "query", "arguments": arguments}),
        ),
    )
}

#[tokio::test]
async fn a_mirrored_argument_must_come_with_its_param_header_equal_to_it() {
    let app = app();
    let region = json!({"region": "Hello", "sql": "SELECT 1"});
    let (status, ok) = answer(
        &app,
        query(region.clone(), &[("mcp-param-region", "Hello")]),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{ok}");
    assert_eq!(ok["result"]["content"][0]["text"], "queried");
    let base64 = [("mcp-param-region", "=?base64?SGVsbG8=?=")];
    assert_eq!(
        answer(&app, query(region.clone(), &base64)).await.0,
        StatusCode::OK
    );
    for (extra, why) in [
        (&[][..], "missing"),
        (&[("mcp-param-region", "Goodbye")][..], "different"),
        (
            &[("mcp-param-region", "=?base64?SGVsbG8?=")][..],
            "bad padding",
        ),
    ] {
        let (status, refused) = answer(&app, query(region.clone(), extra)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{why}: {refused}");
        assert_eq!(refused["error"]["code"], -32020, "{why}: {refused}");
        assert_eq!(refused["id"], 30);
    }
}

#[tokio::test]
async fn an_absent_mirrored_argument_needs_no_header_and_allows_none() {
    let app = app();
    let (status, ok) = answer(&app, query(json!({"sql": "SELECT 1"}), &[])).await;
    assert_eq!(status, StatusCode::OK, "{ok}");
    let (status, refused) = answer(
        &app,
        query(json!({"sql": "SELECT 1"}), &[("mcp-param-region", "x")]),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(refused["error"]["code"], -32020);
}

/// An endpoint whose tool `query` mirrors its `region` argument in a header
/// and is hidden from everyone by a guard.
fn app_with_a_hidden_query() -> Router {
    let server = support::builder()
        .contributor(
            support::origin("app", 1),
            "query",
            mcp_server::seam::contributor::contributor_fn(|c| {
                let mut mirrored = tool("query");
                mirrored.input_schema = serde_json::from_value(json!({
                    "type": "object",
                    "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}
                }))
                .unwrap();
                c.tool(
                    mirrored,
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        Ok(CallToolResult::text("queried"))
                    }),
                );
            }),
        )
        .register(
            support::origin("auth", 1),
            "nobody",
            0,
            mcp_server::seam::Item::customizer_for::<mcp_server::core::tools::Tool>(
                "query",
                mcp_server::seam::customizer::GuardAttacher::new(
                    mcp_server::seam::guard::guard_fn("nobody", |_, _| {
                        mcp_server::seam::guard::Decision::deny("nobody")
                    }),
                ),
            ),
        )
        .build();
    router(server, "/mcp", HttpConfig::default())
}

/// The status, content type and JSON answer of a call of tool `name` with
/// a `region` argument and no `Mcp-Param-Region` header, sent with `accept`.
async fn call_without_its_header(
    app: &Router,
    name: &str,
    accept: &'static str,
) -> (StatusCode, HeaderValue, Value) {
    let mut request = post_json(
        &headers("tools/call", Some(name)),
        &body(
            json!(30),
            "tools/call",
            json!({"name": name, "arguments": {"region": "Hello"}}),
        ),
    );
    request
        .headers_mut()
        .insert("accept", HeaderValue::from_static(accept));
    let response = send(app, request).await;
    let status = response.status();
    let content_type = response.headers()["content-type"].clone();
    (status, content_type, json_body(response).await)
}

#[tokio::test]
async fn a_hidden_tool_with_bad_headers_answers_as_an_unknown_tool() {
    let app = app_with_a_hidden_query();
    // The hidden tool's mirrored header is missing; an unknown tool has none to miss.
    let accept = "application/json, text/event-stream";
    let (status, content_type, hidden) = call_without_its_header(&app, "query", accept).await;
    let unknown = call_without_its_header(&app, "nothing", accept).await;
    assert_eq!((status, &content_type), (unknown.0, &unknown.1));
    assert_eq!(status, StatusCode::OK, "{hidden}");
    assert_eq!(content_type, "application/json");
    assert_eq!(
        hidden.to_string().replace("query", "NAME"),
        unknown.2.to_string().replace("nothing", "NAME")
    );
}

#[tokio::test]
async fn a_hidden_tool_answers_as_an_unknown_tool_to_a_client_that_prefers_a_stream() {
    let app = app_with_a_hidden_query();
    // One admission answers both: the refusal of a hidden target takes the
    // way an unknown target's error takes, so the content type tells nothing.
    let accept = "text/event-stream, application/json";
    let (status, content_type, hidden) = call_without_its_header(&app, "query", accept).await;
    let unknown = call_without_its_header(&app, "nothing", accept).await;
    assert_eq!((status, &content_type), (unknown.0, &unknown.1), "{hidden}");
    assert_eq!(content_type, "text/event-stream");
    assert_eq!(hidden["error"]["code"], unknown.2["error"]["code"]);
    assert_eq!(
        hidden.to_string().replace("query", "NAME"),
        unknown.2.to_string().replace("nothing", "NAME")
    );
}

/// An endpoint whose tool `query`, added at runtime, mirrors its `region`
/// argument in a header.
fn app_with_a_runtime_query() -> Router {
    let server = server_with(|c| add_text_tool(c, "echo", "echoed"));
    let mut mirrored = tool("query");
    mirrored.input_schema = serde_json::from_value(json!({
        "type": "object",
        "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}
    }))
    .unwrap();
    let answer =
        handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("queried")) });
    server
        .catalog()
        .apply(
            mcp_server::catalog::CatalogChange::new(mcp_server::origin!())
                .add_tool(mirrored, answer),
        )
        .unwrap();
    router(server, "/mcp", HttpConfig::default())
}

#[tokio::test]
async fn a_runtime_tool_s_mirrored_argument_is_checked_as_a_tool_of_boot_s_is() {
    let app = app_with_a_runtime_query();
    let region = json!({"region": "Hello"});
    let (status, ok) = answer(
        &app,
        query(region.clone(), &[("mcp-param-region", "Hello")]),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{ok}");
    assert_eq!(ok["result"]["content"][0]["text"], "queried");
    for extra in [&[][..], &[("mcp-param-region", "Goodbye")][..]] {
        let (status, refused) = answer(&app, query(region.clone(), extra)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
        assert_eq!(refused["error"]["code"], -32020, "{refused}");
    }
}
