//! `#[validator]` and `#[mutator]` register interceptors at link time, on a
//! function (async or not, returning the outcome or a `Result` of it) or on
//! the `impl` block of a `Default` type, with every key in the descriptor
//! `interceptors/list` sends.

use std::fmt;

use mcp_interceptors::{
    Failure, Interceptors, Invocation, Mutation, Validate, Validation, mutator, validator,
};
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, Server};
use serde_json::{Value, json};

/// Refuses calls whose `text` argument is "forbidden".
///
/// Everything else passes.
#[validator(name = "no-forbidden-text", request = ["tools/call"])]
async fn no_forbidden_text(invocation: &Invocation) -> Validation {
    match invocation.arguments().and_then(|a| a["text"].as_str()) {
        Some("forbidden") => Validation::invalid("forbidden text"),
        _ => Validation::valid(),
    }
}

/// Passes everything, synchronously.
#[validator(
    version = "2.0.0",
    description = "Written out, not from the doc comment",
    request = ["tools/call", "prompts/get"],
    response = ["tools/call"],
    mode = "audit",
    fail_open = true,
    timeout_ms = 250,
    compat = "2025-11-25"
)]
fn sync_pass(_: &Invocation) -> Validation {
    Validation::valid()
}

/// Why a fallible interceptor failed.
#[derive(Debug)]
struct Broke;

impl fmt::Display for Broke {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the fallible validator broke")
    }
}

#[validator(name = "fallible", request = ["tools/call"])]
async fn fallible(invocation: &mcp_interceptors::Invocation) -> Result<Validation, Broke> {
    match invocation.arguments().and_then(|a| a["text"].as_str()) {
        Some("break") => Err(Broke),
        _ => Ok(Validation::valid()),
    }
}

/// The configuration of the shouting mutator.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Shouting {
    /// What to append.
    suffix: String,
}

/// Upper-cases the `text` argument and appends the configured suffix.
#[mutator(
    name = "shout",
    request = ["tools/call"],
    priority(request = -100, response = 100),
    response = ["tools/call"],
    config = Shouting
)]
async fn shout(invocation: &Invocation) -> Result<Mutation, Failure> {
    let suffix = invocation
        .config::<Shouting>()?
        .map(|c| c.suffix)
        .unwrap_or_default();
    let mut payload = invocation.payload_owned();
    let Some(text) = payload.pointer_mut("/params/arguments/text") else {
        return Ok(Mutation::unchanged());
    };
    let shouted = format!(
        "{}{suffix}",
        text.as_str().unwrap_or_default().to_uppercase()
    );
    *text = shouted.into();
    Ok(Mutation::modified(payload))
}

/// Leaves every payload as it is.
#[mutator(response = ["*"], priority = -7)]
fn keep(_: &Invocation) -> Mutation {
    Mutation::unchanged()
}

/// Refuses every prompt.
#[derive(Default)]
struct NoPrompts;

/// Refuses every `prompts/get`.
#[validator(request = ["prompts/get"])]
impl Validate for NoPrompts {
    fn validate<'a>(&'a self, _: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        Box::pin(async { Ok(Validation::invalid("no prompts here")) })
    }
}

/// Tags results.
#[derive(Default)]
struct Tagger;

#[mutator(name = "tagger", response = ["tools/call"], priority = 3, version = "0.1.0")]
impl mcp_interceptors::Mutate for Tagger {
    fn mutate<'a>(
        &'a self,
        invocation: &'a Invocation,
    ) -> BoxFuture<'a, Result<Mutation, Failure>> {
        Box::pin(async move {
            let mut payload = invocation.payload_owned();
            payload["tagged"] = true.into();
            Ok(Mutation::modified(payload))
        })
    }
}

/// The descriptors `interceptors/list` sends, by name.
async fn listed() -> Vec<Value> {
    let server = Server::builder().build();
    let list = MemoryClient::new(&server)
        .request_raw("interceptors/list", json!({}))
        .await
        .unwrap();
    list["interceptors"].as_array().unwrap().clone()
}

/// The descriptor of `name`.
async fn descriptor(name: &str) -> Value {
    listed()
        .await
        .into_iter()
        .find(|d| d["name"] == name)
        .unwrap_or_else(|| panic!("`{name}` is not listed"))
}

/// Runs `name` on a `tools/call` of `x` with `arguments`, in `phase`.
async fn invoke(
    name: &str,
    phase: &str,
    payload: Value,
    config: Option<Value>,
) -> Result<Value, Value> {
    let server = Server::builder().build();
    let mut params =
        json!({"name": name, "event": "tools/call", "phase": phase, "payload": payload});
    if let Some(config) = config {
        params["config"] = config;
    }
    MemoryClient::new(&server)
        .request_raw("interceptor/invoke", params)
        .await
        .map_err(|e| serde_json::to_value(e).unwrap())
}

fn call(arguments: Value) -> Value {
    json!({"method": "tools/call", "params": {"name": "x", "arguments": arguments}})
}

#[test]
fn every_declared_interceptor_is_a_member_of_the_server() {
    let server = Server::builder().build();
    let mut names: Vec<&str> = server
        .members::<Interceptors>()
        .iter()
        .map(|i| i.name())
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "NoPrompts",
            "fallible",
            "keep",
            "no-forbidden-text",
            "shout",
            "sync_pass",
            "tagger"
        ]
    );
}

#[tokio::test]
async fn a_function_validator_is_listed_with_its_doc_comment_as_description() {
    let listed = descriptor("no-forbidden-text").await;
    assert_eq!(
        listed,
        json!({
            "name": "no-forbidden-text",
            "description": "Refuses calls whose `text` argument is \"forbidden\". Everything else passes.",
            "type": "validation",
            "hooks": [{"events": ["tools/call"], "phase": "request"}]
        })
    );
}

#[tokio::test]
async fn every_key_of_a_validator_lands_in_its_descriptor() {
    let listed = descriptor("sync_pass").await;
    assert_eq!(
        listed,
        json!({
            "name": "sync_pass",
            "version": "2.0.0",
            "description": "Written out, not from the doc comment",
            "type": "validation",
            "hooks": [
                {"events": ["tools/call", "prompts/get"], "phase": "request"},
                {"events": ["tools/call"], "phase": "response"}
            ],
            "mode": "audit",
            "failOpen": true,
            "compat": {"minProtocol": "2025-11-25"}
        })
    );
}

#[test]
fn the_timeout_of_a_declaration_is_its_time_limit() {
    let server = Server::builder().build();
    let interceptors = server.members::<Interceptors>();
    let sync_pass = interceptors
        .iter()
        .find(|i| i.name() == "sync_pass")
        .unwrap();
    assert!(
        format!("{sync_pass:?}").contains("timeout: 250ms"),
        "{sync_pass:?}"
    );
    let shout = interceptors.iter().find(|i| i.name() == "shout").unwrap();
    assert!(format!("{shout:?}").contains("timeout: 10s"), "{shout:?}");
}

#[tokio::test]
async fn a_mutator_lists_its_priority_per_phase_and_its_config_schema() {
    let listed = descriptor("shout").await;
    assert_eq!(listed["type"], "mutation");
    assert_eq!(
        listed["priorityHint"],
        json!({"request": -100, "response": 100})
    );
    assert_eq!(
        listed["hooks"][0],
        json!({"events": ["tools/call"], "phase": "request"})
    );
    assert_eq!(
        listed["hooks"][1],
        json!({"events": ["tools/call"], "phase": "response"})
    );
    assert_eq!(
        listed["description"],
        "Upper-cases the `text` argument and appends the configured suffix."
    );
    let schema = &listed["configSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["suffix"]));
}

#[tokio::test]
async fn a_single_priority_is_listed_as_a_number() {
    assert_eq!(descriptor("keep").await["priorityHint"], json!(-7));
    assert_eq!(descriptor("tagger").await["priorityHint"], json!(3));
}

#[tokio::test]
async fn an_impl_block_registers_its_type_under_the_types_name() {
    let listed = descriptor("NoPrompts").await;
    assert_eq!(
        listed,
        json!({
            "name": "NoPrompts",
            "description": "Refuses every `prompts/get`.",
            "type": "validation",
            "hooks": [{"events": ["prompts/get"], "phase": "request"}]
        })
    );
    let tagger = descriptor("tagger").await;
    assert_eq!(tagger["version"], "0.1.0");
    assert_eq!(tagger["type"], "mutation");
    assert!(tagger.get("description").is_none());
}

#[tokio::test]
async fn invoking_a_function_validator_runs_the_function() {
    let refused = invoke(
        "no-forbidden-text",
        "request",
        call(json!({"text": "forbidden"})),
        None,
    )
    .await
    .unwrap();
    assert_eq!(refused["valid"], false);
    assert_eq!(refused["messages"][0]["message"], "forbidden text");
    let passed = invoke(
        "no-forbidden-text",
        "request",
        call(json!({"text": "fine"})),
        None,
    )
    .await
    .unwrap();
    assert_eq!(passed["valid"], true);
    let sync = invoke("sync_pass", "response", json!({"content": []}), None)
        .await
        .unwrap();
    assert_eq!(sync["valid"], true);
}

#[tokio::test]
async fn an_error_returned_by_a_function_is_a_failure_of_the_interceptor() {
    let failed = invoke("fallible", "request", call(json!({"text": "break"})), None)
        .await
        .unwrap_err();
    assert_eq!(failed["code"], -32603);
    assert_eq!(failed["data"]["interceptor"], "fallible");
    assert_eq!(failed["data"]["reason"], "the fallible validator broke");
    let passed = invoke("fallible", "request", call(json!({"text": "fine"})), None)
        .await
        .unwrap();
    assert_eq!(passed["valid"], true);
}

#[tokio::test]
async fn invoking_a_function_mutator_runs_it_with_its_config() {
    let config = Some(json!({"suffix": "!"}));
    let rewritten = invoke("shout", "request", call(json!({"text": "hi"})), config)
        .await
        .unwrap();
    assert_eq!(rewritten["modified"], true);
    assert_eq!(rewritten["payload"]["params"]["arguments"]["text"], "HI!");
    let refused = invoke(
        "shout",
        "request",
        call(json!({"text": "hi"})),
        Some(json!({"suffix": 1})),
    )
    .await
    .unwrap_err();
    assert_eq!(refused["code"], -32602);
}

#[tokio::test]
async fn invoking_an_impl_block_interceptor_runs_its_default_value() {
    let tagged = invoke("tagger", "response", json!({"content": []}), None)
        .await
        .unwrap();
    assert_eq!(tagged["payload"], json!({"content": [], "tagged": true}));
    let server = Server::builder().build();
    let refused = MemoryClient::new(&server)
        .request_raw(
            "interceptor/invoke",
            json!({
                "name": "NoPrompts", "event": "prompts/get", "phase": "request",
                "payload": {"method": "prompts/get", "params": {"name": "p"}}
            }),
        )
        .await
        .unwrap();
    assert_eq!(refused["valid"], false);
}
