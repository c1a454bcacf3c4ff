//! The declared interceptors run on the client features the server sends:
//! an elicitation, a sampling request or a roots request, on a 2025-11-25
//! session and inside a 2026-07-28 input-required result, is mutated then
//! validated as it leaves, and the client's answer validated then mutated
//! as it arrives. Observers get a copy of each payload they hook on their
//! own task, and never hold a call up.

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_interceptors::wire::Phase;
use mcp_interceptors::{Interceptor, Mutation, Observer, Validation, observed};
use mcp_server::context::{InputError, Negotiated};
use mcp_server::core::elicitation::ElicitRequestParams;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, RequestContext, Server};
use serde_json::{Value, json};
use support::{Events, Judge, Rewrite, builder_with, origin};

fn elicitation() -> ElicitRequestParams {
    serde_json::from_value(json!({
        "mode": "form",
        "message": "Send the report to bob@example.com?",
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    }))
    .unwrap()
}

/// Masks the address in an elicitation's message as it leaves.
fn mask(invocation: &mcp_interceptors::Invocation) -> Mutation {
    let mut payload = invocation.payload_owned();
    let Some(Value::String(message)) = payload.pointer_mut("/params/message") else {
        return Mutation::unchanged();
    };
    *message = message.replace("bob@example.com", "[email]");
    Mutation::modified(payload)
}

/// Marks the client's answer as it arrives.
fn mark(invocation: &mcp_interceptors::Invocation) -> Mutation {
    let mut payload = invocation.payload_owned();
    payload["content"]["checked"] = true.into();
    Mutation::modified(payload)
}

/// Refuses every sampling request.
fn no_sampling(_: &mcp_interceptors::Invocation) -> Validation {
    Validation::invalid("sampling is not allowed here")
}

fn interceptors() -> Vec<Interceptor> {
    vec![
        Interceptor::mutator(origin(20), "mask", Rewrite(mask))
            .hook(Phase::Request, ["elicitation/create"]),
        Interceptor::mutator(origin(21), "mark", Rewrite(mark))
            .hook(Phase::Response, ["elicitation/create"]),
        Interceptor::validator(origin(22), "no-sampling", Judge(no_sampling))
            .hook(Phase::Request, ["sampling/createMessage"]),
    ]
}

fn server(observations: &Arc<Mutex<Vec<String>>>) -> Server {
    let into = observations.clone();
    builder_with(interceptors(), &Events::default())
        .contributor(
            origin(30),
            "asking-tools",
            contributor_fn(|c| {
                c.tool(
                    Tool {
                        name: "asks".into(),
                        ..Tool::default()
                    },
                    handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                        let answer = ctx.elicit(elicitation()).await?;
                        Ok(CallToolResult::text(
                            serde_json::to_string(&answer.content).unwrap(),
                        ))
                    }),
                );
                c.tool(
                    Tool {
                        name: "samples".into(),
                        ..Tool::default()
                    },
                    handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                        Ok(match ctx.sample(Default::default()).await {
                            Err(InputError::Refused(e)) => CallToolResult::text(e.message),
                            other => CallToolResult::text(format!("{other:?}")),
                        })
                    }),
                );
            }),
        )
        .register(
            origin(31),
            "watcher",
            0,
            observed(
                Observer::new("watcher")
                    .on(Phase::Request, ["tools/call", "elicitation/create"])
                    .on(Phase::Response, ["tools/call"])
                    .run(move |invocation| {
                        let into = into.clone();
                        async move {
                            into.lock().unwrap().push(format!(
                                "{} {}",
                                invocation.event(),
                                invocation.phase().as_str()
                            ));
                            // An observer that never finishes holds nothing up.
                            std::future::pending::<()>().await;
                        }
                    }),
            ),
        )
        .build()
}

fn legacy_client(
    server: &Server,
    asked: &Arc<Mutex<Vec<Value>>>,
    capabilities: Value,
) -> MemoryClient {
    let into = asked.clone();
    MemoryClient::new(server)
        .legacy(Negotiated {
            protocol_version: "2025-11-25".into(),
            client_capabilities: serde_json::from_value(capabilities).unwrap(),
            ..Negotiated::default()
        })
        .with_requester(
            move |_: &'static str,
                  params: Value|
                  -> BoxFuture<'static, Result<Value, InputError>> {
                into.lock().unwrap().push(params);
                Box::pin(async { Ok(json!({"action": "accept", "content": {"ok": true}})) })
            },
        )
}

#[tokio::test]
async fn a_legacy_elicitation_is_masked_as_it_leaves_and_its_answer_marked_as_it_arrives() {
    let observations = Arc::new(Mutex::new(Vec::new()));
    let server = server(&observations);
    let asked = Arc::new(Mutex::new(Vec::new()));
    let client = legacy_client(&server, &asked, json!({"elicitation": {}}));
    let result = client.call_tool("asks", json!({})).await.unwrap();
    assert_eq!(
        asked.lock().unwrap()[0]["message"],
        "Send the report to [email]?"
    );
    assert_eq!(
        result.content,
        CallToolResult::text(r#"{"checked":true,"ok":true}"#).content
    );
}

#[tokio::test]
async fn an_input_request_is_masked_inside_the_input_required_result() {
    let server = server(&Arc::new(Mutex::new(Vec::new())));
    let client = MemoryClient::new(&server)
        .with_capabilities(serde_json::from_value(json!({"elicitation": {}})).unwrap());
    let result = client
        .request_raw("tools/call", json!({"name": "asks", "arguments": {}}))
        .await
        .unwrap();
    assert_eq!(
        result["inputRequests"]["elicitation-1"]["params"]["message"],
        "Send the report to [email]?",
        "{result}"
    );
}

#[tokio::test]
async fn a_validator_refuses_a_sampling_request_before_the_client_is_asked() {
    let server = server(&Arc::new(Mutex::new(Vec::new())));
    let asked = Arc::new(Mutex::new(Vec::new()));
    let client = legacy_client(&server, &asked, json!({"sampling": {}}));
    let result = client.call_tool("samples", json!({})).await.unwrap();
    assert_eq!(
        result.content,
        CallToolResult::text("Blocked by interceptor `no-sampling`: sampling is not allowed here")
            .content
    );
    assert!(
        asked.lock().unwrap().is_empty(),
        "the client was never asked"
    );
}

#[tokio::test]
async fn observers_see_each_payload_they_hook_and_never_hold_a_call_up() {
    let observations = Arc::new(Mutex::new(Vec::new()));
    let server = server(&observations);
    let asked = Arc::new(Mutex::new(Vec::new()));
    let client = legacy_client(&server, &asked, json!({"elicitation": {}}));
    // Every observer run here never ends, and the call completes anyway.
    let result = tokio::time::timeout(Duration::from_secs(10), client.call_tool("asks", json!({})))
        .await
        .expect("observers never delay a call")
        .unwrap();
    assert_eq!(result.is_error, None);
    tokio::time::timeout(Duration::from_secs(10), async {
        while observations.lock().unwrap().len() < 3 {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("each observation arrives");
    let mut seen = observations.lock().unwrap().clone();
    seen.sort();
    assert_eq!(
        seen,
        [
            "elicitation/create request",
            "tools/call request",
            "tools/call response"
        ]
    );
    // A call its guards refuse is shown to no observer.
    observations.lock().unwrap().clear();
    let refused = client.call_tool("secret", json!({})).await;
    assert!(refused.is_err() || refused.unwrap().is_error == Some(true));
    tokio::task::yield_now().await;
    assert!(observations.lock().unwrap().is_empty());
}
