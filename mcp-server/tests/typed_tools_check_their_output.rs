//! A structured tool result is checked against the tool's output schema
//! before it is sent.

use mcp_server::RequestContext;
use mcp_server::core::error::ErrorCode;
use mcp_server::core::tools::{CallToolRequestParams, CallToolResult, Tool};
use mcp_server::handler::Handler;
use mcp_server::handler::Reply;
use mcp_server::handler::tool;
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArguments {}

fn declared(output: serde_json::Value) -> Tool {
    let tool = Tool {
        name: "report".into(),
        output_schema: output.as_object().cloned(),
        ..Default::default()
    };
    tool::describe::<NoArguments, CallToolResult>(tool)
}

async fn call(
    tool: &Tool,
    structured: serde_json::Value,
) -> Result<Reply<CallToolResult>, mcp_server::core::error::ErrorObject> {
    let handler = tool::handler::<NoArguments, _, _, _>(tool, move |_, _| {
        let structured = structured.clone();
        async move {
            CallToolResult {
                structured_content: Some(structured),
                ..CallToolResult::text("done")
            }
        }
    });
    let params = CallToolRequestParams {
        name: "report".into(),
        ..Default::default()
    };
    handler.handle(&RequestContext::for_tests(), params).await
}

#[tokio::test]
async fn a_structured_result_that_matches_the_output_schema_is_sent() {
    let tool = declared(json!({"type": "object", "required": ["count"]}));
    let Reply::Complete(result) = call(&tool, json!({"count": 3})).await.unwrap() else {
        panic!("complete")
    };
    assert_eq!(result.structured_content, Some(json!({"count": 3})));
}

#[tokio::test]
async fn a_structured_result_that_breaks_the_output_schema_is_an_internal_error() {
    let tool = declared(json!({"type": "object", "required": ["count"]}));
    let error = call(&tool, json!({"total": 3})).await.unwrap_err();
    assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
    assert!(
        error.message.contains("does not match its output schema"),
        "{}",
        error.message
    );
}

#[test]
fn a_generated_input_schema_is_an_object_schema() {
    let tool = declared(json!({"type": "object"}));
    assert_eq!(tool.input_schema["type"], "object");
    assert_eq!(
        tool.input_schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
}
