//! The declared interceptors run on the server's own requests: validators
//! at once, mutators by priority (ties by name), the result mutated then
//! validated; audit never blocks; `failOpen` decides what a crash or a
//! timeout does; a blocked mutation pass leaves nothing of its rewrites;
//! only calls the caller may make are shown to them.

mod support;

use std::sync::Arc;
use std::time::Duration;

use mcp_interceptors::wire::{Mode, Phase};
use mcp_interceptors::{Failure, Interceptor, Invocation, Message, Mutation, Validate, Validation};
use mcp_server::BoxFuture;
use serde_json::json;
use support::{
    Append, Broken, Events, Judge, Misbehave, Record, Rewrite, call, mutator, origin, server_with,
    validator,
};

#[tokio::test]
async fn mutators_run_by_priority_and_ties_by_name() {
    let calls = Events::default();
    let server = server_with(
        vec![
            mutator("zeta", Append("zeta")).priority(-5),
            mutator("beta", Append("beta")),
            mutator("alpha", Append("alpha")),
            mutator("first", Append("first")).priority(-10),
            mutator("last", Append("last")).priority(7),
        ],
        &calls,
    );
    let result = call(&server, "echo", json!({"trail": "start"}))
        .await
        .unwrap();
    assert_eq!(
        calls.take(),
        [r#"echo {"trail":"start>first>zeta>alpha>beta>last"}"#]
    );
    assert_eq!(
        result["content"][0]["text"],
        r#"{"trail":"start>first>zeta>alpha>beta>last"}"#
    );
}

#[tokio::test]
async fn each_phase_orders_mutators_by_its_own_priority() {
    let calls = Events::default();
    let both = |name: &'static str, request, response| {
        Interceptor::mutator(origin(3), name, Append(name))
            .hook(Phase::Request, ["tools/call"])
            .hook(Phase::Response, ["tools/call"])
            .priority_per_phase(Some(request), Some(response))
    };
    let server = server_with(vec![both("a", 1, -1), both("b", -1, 1)], &calls);
    let result = call(&server, "echo", json!({"trail": "in"})).await.unwrap();
    // The request went b then a; its echo went a then b.
    assert_eq!(result["content"][0]["text"], r#"{"trail":"in>b>a"}>a>b"#);
}

#[tokio::test]
async fn a_request_is_validated_before_it_is_mutated_and_a_result_after() {
    let seen = Events::default();
    let calls = Events::default();
    let server = server_with(
        vec![
            mutator("tag", Append("tag")).hook(Phase::Response, ["tools/call"]),
            validator("look", Record("look", seen.clone())).hook(Phase::Response, ["tools/call"]),
        ],
        &calls,
    );
    call(&server, "echo", json!({"trail": "x"})).await.unwrap();
    let seen = seen.take();
    assert_eq!(seen.len(), 2, "{seen:?}");
    // The validator saw the request as sent, and the result as rewritten.
    assert!(
        seen[0].starts_with("look request ") && seen[0].contains(r#""trail":"x""#),
        "{seen:?}"
    );
    assert!(
        seen[1].starts_with("look response ") && seen[1].contains(r#"x>tag\"}>tag"#),
        "{seen:?}"
    );
}

/// Waits until every validator sharing its barrier has started.
struct Meet(Arc<tokio::sync::Barrier>);

impl Validate for Meet {
    fn validate<'a>(&'a self, _: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        Box::pin(async move {
            self.0.wait().await;
            Ok(Validation::valid())
        })
    }
}

#[tokio::test]
async fn validators_run_at_once() {
    // Three validators that each wait for the other two: run one after
    // another, the first would wait until its time limit and block.
    let barrier = Arc::new(tokio::sync::Barrier::new(3));
    let calls = Events::default();
    let meet = |name| validator(name, Meet(barrier.clone())).timeout(Duration::from_secs(5));
    let server = server_with(vec![meet("v1"), meet("v2"), meet("v3")], &calls);
    call(&server, "echo", json!({})).await.unwrap();
    assert_eq!(calls.take(), ["echo {}"]);
}

fn refuse(_: &Invocation) -> Validation {
    Validation::invalid("not today")
        .with_message(Message::error("bad input").at("params.arguments.q"))
}

#[tokio::test]
async fn an_active_validator_that_refuses_answers_with_an_error_naming_it() {
    let calls = Events::default();
    let server = server_with(vec![validator("gate", Judge(refuse))], &calls);
    let error = call(&server, "echo", json!({"q": 1})).await.unwrap_err();
    assert_eq!(error.code.0, -32602);
    assert_eq!(
        error.message,
        "Blocked by interceptor `gate`: not today; bad input"
    );
    assert_eq!(
        error.data.unwrap(),
        json!({
            "interceptor": "gate", "event": "tools/call", "phase": "request",
            "messages": [
                {"message": "not today", "severity": "error"},
                {"path": "params.arguments.q", "message": "bad input", "severity": "error"}
            ]
        })
    );
    assert!(calls.take().is_empty(), "the tool never ran");
}

#[tokio::test]
async fn a_refused_result_is_replaced_by_an_internal_error() {
    let calls = Events::default();
    let server = server_with(
        vec![
            Interceptor::validator(origin(4), "outbound", Judge(refuse))
                .hook(Phase::Response, ["tools/call"]),
        ],
        &calls,
    );
    let error = call(&server, "echo", json!({})).await.unwrap_err();
    assert_eq!(error.code.0, -32603);
    assert_eq!(error.data.unwrap()["phase"], "response");
    assert_eq!(calls.take(), ["echo {}"]);
}

#[tokio::test]
async fn warnings_never_block() {
    let calls = Events::default();
    let warn = |_: &Invocation| Validation::valid().with_message(Message::warn("long"));
    let invalid_warning = |_: &Invocation| {
        let mut v = Validation::valid().with_message(Message::warn("odd"));
        v = v.suggest("params.arguments.q", 2);
        v
    };
    let server = server_with(
        vec![
            validator("w1", Judge(warn)),
            validator("w2", Judge(invalid_warning)),
        ],
        &calls,
    );
    call(&server, "echo", json!({"q": 1})).await.unwrap();
    assert_eq!(
        calls.take(),
        [r#"echo {"q":1}"#],
        "a suggestion is never applied"
    );
}

#[tokio::test]
async fn audit_mode_records_and_never_blocks_or_rewrites() {
    let calls = Events::default();
    let server = server_with(
        vec![
            validator("audit-gate", Judge(refuse)).mode(Mode::Audit),
            mutator("audit-rewrite", Append("audit")).mode(Mode::Audit),
            validator("audit-crash", Broken(Misbehave::Panic)).mode(Mode::Audit),
            mutator("audit-fail", Broken(Misbehave::Fail)).mode(Mode::Audit),
        ],
        &calls,
    );
    call(&server, "echo", json!({"trail": "t"})).await.unwrap();
    assert_eq!(calls.take(), [r#"echo {"trail":"t"}"#]);
}

async fn outcome_of(
    interceptor: Interceptor,
) -> (
    Result<serde_json::Value, mcp_server::core::error::ErrorObject>,
    Vec<String>,
) {
    let calls = Events::default();
    let server = server_with(vec![interceptor], &calls);
    let result = call(&server, "echo", json!({})).await;
    (result, calls.take())
}

#[tokio::test]
async fn a_crash_blocks_unless_the_interceptor_fails_open() {
    for misbehave in [Misbehave::Panic, Misbehave::Fail] {
        for (interceptor, name) in [
            (validator("crash", Broken(misbehave)), "validator"),
            (mutator("crash", Broken(misbehave)), "mutator"),
        ] {
            let (closed, calls) = outcome_of(interceptor.clone()).await;
            let error = closed.unwrap_err();
            assert_eq!(error.code.0, -32603, "{name}");
            let data = error.data.unwrap();
            assert_eq!(data["interceptor"], "crash");
            let reason = data["reason"].as_str().unwrap();
            match misbehave {
                Misbehave::Panic => assert_eq!(reason, "the interceptor panicked"),
                _ => assert_eq!(reason, "the policy store is unreachable"),
            }
            assert!(calls.is_empty(), "{name}: the tool never ran");

            let (open, calls) = outcome_of(interceptor.fail_open(true)).await;
            assert!(open.is_ok(), "{name}");
            assert_eq!(calls, ["echo {}"], "{name}");
        }
    }
}

#[tokio::test]
async fn a_timeout_blocks_unless_the_interceptor_fails_open() {
    for interceptor in [
        validator("slow", Broken(Misbehave::Hang)),
        mutator("slow", Broken(Misbehave::Hang)),
    ] {
        let interceptor = interceptor.timeout(Duration::from_millis(20));
        let (closed, calls) = outcome_of(interceptor.clone()).await;
        let error = closed.unwrap_err();
        assert_eq!(error.code.0, -32603);
        assert_eq!(
            error.data.unwrap(),
            json!({"interceptor": "slow", "reason": "timeout", "timeoutMs": 20, "phase": "request"})
        );
        assert!(calls.is_empty());
        let (open, calls) = outcome_of(interceptor.fail_open(true)).await;
        assert!(open.is_ok());
        assert_eq!(calls, ["echo {}"]);
    }
}

#[tokio::test]
async fn a_blocked_mutation_pass_discards_every_rewrite_before_it() {
    let calls = Events::default();
    let server = server_with(
        vec![
            mutator("a-redact", Append("redacted")).priority(1),
            mutator("b-crash", Broken(Misbehave::Fail)).priority(2),
        ],
        &calls,
    );
    let error = call(&server, "echo", json!({"trail": "t"}))
        .await
        .unwrap_err();
    assert_eq!(error.data.unwrap()["interceptor"], "b-crash");
    assert!(
        calls.take().is_empty(),
        "nothing ran with a half-rewritten request"
    );

    // Failing open, the crashed mutator's turn leaves the payload as the
    // one before it made it.
    let server = server_with(
        vec![
            mutator("a-redact", Append("redacted")).priority(1),
            mutator("b-crash", Broken(Misbehave::Fail))
                .priority(2)
                .fail_open(true),
            mutator("c-tag", Append("tag")).priority(3),
        ],
        &calls,
    );
    call(&server, "echo", json!({"trail": "t"})).await.unwrap();
    assert_eq!(calls.take(), [r#"echo {"trail":"t>redacted>tag"}"#]);
}

#[tokio::test]
async fn a_blocked_result_pass_sends_none_of_its_rewrites() {
    let calls = Events::default();
    let on_result = |i: Interceptor| i.hook(Phase::Response, ["tools/call"]);
    let server = server_with(
        vec![
            on_result(Interceptor::mutator(origin(5), "a-tag", Append("tag"))),
            on_result(Interceptor::mutator(
                origin(6),
                "b-crash",
                Broken(Misbehave::Panic),
            )),
        ],
        &calls,
    );
    let error = call(&server, "echo", json!({})).await.unwrap_err();
    assert_eq!(error.code.0, -32603);
    assert!(error.data.unwrap().to_string().contains("b-crash"));
}

#[tokio::test]
async fn a_mutation_may_not_change_the_requests_method() {
    let calls = Events::default();
    let retarget = |i: &Invocation| {
        let mut payload = i.payload_owned();
        payload["method"] = "prompts/get".into();
        Mutation::modified(payload)
    };
    let server = server_with(vec![mutator("retarget", Rewrite(retarget))], &calls);
    let error = call(&server, "echo", json!({})).await.unwrap_err();
    assert_eq!(error.code.0, -32603);
    assert!(
        error.message.contains("may not change its method"),
        "{error:?}"
    );
    assert!(calls.take().is_empty());
}

#[tokio::test]
async fn calls_the_caller_may_not_make_are_never_shown_to_interceptors() {
    let seen = Events::default();
    let calls = Events::default();
    let server = server_with(
        vec![
            validator("watch", Record("watch", seen.clone())),
            validator("gate", Judge(refuse)),
        ],
        &calls,
    );
    let plain = server_with(vec![], &calls);
    for tool in ["secret", "missing"] {
        let intercepted = call(&server, tool, json!({})).await.unwrap_err();
        let without = call(&plain, tool, json!({})).await.unwrap_err();
        assert_eq!(
            serde_json::to_value(&intercepted).unwrap(),
            serde_json::to_value(&without).unwrap(),
            "{tool}"
        );
    }
    assert!(seen.take().is_empty());
}

#[tokio::test]
async fn a_rewrite_aimed_at_a_hidden_tool_is_guarded_as_that_tool() {
    let calls = Events::default();
    let retarget = |i: &Invocation| {
        let mut payload = i.payload_owned();
        payload["params"]["name"] = "secret".into();
        Mutation::modified(payload)
    };
    let server = server_with(vec![mutator("retarget", Rewrite(retarget))], &calls);
    let error = call(&server, "echo", json!({})).await.unwrap_err();
    let plain = server_with(vec![], &calls);
    let unknown = call(&plain, "secret", json!({})).await.unwrap_err();
    assert_eq!(
        serde_json::to_value(&error).unwrap(),
        serde_json::to_value(&unknown).unwrap()
    );
    assert!(calls.take().is_empty());
}

#[tokio::test]
async fn events_not_hooked_pass_untouched() {
    let calls = Events::default();
    let seen = Events::default();
    let server = server_with(
        vec![
            Interceptor::validator(origin(7), "prompts-only", Record("p", seen.clone()))
                .hook(Phase::Request, ["prompts/get"]),
        ],
        &calls,
    );
    call(&server, "echo", json!({})).await.unwrap();
    assert!(seen.take().is_empty());
}

#[tokio::test]
async fn a_wildcard_hook_sees_every_interceptable_request() {
    let calls = Events::default();
    let seen = Events::default();
    let server = server_with(
        vec![
            Interceptor::validator(origin(8), "everything", Record("all", seen.clone()))
                .hook(Phase::Request, ["*"]),
        ],
        &calls,
    );
    let client = mcp_server::testing::MemoryClient::new(&server);
    client.request_raw("tools/list", json!({})).await.unwrap();
    client
        .request_raw("server/discover", json!({}))
        .await
        .unwrap();
    client
        .request_raw("interceptors/list", json!({}))
        .await
        .unwrap();
    call(&server, "echo", json!({})).await.unwrap();
    let seen = seen.take();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(seen[0].contains(r#""method":"tools/list""#));
    assert!(seen[1].contains(r#""method":"tools/call""#));
}

/// Records the request a result belongs to.
struct WhichRequest(Events);

impl Validate for WhichRequest {
    fn validate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        Box::pin(async move {
            let request = i
                .request()
                .map(|r| (r["method"].clone(), r["params"]["arguments"].clone()));
            self.0.push(format!("{request:?}"));
            Ok(Validation::valid())
        })
    }
}

#[tokio::test]
async fn a_result_interceptor_sees_the_request_its_handler_received() {
    let calls = Events::default();
    let seen = Events::default();
    let server = server_with(
        vec![
            mutator("tag", Append("tag")),
            Interceptor::validator(origin(9), "which", WhichRequest(seen.clone()))
                .hook(Phase::Response, ["tools/call"]),
        ],
        &calls,
    );
    call(&server, "echo", json!({"trail": "t"})).await.unwrap();
    assert_eq!(
        seen.take(),
        [format!(
            "{:?}",
            Some((json!("tools/call"), json!({"trail": "t>tag"})))
        )]
    );
}
