//! `interceptors/list` and `interceptor/invoke` answer as SEP-2624 says,
//! with its error for each case, in both eras; guards decide who may call
//! them; the `context` a caller sends never becomes its identity.

mod support;

use std::sync::Arc;
use std::time::Duration;

use mcp_interceptors::wire::{Mode, Phase};
use mcp_interceptors::{Failure, Interceptor, Invocation, Mutation, Validate, Validation};
use mcp_server::auth::{Credentials, Principal};
use mcp_server::core::version::Era;
use mcp_server::seam::Item;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer, MethodDescriptor};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, Server};
use serde_json::{Value, json};
use support::{Append, Broken, Events, Judge, Misbehave, Rewrite, builder_with, origin};

fn deny(_: &Invocation) -> Validation {
    Validation::invalid("denied by policy")
}

fn pass(_: &Invocation) -> Validation {
    Validation::valid()
}

fn unchanged(_: &Invocation) -> Mutation {
    Mutation::unchanged()
}

fn catalogue() -> Vec<Interceptor> {
    let both = |i: Interceptor| {
        i.hook(Phase::Request, ["tools/call"])
            .hook(Phase::Response, ["tools/call"])
    };
    vec![
        both(Interceptor::validator(origin(20), "deny-all", Judge(deny))),
        Interceptor::validator(origin(21), "pass-prompts", Judge(pass))
            .hook(Phase::Request, ["prompts/get"]),
        both(Interceptor::mutator(origin(22), "tagger", Append("tag")))
            .version("2.1.0")
            .description("Appends its name")
            .priority_per_phase(Some(-100), Some(100))
            .fail_open(false),
        Interceptor::mutator(origin(23), "keeper", Rewrite(unchanged))
            .hook(Phase::Request, ["tools/call"]),
        Interceptor::validator(origin(24), "audit-all", Judge(pass))
            .hook(Phase::Request, ["*"])
            .hook(Phase::Response, ["*"])
            .mode(Mode::Audit)
            .fail_open(true),
        Interceptor::validator(origin(25), "crash", Broken(Misbehave::Panic))
            .hook(Phase::Request, ["tools/call"]),
        Interceptor::validator(origin(26), "slow", Broken(Misbehave::Hang))
            .hook(Phase::Request, ["tools/call"]),
        Interceptor::validator(origin(27), "configured", Judge(pass))
            .hook(Phase::Request, ["tools/call"])
            .config_schema(
                serde_json::from_value(json!({
                    "type": "object",
                    "properties": {"threshold": {"type": "integer", "minimum": 0}},
                    "required": ["threshold"]
                }))
                .unwrap(),
            ),
    ]
}

fn server() -> Server {
    builder_with(catalogue(), &Events::default()).build()
}

fn names(list: &Value) -> Vec<&str> {
    list["interceptors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn the_list_names_every_interceptor_with_its_descriptor() {
    let server = server();
    let list = MemoryClient::new(&server)
        .request_raw("interceptors/list", json!({}))
        .await
        .unwrap();
    assert_eq!(
        names(&list),
        [
            "audit-all",
            "configured",
            "crash",
            "deny-all",
            "keeper",
            "pass-prompts",
            "slow",
            "tagger"
        ]
    );
    let tagger = list["interceptors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "tagger")
        .unwrap();
    assert_eq!(
        *tagger,
        json!({
            "name": "tagger", "version": "2.1.0", "description": "Appends its name", "type": "mutation",
            "hooks": [{"events": ["tools/call"], "phase": "request"}, {"events": ["tools/call"], "phase": "response"}],
            "failOpen": false, "priorityHint": {"request": -100, "response": 100}
        })
    );
    assert_eq!(list["resultType"], "complete");
}

#[tokio::test]
async fn the_list_filters_by_one_event_and_counts_wildcards_in() {
    let server = server();
    let client = MemoryClient::new(&server);
    let prompts = client
        .request_raw("interceptors/list", json!({"event": "prompts/get"}))
        .await
        .unwrap();
    assert_eq!(names(&prompts), ["audit-all", "pass-prompts"]);
    let unknown = client
        .request_raw("interceptors/list", json!({"event": "acme/nothing"}))
        .await
        .unwrap();
    assert_eq!(names(&unknown), ["audit-all"]);
    let never = client
        .request_raw("interceptors/list", json!({"event": "initialize"}))
        .await
        .unwrap();
    assert!(names(&never).is_empty(), "initialize is never intercepted");
    let star = client
        .request_raw("interceptors/list", json!({"event": "*"}))
        .await
        .unwrap_err();
    assert_eq!(star.code.0, -32602);
}

fn invoke(name: &str, event: &str, phase: &str) -> Value {
    json!({
        "name": name, "event": event, "phase": phase,
        "payload": {"method": event, "params": {"name": "echo", "arguments": {"trail": "t"}}}
    })
}

#[tokio::test]
async fn invoking_a_validator_answers_its_verdict() {
    let server = server();
    let client = MemoryClient::new(&server);
    let mut denied = client
        .request_raw(
            "interceptor/invoke",
            invoke("deny-all", "tools/call", "request"),
        )
        .await
        .unwrap();
    assert!(denied["durationMs"].is_u64());
    denied.as_object_mut().unwrap().remove("durationMs");
    denied.as_object_mut().unwrap().remove("_meta");
    assert_eq!(
        denied,
        json!({
            "resultType": "complete", "interceptor": "deny-all", "type": "validation", "phase": "request",
            "valid": false, "severity": "error",
            "messages": [{"message": "denied by policy", "severity": "error"}]
        })
    );
    let passed = client
        .request_raw(
            "interceptor/invoke",
            invoke("audit-all", "acme/search", "response"),
        )
        .await
        .unwrap();
    assert_eq!(passed["valid"], true);
    assert!(passed.get("severity").is_none() && passed.get("messages").is_none());
}

#[tokio::test]
async fn invoking_a_mutator_answers_the_whole_payload_and_whether_it_changed() {
    let server = server();
    let client = MemoryClient::new(&server);
    let modified = client
        .request_raw(
            "interceptor/invoke",
            invoke("tagger", "tools/call", "request"),
        )
        .await
        .unwrap();
    assert_eq!(modified["type"], "mutation");
    assert_eq!(modified["modified"], true);
    assert_eq!(
        modified["payload"],
        json!({"method": "tools/call", "params": {"name": "echo", "arguments": {"trail": "t>tag"}}})
    );
    let kept = client
        .request_raw(
            "interceptor/invoke",
            invoke("keeper", "tools/call", "request"),
        )
        .await
        .unwrap();
    assert_eq!(kept["modified"], false);
    assert_eq!(
        kept["payload"],
        invoke("keeper", "tools/call", "request")["payload"]
    );
}

#[tokio::test]
async fn an_unknown_name_is_invalid_params_naming_it() {
    let server = server();
    let error = MemoryClient::new(&server)
        .request_raw(
            "interceptor/invoke",
            invoke("nobody", "tools/call", "request"),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32602);
    assert_eq!(error.data.unwrap(), json!({"name": "nobody"}));
}

#[tokio::test]
async fn an_event_or_phase_not_hooked_is_invalid_params_with_the_hooks() {
    let server = server();
    let client = MemoryClient::new(&server);
    for (event, phase) in [
        ("prompts/get", "request"),
        ("tools/call", "response"),
        ("*", "request"),
    ] {
        let error = client
            .request_raw("interceptor/invoke", invoke("keeper", event, phase))
            .await
            .unwrap_err();
        assert_eq!(error.code.0, -32602, "{event} {phase}");
        assert_eq!(
            error.data.unwrap(),
            json!({
                "name": "keeper", "event": event, "phase": phase,
                "advertisedHooks": [{"events": ["tools/call"], "phase": "request"}]
            })
        );
    }
    // A wildcard hook still never covers what is not interceptable.
    let error = client
        .request_raw(
            "interceptor/invoke",
            invoke("audit-all", "initialize", "request"),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32602);
}

#[tokio::test]
async fn a_configuration_its_schema_refuses_is_invalid_params() {
    let server = server();
    let client = MemoryClient::new(&server);
    let with = |config: Value| {
        let mut params = invoke("configured", "tools/call", "request");
        if !config.is_null() {
            params["config"] = config;
        }
        params
    };
    for bad in [
        json!({"threshold": -1}),
        json!({"threshold": "high"}),
        Value::Null,
    ] {
        let error = client
            .request_raw("interceptor/invoke", with(bad.clone()))
            .await
            .unwrap_err();
        assert_eq!(error.code.0, -32602, "{bad}");
        assert_eq!(error.data.unwrap()["name"], "configured");
    }
    let ok = client
        .request_raw("interceptor/invoke", with(json!({"threshold": 3})))
        .await
        .unwrap();
    assert_eq!(ok["valid"], true);
}

#[tokio::test]
async fn params_that_do_not_decode_are_invalid_params() {
    let server = server();
    let client = MemoryClient::new(&server);
    for params in [
        json!({"name": "keeper"}),
        json!({"name": "keeper", "event": "tools/call", "phase": "both", "payload": {}}),
    ] {
        let error = client
            .request_raw("interceptor/invoke", params)
            .await
            .unwrap_err();
        assert_eq!(error.code.0, -32602);
    }
}

#[tokio::test]
async fn a_failure_is_an_internal_error_never_a_result() {
    let server = server();
    let error = MemoryClient::new(&server)
        .request_raw(
            "interceptor/invoke",
            invoke("crash", "tools/call", "request"),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32603);
    assert_eq!(
        error.data.unwrap(),
        json!({"interceptor": "crash", "reason": "the interceptor panicked"})
    );
}

#[tokio::test]
async fn a_timeout_is_an_internal_error_with_the_limit_and_phase() {
    let server = server();
    let mut params = invoke("slow", "tools/call", "request");
    params["timeoutMs"] = json!(30);
    let error = MemoryClient::new(&server)
        .request_raw("interceptor/invoke", params)
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32603);
    assert_eq!(
        error.data.unwrap(),
        json!({"interceptor": "slow", "reason": "timeout", "timeoutMs": 30, "phase": "request"})
    );
}

#[tokio::test]
async fn the_capability_names_every_hooked_event_in_both_eras() {
    let server = server();
    let expected = json!({"supportedEvents": ["*", "prompts/get", "tools/call"]});
    for era in [Era::Modern, Era::Legacy] {
        let capabilities = serde_json::to_value(server.capabilities_in(era)).unwrap();
        assert_eq!(
            capabilities["extensions"]["io.modelcontextprotocol/interceptors"], expected,
            "{era:?}"
        );
    }
    let discovered = MemoryClient::new(&server)
        .request_raw("server/discover", json!({}))
        .await
        .unwrap();
    assert_eq!(
        discovered["capabilities"]["extensions"]["io.modelcontextprotocol/interceptors"],
        expected
    );
    let client = MemoryClient::new(&server).connected();
    let initialized = client.initialize("2025-11-25").await.unwrap();
    assert_eq!(
        initialized["capabilities"]["extensions"]["io.modelcontextprotocol/interceptors"],
        expected
    );
    // Both methods answer a 2025-11-25 session, without `resultType` on invoke.
    let list = client
        .request_raw("interceptors/list", json!({}))
        .await
        .unwrap();
    assert_eq!(names(&list).len(), 8);
    let invoked = client
        .request_raw(
            "interceptor/invoke",
            invoke("deny-all", "tools/call", "request"),
        )
        .await
        .unwrap();
    assert_eq!(invoked["valid"], false);
    assert!(invoked.get("resultType").is_none());
}

/// Tells which principal an interceptor was run for, and what context it was sent.
struct WhoAsks;

impl Validate for WhoAsks {
    fn validate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        Box::pin(async move {
            let mut info = mcp_server::core::json::JsonObject::new();
            info.insert("subject".into(), json!(i.principal().subject));
            info.insert("told".into(), json!(i.context().principal));
            Ok(Validation::valid().with_info(info))
        })
    }
}

/// Reads a bearer token as the subject it names.
struct Bearers;

impl PrincipalSource for Bearers {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        Arc::new(
            credentials
                .bearer()
                .map_or_else(Principal::anonymous, Principal::named),
        )
    }
}

/// Lets only signed-in callers see the method it customizes.
struct SignedInOnly;

impl HandlerCustomizer<MethodDescriptor> for SignedInOnly {
    fn customize(&self, config: &mut HandlerConfig<'_, MethodDescriptor>) {
        config.add_guard(guard_fn("signed-in", |ctx, _| {
            if ctx.principal().is_authenticated() {
                Decision::Allow
            } else {
                Decision::deny("sign in")
            }
        }));
    }
}

fn guarded_server() -> Server {
    let who =
        Interceptor::validator(origin(30), "who", WhoAsks).hook(Phase::Request, ["tools/call"]);
    builder_with(vec![who], &Events::default())
        .supply::<dyn PrincipalSource>(origin(31), "bearers", Arc::new(Bearers))
        .register(
            origin(32),
            "list-guard",
            0,
            Item::customizer_for::<MethodDescriptor>("interceptors/list", SignedInOnly),
        )
        .register(
            origin(33),
            "invoke-guard",
            0,
            Item::customizer_for::<MethodDescriptor>("interceptor/invoke", SignedInOnly),
        )
        .build()
}

#[tokio::test]
async fn guards_decide_who_may_list_and_invoke() {
    let server = guarded_server();
    let anonymous = MemoryClient::new(&server);
    for method in ["interceptors/list", "interceptor/invoke"] {
        let error = anonymous
            .request_raw(method, invoke("who", "tools/call", "request"))
            .await
            .unwrap_err();
        assert_eq!(
            error.code.0, -32601,
            "{method}: hidden as an unknown method"
        );
    }
    let ada = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("ada"));
    assert_eq!(
        names(
            &ada.request_raw("interceptors/list", json!({}))
                .await
                .unwrap()
        ),
        ["who"]
    );
}

#[tokio::test]
async fn the_context_a_caller_sends_is_information_never_its_identity() {
    let server = guarded_server();
    let ada = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("ada"));
    let mut params = invoke("who", "tools/call", "request");
    params["context"] = json!({
        "principal": {"type": "user", "id": "root", "claims": {"admin": true}},
        "timestamp": "2026-12-02T10:00:00Z"
    });
    let result = ada.request_raw("interceptor/invoke", params).await.unwrap();
    assert_eq!(result["info"]["subject"], "ada");
    assert_eq!(result["info"]["told"]["id"], "root");
}

#[tokio::test]
async fn slow_interceptors_are_cut_at_their_own_limit_when_the_invoker_names_none() {
    let slow = Interceptor::validator(origin(40), "slow", Broken(Misbehave::Hang))
        .hook(Phase::Request, ["tools/call"])
        .timeout(Duration::from_millis(25));
    let server = builder_with(vec![slow], &Events::default()).build();
    let error = MemoryClient::new(&server)
        .request_raw(
            "interceptor/invoke",
            invoke("slow", "tools/call", "request"),
        )
        .await
        .unwrap_err();
    assert_eq!(error.data.unwrap()["timeoutMs"], 25);
}
