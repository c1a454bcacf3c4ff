//! Tools that ask the client for input while they run: its model
//! (sampling) or its user (elicitation). A client that lacks the
//! capability gets an `isError` result on a 2025-11-25 session and, on
//! 2026-07-28, error `-32021`, which the framework sends in place of the
//! result.

use mcp_server::context::InputError;
use mcp_server::core::content::{Role, TextContent};
use mcp_server::core::elicitation::{
    ElicitAction, ElicitRequestFormParams, ElicitRequestParams, ElicitResult, RequestedSchema,
};
use mcp_server::core::sampling::{
    CreateMessageRequestParams, SamplingContent, SamplingMessage, SamplingMessageContentBlock,
};
use mcp_server::{RequestContext, tool};

use super::forms;

/// The `maxTokens` of every sampling request.
pub const MAX_TOKENS: u64 = 100;

/// Tests server-initiated sampling (LLM completion request): answers `LLM response: <the model's text>`.
#[tool]
pub async fn test_sampling(
    #[arg(description = "The prompt to send to the LLM")] prompt: String,
    ctx: RequestContext,
) -> Result<String, InputError> {
    ask_model(&ctx, prompt).await
}

/// Tests server-initiated elicitation (user input request): asks for a username and an email.
#[tool]
pub async fn test_elicitation(
    #[arg(description = "The message to show the user")] message: String,
    ctx: RequestContext,
) -> Result<String, InputError> {
    let result = ask_user(&ctx, message, forms::user_details()).await?;
    Ok(format!("User response: {}", describe(&result)))
}

/// Tests elicitation with default values per SEP-1034.
#[tool]
pub async fn test_elicitation_sep1034_defaults(ctx: RequestContext) -> Result<String, InputError> {
    let message = "Please review and update the form fields with defaults";
    let result = ask_user(&ctx, message.into(), forms::sep1034_defaults()).await?;
    Ok(format!("Elicitation completed: {}", describe(&result)))
}

/// Tests elicitation with enum schema improvements per SEP-1330.
#[tool]
pub async fn test_elicitation_sep1330_enums(ctx: RequestContext) -> Result<String, InputError> {
    let message = "Please select options from the enum fields";
    let result = ask_user(&ctx, message.into(), forms::sep1330_enums()).await?;
    Ok(format!("Elicitation completed: {}", describe(&result)))
}

/// Test tool requiring sampling: a client that did not declare the `sampling` capability gets error -32021 (2026-07-28).
#[tool]
pub async fn test_missing_capability(ctx: RequestContext) -> Result<String, InputError> {
    ask_model(&ctx, "capability probe".into()).await
}

/// Sends `prompt` to the client's model as one user message; answers with
/// `LLM response: ` and the model's text.
async fn ask_model(ctx: &RequestContext, prompt: String) -> Result<String, InputError> {
    let params = CreateMessageRequestParams {
        messages: vec![SamplingMessage {
            role: Role::User,
            content: SamplingContent::One(SamplingMessageContentBlock::Text(TextContent::new(
                prompt,
            ))),
            meta: None,
        }],
        max_tokens: MAX_TOKENS,
        ..CreateMessageRequestParams::default()
    };
    let answer = ctx.sample(params).await?;
    Ok(format!("LLM response: {}", text_of(&answer.content)))
}

/// The text blocks of a model's answer, joined; `No response` without any.
fn text_of(content: &SamplingContent) -> String {
    let blocks = match content {
        SamplingContent::One(block) => std::slice::from_ref(block),
        SamplingContent::Many(blocks) => blocks.as_slice(),
    };
    let texts: Vec<&str> = blocks
        .iter()
        .filter_map(|block| match block {
            SamplingMessageContentBlock::Text(text) => Some(text.text.as_str()),
            _ => None,
        })
        .collect();
    if texts.is_empty() {
        "No response".into()
    } else {
        texts.join("\n")
    }
}

/// Asks the client's user to fill in `form`.
async fn ask_user(
    ctx: &RequestContext,
    message: String,
    form: RequestedSchema,
) -> Result<ElicitResult, InputError> {
    let params = ElicitRequestParams::Form(ElicitRequestFormParams {
        message,
        requested_schema: form,
        ..ElicitRequestFormParams::default()
    });
    ctx.elicit(params).await
}

/// `action=<action>, content=<content as JSON>`.
fn describe(result: &ElicitResult) -> String {
    let action = match result.action {
        ElicitAction::Accept => "accept",
        ElicitAction::Decline => "decline",
        ElicitAction::Cancel => "cancel",
    };
    let content = result
        .content
        .as_ref()
        .and_then(|content| serde_json::to_string(content).ok())
        .unwrap_or_else(|| "{}".into());
    format!("action={action}, content={content}")
}
