//! The settings a command line sets: each named flag is one setting of a
//! configuration section (`--task-store` is `tasks.store`), and
//! `--set KEY=VALUE` is any setting by its dotted key, so the settings of
//! crates linked later reach the builder without a flag of their own.
//! Boot checks them all: a key no section reads fails boot, naming it.
//!
//! ```
//! use clap::Parser;
//! use mcp_demo::cli::{Cli, Setting};
//! use serde_json::json;
//!
//! let cli = Cli::try_parse_from([
//!     "mcp-demo", "--stdio",
//!     "--task-store", "sqlite",
//!     "--set", "tasks.ttl_ms=60000",
//!     "--set", "server.instructions=Be brief.",
//! ])
//! .unwrap();
//! assert_eq!(
//!     cli.settings.settings(),
//!     [
//!         Setting::new("--task-store", "tasks.store", json!("sqlite")),
//!         Setting::new("--set tasks.ttl_ms", "tasks.ttl_ms", json!(60000)),
//!         Setting::new("--set server.instructions", "server.instructions", json!("Be brief.")),
//!     ]
//! );
//! ```

use clap::{Args, ValueEnum};
use mcp_server::config::{Secret, value_of_text};
use mcp_server::core::json::JsonValue;
use mcp_server::server::Builder;
use serde::Serialize;

/// The flags that set settings. A flag for one more setting is one field
/// here and one entry (option, key, value) in [`SettingFlags::settings`].
#[derive(Debug, Clone, Default, PartialEq, Args)]
pub struct SettingFlags {
    /// The secret that seals the state of multi round-trip requests (server.request_state_key).
    ///
    /// 32 bytes or more, the same on every instance that may answer
    /// another's retry; without it, a key is drawn at boot and the state
    /// does not survive a restart. Read from MCP_REQUEST_STATE_KEY when the
    /// option is not given; never printed.
    #[arg(
        long,
        value_name = "KEY",
        env = "MCP_REQUEST_STATE_KEY",
        hide_env_values = true,
        value_parser = secret
    )]
    pub request_state_key: Option<Secret>,

    /// Where tasks are kept (tasks.store).
    ///
    /// memory keeps them in this process (the default); sqlite keeps them
    /// in the file of --task-store-path, so they outlive a restart.
    #[arg(long, value_name = "STORE", value_enum)]
    pub task_store: Option<TaskStore>,

    /// The SQLite file of --task-store sqlite (tasks.sqlite_path; default mcp-tasks.db).
    #[arg(long, value_name = "FILE")]
    pub task_store_path: Option<String>,

    /// Sets any setting by its dotted key, such as tasks.ttl_ms=60000.
    ///
    /// VALUE is read as the environment's values are: as JSON when it parses
    /// as JSON (60000, true, ["a","b"]), as a string otherwise. Repeat for
    /// more settings; a later --set wins over an earlier one and over the
    /// flags above. A key that no linked crate reads fails boot.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = key_value)]
    pub set: Vec<Setting>,
}

/// The task stores `--task-store` names: the values of `tasks.store`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStore {
    /// In this process.
    Memory,
    /// In a SQLite file.
    Sqlite,
}

/// One setting: the option that set it, its dotted key and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    /// The option, as boot diagnostics name it: `--task-store`, or
    /// `--set tasks.ttl_ms` (never with the value, which may be a secret).
    pub option: String,
    /// The dotted key, such as `tasks.store`.
    pub key: String,
    /// The value.
    pub value: JsonValue,
}

impl Setting {
    /// The setting `key` with `value`, set by `option`.
    pub fn new(option: impl Into<String>, key: impl Into<String>, value: JsonValue) -> Self {
        Self {
            option: option.into(),
            key: key.into(),
            value,
        }
    }
}

impl SettingFlags {
    /// Every setting these flags set, in the order they apply: the named
    /// flags, then each `--set` as given (a later setting of one key wins).
    pub fn settings(&self) -> Vec<Setting> {
        let secret = self.request_state_key.as_ref().map(Secret::expose);
        [
            one("--request-state-key", "server.request_state_key", secret),
            one("--task-store", "tasks.store", self.task_store),
            one(
                "--task-store-path",
                "tasks.sqlite_path",
                self.task_store_path.as_ref(),
            ),
        ]
        .into_iter()
        .flatten()
        .chain(self.set.iter().cloned())
        .collect()
    }
}

/// The setting `key`, when its `option` was given.
fn one(option: &str, key: &str, value: Option<impl Serialize>) -> Option<Setting> {
    let value = serde_json::to_value(value?).ok()?;
    Some(Setting::new(option, key, value))
}

/// `builder` with `settings` set as a command line's: above the
/// environment's `MCP_<SECTION>__<KEY>` variables in precedence, and named
/// by their option in boot diagnostics.
pub fn apply(builder: Builder, settings: &[Setting]) -> Builder {
    settings.iter().fold(builder, |builder, s| {
        builder.command_line_setting(&s.option, &s.key, &s.value)
    })
}

/// Reads `KEY=VALUE` (the value of `--set`).
fn key_value(arg: &str) -> Result<Setting, String> {
    let (key, value) = arg
        .split_once('=')
        .ok_or("give KEY=VALUE, such as tasks.ttl_ms=60000")?;
    if key.is_empty() || key.split('.').any(str::is_empty) {
        return Err(format!("`{key}` is not a dotted key, such as tasks.ttl_ms"));
    }
    Ok(Setting::new(
        format!("--set {key}"),
        key,
        value_of_text(value),
    ))
}

/// Reads the value of `--request-state-key`.
fn secret(arg: &str) -> Result<Secret, std::convert::Infallible> {
    Ok(Secret::new(arg))
}
