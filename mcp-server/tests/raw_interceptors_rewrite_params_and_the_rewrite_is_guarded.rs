//! A raw interceptor may rewrite a request's params before anything decodes
//! them; the method then decodes, resolves and guards what it was given, so
//! a rewrite aimed at a hidden target answers as that target's caller
//! would be answered.

mod support;

use mcp_server::BoxFuture;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::interceptor::{RawAnswer, RawCall, RawInterceptor, RawNext};
use mcp_server::testing::MemoryClient;
use serde_json::{Value, json};
use support::{builder, origin, tool};

/// Rewrites `tools/call` params with a function of the params as sent.
struct Rewrite(fn(&mut Value));

impl RawInterceptor for Rewrite {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        let Some(params) = call.params().filter(|_| call.method() == "tools/call") else {
            return next.run(call);
        };
        let mut params: Value = serde_json::from_str(params.get()).expect("params are JSON");
        (self.0)(&mut params);
        next.run_with(
            call,
            serde_json::value::to_raw_value(&params).expect("encodes"),
        )
    }
}

/// Hides the tool it customizes from every caller.
struct HideFromEveryone;

impl HandlerCustomizer<mcp_server::core::tools::Tool> for HideFromEveryone {
    fn customize(&self, config: &mut HandlerConfig<mcp_server::core::tools::Tool>) {
        config.add_guard(guard_fn("nobody", |_, _| Decision::deny("private")));
    }
}

fn server(rewrite: fn(&mut Value)) -> mcp_server::Server {
    builder()
        .contributor(
            origin("app", 1),
            "tools",
            mcp_server::seam::contributor::contributor_fn(|c| {
                for name in ["echo", "secret"] {
                    c.tool(
                        tool(name),
                        handler_fn::<CallTool, _, _, _>(move |_, params| async move {
                            let args = Value::Object(params.arguments.unwrap_or_default());
                            Ok(CallToolResult::text(format!("{name} {args}")))
                        }),
                    );
                }
            }),
        )
        .register(
            origin("app", 2),
            "hide-secret",
            0,
            Item::customizer_for::<mcp_server::core::tools::Tool>("secret", HideFromEveryone),
        )
        .register(
            origin("ext", 1),
            "rewrite",
            0,
            Item::raw_interceptor(Rewrite(rewrite)),
        )
        .build()
}

#[tokio::test]
async fn the_handler_receives_the_params_the_interceptor_wrote() {
    let server = server(|params| params["arguments"]["text"] = "rewritten".into());
    let client = MemoryClient::new(&server);
    let result = client
        .request_raw(
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "as sent"}}),
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], r#"echo {"text":"rewritten"}"#);
}

#[tokio::test]
async fn a_rewrite_aimed_at_a_hidden_tool_answers_as_an_unknown_tool() {
    let server = server(|params| params["name"] = "secret".into());
    let client = MemoryClient::new(&server);
    let rewritten = client
        .request_raw("tools/call", json!({"name": "echo", "arguments": {}}))
        .await
        .unwrap_err();
    let unknown = server_without_rewrite_error("secret").await;
    assert_eq!(
        serde_json::to_value(&rewritten).unwrap(),
        serde_json::to_value(&unknown).unwrap()
    );
}

#[tokio::test]
async fn params_that_no_longer_decode_get_the_methods_invalid_params_error() {
    let server = server(|params| params["arguments"] = "not an object".into());
    let client = MemoryClient::new(&server);
    let error = client
        .request_raw("tools/call", json!({"name": "echo", "arguments": {}}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32602, "{error:?}");
}

/// What a direct call of `name` answers when no interceptor rewrites it.
async fn server_without_rewrite_error(name: &str) -> ErrorObject {
    let server = server(|_| {});
    MemoryClient::new(&server)
        .request_raw("tools/call", json!({"name": name, "arguments": {}}))
        .await
        .unwrap_err()
}
