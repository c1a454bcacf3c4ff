//! Core tasks of 2025-11-25: `tasks/get`, the blocking `tasks/result`,
//! `tasks/list` and `tasks/cancel`, over the same store and executor.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use mcp_server::RequestContext;
use mcp_server::context::InputError;
use mcp_server::core::elicitation::ElicitRequestParams;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::ext::tasks::TaskStatus;
use mcp_server::core::json::{JsonObject, JsonValue};
use mcp_server::core::legacy::tasks::{
    CancelTask, GetTask, GetTaskPayload, GetTaskPayloadResult, GetTaskResult, ListTasks,
    ListTasksResult, RelatedTaskMetadata,
};
use mcp_server::core::sampling::CreateMessageRequestParams;
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::Contributions;

use crate::record::{Outcome, TaskRecord, Update, now_ms};
use crate::service::{Tasks, owner, store_error};

/// How many tasks one page of `tasks/list` holds.
const PAGE: usize = 50;

/// How long `tasks/result` waits between two looks at the store when no
/// event arrives.
const RECHECK: Duration = Duration::from_secs(1);

/// Contributes the four legacy methods.
pub(crate) fn contribute(tasks: &Arc<Tasks>, into: &mut Contributions<'_>) {
    let get = tasks.clone();
    into.method::<GetTask>(handler_fn::<GetTask, _, _, _>(move |ctx, params| {
        let tasks = get.clone();
        async move {
            let record = tasks.find(&ctx, &params.task_id).await?;
            Ok(GetTaskResult::from(crate::wire::legacy_task(&record)))
        }
    }));
    let result = tasks.clone();
    into.method::<GetTaskPayload>(handler_fn::<GetTaskPayload, _, _, _>(move |ctx, params| {
        let tasks = result.clone();
        async move { payload(&tasks, &ctx, &params.task_id).await }
    }));
    let list = tasks.clone();
    into.method::<ListTasks>(handler_fn::<ListTasks, _, _, _>(move |ctx, params| {
        let tasks = list.clone();
        async move {
            tasks.purge().await;
            let cursor = params.and_then(|p| p.cursor);
            let page = tasks
                .store
                .list(&owner(&ctx), cursor.as_deref(), PAGE)
                .await
                .map_err(store_error)?;
            let next_cursor = (page.len() == PAGE)
                .then(|| page.last().map(|r| r.id.clone()))
                .flatten();
            Ok(ListTasksResult {
                tasks: page.iter().map(crate::wire::legacy_task).collect(),
                next_cursor,
                ..Default::default()
            })
        }
    }));
    let cancel = tasks.clone();
    into.method::<CancelTask>(handler_fn::<CancelTask, _, _, _>(move |ctx, params| {
        let tasks = cancel.clone();
        async move {
            let record = tasks.find(&ctx, &params.task_id).await?;
            if record.status.is_terminal() {
                return Err(ErrorObject::invalid_params(format!(
                    "Task {} already ended ({}): it cannot be cancelled",
                    record.id,
                    serde_json::to_value(record.status)
                        .unwrap_or_default()
                        .as_str()
                        .unwrap_or_default()
                )));
            }
            let cancelled = Outcome::cancelled("Cancelled by the client");
            let applied = tasks
                .store
                .update(&record.id, Update::Finish(cancelled), now_ms())
                .await
                .map_err(store_error)?;
            let record = applied.map_or(record, |a| a.record);
            Ok(GetTaskResult::from(crate::wire::legacy_task(&record)))
        }
    }));
}

/// `tasks/result`: waits for the task to end, asking the client on this
/// request's stream what the task asks meanwhile, then answers as the
/// original request would have.
async fn payload(
    tasks: &Tasks,
    ctx: &RequestContext,
    id: &str,
) -> Result<GetTaskPayloadResult, ErrorObject> {
    let mut events = tasks.store.watch(id);
    loop {
        let record = tasks.find(ctx, id).await?;
        match record.status {
            TaskStatus::Completed | TaskStatus::Failed if record.result.is_some() => {
                let result = record.result.unwrap_or_default();
                return GetTaskPayloadResult::new(id, &result)
                    .map_err(|e| ErrorObject::internal_error(e.to_string()));
            }
            TaskStatus::Failed => {
                return Err(record
                    .error
                    .unwrap_or_else(|| ErrorObject::internal_error("The task failed")));
            }
            TaskStatus::Cancelled => {
                return Err(ErrorObject::internal_error(format!(
                    "Task {id} was cancelled"
                )));
            }
            TaskStatus::InputRequired => relay(tasks, ctx, &record).await?,
            TaskStatus::Working | TaskStatus::Completed => {}
        }
        tokio::select! {
            () = ctx.cancellation().cancelled() => {
                return Err(ErrorObject::internal_error("The request was cancelled"));
            }
            next = tokio::time::timeout(RECHECK, events.next()) => {
                if let Ok(None) = next {
                    tokio::time::sleep(RECHECK).await;
                    events = tasks.store.watch(id);
                }
            }
        }
    }
}

/// Asks the client each outstanding question of the task, as real requests
/// on this session, and delivers the answers to the task.
async fn relay(
    tasks: &Tasks,
    ctx: &RequestContext,
    record: &TaskRecord,
) -> Result<(), ErrorObject> {
    for (key, request) in &record.input_requests {
        let method = request
            .get("method")
            .and_then(JsonValue::as_str)
            .unwrap_or_default();
        let mut params = request.get("params").cloned().unwrap_or(JsonValue::Null);
        // Every message about a task says which task it is about.
        if let JsonValue::Object(params) = &mut params {
            let meta = params
                .entry("_meta")
                .or_insert_with(|| JsonValue::Object(JsonObject::new()));
            if let JsonValue::Object(meta) = meta {
                RelatedTaskMetadata::new(record.id.clone()).insert_into(meta);
            }
        }
        let answer = match method {
            "elicitation/create" => match serde_json::from_value::<ElicitRequestParams>(params) {
                Ok(params) => ctx
                    .elicit(params)
                    .await
                    .map(|a| serde_json::to_value(a).unwrap_or_default()),
                Err(e) => Err(InputError::Malformed(e.to_string())),
            },
            "sampling/createMessage" => {
                match serde_json::from_value::<CreateMessageRequestParams>(params) {
                    Ok(params) => ctx
                        .sample(params)
                        .await
                        .map(|a| serde_json::to_value(a).unwrap_or_default()),
                    Err(e) => Err(InputError::Malformed(e.to_string())),
                }
            }
            "roots/list" => ctx
                .list_roots()
                .await
                .map(|a| serde_json::to_value(a).unwrap_or_default()),
            other => Err(InputError::Malformed(format!(
                "unknown input method `{other}`"
            ))),
        };
        let answer = answer.map_err(ErrorObject::from)?;
        let mut answers = JsonObject::new();
        answers.insert(key.clone(), answer);
        tasks
            .store
            .update(&record.id, Update::Respond(answers), now_ms())
            .await
            .map_err(store_error)?;
    }
    Ok(())
}
