//! The durable task store for one machine: SQLite in WAL mode, in a file
//! named by `tasks.sqlite_path`.
//!
//! Records are kept as JSON beside the columns the queries need. A write
//! is committed before the call returns, and WAL with `synchronous =
//! NORMAL` keeps every committed write across a crash of the process (a
//! power loss may take the last ones). The schema carries its version in
//! `PRAGMA user_version` and is migrated forward on open.

use std::path::Path;
use std::sync::{Arc, Mutex};

use mcp_server::BoxFuture;
use rusqlite::{Connection, OptionalExtension, params};

use super::{StoreError, TaskStore, TaskWatch, Watchers};
use crate::record::{self, Applied, TaskRecord, Update};

/// Each migration takes the schema from the version of its index to the next.
const MIGRATIONS: &[&str] = &["CREATE TABLE tasks (
         id TEXT PRIMARY KEY,
         owner TEXT NOT NULL,
         created_at_ms INTEGER NOT NULL,
         expires_at_ms INTEGER,
         record TEXT NOT NULL
     );
     CREATE INDEX tasks_by_owner ON tasks (owner, created_at_ms, id);
     CREATE INDEX tasks_by_expiry ON tasks (expires_at_ms);"];

/// Keeps task records in a SQLite file.
pub struct SqliteTaskStore {
    connection: Arc<Mutex<Connection>>,
    watchers: Arc<Watchers>,
    path: String,
}

fn backend(error: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(error.to_string())
}

impl SqliteTaskStore {
    /// Opens (or creates) the store at `path`, migrating its schema.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened or migrated.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let path = path.as_ref();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(backend)?;
        }
        let mut connection = Connection::open(path).map_err(backend)?;
        connection
            .execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;")
            .map_err(backend)?;
        migrate(&mut connection)?;
        Ok(Self {
            connection: Arc::new(Mutex::new(connection)),
            watchers: Arc::default(),
            path: path.display().to_string(),
        })
    }

    /// Runs `f` on the connection, off the async threads.
    fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> BoxFuture<'static, Result<T, StoreError>> {
        let connection = self.connection.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut connection = connection
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                f(&mut connection)
            })
            .await
            .map_err(backend)?
        })
    }
}

fn migrate(connection: &mut Connection) -> Result<(), StoreError> {
    let version: usize = connection
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(backend)?;
    for (index, migration) in MIGRATIONS.iter().enumerate().skip(version) {
        let tx = connection.transaction().map_err(backend)?;
        tx.execute_batch(migration).map_err(backend)?;
        tx.execute_batch(&format!("PRAGMA user_version = {}", index + 1))
            .map_err(backend)?;
        tx.commit().map_err(backend)?;
    }
    Ok(())
}

fn encode(record: &TaskRecord) -> Result<String, StoreError> {
    serde_json::to_string(record).map_err(backend)
}

fn decode(text: &str) -> Result<TaskRecord, StoreError> {
    serde_json::from_str(text).map_err(backend)
}

fn to_i64(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

fn read(connection: &Connection, id: &str) -> Result<Option<TaskRecord>, StoreError> {
    let text: Option<String> = connection
        .query_row("SELECT record FROM tasks WHERE id = ?1", [id], |row| {
            row.get(0)
        })
        .optional()
        .map_err(backend)?;
    text.as_deref().map(decode).transpose()
}

impl TaskStore for SqliteTaskStore {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>> {
        self.with(move |connection| {
            let inserted = connection
                .execute(
                    "INSERT OR IGNORE INTO tasks (id, owner, created_at_ms, expires_at_ms, record) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![
                        record.id,
                        record.owner,
                        to_i64(record.created_at_ms),
                        record.expires_at_ms().map(to_i64),
                        encode(&record)?
                    ],
                )
                .map_err(backend)?;
            if inserted == 0 {
                return Err(StoreError::Exists(record.id));
            }
            Ok(())
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        let id = id.to_owned();
        let now = record::now_ms();
        self.with(move |connection| Ok(read(connection, &id)?.filter(|r| !r.expired(now))))
    }

    fn update<'a>(
        &'a self,
        id: &'a str,
        update: Update,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<Applied>, StoreError>> {
        let key = id.to_owned();
        let watchers = self.watchers.clone();
        let applied = self.with(move |connection| {
            // One write transaction: the read, the transition and the write
            // are one step for every writer of this file.
            let tx = connection
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                .map_err(backend)?;
            let Some(current) = read(&tx, &key)?.filter(|r| !r.expired(now_ms)) else {
                return Ok(None);
            };
            let applied = record::apply(current, update, now_ms);
            if applied.changed() {
                tx.execute(
                    "UPDATE tasks SET record = ?2 WHERE id = ?1",
                    params![key, encode(&applied.record)?],
                )
                .map_err(backend)?;
            }
            tx.commit().map_err(backend)?;
            Ok(Some(applied))
        });
        Box::pin(async move {
            let applied = applied.await?;
            if let Some(applied) = &applied {
                watchers.publish(id, &applied.events);
            }
            Ok(applied)
        })
    }

    fn list<'a>(
        &'a self,
        owner: &'a str,
        after: Option<&'a str>,
        limit: usize,
    ) -> BoxFuture<'a, Result<Vec<TaskRecord>, StoreError>> {
        let owner = owner.to_owned();
        let after = after.map(str::to_owned);
        let now = to_i64(record::now_ms());
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.with(move |connection| {
            let (created, id) = match &after {
                Some(after) => connection
                    .query_row(
                        "SELECT created_at_ms, id FROM tasks WHERE id = ?1 AND owner = ?2",
                        params![after, owner],
                        |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)),
                    )
                    .optional()
                    .map_err(backend)?
                    .unwrap_or((i64::MIN, String::new())),
                None => (i64::MIN, String::new()),
            };
            let mut statement = connection
                .prepare(
                    "SELECT record FROM tasks WHERE owner = ?1 AND (created_at_ms, id) > (?2, ?3)
                     AND (expires_at_ms IS NULL OR expires_at_ms > ?4)
                     ORDER BY created_at_ms, id LIMIT ?5",
                )
                .map_err(backend)?;
            let rows = statement
                .query_map(params![owner, created, id, now, limit], |row| {
                    row.get::<_, String>(0)
                })
                .map_err(backend)?;
            rows.map(|text| decode(&text.map_err(backend)?)).collect()
        })
    }

    fn purge(&self, now_ms: u64) -> BoxFuture<'_, Result<usize, StoreError>> {
        self.with(move |connection| {
            connection
                .execute(
                    "DELETE FROM tasks WHERE expires_at_ms IS NOT NULL AND expires_at_ms <= ?1",
                    [to_i64(now_ms)],
                )
                .map_err(backend)
        })
    }

    fn watch(&self, id: &str) -> TaskWatch {
        self.watchers.watch(id)
    }

    fn describe(&self) -> String {
        format!("SQLite at `{}`", self.path)
    }
}

impl std::fmt::Debug for SqliteTaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteTaskStore").finish_non_exhaustive()
    }
}
