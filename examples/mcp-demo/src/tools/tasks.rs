//! Tools that run as tasks (the `mcp-tasks` extension), as the conformance
//! suite's `tasks-*` scenarios call them, and `long_report`, a long job that
//! asks for input midway and stops when cancelled.

use std::time::Duration;

use mcp_server::context::InputError;
use mcp_server::core::elicitation::{ElicitRequestFormParams, ElicitRequestParams, ElicitResult};
use mcp_server::core::error::ErrorObject;
use mcp_server::{RequestContext, tool};

use super::forms;

/// The longest `slow_compute` works, in seconds.
const MAX_SECONDS: u64 = 3_600;

/// Says hello; never a task.
#[tool]
pub async fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

/// Works for `seconds` seconds, then reports; a task when the client supports tasks.
#[tool]
pub async fn slow_compute(seconds: u64, label: Option<String>) -> String {
    tokio::time::sleep(Duration::from_secs(seconds.min(MAX_SECONDS))).await;
    let label = label.unwrap_or_default();
    format!("Computed `{label}` in {seconds} s")
}
mcp_tasks::task!(slow_compute);

/// Works for a second, then reports a tool error; only ever a task.
#[tool]
pub async fn failing_job() -> Result<String, String> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err("The job failed: the input data is inconsistent".into())
}
mcp_tasks::task!(failing_job, required);

/// Fails with a JSON-RPC error, which fails its task.
#[tool]
pub async fn protocol_error_job(ctx: RequestContext) -> String {
    tokio::time::sleep(Duration::from_millis(200)).await;
    ctx.escalate(ErrorObject::internal_error(
        "The job's backend is unavailable",
    ));
    String::new()
}
mcp_tasks::task!(protocol_error_job);

/// Asks for a confirmation (key `confirm`) before deleting a file.
#[tool]
pub async fn confirm_delete(ctx: RequestContext, filename: String) -> Result<String, InputError> {
    let answer = ctx
        .input("confirm")
        .elicit(form(&format!("Delete {filename}?"), "confirm", true))
        .await?;
    Ok(if accepted(&answer) {
        format!("Deleted {filename}")
    } else {
        format!("Kept {filename}")
    })
}
mcp_tasks::task!(confirm_delete);

/// Asks two questions at once (keys `name` and `confirm`).
#[tool]
pub async fn multi_input(ctx: RequestContext) -> Result<String, InputError> {
    let (name, confirm) = tokio::join!(
        ctx.input("name")
            .elicit(form("What is your name?", "name", false)),
        ctx.input("confirm")
            .elicit(form("Shall I go on?", "confirm", true)),
    );
    let (name, confirm) = (name?, confirm?);
    Ok(format!(
        "name answered: {}; confirmed: {}",
        accepted(&name),
        accepted(&confirm)
    ))
}
mcp_tasks::task!(multi_input);

/// Asks for the user's name inside the request (key `user_name`), then
/// greets them from a task.
#[tool]
pub async fn test_tool_with_task(ctx: RequestContext) -> Result<String, InputError> {
    let answer = ctx
        .input("user_name")
        .elicit(form("What is your name?", "name", false))
        .await?;
    let name = text(&answer, "name").unwrap_or_default();
    ctx.release_request();
    tokio::time::sleep(Duration::from_millis(100)).await;
    Ok(format!("Hello, {name}!"))
}
mcp_tasks::task!(test_tool_with_task, required, inputs_first);

/// Writes a report of `sections` parts, one a second, asking midway
/// (key `audience`) whom it is for; stops when its task is cancelled.
#[tool]
pub async fn long_report(ctx: RequestContext, sections: Option<u32>) -> Result<String, InputError> {
    let sections = sections.unwrap_or(6).clamp(1, 60);
    let mut written = 0;
    let mut audience = String::from("everyone");
    for section in 1..=sections {
        if section == sections / 2 + 1 {
            let answer = ctx
                .input("audience")
                .elicit(form("Whom is the report for?", "audience", false))
                .await?;
            audience = text(&answer, "audience").unwrap_or(audience);
        }
        tokio::select! {
            () = ctx.cancellation().cancelled() => return Err(InputError::Cancelled),
            () = tokio::time::sleep(Duration::from_secs(1)) => written += 1,
        }
    }
    Ok(format!("A report of {written} sections for {audience}"))
}
mcp_tasks::task!(long_report);

/// A form asking for one field.
fn form(message: &str, field: &str, boolean: bool) -> ElicitRequestParams {
    ElicitRequestParams::Form(ElicitRequestFormParams {
        message: message.into(),
        requested_schema: forms::one_field(field, boolean),
        ..ElicitRequestFormParams::default()
    })
}

/// Whether the user accepted.
fn accepted(answer: &ElicitResult) -> bool {
    serde_json::to_value(answer.action).is_ok_and(|a| a == "accept")
}

/// A text field of an accepted answer.
fn text(answer: &ElicitResult, field: &str) -> Option<String> {
    let value = serde_json::to_value(answer.content.as_ref()?.get(field)?).ok()?;
    Some(match value {
        serde_json::Value::String(text) => text,
        other => other.to_string(),
    })
}
