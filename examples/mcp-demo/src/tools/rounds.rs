//! Tools (and a prompt) that ask the client for input under keys of their
//! own, as the conformance suite's `input-required-result-*` scenarios call
//! them. They are written once for both eras: on a 2025-11-25 session each
//! question is a request to the client, answered while the tool waits; on
//! 2026-07-28 the call ends with an input-required result and the client's
//! retry runs the tool again with the answers.

use mcp_server::context::InputError;
use mcp_server::core::content::{Role, TextContent};
use mcp_server::core::elicitation::{ElicitRequestFormParams, ElicitRequestParams, ElicitResult};
use mcp_server::core::roots::ListRootsResult;
use mcp_server::core::sampling::{
    CreateMessageRequestParams, CreateMessageResult, SamplingContent, SamplingMessage,
    SamplingMessageContentBlock,
};
use mcp_server::{RequestContext, prompt, tool};
use serde::{Deserialize, Serialize};

use super::forms;

/// Asks for the user's name (key `user_name`), then greets them.
#[tool]
pub async fn test_input_required_result_elicitation(
    ctx: RequestContext,
) -> Result<String, InputError> {
    let name = ask_name(&ctx, "user_name", "What is your name?").await?;
    Ok(format!("Hello, {name}!"))
}

/// Asks the client's model for the capital of France (key `capital_question`).
#[tool]
pub async fn test_input_required_result_sampling(
    ctx: RequestContext,
) -> Result<String, InputError> {
    let answer = ctx
        .input("capital_question")
        .sample(sampling("What is the capital of France?", 100))
        .await?;
    Ok(format!("Sampling response: {}", text_of(&answer)))
}

/// Asks for the client's roots (key `client_roots`) and names them.
#[tool]
pub async fn test_input_required_result_list_roots(
    ctx: RequestContext,
) -> Result<String, InputError> {
    let roots = ctx.input("client_roots").list_roots().await?;
    Ok(format!("Client roots: {}", uris(&roots)))
}

/// Asks for a confirmation (key `confirm`); the retry's sealed state is
/// checked by the framework before the tool runs again, so the answer
/// says `state-ok`.
#[tool]
pub async fn test_input_required_result_request_state(
    ctx: RequestContext,
) -> Result<String, InputError> {
    let ok = confirm(&ctx, "Please confirm").await?;
    Ok(format!("state-ok: confirmed={ok}"))
}

/// Asks for three inputs in one round: a name, a greeting from the model
/// and the client's roots.
#[tool]
pub async fn test_input_required_result_multiple_inputs(
    ctx: RequestContext,
) -> Result<String, InputError> {
    let (name, greeting, roots) = tokio::join!(
        ask_name(&ctx, "user_name", "What is your name?"),
        ctx.input("greeting")
            .sample(sampling("Generate a greeting", 50)),
        ctx.input("client_roots").list_roots(),
    );
    let (name, greeting, roots) = (name?, greeting?, roots?);
    Ok(format!(
        "name={name}; greeting={}; roots={}",
        text_of(&greeting),
        uris(&roots)
    ))
}

/// What the multi-round tool keeps across rounds.
#[derive(Serialize, Deserialize)]
struct Progress {
    name: String,
}

/// Asks for a name (`step1`), then a colour (`step2`), one round each; the
/// name rides in the sealed state, so step 1 is not asked again.
#[tool]
pub async fn test_input_required_result_multi_round(
    ctx: RequestContext,
) -> Result<String, InputError> {
    let name = match ctx.carried::<Progress>() {
        Some(progress) => progress.name,
        None => {
            let name = ask_name(&ctx, "step1", "Step 1: What is your name?").await?;
            ctx.carry(&Progress { name: name.clone() });
            name
        }
    };
    let color = ctx
        .input("step2")
        .elicit(form("Step 2: What is your favorite color?", "color", false))
        .await?;
    Ok(format!(
        "{name} likes {}",
        field(&color, "color").unwrap_or_default()
    ))
}

/// Asks for a confirmation (key `confirm`) whose sealed state the suite
/// then alters: the framework refuses the altered retry.
#[tool]
pub async fn test_input_required_result_tampered_state(
    ctx: RequestContext,
) -> Result<String, InputError> {
    let ok = confirm(&ctx, "Please confirm").await?;
    Ok(format!("confirmed={ok}"))
}

/// Asks only for what the client declared: an elicitation if it can
/// elicit, a sampling if it can sample, in one round.
#[tool]
pub async fn test_input_required_result_capabilities(
    ctx: RequestContext,
) -> Result<String, InputError> {
    let mut parts = Vec::new();
    let name = async {
        if ctx.can_elicit() {
            ask_name(&ctx, "user_name", "What is your name?")
                .await
                .map(Some)
        } else {
            Ok(None)
        }
    };
    let model = async {
        if ctx.can_sample() {
            ctx.input("model_hello")
                .sample(sampling("Say hello", 50))
                .await
                .map(Some)
        } else {
            Ok(None)
        }
    };
    let (name, model) = tokio::join!(name, model);
    if let Some(name) = name? {
        parts.push(format!("name={name}"));
    }
    if let Some(model) = model? {
        parts.push(format!("model={}", text_of(&model)));
    }
    Ok(if parts.is_empty() {
        "the client declared neither elicitation nor sampling".into()
    } else {
        parts.join("; ")
    })
}

/// A prompt that asks what context to use (key `user_context`).
#[prompt]
pub async fn test_input_required_result_prompt(ctx: RequestContext) -> Result<String, InputError> {
    let answer = ctx
        .input("user_context")
        .elicit(form(
            "What context should the prompt use?",
            "context",
            false,
        ))
        .await?;
    let context = field(&answer, "context").unwrap_or_default();
    Ok(format!("Write with this context in mind: {context}"))
}

/// Asks for one string field named `name` under `key`.
async fn ask_name(ctx: &RequestContext, key: &str, message: &str) -> Result<String, InputError> {
    let answer = ctx.input(key).elicit(form(message, "name", false)).await?;
    Ok(field(&answer, "name").unwrap_or_default())
}

/// Asks for one boolean field named `ok` under `confirm`.
async fn confirm(ctx: &RequestContext, message: &str) -> Result<bool, InputError> {
    let answer = ctx
        .input("confirm")
        .elicit(form(message, "ok", true))
        .await?;
    Ok(answer
        .content
        .as_ref()
        .and_then(|c| c.get("ok"))
        .and_then(|v| serde_json::to_value(v).ok())
        .and_then(|v| v.as_bool())
        .unwrap_or(false))
}

/// A form asking for one required field.
fn form(message: &str, field: &str, boolean: bool) -> ElicitRequestParams {
    ElicitRequestParams::Form(ElicitRequestFormParams {
        message: message.into(),
        requested_schema: forms::one_field(field, boolean),
        ..ElicitRequestFormParams::default()
    })
}

/// One user message to the client's model.
fn sampling(prompt: &str, max_tokens: u64) -> CreateMessageRequestParams {
    CreateMessageRequestParams {
        messages: vec![SamplingMessage {
            role: Role::User,
            content: SamplingContent::One(SamplingMessageContentBlock::Text(TextContent::new(
                prompt,
            ))),
            meta: None,
        }],
        max_tokens,
        ..CreateMessageRequestParams::default()
    }
}

/// A field of an accepted form, as text.
fn field(answer: &ElicitResult, name: &str) -> Option<String> {
    let value = serde_json::to_value(answer.content.as_ref()?.get(name)?).ok()?;
    Some(match value {
        serde_json::Value::String(text) => text,
        other => other.to_string(),
    })
}

/// The text of a model's answer.
fn text_of(answer: &CreateMessageResult) -> String {
    match serde_json::to_value(&answer.content) {
        Ok(value) => value
            .get("text")
            .and_then(|t| t.as_str())
            .map(str::to_owned)
            .unwrap_or_else(|| value.to_string()),
        Err(_) => String::new(),
    }
}

/// The roots' URIs, comma-separated.
fn uris(roots: &ListRootsResult) -> String {
    roots
        .roots
        .iter()
        .map(|r| r.uri.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
