//! `tasks/get`, `tasks/update` and `tasks/cancel` of the extension
//! (2026-07-28): typed methods through the one pipeline, refused with
//! `-32021` to a request that does not declare the extension.

use std::sync::Arc;

use mcp_server::RequestContext;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::ext::tasks::{
    CancelTask, CancelTaskResult, EXTENSION_ID, GetTask, GetTaskResult, UpdateTaskResult,
};
use mcp_server::core::json::{JsonObject, JsonValue};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::Contributions;
use serde::{Deserialize, Serialize};

use crate::record::{Update, now_ms};
use crate::service::{self, Tasks, missing_extension, store_error};

/// `tasks/update`, with answers read as plain JSON: a key nobody asked is
/// ignored whatever it holds, rather than refusing the whole update.
#[derive(mcp_server::Method)]
#[mcp(name = "tasks/update", params = UpdateParams, result = UpdateTaskResult, eras = "modern", target = "taskId")]
pub struct UpdateTask;

/// Params of `tasks/update`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, mcp_server::Params)]
#[serde(rename_all = "camelCase")]
pub struct UpdateParams {
    /// The task to update.
    pub task_id: String,
    /// Answers, by the keys of the task's input requests.
    #[serde(default)]
    pub input_responses: JsonObject,
}

/// `-32021` for a request that does not declare the extension.
pub(crate) fn require_extension(ctx: &RequestContext) -> Result<(), ErrorObject> {
    if ctx.client_capabilities().has_extension(EXTENSION_ID) {
        return Ok(());
    }
    Err(missing_extension(format!(
        "Missing required client capability: `{}` requires the extension `{EXTENSION_ID}`",
        ctx.method()
    )))
}

/// Contributes the three methods.
pub(crate) fn contribute(tasks: &Arc<Tasks>, into: &mut Contributions<'_>) {
    let get = tasks.clone();
    into.method::<GetTask>(handler_fn::<GetTask, _, _, _>(move |ctx, params| {
        let tasks = get.clone();
        async move {
            require_extension(&ctx)?;
            let record = tasks.find(&ctx, &params.task_id).await?;
            Ok(GetTaskResult::new(crate::wire::detailed(record)))
        }
    }));
    let update = tasks.clone();
    into.method::<UpdateTask>(handler_fn::<UpdateTask, _, _, _>(
        move |ctx, params: UpdateParams| {
            let tasks = update.clone();
            async move {
                require_extension(&ctx)?;
                tasks.find(&ctx, &params.task_id).await?;
                let answers: JsonObject = params
                    .input_responses
                    .into_iter()
                    .filter(|(_, answer)| matches!(answer, JsonValue::Object(_)))
                    .collect();
                tasks
                    .store
                    .update(&params.task_id, Update::Respond(answers), now_ms())
                    .await
                    .map_err(store_error)?;
                Ok(UpdateTaskResult::default())
            }
        },
    ));
    let cancel = tasks.clone();
    into.method::<CancelTask>(handler_fn::<CancelTask, _, _, _>(move |ctx, params| {
        let tasks = cancel.clone();
        async move {
            require_extension(&ctx)?;
            let record = tasks.find(&ctx, &params.task_id).await?;
            if !record.status.is_terminal() {
                service::cancel(&*tasks.store, &record.id, "Cancelled by the client")
                    .await
                    .map_err(store_error)?;
            }
            Ok(CancelTaskResult::default())
        }
    }));
}
