//! 2026-07-28 multi round-trip requests through the in-memory client: a
//! handler's questions end the call with an input-required result and a
//! sealed `requestState`; the retry runs the handler again with the answers;
//! every state that is not this request's, this caller's and fresh is
//! refused before anything runs.

mod support;

use std::sync::Arc;

use mcp_server::auth::{Credentials, Principal};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonValue;
use mcp_server::seam::source::PrincipalSource;
use mcp_server::testing::MemoryClient;
use serde_json::json;
use support::rounds::{
    Runs, SURVEY_TEXT, all_capabilities, answering, responses_to, survey_server, with_survey,
};

const SECRET: &str = "a shared secret of more than thirty-two bytes";
const OTHER_SECRET: &str = "another secret, also more than thirty-two bytes";

fn client(server: &mcp_server::Server) -> MemoryClient {
    MemoryClient::new(server).with_capabilities(all_capabilities())
}

fn survey(topic: &str) -> JsonValue {
    json!({"name": "survey", "arguments": {"topic": topic}})
}

/// `params` with the retry members added.
fn retry(params: &JsonValue, responses: JsonValue, state: &JsonValue) -> JsonValue {
    let mut params = params.clone();
    params["inputResponses"] = responses;
    params["requestState"] = state.clone();
    params
}

async fn call(client: &MemoryClient, params: JsonValue) -> Result<JsonValue, ErrorObject> {
    client.request_raw("tools/call", params).await
}

fn reason(error: &ErrorObject) -> &str {
    error
        .data
        .as_ref()
        .and_then(|d| d["reason"].as_str())
        .unwrap_or("")
}

/// Runs the survey's first round; returns its input-required result.
async fn first_round(client: &MemoryClient, params: &JsonValue) -> JsonValue {
    let result = call(client, params.clone()).await.unwrap();
    assert_eq!(result["resultType"], "input_required", "{result}");
    result
}

#[tokio::test]
async fn several_inputs_are_asked_in_one_round_and_three_rounds_complete_the_call() {
    let runs = Runs::default();
    let server = survey_server(SECRET, runs.clone());
    let client = client(&server);
    let params = survey("tea");

    let first = first_round(&client, &params).await;
    let requests = first["inputRequests"].as_object().unwrap();
    assert_eq!(
        requests.keys().collect::<Vec<_>>(),
        ["name", "greeting"],
        "in the order asked"
    );
    assert_eq!(requests["name"]["method"], "elicitation/create");
    assert_eq!(requests["name"]["params"]["message"], "Your name?");
    assert_eq!(requests["greeting"]["method"], "sampling/createMessage");
    // Encrypted with `seal`, signed without it (ADR-0018).
    let kind = if cfg!(feature = "seal") { "v1." } else { "s1." };
    assert!(first["requestState"].as_str().unwrap().starts_with(kind));
    assert_eq!(
        first["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "test"
    );

    let second = call(
        &client,
        retry(&params, responses_to(&first), &first["requestState"]),
    )
    .await
    .unwrap();
    assert_eq!(second["resultType"], "input_required", "{second}");
    let requests = second["inputRequests"].as_object().unwrap();
    assert_eq!(requests.keys().collect::<Vec<_>>(), ["roots"]);
    assert_eq!(
        requests["roots"],
        json!({"method": "roots/list", "params": {}})
    );
    assert_ne!(second["requestState"], first["requestState"]);

    // Only the newest round's answers are sent: earlier ones ride in the state.
    let third = call(
        &client,
        retry(&params, responses_to(&second), &second["requestState"]),
    )
    .await
    .unwrap();
    assert_eq!(third["resultType"], "complete", "{third}");
    assert_eq!(third["content"][0]["text"], SURVEY_TEXT);
    // The handler ran from the start on every round.
    assert_eq!(runs.count(), 3);
}

#[tokio::test]
async fn a_client_with_a_requester_completes_the_rounds_itself() {
    let runs = Runs::default();
    let server = survey_server(SECRET, runs.clone());
    let client = client(&server).with_requester(answering());
    let result = client
        .call_tool("survey", json!({"topic": "tea"}))
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text(), Some(SURVEY_TEXT));
    assert_eq!(runs.count(), 3);
}

#[tokio::test]
async fn on_a_legacy_session_the_same_handler_waits_for_real_requests_and_runs_once() {
    let runs = Runs::default();
    let server = survey_server(SECRET, runs.clone());
    let client = client(&server).with_requester(answering()).connected();
    client.initialize("2025-11-25").await.unwrap();
    let result = client
        .call_tool("survey", json!({"topic": "tea"}))
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text(), Some(SURVEY_TEXT));
    assert_eq!(runs.count(), 1);
}

#[tokio::test]
async fn a_retry_missing_responses_is_asked_again_not_refused() {
    let server = survey_server(SECRET, Runs::default());
    let client = client(&server);
    let params = survey("tea");
    let first = first_round(&client, &params).await;
    let mut partial = responses_to(&first);
    partial.as_object_mut().unwrap().remove("greeting");
    let again = call(&client, retry(&params, partial, &first["requestState"]))
        .await
        .unwrap();
    assert_eq!(again["resultType"], "input_required");
    assert_eq!(
        again["inputRequests"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["greeting"],
        "the answered question is not asked again"
    );
}

#[tokio::test]
async fn unknown_response_keys_are_ignored() {
    let server = survey_server(SECRET, Runs::default());
    let client = client(&server);
    let params = survey("tea");
    let first = first_round(&client, &params).await;
    let mut responses = responses_to(&first);
    responses["surprise"] = json!({"action": "accept", "content": {"x": 1}});
    let second = call(&client, retry(&params, responses, &first["requestState"]))
        .await
        .unwrap();
    assert_eq!(second["resultType"], "input_required");
    assert!(second["inputRequests"].get("surprise").is_none());
}

#[tokio::test]
async fn malformed_input_responses_are_invalid_params() {
    let server = survey_server(SECRET, Runs::default());
    let client = client(&server);
    let params = survey("tea");
    for responses in [json!(null), json!([1]), json!({"name": 5})] {
        let mut bad = params.clone();
        bad["inputResponses"] = responses.clone();
        let error = call(&client, bad).await.unwrap_err();
        assert_eq!(error.code.0, -32602, "{responses}: {error:?}");
    }
    // An object that is not the kind of result asked for.
    let mut wrong_kind = params.clone();
    wrong_kind["inputResponses"] = json!({"name": {"roots": []}});
    let error = call(&client, wrong_kind).await.unwrap_err();
    assert_eq!(error.code.0, -32602, "{error:?}");
    assert!(error.message.contains("\"name\""), "{}", error.message);
}

#[tokio::test]
async fn an_input_the_client_did_not_declare_fails_the_call_with_32021() {
    let server = survey_server(SECRET, Runs::default());
    let client = MemoryClient::new(&server).with_capabilities(
        serde_json::from_value(json!({"elicitation": {}, "roots": {}})).unwrap(),
    );
    let error = call(&client, survey("tea")).await.unwrap_err();
    assert_eq!(error.code.0, -32021);
    assert_eq!(
        error.data.unwrap()["requiredCapabilities"],
        json!({"sampling": {}})
    );
}

#[tokio::test]
async fn a_handler_can_ask_to_be_called_again_with_state_only() {
    let server = survey_server(SECRET, Runs::default());
    let client = client(&server);
    let params = json!({"name": "later", "arguments": {}});
    let first = call(&client, params.clone()).await.unwrap();
    assert_eq!(first["resultType"], "input_required");
    assert!(first.get("inputRequests").is_none(), "{first}");
    let mut again = params.clone();
    again["requestState"] = first["requestState"].clone();
    let second = call(&client, again).await.unwrap();
    assert_eq!(second["content"][0]["text"], "came back after 1 visit");
}

#[tokio::test]
async fn a_tampered_state_is_refused_and_nothing_runs() {
    let runs = Runs::default();
    let server = survey_server(SECRET, runs.clone());
    let client = client(&server);
    let params = survey("tea");
    let first = first_round(&client, &params).await;
    let state = first["requestState"].as_str().unwrap();
    let middle = state.len() / 2;
    let flipped = if &state[middle..=middle] == "A" {
        "B"
    } else {
        "A"
    };
    let tampered = format!("{}{flipped}{}", &state[..middle], &state[middle + 1..]);
    let before = runs.count();
    for forged in [
        tampered,
        format!("{state}-TAMPERED"),
        "v1.x.y".to_owned(),
        "s1.x.y.z".to_owned(),
        "junk".to_owned(),
    ] {
        let error = call(
            &client,
            retry(&params, responses_to(&first), &json!(forged)),
        )
        .await
        .unwrap_err();
        assert_eq!(error.code.0, -32602);
        assert!(
            matches!(reason(&error), "tampered" | "unknown_key"),
            "{forged}: {error:?}"
        );
    }
    assert_eq!(
        runs.count(),
        before,
        "the handler never ran on a forged state"
    );
}

#[tokio::test]
async fn an_expired_state_is_refused() {
    let server = with_survey(support::builder(), Runs::default())
        .setting("server.request_state_key", SECRET)
        .setting("server.request_state_ttl_s", 0)
        .build();
    let client = client(&server);
    let params = survey("tea");
    let first = first_round(&client, &params).await;
    let error = call(
        &client,
        retry(&params, responses_to(&first), &first["requestState"]),
    )
    .await
    .unwrap_err();
    assert_eq!(
        (error.code.0, reason(&error)),
        (-32602, "expired"),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_state_is_refused_for_another_tool_or_other_arguments() {
    let server = survey_server(SECRET, Runs::default());
    let client = client(&server);
    let params = survey("tea");
    let first = first_round(&client, &params).await;
    let state = &first["requestState"];

    let other_tool = json!({"name": "later", "arguments": {"topic": "tea"}});
    let error = call(&client, retry(&other_tool, responses_to(&first), state))
        .await
        .unwrap_err();
    assert_eq!(reason(&error), "other_request", "{error:?}");
    assert!(
        error.message.contains("tools/call `survey`"),
        "{}",
        error.message
    );

    let error = call(
        &client,
        retry(&survey("coffee"), responses_to(&first), state),
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&error), "other_arguments", "{error:?}");

    // Members in another order, and other `_meta`, are the same arguments.
    let reordered = json!({"arguments": {"topic": "tea"}, "name": "survey", "_meta": {"x": 1}});
    let second = call(&client, retry(&reordered, responses_to(&first), state))
        .await
        .unwrap();
    assert_eq!(second["resultType"], "input_required");
}

/// The bearer token names the caller.
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

#[tokio::test]
async fn a_state_issued_to_one_caller_is_refused_to_another() {
    let server = with_survey(support::builder(), Runs::default())
        .setting("server.request_state_key", SECRET)
        .supply::<dyn PrincipalSource>(support::origin("auth", 1), "bearers", Arc::new(Bearers))
        .build();
    let ada = client(&server).with_credentials(Credentials::bearer_token("ada"));
    let bob = client(&server).with_credentials(Credentials::bearer_token("bob"));
    let anonymous = client(&server);
    let params = survey("tea");
    let first = first_round(&ada, &params).await;
    for other in [&bob, &anonymous] {
        let error = call(
            other,
            retry(&params, responses_to(&first), &first["requestState"]),
        )
        .await
        .unwrap_err();
        assert_eq!(reason(&error), "other_principal", "{error:?}");
    }
    let second = call(
        &ada,
        retry(&params, responses_to(&first), &first["requestState"]),
    )
    .await
    .unwrap();
    assert_eq!(second["resultType"], "input_required");
}

#[tokio::test]
async fn a_used_state_is_refused_when_replayed() {
    let runs = Runs::default();
    let server = survey_server(SECRET, runs.clone());
    let client = client(&server);
    let params = survey("tea");
    let first = first_round(&client, &params).await;
    let second_params = retry(&params, responses_to(&first), &first["requestState"]);
    let second = call(&client, second_params.clone()).await.unwrap();
    let third_params = retry(&params, responses_to(&second), &second["requestState"]);
    let third = call(&client, third_params.clone()).await.unwrap();
    assert_eq!(third["content"][0]["text"], SURVEY_TEXT);
    let before = runs.count();
    for replay in [second_params, third_params] {
        let error = call(&client, replay).await.unwrap_err();
        assert_eq!(reason(&error), "used", "{error:?}");
    }
    assert_eq!(runs.count(), before);
}

#[tokio::test]
async fn two_instances_with_one_key_complete_one_exchange() {
    let a = survey_server(SECRET, Runs::default());
    let b = survey_server(SECRET, Runs::default());
    let (on_a, on_b) = (client(&a), client(&b));
    let params = survey("tea");
    let first = first_round(&on_a, &params).await;
    let second = call(
        &on_b,
        retry(&params, responses_to(&first), &first["requestState"]),
    )
    .await
    .unwrap();
    assert_eq!(second["resultType"], "input_required", "{second}");
    let third = call(
        &on_a,
        retry(&params, responses_to(&second), &second["requestState"]),
    )
    .await
    .unwrap();
    assert_eq!(third["content"][0]["text"], SURVEY_TEXT);
}

#[tokio::test]
async fn a_state_sealed_with_a_key_the_server_does_not_hold_is_refused_by_reason() {
    let a = survey_server(SECRET, Runs::default());
    let b = survey_server(OTHER_SECRET, Runs::default());
    let params = survey("tea");
    let first = first_round(&client(&a), &params).await;
    let error = call(
        &client(&b),
        retry(&params, responses_to(&first), &first["requestState"]),
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&error), "unknown_key", "{error:?}");
}

#[tokio::test]
async fn after_a_rotation_the_new_key_seals_and_the_previous_one_still_opens() {
    let old = survey_server(SECRET, Runs::default());
    let rotated = with_survey(support::builder(), Runs::default())
        .setting("server.request_state_key", OTHER_SECRET)
        .setting("server.request_state_previous_keys", [SECRET])
        .build();
    let params = survey("tea");
    let first = first_round(&client(&old), &params).await;
    let second = call(
        &client(&rotated),
        retry(&params, responses_to(&first), &first["requestState"]),
    )
    .await
    .unwrap();
    assert_eq!(second["resultType"], "input_required", "{second}");
    // The rotated server seals with its new key, which the old one does not hold.
    let old_id = first["requestState"]
        .as_str()
        .unwrap()
        .split('.')
        .nth(1)
        .unwrap();
    let new_id = second["requestState"]
        .as_str()
        .unwrap()
        .split('.')
        .nth(1)
        .unwrap();
    assert_ne!(old_id, new_id);
    let error = call(
        &client(&old),
        retry(&params, responses_to(&second), &second["requestState"]),
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&error), "unknown_key", "{error:?}");
}

#[tokio::test]
async fn without_a_configured_key_the_boot_report_warns_and_a_short_key_fails_boot() {
    let server = with_survey(support::builder(), Runs::default()).build();
    let report = server.report();
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("server.request_state_key")),
        "{:?}",
        report.warnings
    );
    assert!(
        report
            .to_string()
            .contains("warning: no `server.request_state_key` is set")
    );
    assert!(
        survey_server(SECRET, Runs::default())
            .report()
            .warnings
            .is_empty()
    );

    let errors = with_survey(support::builder(), Runs::default())
        .setting("server.request_state_key", "short")
        .try_build()
        .unwrap_err();
    let text = errors.to_string();
    assert!(
        text.contains("error[mcp::weak_request_state_key]"),
        "{text}"
    );
}

#[tokio::test]
async fn the_key_can_come_from_the_environment() {
    let from_env = with_survey(support::builder(), Runs::default())
        .environment([("MCP_SERVER__REQUEST_STATE_KEY", SECRET)])
        .build();
    let from_setting = survey_server(SECRET, Runs::default());
    let params = survey("tea");
    let first = first_round(&client(&from_env), &params).await;
    let second = call(
        &client(&from_setting),
        retry(&params, responses_to(&first), &first["requestState"]),
    )
    .await
    .unwrap();
    assert_eq!(second["resultType"], "input_required");
    assert!(from_env.report().warnings.is_empty());
}

#[tokio::test]
async fn a_method_that_cannot_answer_input_required_gets_a_clear_error_from_the_input_api() {
    use mcp_server::core::prompts::{GetPrompt, GetPromptResult, Prompt};
    use mcp_server::handler::completion::complete_handler;
    use mcp_server::handler::handler_fn;
    use mcp_server::seam::contributor::CompletionRef;
    use mcp_server::seam::contributor::contributor_fn;
    let server = support::builder()
        .contributor(
            support::origin("app", 1),
            "prompts",
            contributor_fn(|c| {
                c.prompt(
                    Prompt {
                        name: "greet".into(),
                        ..Default::default()
                    },
                    handler_fn::<GetPrompt, _, _, _>(|_, _| async {
                        Ok(GetPromptResult::default())
                    }),
                );
                c.completion(
                    CompletionRef::Prompt("greet".into()),
                    complete_handler(|ctx, _| async move {
                        let asked = ctx.elicit(support::rounds::form("?", "x")).await;
                        let later = ctx.retry_later();
                        vec![
                            format!("{}", asked.unwrap_err()),
                            format!("{}", later.unwrap_err()),
                        ]
                    }),
                );
            }),
        )
        .build();
    let result = client(&server)
        .request_raw(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "a", "value": ""}}),
        )
        .await
        .unwrap();
    assert_eq!(result["resultType"], "complete", "{result}");
    let values = &result["completion"]["values"];
    assert_eq!(
        values[0],
        "`completion/complete` cannot ask the client for input: only tools/call, prompts/get and resources/read can"
    );
    assert_eq!(values[1], values[0]);
}

/// Asks the client for a name before the guards run (the outermost stratum).
struct AsksFirst;

impl mcp_server::seam::interceptor::HandlerInterceptor for AsksFirst {
    fn intercept<'a>(
        &'a self,
        call: mcp_server::seam::interceptor::HandlerCall<'a>,
        next: mcp_server::seam::interceptor::HandlerNext<'a>,
    ) -> mcp_server::BoxFuture<'a, Result<mcp_server::seam::interceptor::Settled, ErrorObject>>
    {
        Box::pin(async move {
            let _ = call
                .ctx()
                .input("who")
                .elicit(support::rounds::form("Who?", "name"))
                .await;
            next.run(call).await
        })
    }
}

#[tokio::test]
async fn a_question_asked_outside_the_guards_does_not_reveal_a_hidden_tool() {
    use mcp_server::seam::customizer::GuardAttacher;
    use mcp_server::seam::guard::{Decision, guard_fn};
    use mcp_server::seam::interceptor::Scope;
    use mcp_server::seam::interceptor::Stratum;
    let server = with_survey(support::builder(), Runs::default())
        .setting("server.request_state_key", SECRET)
        .register(
            support::origin("obs", 1),
            "asks-first",
            0,
            mcp_server::seam::Item::handler_interceptor(
                Stratum::Correlation,
                Scope::Method("tools/call"),
                AsksFirst,
            ),
        )
        .register(
            support::origin("policy", 1),
            "nobody-surveys",
            0,
            mcp_server::seam::Item::customizer_for::<mcp_server::core::tools::Tool>(
                "survey",
                GuardAttacher::new(guard_fn("nobody", |_, _| Decision::deny("nobody"))),
            ),
        )
        .build();
    let client = client(&server);
    let hidden = call(&client, survey("tea")).await.unwrap_err();
    let unknown = call(&client, json!({"name": "no-such-tool", "arguments": {}}))
        .await
        .unwrap_err();
    assert_eq!(
        (hidden.code, hidden.message.replace("survey", "X")),
        (unknown.code, unknown.message.replace("no-such-tool", "X"))
    );
    // A visible tool still gets the interceptor's question.
    let later = call(&client, json!({"name": "later", "arguments": {}}))
        .await
        .unwrap();
    assert_eq!(
        later["inputRequests"]["who"]["method"],
        "elicitation/create"
    );
}

/// A used-state store that cannot be reached.
struct Unreachable;

impl mcp_server::seam::store::UsedStateStore for Unreachable {
    fn claim<'a>(
        &'a self,
        _: &'a str,
        _: std::time::SystemTime,
    ) -> mcp_server::BoxFuture<'a, Result<bool, mcp_server::seam::store::Unavailable>> {
        Box::pin(async {
            Err(mcp_server::seam::store::Unavailable(
                "connection refused".to_owned(),
            ))
        })
    }
}

#[tokio::test]
async fn a_retry_whose_state_cannot_be_claimed_is_refused_with_an_internal_error_and_nothing_runs()
{
    let runs = Runs::default();
    let server = with_survey(support::builder(), runs.clone())
        .request_state_key(SECRET)
        .supply::<dyn mcp_server::seam::store::UsedStateStore>(
            mcp_server::origin!(),
            "Unreachable",
            Arc::new(Unreachable),
        )
        .build();
    let client = client(&server);
    let params = survey("tea");
    let first = first_round(&client, &params).await;
    let before = runs.count();
    let error = call(
        &client,
        retry(&params, responses_to(&first), &first["requestState"]),
    )
    .await
    .unwrap_err();
    assert_eq!(error.code.0, -32603, "{error:?}");
    assert!(error.message.contains("connection refused"), "{error:?}");
    assert!(error.message.contains("retry later"), "{error:?}");
    assert_eq!(
        runs.count(),
        before,
        "the handler ran on an unclaimed state"
    );
}
