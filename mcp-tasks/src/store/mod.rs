//! The task store seam: where task records live. One member is active per
//! server (a one-active `Store` seam): in memory by default, SQLite for one
//! machine (`tasks.store = "sqlite"`), or any crate's own, supplied with
//! `#[store]`. [`tck::check`](crate::tck::check) runs the whole contract
//! against any of them.

mod memory;
#[cfg(feature = "sqlite")]
mod sqlite;
mod watch;

use std::sync::Arc;

use futures_util::stream::BoxStream;
use mcp_server::BoxFuture;
use mcp_server::boot::BootContext;
use mcp_server::seam::{OneActive, SeamWord};

pub use self::memory::MemoryTaskStore;
#[cfg(feature = "sqlite")]
pub use self::sqlite::SqliteTaskStore;
pub use self::watch::Watchers;
use crate::config::{StoreKind, TasksSection};
use crate::record::{Applied, TaskEvent, TaskRecord, Update};

/// Why a store could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A task with this id exists already.
    #[error("a task with id `{0}` exists already")]
    Exists(String),
    /// The store itself failed (I/O, a lost connection).
    #[error("the task store failed: {0}")]
    Backend(String),
}

/// The events of one task, as its store reports them; ends when the task
/// ends (or the store drops its watchers).
pub type TaskWatch = BoxStream<'static, TaskEvent>;

/// Where task records live, shared by every request and every instance
/// that uses the same backing store.
///
/// Every operation is atomic for its task: [`update`](Self::update)
/// applies [`record::apply`](crate::record::apply) as one step, so a
/// terminal status is never overwritten, whoever writes concurrently.
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new record; it resolves through [`get`](Self::get) as soon as this returns.
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The record of task `id`, unless it does not exist or expired.
    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>>;

    /// Applies `update` to task `id` at `now_ms`; `None` when there is no such task.
    fn update<'a>(
        &'a self,
        id: &'a str,
        update: Update,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<Applied>, StoreError>>;

    /// The tasks of `owner`, oldest first, after the task `after` (a
    /// cursor), at most `limit`.
    fn list<'a>(
        &'a self,
        owner: &'a str,
        after: Option<&'a str>,
        limit: usize,
    ) -> BoxFuture<'a, Result<Vec<TaskRecord>, StoreError>>;

    /// Deletes every task whose time to live ran out by `now_ms`; how many.
    fn purge(&self, now_ms: u64) -> BoxFuture<'_, Result<usize, StoreError>>;

    /// The events of task `id` from now on: status changes (cancellation
    /// included) and arriving answers, wherever they were written.
    fn watch(&self, id: &str) -> TaskWatch;

    /// What the boot report and diagnostics call this store.
    fn describe(&self) -> String;
}

impl OneActive for dyn TaskStore {
    const NAME: &'static str = "TaskStore";
    const WORD: SeamWord = SeamWord::Store;

    fn fallback(boot: &BootContext) -> (&'static str, Arc<Self>) {
        let section = boot.section::<TasksSection>();
        match section.store {
            StoreKind::Memory => ("MemoryTaskStore", Arc::new(MemoryTaskStore::default())),
            #[cfg(feature = "sqlite")]
            StoreKind::Sqlite => {
                match SqliteTaskStore::open(&section.sqlite_path) {
                    Ok(store) => ("SqliteTaskStore", Arc::new(store)),
                    Err(error) => {
                        boot.fail(mcp_server::boot::BootError::Extension(
                        mcp_server::boot::Diagnostic::new(
                            "tasks::store_unavailable",
                            format!("the SQLite task store at `{}` cannot be opened", section.sqlite_path),
                        )
                        .note(error.to_string())
                        .help("set `tasks.sqlite_path` (`MCP_TASKS__SQLITE_PATH`) to a writable file"),
                    ));
                        ("MemoryTaskStore", Arc::new(MemoryTaskStore::default()))
                    }
                }
            }
        }
    }
}
