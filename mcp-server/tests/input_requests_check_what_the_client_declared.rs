//! Input requests from handlers: the client's declared capabilities decide
//! what may be asked, and a handler that panics still gets its request
//! answered.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_server::BoxFuture;
use mcp_server::context::InputError;
use mcp_server::context::Negotiated;
use mcp_server::core::capabilities::ClientCapabilities;
use mcp_server::core::sampling::{CreateMessageRequestParams, ToolChoice};
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::testing::MemoryClient;
use serde_json::{Value, json};
use support::{builder, origin, tool};

fn server() -> mcp_server::Server {
    builder()
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(|c| {
                c.tool(
                    tool("sample_with_tools"),
                    handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                        let params = CreateMessageRequestParams {
                            max_tokens: 10,
                            tool_choice: Some(ToolChoice::default()),
                            ..Default::default()
                        };
                        match ctx.sample(params).await {
                            Ok(_) => Ok(CallToolResult::text("sampled")),
                            Err(e) => Ok(CallToolResult::error(e.to_string())),
                        }
                    }),
                );
                c.tool(
                    tool("explode"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async move {
                        if true {
                            panic!("boom");
                        }
                        Ok(CallToolResult::text("unreachable"))
                    }),
                );
            }),
        )
        .build()
}

fn capabilities(value: Value) -> ClientCapabilities {
    serde_json::from_value(value).unwrap()
}

/// A client stand-in that counts what it is asked.
fn counting(
    asked: Arc<AtomicUsize>,
) -> impl Fn(&'static str, Value) -> BoxFuture<'static, Result<Value, InputError>> {
    move |_, _| {
        asked.fetch_add(1, Ordering::SeqCst);
        Box::pin(async {
            Ok(
                json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "hi"}}),
            )
        })
    }
}

#[tokio::test]
async fn sampling_that_offers_tools_needs_the_sampling_tools_capability() {
    let server = server();
    let asked = Arc::new(AtomicUsize::new(0));
    let session = Negotiated {
        protocol_version: "2025-11-25".into(),
        client_capabilities: capabilities(json!({"sampling": {}})),
        ..Negotiated::default()
    };
    let legacy = MemoryClient::new(&server)
        .legacy(session)
        .with_requester(counting(asked.clone()));
    let result = legacy
        .call_tool("sample_with_tools", json!({}))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        asked.load(Ordering::SeqCst),
        0,
        "the client was never asked"
    );

    let with_tools = Negotiated {
        protocol_version: "2025-11-25".into(),
        client_capabilities: capabilities(json!({"sampling": {"tools": {}}})),
        ..Negotiated::default()
    };
    let legacy = MemoryClient::new(&server)
        .legacy(with_tools)
        .with_requester(counting(asked.clone()));
    let result = legacy
        .call_tool("sample_with_tools", json!({}))
        .await
        .unwrap();
    assert_eq!(result.is_error, None, "{result:?}");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_modern_request_without_sampling_tools_fails_naming_it() {
    let client =
        MemoryClient::new(&server()).with_capabilities(capabilities(json!({"sampling": {}})));
    let error = client
        .request_raw("tools/call", json!({"name": "sample_with_tools"}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32021);
    assert_eq!(
        error.data.unwrap()["requiredCapabilities"],
        json!({"sampling": {"tools": {}}})
    );
}

#[tokio::test]
async fn a_panicking_handler_is_answered_with_an_internal_error() {
    let error = MemoryClient::new(&server())
        .request_raw("tools/call", json!({"name": "explode"}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32603);
    assert!(error.message.contains("panicked"), "{}", error.message);
}
