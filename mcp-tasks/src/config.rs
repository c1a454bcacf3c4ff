//! The `tasks` section of the server's configuration.

use mcp_server::config::Section;
use serde::Deserialize;

/// Which task store the extension uses when no crate supplies one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoreKind {
    /// In memory (the default).
    #[default]
    Memory,
    /// SQLite, in the file `tasks.sqlite_path`.
    #[cfg(feature = "sqlite")]
    Sqlite,
}

/// `tasks.*`: `MCP_TASKS__STORE=sqlite`, `MCP_TASKS__SQLITE_PATH=tasks.db`, and so on.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TasksSection {
    /// `memory` or `sqlite`.
    pub store: StoreKind,
    /// The SQLite file, for `store = "sqlite"`.
    pub sqlite_path: String,
    /// How long a task is kept after creation, in milliseconds (default one hour).
    pub ttl_ms: u64,
    /// How often clients should poll, in milliseconds.
    pub poll_interval_ms: u64,
}

impl Default for TasksSection {
    fn default() -> Self {
        Self {
            store: StoreKind::Memory,
            sqlite_path: "mcp-tasks.db".into(),
            ttl_ms: 3_600_000,
            poll_interval_ms: 500,
        }
    }
}

impl Section for TasksSection {
    const KEY: &'static str = "tasks";
}
