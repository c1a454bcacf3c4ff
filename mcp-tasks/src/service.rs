//! What the extension's interceptor and methods share: the active store and
//! executor, the configuration, and the rules every path applies (ownership,
//! recording an outcome, purging).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use futures_util::StreamExt;
use mcp_server::RequestContext;
use mcp_server::boot::BootContext;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::ext::tasks::{EXTENSION_ID, TaskStatus};
use mcp_server::core::json::JsonValue;
use mcp_server::core::result::ResultType;
use mcp_server::seam::interceptor::Settled;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::config::TasksSection;
use crate::executor::ExecutionStrategy;
use crate::record::{Outcome, TaskEvent, TaskRecord, Update, Wire, now_ms};
use crate::store::{StoreError, TaskStore};
use crate::support::TaskTools;

/// How often expired tasks are swept, at most.
const PURGE_EVERY_MS: u64 = 30_000;

/// The extension's state, made once at boot.
pub(crate) struct Tasks {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(crate) executor: Arc<dyn ExecutionStrategy>,
    pub(crate) section: TasksSection,
    pub(crate) tools: Arc<TaskTools>,
    last_purge: AtomicU64,
}

/// The one `Tasks` of a server, made by whichever registration asks first.
#[derive(Default)]
struct Made(OnceLock<Arc<Tasks>>);

impl Tasks {
    /// The server's `Tasks`, from the boot context.
    pub(crate) fn of(boot: &BootContext) -> Arc<Self> {
        boot.shared::<Made>()
            .0
            .get_or_init(|| {
                Arc::new(Self {
                    store: boot
                        .active::<dyn TaskStore>()
                        .expect("mcp-tasks declares the store seam"),
                    executor: boot
                        .active::<dyn ExecutionStrategy>()
                        .expect("mcp-tasks declares the executor seam"),
                    section: boot.section::<TasksSection>(),
                    tools: boot.shared::<TaskTools>(),
                    last_purge: AtomicU64::new(0),
                })
            })
            .clone()
    }

    /// A fresh `working` record for a call of `tool` by the caller of `ctx`.
    pub(crate) fn record(
        &self,
        ctx: &RequestContext,
        wire: Wire,
        tool: &str,
        ttl_ms: Option<u64>,
    ) -> TaskRecord {
        let mut record = TaskRecord::new(new_id(), owner(ctx), wire, tool, now_ms());
        record.ttl_ms = Some(
            ttl_ms
                .unwrap_or(self.section.ttl_ms)
                .min(self.section.ttl_ms),
        );
        record.poll_interval_ms = Some(self.section.poll_interval_ms);
        record.status_message = Some("The task is working.".into());
        record
    }

    /// The caller's task `id`: another caller's task answers exactly as an
    /// unknown one.
    pub(crate) async fn find(
        &self,
        ctx: &RequestContext,
        id: &str,
    ) -> Result<TaskRecord, ErrorObject> {
        self.purge().await;
        match self.store.get(id).await.map_err(store_error)? {
            Some(record) if record.owner == owner(ctx) => Ok(record),
            _ => Err(unknown_task(id)),
        }
    }

    /// Sweeps expired tasks, at most every half minute.
    pub(crate) async fn purge(&self) {
        let now = now_ms();
        let last = self.last_purge.load(Ordering::Relaxed);
        if now.saturating_sub(last) < PURGE_EVERY_MS
            || self
                .last_purge
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        if let Err(error) = self.store.purge(now).await {
            tracing::warn!(%error, "expired tasks could not be purged");
        }
    }

    /// Follows task `id` until it ends, through the store's watch (so
    /// whichever instance applied a change): fires `token` when it is
    /// cancelled, and tells whoever follows it (listen streams granted its
    /// id; the 2025-11-25 session that created it) of each status it takes.
    /// Stops when the task ends, or when `done` fires (the run here is
    /// over, even if its task was purged meanwhile).
    pub(crate) fn follow(
        &self,
        ctx: RequestContext,
        record: &TaskRecord,
        token: CancellationToken,
        done: CancellationToken,
    ) {
        let mut events = self.store.watch(&record.id);
        let (store, id, wire) = (self.store.clone(), record.id.clone(), record.wire);
        if wire == Wire::Legacy {
            ctx.follow_on_session(crate::listen::LEGACY_MEMBER, &id);
        }
        // A session keeps following its ended tasks (until newer ones push
        // them out): the last change must still reach it once published.
        let tell = move |record: Option<TaskRecord>| {
            if let Some(record) = record {
                crate::listen::publish(&ctx, record);
            }
        };
        tokio::spawn(async move {
            loop {
                let event = tokio::select! {
                    event = events.next() => event,
                    () = done.cancelled() => None,
                };
                let Some(event) = event else {
                    // The run is over: tell its end, if the store has it.
                    tell(
                        store
                            .get(&id)
                            .await
                            .ok()
                            .flatten()
                            .filter(|r| r.status.is_terminal()),
                    );
                    return;
                };
                let TaskEvent::Status(status) = event else {
                    continue;
                };
                if status == TaskStatus::Cancelled {
                    token.cancel();
                }
                tell(store.get(&id).await.ok().flatten());
                if status.is_terminal() {
                    return;
                }
            }
        });
    }
}

impl Tasks {
    /// Fires `token` when task `id` is cancelled, on whichever instance;
    /// stops when the task ends or `done` fires. Tells no one else: the
    /// instance that created the task follows it for its listeners.
    pub(crate) fn cancel_on(&self, id: &str, token: CancellationToken, done: CancellationToken) {
        let mut events = self.store.watch(id);
        tokio::spawn(async move {
            loop {
                let event = tokio::select! {
                    event = events.next() => event,
                    () = done.cancelled() => None,
                };
                match event {
                    None => return,
                    Some(TaskEvent::Status(TaskStatus::Cancelled)) => {
                        token.cancel();
                        return;
                    }
                    Some(TaskEvent::Status(status)) if status.is_terminal() => return,
                    Some(_) => {}
                }
            }
        });
    }
}

/// Who owns what a caller creates: its principal's subject (`""` when anonymous).
pub(crate) fn owner(ctx: &RequestContext) -> String {
    ctx.principal().subject.clone().unwrap_or_default()
}

/// 128 random bits, in hex.
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system supplies random bytes");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The error of a task that does not exist, expired, or is not the caller's.
pub(crate) fn unknown_task(id: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("Unknown task: {id}")).with_data(json!({ "taskId": id }))
}

/// The `-32021` of a request that needs the extension and did not declare it.
pub(crate) fn missing_extension(message: String) -> ErrorObject {
    let required =
        serde_json::from_value(json!({ "extensions": { EXTENSION_ID: {} } })).unwrap_or_default();
    ErrorObject::missing_required_client_capability(message, required)
}

/// The error a request gets when the store fails.
pub(crate) fn store_error(error: StoreError) -> ErrorObject {
    tracing::error!(%error, "the task store failed");
    ErrorObject::internal_error("Internal error: the task store is unavailable")
}

/// Runs a task's handler until it ends or `cancellation` fires (which
/// drops it where it awaits), and records how it ended.
pub(crate) async fn run_and_record(
    store: &dyn TaskStore,
    task: &TaskRecord,
    run: impl std::future::Future<Output = Result<Settled, ErrorObject>>,
    cancellation: &CancellationToken,
) -> Result<(), StoreError> {
    let outcome = tokio::select! {
        outcome = run => outcome,
        () = cancellation.cancelled() => return cancel(store, &task.id, "Cancelled while it ran").await,
    };
    record_outcome(store, task, outcome).await
}

/// Ends task `id` as `cancelled` (unless it already ended).
pub(crate) async fn cancel(
    store: &dyn TaskStore,
    id: &str,
    message: &str,
) -> Result<(), StoreError> {
    store
        .update(id, Update::Finish(Outcome::cancelled(message)), now_ms())
        .await
        .map(|_| ())
}

/// Records how a task's handler ended, with its wire's rules: a tool result
/// with `isError: true` completes an extension task and fails a legacy one;
/// a JSON-RPC error fails either. A task that already ended keeps its end.
pub(crate) async fn record_outcome(
    store: &dyn TaskStore,
    task: &TaskRecord,
    outcome: Result<Settled, ErrorObject>,
) -> Result<(), StoreError> {
    let outcome = match outcome {
        Ok(settled) if settled.result_type() == ResultType::COMPLETE => match settled.to_json() {
            JsonValue::Object(result) => {
                let tool_error = result.get("isError") == Some(&JsonValue::Bool(true));
                if tool_error && task.wire == Wire::Legacy {
                    Outcome {
                        status: TaskStatus::Failed,
                        message: Some("The tool reported an error.".into()),
                        result: Some(result),
                        error: None,
                    }
                } else {
                    Outcome::completed(result)
                }
            }
            _ => Outcome::failed(ErrorObject::internal_error(
                "Internal error: the tool's result is not an object",
            )),
        },
        Ok(settled) => Outcome::failed(ErrorObject::internal_error(format!(
            "Internal error: the tool answered with a `{}` result, which a task cannot hold",
            settled.result_type().as_str()
        ))),
        Err(error) => Outcome::failed(error),
    };
    store
        .update(&task.id, Update::Finish(outcome), now_ms())
        .await
        .map(|_| ())
}
