//! Creating tasks: the alternate-result interceptor that answers a
//! `tools/call` with a task handle. It runs after the whole handler chain
//! (guards and validation included), so a caller the guards refuse, or a
//! call with invalid arguments, never creates a task.

use std::sync::Arc;

use mcp_server::core::error::{ErrorCode, ErrorObject};
use mcp_server::core::ext::tasks::{CreateTaskResult, EXTENSION_ID, TASK};
use mcp_server::core::json::JsonValue;
use mcp_server::core::legacy::tasks::CreateTaskResult as LegacyCreateTaskResult;
use mcp_server::core::tools::CallToolRequestParams;
use mcp_server::core::version::Era;
use mcp_server::handler::AlternateResult;
use mcp_server::seam::TargetKind;
use mcp_server::seam::interceptor::{
    AlternateResultInterceptor, Authorized, Invocation, Settled, Started,
};
use mcp_server::{BoxFuture, RequestContext};

use tokio_util::sync::CancellationToken;

use crate::executor::Execution;
use crate::handoff::Resumed;
use crate::input::TaskInput;
use crate::record::{Outcome, TaskRecord, Update, Wire, now_ms};
use crate::service::{Tasks, missing_extension, run_and_record, store_error};
use crate::support::RunsAsTask;

/// Answers calls of task tools with a task, when the client supports tasks.
pub(crate) struct CreateTasks {
    pub(crate) tasks: Arc<Tasks>,
}

/// The `-32021` of a task-only tool called by a client that did not
/// declare the extension.
fn extension_required(tool: &str) -> ErrorObject {
    missing_extension(format!(
        "Missing required client capability: tool `{tool}` runs only as a task (extension `{EXTENSION_ID}`)"
    ))
}

/// What the call asks of tasks, on its wire.
enum Plan {
    /// An ordinary call.
    Ordinary,
    /// A task, with the time to live the client asked for (2025-11-25).
    Task(Wire, Option<u64>),
}

fn plan(
    ctx: &RequestContext,
    invocation: &Invocation<'_>,
    runs: Option<RunsAsTask>,
) -> Result<Plan, ErrorObject> {
    let tool = &invocation.target().name;
    match ctx.era() {
        Era::Modern => {
            // The legacy `task` param is ignored on this wire.
            let Some(runs) = runs else {
                return Ok(Plan::Ordinary);
            };
            if ctx.client_capabilities().has_extension(EXTENSION_ID) {
                Ok(Plan::Task(Wire::Extension, None))
            } else if runs.is_required() {
                Err(extension_required(tool))
            } else {
                Ok(Plan::Ordinary)
            }
        }
        Era::Legacy => {
            let asked = invocation
                .call()
                .params::<CallToolRequestParams>()
                .and_then(|p| p.task.clone());
            match (asked, runs) {
                (Some(_), None) => Err(ErrorObject::new(
                    ErrorCode::METHOD_NOT_FOUND,
                    format!(
                        "Tool `{tool}` does not support task-augmented calls (taskSupport: forbidden)"
                    ),
                )),
                (None, Some(runs)) if runs.is_required() => Err(ErrorObject::new(
                    ErrorCode::METHOD_NOT_FOUND,
                    format!("Tool `{tool}` must be called as a task (taskSupport: required)"),
                )),
                (Some(asked), Some(_)) => Ok(Plan::Task(Wire::Legacy, asked.ttl)),
                (None, _) => Ok(Plan::Ordinary),
            }
        }
    }
}

/// The task handle, in the shape of its wire.
fn handle(proof: Authorized<'_>, record: &TaskRecord) -> Settled {
    let body = match record.wire {
        Wire::Extension => {
            serde_json::to_value(CreateTaskResult::new(crate::wire::summary(record)))
        }
        Wire::Legacy => serde_json::to_value(LegacyCreateTaskResult::new(
            crate::wire::legacy_task(record),
        )),
    };
    let mut body = match body {
        Ok(JsonValue::Object(body)) => body,
        _ => Default::default(),
    };
    body.remove("resultType");
    proof.alternate(AlternateResult {
        result_type: TASK,
        body,
    })
}

impl CreateTasks {
    /// Runs a handed-off task here, whose guards and interceptors just ran
    /// again for its caller: its record exists, so none is made; one that
    /// ended meanwhile does not run again.
    async fn resume(
        &self,
        invocation: Invocation<'_>,
        resumed: &Resumed,
    ) -> Result<Settled, ErrorObject> {
        let tool = &invocation.target().name;
        if **tool != *resumed.tool {
            return Err(ErrorObject::invalid_params(format!(
                "Task `{}` runs tool `{}`, not `{tool}`",
                resumed.task_id, resumed.tool
            )));
        }
        let store = &self.tasks.store;
        let record = match store.get(&resumed.task_id).await.map_err(store_error)? {
            Some(record) if record.tool == **tool => record,
            _ => return Err(crate::service::unknown_task(&resumed.task_id)),
        };
        let proof = invocation.authorized();
        if record.status.is_terminal() {
            return Ok(handle(proof, &record));
        }
        let arguments = invocation
            .call()
            .params::<CallToolRequestParams>()
            .and_then(|p| p.arguments.clone())
            .map_or_else(|| JsonValue::Object(Default::default()), JsonValue::Object);
        let deferred = invocation.defer();
        let created = CancellationToken::new();
        created.cancel();
        deferred.ask_through(Arc::new(TaskInput::new(
            store.clone(),
            record.id.clone(),
            created,
        )));
        let done = CancellationToken::new();
        self.tasks
            .cancel_on(&record.id, deferred.cancellation(), done.clone());
        let execution = Execution::new(record.clone(), arguments, deferred, store.clone(), done);
        match execution.run_pipeline_locally().await {
            Ok(()) => Ok(handle(proof, &record)),
            Err(crate::executor::ExecutionError::Store(error)) => Err(store_error(error)),
            Err(error) => Err(ErrorObject::internal_error(format!(
                "Internal error: {error}"
            ))),
        }
    }
}

impl AlternateResultInterceptor for CreateTasks {
    fn intercept<'a>(
        &'a self,
        invocation: Invocation<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        Box::pin(async move {
            let target = invocation.target();
            if target.kind != TargetKind::Tool {
                return invocation.proceed().await;
            }
            let ctx = invocation.ctx();
            if let Some(resumed) = ctx.get::<Resumed>() {
                return self.resume(invocation, &resumed).await;
            }
            let runs = self.tasks.tools.get(&target.name);
            let Plan::Task(wire, ttl) = plan(ctx, &invocation, runs)? else {
                return invocation.proceed().await;
            };
            let tool = target.name.clone();
            let arguments = invocation
                .call()
                .params::<CallToolRequestParams>()
                .and_then(|p| p.arguments.clone())
                .map_or_else(|| JsonValue::Object(Default::default()), JsonValue::Object);
            if let Some(problems) = self.tasks.tools.invalid_arguments(&tool, &arguments) {
                return Err(ErrorObject::invalid_params(problems));
            }
            let record = self.tasks.record(ctx, wire, &tool, ttl);
            // Fired once the run here is over.
            let done = CancellationToken::new();
            let proof = invocation.authorized();
            let deferred = invocation.defer();
            let created = CancellationToken::new();
            deferred.ask_through(Arc::new(TaskInput::new(
                self.tasks.store.clone(),
                record.id.clone(),
                created.clone(),
            )));
            let store = &self.tasks.store;
            if runs.is_some_and(|r| r.asks_first()) {
                // The handler asks its first questions inside the request;
                // the task exists once it releases the request.
                let cancellation = deferred.cancellation();
                match deferred.start().await {
                    Started::Finished(answer) => return *answer,
                    Started::Released(mut running) => {
                        if let Err(error) = store.create(record.clone()).await {
                            running.abort();
                            return Err(store_error(error));
                        }
                        created.cancel();
                        self.tasks
                            .follow(ctx.clone(), &record, cancellation.clone(), done.clone());
                        let (store, task) = (store.clone(), record.clone());
                        tokio::spawn(async move {
                            let recorded =
                                run_and_record(&*store, &task, running.finish(), &cancellation)
                                    .await;
                            // Cancelled: the handler stops where it awaits.
                            running.abort();
                            if let Err(error) = recorded {
                                tracing::error!(task = %task.id, %error, "a task's outcome was not recorded");
                            }
                            done.cancel();
                        });
                        return Ok(handle(proof, &record));
                    }
                }
            }
            // The record exists before the answer leaves.
            store.create(record.clone()).await.map_err(store_error)?;
            created.cancel();
            self.tasks
                .follow(ctx.clone(), &record, deferred.cancellation(), done.clone());
            let execution =
                Execution::new(record.clone(), arguments, deferred, store.clone(), done);
            if let Err(error) = self.tasks.executor.start(execution).await {
                tracing::warn!(task = %record.id, %error, "a task could not be started");
                let failed = Outcome::failed(ErrorObject::internal_error(error.to_string()));
                store
                    .update(&record.id, Update::Finish(failed), now_ms())
                    .await
                    .map_err(store_error)?;
            }
            Ok(handle(proof, &record))
        })
    }
}
