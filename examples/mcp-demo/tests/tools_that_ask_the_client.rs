//! Sampling and elicitation: what the tools send the client, what they make
//! of its answer, and what a client without the capability gets.

use std::sync::{Arc, Mutex};

use mcp_demo as _;
use mcp_server::BoxFuture;
use mcp_server::context::InputError;
use mcp_server::context::Negotiated;
use mcp_server::core::capabilities::ClientCapabilities;
use mcp_server::core::error::ErrorCode;
use mcp_server::core::json::JsonValue;
use mcp_server::testing::MemoryClient;
use serde_json::json;

/// The requests the server sent the client, in order.
type Asked = Arc<Mutex<Vec<(&'static str, JsonValue)>>>;

/// A 2025-11-25 client that declares sampling and elicitation and answers
/// as the conformance client does; what it was asked lands in the returned log.
fn answering_client() -> (MemoryClient, Asked) {
    let asked = Asked::default();
    let log = asked.clone();
    let requester = move |method: &'static str,
                          params: JsonValue|
          -> BoxFuture<'static, Result<JsonValue, InputError>> {
        log.lock().unwrap().push((method, params));
        let answer = match method {
            "sampling/createMessage" => json!({
                "role": "assistant",
                "content": {"type": "text", "text": "Paris"},
                "model": "test-model",
                "stopReason": "endTurn"
            }),
            _ => json!({
                "action": "accept",
                "content": {"username": "testuser", "email": "test@example.com"}
            }),
        };
        Box::pin(async move { Ok(answer) })
    };
    let client = MemoryClient::new(&mcp_demo::server())
        .legacy(session(json!({"sampling": {}, "elicitation": {}})))
        .with_requester(requester);
    (client, asked)
}

/// A negotiated 2025-11-25 session with these client capabilities.
fn session(capabilities: JsonValue) -> Negotiated {
    Negotiated {
        protocol_version: "2025-11-25".into(),
        client_capabilities: serde_json::from_value(capabilities).unwrap(),
        ..Negotiated::default()
    }
}

async fn call(client: &MemoryClient, name: &str, arguments: JsonValue) -> JsonValue {
    client
        .request_raw("tools/call", json!({"name": name, "arguments": arguments}))
        .await
        .unwrap()
}

/// The one request the client was asked, with its method.
fn only(asked: &Asked) -> (&'static str, JsonValue) {
    let asked = asked.lock().unwrap();
    assert_eq!(asked.len(), 1, "{asked:?}");
    asked[0].clone()
}

#[tokio::test]
async fn the_sampling_tool_sends_the_prompt_as_one_user_message_and_reports_the_answer() {
    let (client, asked) = answering_client();
    let result = call(
        &client,
        "test_sampling",
        json!({"prompt": "What is the capital of France?"}),
    )
    .await;
    assert_eq!(result["content"][0]["text"], "LLM response: Paris");
    let (method, params) = only(&asked);
    assert_eq!(method, "sampling/createMessage");
    assert_eq!(
        params,
        json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}],
            "maxTokens": 100
        })
    );
}

#[tokio::test]
async fn the_elicitation_tool_asks_for_a_username_and_an_email_and_reports_the_answer() {
    let (client, asked) = answering_client();
    let result = call(
        &client,
        "test_elicitation",
        json!({"message": "Please provide your details"}),
    )
    .await;
    assert_eq!(
        result["content"][0]["text"],
        r#"User response: action=accept, content={"email":"test@example.com","username":"testuser"}"#
    );
    let (method, params) = only(&asked);
    assert_eq!(method, "elicitation/create");
    assert_eq!(params["message"], "Please provide your details");
    let schema = &params["requestedSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["username", "email"]));
    for field in ["username", "email"] {
        assert_eq!(schema["properties"][field]["type"], "string", "{field}");
    }
}

#[tokio::test]
async fn the_sep1034_form_has_exactly_the_five_fields_with_their_defaults() {
    let (client, asked) = answering_client();
    let result = call(&client, "test_elicitation_sep1034_defaults", json!({})).await;
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Elicitation completed: action=accept, content={")
    );
    let (_, params) = only(&asked);
    assert_eq!(
        params["requestedSchema"],
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "User name", "default": "John Doe"},
                "age": {"type": "integer", "description": "User age", "default": 30},
                "score": {"type": "number", "description": "User score", "default": 95.5},
                "status": {
                    "type": "string",
                    "description": "User status",
                    "enum": ["active", "inactive", "pending"],
                    "default": "active"
                },
                "verified": {"type": "boolean", "description": "Verification status", "default": true}
            },
            "required": []
        })
    );
    let properties = params["requestedSchema"]["properties"].as_object().unwrap();
    let order: Vec<&str> = properties.keys().map(String::as_str).collect();
    assert_eq!(order, ["name", "age", "score", "status", "verified"]);
    assert!(
        properties["age"]["default"].is_i64(),
        "30, not 30.0, for an integer"
    );
}

#[tokio::test]
async fn the_sep1330_form_has_exactly_the_five_enum_shapes() {
    let (client, asked) = answering_client();
    let result = call(&client, "test_elicitation_sep1330_enums", json!({})).await;
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Elicitation completed: action=accept")
    );
    let (_, params) = only(&asked);
    let options = |a, b, c| json!([a, b, c]);
    let titled = |titles: [&str; 3]| {
        json!([
            {"const": "value1", "title": titles[0]},
            {"const": "value2", "title": titles[1]},
            {"const": "value3", "title": titles[2]}
        ])
    };
    assert_eq!(
        params["requestedSchema"]["properties"],
        json!({
            "untitledSingle": {
                "type": "string",
                "description": "Select one option",
                "enum": options("option1", "option2", "option3")
            },
            "titledSingle": {
                "type": "string",
                "description": "Select one option with titles",
                "oneOf": titled(["First Option", "Second Option", "Third Option"])
            },
            "legacyEnum": {
                "type": "string",
                "description": "Select one option (legacy)",
                "enum": options("opt1", "opt2", "opt3"),
                "enumNames": options("Option One", "Option Two", "Option Three")
            },
            "untitledMulti": {
                "type": "array",
                "description": "Select multiple options",
                "minItems": 1,
                "maxItems": 3,
                "items": {"type": "string", "enum": options("option1", "option2", "option3")}
            },
            "titledMulti": {
                "type": "array",
                "description": "Select multiple options with titles",
                "minItems": 1,
                "maxItems": 3,
                "items": {"anyOf": titled(["First Choice", "Second Choice", "Third Choice"])}
            }
        })
    );
}

#[tokio::test]
async fn the_missing_capability_tool_fails_with_32021_for_a_2026_client_without_sampling() {
    let client = MemoryClient::new(&mcp_demo::server());
    let error = client
        .request_raw(
            "tools/call",
            json!({"name": "test_missing_capability", "arguments": {}}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(error.code.0, -32021);
    assert_eq!(
        error.data.unwrap()["requiredCapabilities"],
        json!({"sampling": {}})
    );
}

#[tokio::test]
async fn the_missing_capability_tool_samples_when_the_client_can() {
    let (client, asked) = answering_client();
    let result = call(&client, "test_missing_capability", json!({})).await;
    assert_eq!(result["content"][0]["text"], "LLM response: Paris");
    assert_eq!(only(&asked).0, "sampling/createMessage");
}

#[tokio::test]
async fn a_legacy_client_without_the_capabilities_gets_is_error_results_and_is_never_asked() {
    let asked = Asked::default();
    let log = asked.clone();
    let client = MemoryClient::new(&mcp_demo::server())
        .legacy(session(json!({})))
        .with_requester(
            move |method: &'static str,
                  params: JsonValue|
                  -> BoxFuture<'static, Result<JsonValue, InputError>> {
                log.lock().unwrap().push((method, params));
                Box::pin(async { Err(InputError::Cancelled) })
            },
        );
    for (tool, arguments) in [
        ("test_sampling", json!({"prompt": "hi"})),
        ("test_missing_capability", json!({})),
        ("test_elicitation", json!({"message": "hi"})),
        ("test_elicitation_sep1034_defaults", json!({})),
        ("test_elicitation_sep1330_enums", json!({})),
    ] {
        let result = call(&client, tool, arguments).await;
        assert_eq!(result["isError"], true, "{tool}: {result}");
        assert!(
            result["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("capability"),
            "{tool}: {result}"
        );
    }
    assert!(asked.lock().unwrap().is_empty());
}

#[tokio::test]
async fn the_streaming_elicitation_tool_never_asks_the_client_and_completes() {
    let (client, asked) = answering_client();
    let result = client
        .request_raw(
            "tools/call",
            json!({"name": "test_streaming_elicitation", "arguments": {}, "_meta": {"progressToken": "p"}}),
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "Streaming complete");
    assert!(asked.lock().unwrap().is_empty());
    let sent: Vec<String> = client
        .take_notifications()
        .into_iter()
        .map(|n| n.method)
        .collect();
    assert_eq!(sent, ["notifications/progress"]);

    let modern =
        MemoryClient::new(&mcp_demo::server()).with_capabilities(ClientCapabilities::default());
    let result = modern
        .request_raw(
            "tools/call",
            json!({"name": "test_streaming_elicitation", "arguments": {}}),
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "Streaming complete");
    assert!(modern.take_notifications().is_empty());
}
