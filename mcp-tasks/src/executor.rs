//! the execution strategy seam: who runs a task once its record exists. One
//! member is active per server (a one-active `Strategy` seam); the default
//! runs the tool in this process, on tokio. An executor that hands the work
//! to a durable runtime (a queue, a workflow engine) returns from
//! [`ExecutionStrategy::start`] once that runtime accepted it, and records the
//! outcome in the store itself, or runs [`Execution::run_pipeline_locally`]
//! where the handler can run.
//!
//! Guards, validation and every interceptor ran before the record was
//! created, whatever the executor: an executor only decides where and when
//! the handler runs.
//!
//! Input requests of a handler (`ctx.elicit`) reach the client through the
//! store, so a handler run by a worker process asks and gets answers like
//! one run here, provided the worker shares the store; a worker that runs
//! the tool by other means (not through [`Execution::run_pipeline_locally`])
//! asks by writing `Update::Ask` and watching the task itself.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use mcp_server::auth::Principal;
use mcp_server::boot::BootContext;
use mcp_server::core::capabilities::ClientCapabilities;
use mcp_server::core::content::Implementation;
use mcp_server::core::json::JsonValue;
use mcp_server::seam::interceptor::DeferredInvocation;
use mcp_server::seam::{OneActive, SeamWord};
use mcp_server::{BoxFuture, RequestContext};
use tokio_util::sync::CancellationToken;

use crate::record::{Outcome, TaskRecord, Update, now_ms};
use crate::service::{cancel, run_and_record};
use crate::store::{StoreError, TaskStore};
use mcp_server::core::error::ErrorObject;

/// Why an executor could not start a task: the task is marked `failed`
/// (unless it already ended).
#[derive(Debug, thiserror::Error)]
#[error("the task could not be started: {0}")]
pub struct StartError(pub String);

/// Why [`Execution::run_pipeline_locally`] could not run.
#[derive(Debug, thiserror::Error)]
pub enum ExecutionError {
    /// The execution was disposed of before it ran.
    #[error("the execution was disposed of")]
    Disposed,
    /// The pipeline already ran for this execution.
    #[error("the pipeline already ran for this execution")]
    AlreadyRan,
    /// The store failed to record the outcome.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Starts tasks: returns once the task's execution is durably started,
/// never waiting for it to finish.
pub trait ExecutionStrategy: Send + Sync + 'static {
    /// Starts `execution`.
    ///
    /// # Errors
    ///
    /// When the execution cannot be started; the task is then marked
    /// `failed`, unless it already ended.
    fn start(&self, execution: Execution) -> BoxFuture<'static, Result<(), StartError>>;
}

impl OneActive for dyn ExecutionStrategy {
    const NAME: &'static str = "ExecutionStrategy";
    const WORD: SeamWord = SeamWord::Strategy;

    fn fallback(_boot: &BootContext) -> (&'static str, Arc<Self>) {
        ("InProcessExecutor", Arc::new(InProcessExecutor))
    }
}

/// The default executor: runs the tool in this process, on tokio.
#[derive(Debug, Default, Clone, Copy)]
pub struct InProcessExecutor;

impl ExecutionStrategy for InProcessExecutor {
    /// Runs the task on a task of its own, which the server's drain waits
    /// for; a run the drain's deadline cuts is marked `failed`, saying the
    /// server shut down, rather than left `working` in a shared store until
    /// its time to live runs out.
    fn start(&self, execution: Execution) -> BoxFuture<'static, Result<(), StartError>> {
        let shutdown = execution.context().map(|ctx| ctx.shutdown().clone());
        let guards = shutdown.as_ref().map(|s| (s.hold(), s.hold_record()));
        tokio::spawn(async move {
            let expired = async {
                match &shutdown {
                    Some(shutdown) => shutdown.expired().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                ran = execution.run_pipeline_locally() => {
                    if let Err(error) = ran {
                        tracing::warn!(task = execution.task_id(), %error, "a task did not run");
                    }
                }
                () = expired => {
                    let failed = Outcome::failed(ErrorObject::internal_error(
                        "The server shut down before the task finished; run it again",
                    ));
                    let store = execution.store();
                    if let Err(error) = store
                        .update(execution.task_id(), Update::Finish(failed), now_ms())
                        .await
                    {
                        tracing::warn!(task = execution.task_id(), %error, "a task cut by shutdown was not marked failed");
                    }
                }
            }
            drop(guards);
        });
        Box::pin(async { Ok(()) })
    }
}

/// One task to run: its record, the tool call it runs (with the request's
/// context, detached from the request, for the handler), its cancellation
/// and the store its outcome goes to. Cheap to clone.
#[derive(Clone)]
pub struct Execution {
    inner: Arc<Inner>,
}

struct Inner {
    task: TaskRecord,
    arguments: JsonValue,
    /// The request's context until the execution is disposed of: it holds
    /// what interceptors stored with `insert`, which disposal releases.
    context: Mutex<Option<RequestContext>>,
    /// Who called, kept past disposal for a handoff.
    caller: Caller,
    invocation: Mutex<Option<DeferredInvocation>>,
    ran: AtomicBool,
    disposed: AtomicBool,
    cancellation: CancellationToken,
    store: Arc<dyn TaskStore>,
    /// Fired once the pipeline ran here.
    done: CancellationToken,
}

/// The caller of a task's request, as plain values: what a handoff needs,
/// without the request's context (and the values stored in it).
pub(crate) struct Caller {
    pub(crate) principal: Principal,
    pub(crate) client_capabilities: ClientCapabilities,
    pub(crate) client_info: Option<Implementation>,
}

impl Caller {
    fn of(ctx: &RequestContext) -> Self {
        Self {
            principal: ctx.principal().clone(),
            client_capabilities: ctx.client_capabilities().clone(),
            client_info: ctx.client_info().cloned(),
        }
    }
}

impl std::fmt::Debug for Execution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Execution")
            .field("task", &self.inner.task.id)
            .finish_non_exhaustive()
    }
}

impl Execution {
    pub(crate) fn new(
        task: TaskRecord,
        arguments: JsonValue,
        invocation: DeferredInvocation,
        store: Arc<dyn TaskStore>,
        done: CancellationToken,
    ) -> Self {
        Self {
            inner: Arc::new(Inner {
                context: Mutex::new(Some(invocation.ctx().clone())),
                caller: Caller::of(invocation.ctx()),
                cancellation: invocation.cancellation(),
                invocation: Mutex::new(Some(invocation)),
                ran: AtomicBool::new(false),
                disposed: AtomicBool::new(false),
                task,
                arguments,
                store,
                done,
            }),
        }
    }

    /// The task id.
    pub fn task_id(&self) -> &str {
        &self.inner.task.id
    }

    /// The task's record, as it was created (`working`).
    pub fn task(&self) -> &TaskRecord {
        &self.inner.task
    }

    /// The tool the task runs.
    pub fn tool(&self) -> &str {
        &self.inner.task.tool
    }

    /// The tool's arguments, as the request carried them.
    pub fn arguments(&self) -> &JsonValue {
        &self.inner.arguments
    }

    /// The request's context, detached from the request: the caller, the
    /// client's capabilities, what interceptors stored with `insert`.
    /// `None` once the execution is disposed of, which releases it.
    pub fn context(&self) -> Option<RequestContext> {
        lock(&self.inner.context).clone()
    }

    /// Who called, also after disposal.
    pub(crate) fn caller(&self) -> &Caller {
        &self.inner.caller
    }

    /// Fired by `tasks/cancel`, on any instance sharing the store.
    pub fn cancellation(&self) -> CancellationToken {
        self.inner.cancellation.clone()
    }

    /// The store the task lives in.
    pub fn store(&self) -> Arc<dyn TaskStore> {
        self.inner.store.clone()
    }

    /// Whether the execution was disposed of (after its pipeline ran, or by [`dispose`](Self::dispose)).
    pub fn is_disposed(&self) -> bool {
        self.inner.disposed.load(Ordering::SeqCst)
    }

    /// Runs the tool's handler here (the guards and interceptors already
    /// ran) and records its outcome in the store; then disposes of the
    /// execution. A task cancelled before this starts is not run; one
    /// cancelled while it runs is interrupted.
    ///
    /// # Errors
    ///
    /// [`ExecutionError::Disposed`] after [`dispose`](Self::dispose),
    /// [`ExecutionError::AlreadyRan`] the second time, or the store's error.
    pub async fn run_pipeline_locally(&self) -> Result<(), ExecutionError> {
        let invocation = {
            let mut slot = lock(&self.inner.invocation);
            if self.inner.ran.swap(true, Ordering::SeqCst) {
                return Err(ExecutionError::AlreadyRan);
            }
            slot.take()
        };
        let Some(invocation) = invocation else {
            return Err(ExecutionError::Disposed);
        };
        let store = &*self.inner.store;
        let recorded = if self.inner.cancellation.is_cancelled() {
            cancel(store, &self.inner.task.id, "Cancelled before it started").await
        } else {
            run_and_record(
                store,
                &self.inner.task,
                invocation.run(),
                &self.inner.cancellation,
            )
            .await
        };
        self.dispose();
        self.inner.done.cancel();
        Ok(recorded?)
    }

    /// Releases what the execution holds (the handler invocation and the
    /// request's context, with the values stored in it): for an executor
    /// that hands the task elsewhere. Idempotent.
    pub fn dispose(&self) {
        self.inner.disposed.store(true, Ordering::SeqCst);
        let invocation = lock(&self.inner.invocation).take();
        let context = lock(&self.inner.context).take();
        drop((invocation, context));
    }
}

/// Locks `mutex`, whatever a panicking holder left.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
