//! Members the model does not name — in `_meta`, in capabilities, in
//! `structuredContent`, in a tool's JSON Schemas — survive decode → encode
//! unchanged, and where their order can matter, in the same order.

use mcp_core::capabilities::{ClientCapabilities, ServerCapabilities};
use mcp_core::content::ToolResultContent;
use mcp_core::messages::{ClientRequest, ServerNotification, ServerResult};
use mcp_core::resources::ResourceUpdatedNotification;
use mcp_core::tools::{CallToolRequest, CallToolResult, Tool};
use mcp_tests::diff;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Decodes `input` as `T` and encodes it back; asserts an equal value, and
/// with `same_text` the very same text (so key order is kept too).
fn assert_lossless<T: Serialize + DeserializeOwned>(input: &Value, same_text: bool) {
    let text = input.to_string();
    let decoded: T = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} rejects {text}: {e}", std::any::type_name::<T>()));
    let encoded = serde_json::to_string(&decoded).expect("encodes");
    let back: Value = serde_json::from_str(&encoded).expect("JSON");
    assert_eq!(
        &back,
        input,
        "changed in the round trip:\n{}",
        diff::describe(input, &back, 10)
    );
    if same_text {
        assert_eq!(encoded, text, "the key order changed");
    }
}

/// A value of every JSON type, `null` and a decimal included.
fn every_json_type() -> Value {
    json!({"s": "x", "i": -3, "f": 0.5, "b": false, "n": null, "a": [1, null, {"k": []}], "o": {"z": 1, "a": 2}})
}

/// The `_meta` a 2026-07-28 request needs, in the model's order, then keys it
/// does not know, in an order that is not alphabetical.
fn request_meta() -> Value {
    json!({
        "progressToken": "p-1",
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "com.example/zeta": every_json_type(),
        "com.example/alpha": null,
        "plain": 1.25
    })
}

#[test]
fn unknown_request_meta_keys_survive_in_order() {
    let request = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"_meta": request_meta(), "name": "echo", "arguments": {"b": 1, "a": null}}
    });
    assert_lossless::<CallToolRequest>(&request, true);
    assert_lossless::<ClientRequest>(&request, true);
}

#[test]
fn unknown_result_meta_keys_survive_in_order() {
    let result = json!({
        "_meta": {
            "io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"},
            "com.example/zeta": every_json_type(),
            "com.example/alpha": [null, 0.5]
        },
        "resultType": "complete",
        "content": []
    });
    assert_lossless::<CallToolResult>(&result, true);
    assert_lossless::<ServerResult>(&result, true);
}

#[test]
fn unknown_notification_meta_keys_survive_in_order() {
    let notification = json!({
        "jsonrpc": "2.0", "method": "notifications/resources/updated",
        "params": {
            "_meta": {
                "io.modelcontextprotocol/subscriptionId": 7,
                "com.example/zeta": every_json_type(),
                "com.example/alpha": null
            },
            "uri": "file:///a.txt"
        }
    });
    assert_lossless::<ResourceUpdatedNotification>(&notification, true);
    assert_lossless::<ServerNotification>(&notification, true);
}

#[test]
fn unknown_tool_meta_keys_survive_in_order() {
    let tool = json!({
        "name": "t",
        "inputSchema": {"type": "object"},
        "_meta": {"ui": {"resourceUri": "ui://t"}, "com.example/zeta": every_json_type(), "com.example/alpha": null}
    });
    assert_lossless::<Tool>(&tool, true);
}

#[test]
fn unknown_client_capabilities_survive_at_every_level() {
    let capabilities = json!({
        "experimental": {"com.example/a": {"x": null}, "com.example/b": {"y": 0.5}},
        "roots": {"listChanged": true, "com.example/roots": {"depth": 2}},
        "sampling": {"context": {}, "tools": {"parallel": true}, "com.example/sampling": [1]},
        "elicitation": {"form": {"multiStep": null}, "url": {}, "com.example/elicitation": "x"},
        "extensions": {"com.example/ext": {"ratio": 0.5}, "io.modelcontextprotocol/tasks": {}},
        "com.example/top": every_json_type(),
        "future": null
    });
    assert_lossless::<ClientCapabilities>(&capabilities, false);
}

#[test]
fn unknown_server_capabilities_survive_at_every_level() {
    let capabilities = json!({
        "experimental": {"com.example/a": {"x": null}},
        "logging": {"levels": ["info", null]},
        "completions": {"max": 0.5},
        "prompts": {"listChanged": false, "com.example/prompts": 1},
        "resources": {"subscribe": true, "listChanged": true, "com.example/resources": {"n": null}},
        "tools": {"listChanged": true, "com.example/tools": []},
        "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}},
        "com.example/top": every_json_type(),
        "future": null
    });
    assert_lossless::<ServerCapabilities>(&capabilities, false);
}

#[test]
fn structured_content_of_any_json_type_survives_in_order() {
    let values = [
        json!(null),
        json!(0.5),
        json!(-12),
        json!("text"),
        json!(true),
        json!([3, null, "a", {"z": 1, "a": 2}]),
        every_json_type(),
        json!({}),
        json!([]),
    ];
    for value in values {
        let result = json!({"resultType": "complete", "content": [], "structuredContent": value});
        assert_lossless::<CallToolResult>(&result, true);
        let block = json!({"type": "tool_result", "toolUseId": "u1", "content": [], "structuredContent": value});
        assert_lossless::<ToolResultContent>(&block, true);
    }
}

#[test]
fn a_tool_input_and_output_schema_survive_verbatim() {
    let tool = json!({
        "name": "get_weather",
        "inputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {"city": {"type": "string", "minLength": 1}, "unit": {"enum": ["c", "f", null]}},
            "properties": {
                "location": {"$ref": "#/$defs/city"},
                "unit": {"$ref": "#/$defs/unit", "default": "c"},
                "days": {"type": "integer", "minimum": 1, "maximum": 7.5}
            },
            "required": ["location"],
            "additionalProperties": false,
            "x-vendor": {"z": 1, "a": null}
        },
        "outputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.com/weather.json",
            "type": "object",
            "$defs": {"reading": {"type": "number", "multipleOf": 0.1}},
            "properties": {"temperature": {"$ref": "#/$defs/reading"}},
            "additionalProperties": {"type": "string"},
            "$comment": "kept"
        }
    });
    assert_lossless::<Tool>(&tool, true);
}
