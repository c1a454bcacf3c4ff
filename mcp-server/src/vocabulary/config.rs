//! Configuration: one tree of settings that the builder, the environment and
//! (through the builder) a command line feed, read by every crate as typed
//! sections.
//!
//! A section is a `Deserialize + Default` type with a key; the framework's
//! own is [`ServerSection`] under `server`. Settings come, lowest precedence
//! first, from [`Builder::setting`](crate::server::Builder::setting), then from
//! environment variables named `MCP_<SECTION>__<KEY>` (the prefix is
//! [`Builder::env_prefix`](crate::server::Builder::env_prefix); nested keys join
//! with `__`; a value that parses as JSON is taken as JSON, anything else as
//! a string: [`value_of_text`]), then from a command line
//! ([`Builder::command_line_setting`](crate::server::Builder::command_line_setting)).
//! Boot fails, naming the key and where it was set, when a setting belongs
//! to no section, or when a section does not accept it.
//!
//! ```
//! use mcp_server::config::Section;
//!
//! #[derive(Debug, Default, serde::Deserialize)]
//! struct Store { path: Option<String>, cache_mb: u32 }
//! impl Section for Store { const KEY: &'static str = "store"; }
//!
//! let server = mcp_server::Server::builder()
//!     .without_linked()
//!     .without_environment()
//!     .section::<Store>(mcp_server::origin!())
//!     .setting("store.cache_mb", 64)
//!     .build();
//! assert_eq!(server.report().to_string().matches("store").count() > 0, true);
//!
//! let error = mcp_server::Server::builder()
//!     .without_linked()
//!     .without_environment()
//!     .section::<Store>(mcp_server::origin!())
//!     .setting("store.cache_mb", "lots")
//!     .try_build()
//!     .unwrap_err();
//! assert!(error.to_string().contains("error[mcp::invalid_setting]: setting `store.cache_mb`"));
//! ```

use std::any::TypeId;
use std::collections::BTreeSet;
use std::fmt;

use mcp_core::json::{JsonObject, JsonValue};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::vocabulary::BootError;
use crate::vocabulary::Origin;
use crate::vocabulary::sorted_map::SortedMap;

/// A typed section of the configuration, under one top-level key.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a configuration section",
    note = "implement `mcp_server::config::Section` (a `const KEY`) on a `Deserialize + Default` type"
)]
pub trait Section: DeserializeOwned + Default + Send + Sync + 'static {
    /// The top-level key, such as `tasks`.
    const KEY: &'static str;
}

/// The framework's own settings, under `server`.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct ServerSection {
    /// Items per page of `tools/list` and the other lists.
    pub page_size: usize,
    /// How long clients may cache lists (`ttlMs`), in milliseconds.
    pub list_ttl_ms: u64,
    /// How long clients may cache `server/discover`, in milliseconds.
    pub discover_ttl_ms: u64,
    /// Instructions for the model.
    pub instructions: Option<String>,
    /// The secret the request state of multi round-trip requests is sealed
    /// with (32 bytes or more; the same on every instance).
    pub request_state_key: Option<Secret>,
    /// Earlier secrets, whose state still opens while it has not expired.
    pub request_state_previous_keys: Vec<Secret>,
    /// How long a sealed request state stays valid, in seconds.
    pub request_state_ttl_s: u64,
    /// The most `subscriptions/listen` streams held at once.
    pub max_listeners: usize,
    /// Notifications queued for one listener before it is closed as too slow.
    pub listener_queue: usize,
    /// How long a drain may last once shutdown begins, in seconds: work in
    /// flight finishes within it, and what still runs after it is cut.
    pub drain_timeout_s: u64,
}

/// A secret setting: read like a string, never printed.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// A secret with this value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The value.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<secret>")
    }
}

impl Default for ServerSection {
    fn default() -> Self {
        Self {
            page_size: 100,
            list_ttl_ms: 0,
            discover_ttl_ms: 3_600_000,
            instructions: None,
            request_state_key: None,
            request_state_previous_keys: Vec::new(),
            request_state_ttl_s: 900,
            max_listeners: 10_000,
            listener_queue: 64,
            drain_timeout_s: 30,
        }
    }
}

impl Section for ServerSection {
    const KEY: &'static str = "server";
}

/// The value of a setting written as text, as environment variables are
/// read: JSON when it parses as JSON, a string otherwise.
///
/// ```
/// use mcp_server::config::value_of_text;
/// use serde_json::json;
///
/// assert_eq!(value_of_text("64"), json!(64));
/// assert_eq!(value_of_text("[\"a\", \"b\"]"), json!(["a", "b"]));
/// assert_eq!(value_of_text("https://example.com"), json!("https://example.com"));
/// ```
pub fn value_of_text(text: &str) -> JsonValue {
    serde_json::from_str(text).unwrap_or_else(|_| JsonValue::String(text.to_owned()))
}

/// Where a setting came from, for diagnostics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingSource {
    /// `Builder::setting`, with where it was called.
    Builder(Origin),
    /// An environment variable, by name.
    Environment(String),
    /// A command line, by the option that set it (`--task-store`,
    /// `--set tasks.ttl_ms`; never its value, which may be a secret).
    CommandLine(String),
}

impl fmt::Display for SettingSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingSource::Builder(origin) => {
                write!(f, "set on the builder at {}:{}", origin.file, origin.line)
            }
            SettingSource::Environment(name) => write!(f, "set by environment variable `{name}`"),
            SettingSource::CommandLine(option) => {
                write!(f, "set on the command line by `{option}`")
            }
        }
    }
}

/// What checking a section's subtree finds: the paths of unknown keys, or
/// the path and message of the first invalid value.
type Checked = Result<Vec<String>, (String, String)>;

/// Decodes section `T` from its subtree: the section and the paths of the
/// keys it does not know, or the path and message of the first invalid
/// value. The one decoder of a section, which checking, fitting and
/// reading share, so that each section's decoding is compiled once.
fn decode<T: Section>(value: &JsonValue) -> Result<(T, Vec<String>), (String, String)> {
    let mut unknown = Vec::new();
    let mut track = |path: serde_ignored::Path<'_>| unknown.push(path.to_string());
    let deserializer = serde_ignored::Deserializer::new(value, &mut track);
    let parsed: Result<T, _> = serde_path_to_error::deserialize(deserializer);
    match parsed {
        Ok(section) => Ok((section, unknown)),
        Err(e) => Err((e.path().to_string(), e.inner().to_string())),
    }
}

/// A section someone declared or read, with its type erased.
#[derive(Clone, Copy)]
pub(crate) struct SectionInfo {
    pub(crate) key: &'static str,
    pub(crate) id: TypeId,
    /// The section's subtree, environment values fitted to its types.
    pub(crate) fitted: fn(&Settings) -> JsonValue,
    /// Checks the section's subtree.
    pub(crate) check: fn(&JsonValue) -> Checked,
}

impl SectionInfo {
    pub(crate) fn of<T: Section>() -> Self {
        fn check<T: Section>(value: &JsonValue) -> Checked {
            decode::<T>(value).map(|(_, unknown)| unknown)
        }
        Self {
            key: T::KEY,
            id: TypeId::of::<T>(),
            fitted: Settings::fitted::<T>,
            check: check::<T>,
        }
    }
}

/// The settings tree with where each leaf came from.
#[derive(Debug, Default, Clone)]
pub(crate) struct Settings {
    tree: JsonObject,
    sources: SortedMap<String, SettingSource>,
    /// Environment values as written, by key: read as JSON first, as text
    /// when their section wants text.
    texts: SortedMap<String, String>,
}

impl Settings {
    /// Sets `key` (dotted) to `value`, replacing what was there.
    pub(crate) fn set(&mut self, key: &str, value: JsonValue, source: SettingSource) {
        let key = key
            .split('.')
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(".");
        let mut parts = key.split('.').filter(|p| !p.is_empty()).peekable();
        let mut node = &mut self.tree;
        while let Some(part) = parts.next() {
            if parts.peek().is_none() {
                node.insert(part.to_owned(), value);
                break;
            }
            let child = node
                .entry(part.to_owned())
                .or_insert_with(|| JsonValue::Object(JsonObject::new()));
            if !child.is_object() {
                *child = JsonValue::Object(JsonObject::new());
            }
            node = child.as_object_mut().expect("an object, made just above");
        }
        // What was set below `key` is replaced with it.
        let below = format!("{key}.");
        self.texts
            .retain(|k, _| *k != key && !k.starts_with(&below));
        self.sources.retain(|k, _| !k.starts_with(&below));
        self.sources.insert(key, source);
    }

    /// Reads environment variables `<prefix><SECTION>__<KEY>`.
    pub(crate) fn read_environment(
        &mut self,
        prefix: &str,
        variables: impl IntoIterator<Item = (String, String)>,
    ) {
        let mut found: Vec<(String, String)> = variables
            .into_iter()
            .filter(|(name, _)| {
                name.strip_prefix(prefix)
                    .is_some_and(|rest| rest.contains("__"))
            })
            .collect();
        crate::vocabulary::sort::sort_by(&mut found, Ord::cmp);
        for (name, value) in found {
            let key = name[prefix.len()..]
                .split("__")
                .map(str::to_ascii_lowercase)
                .collect::<Vec<_>>()
                .join(".");
            self.set(
                &key,
                value_of_text(&value),
                SettingSource::Environment(name),
            );
            self.texts.insert(key, value);
        }
    }

    /// The subtree of section `key`, with the environment value at `path`
    /// (relative to the section) read as text instead; `None` when no
    /// environment value was set there.
    fn as_text(&self, key: &str, subtree: &JsonValue, path: &str) -> Option<JsonValue> {
        let full = format!("{key}.{path}");
        let text = self.texts.get(&full)?;
        let mut subtree = subtree.clone();
        let mut node = &mut subtree;
        for part in path.split('.') {
            node = node.as_object_mut()?.get_mut(part)?;
        }
        *node = JsonValue::String(text.clone());
        Some(subtree)
    }

    /// The subtree of section `T`, with environment values read as text
    /// wherever the section wants text rather than what they parse as.
    fn fitted<T: Section>(&self) -> JsonValue {
        let mut subtree = self.subtree(T::KEY);
        for _ in 0..self.texts.len() {
            let Err((path, _)) = decode::<T>(&subtree) else {
                break;
            };
            match self.as_text(T::KEY, &subtree, &path) {
                Some(retried) if retried != subtree => subtree = retried,
                _ => break,
            }
        }
        subtree
    }

    /// The subtree of section `key` (`{}` when nothing is set).
    pub(crate) fn subtree(&self, key: &str) -> JsonValue {
        self.tree
            .get(key)
            .cloned()
            .unwrap_or_else(|| JsonValue::Object(JsonObject::new()))
    }

    /// Where the setting at `path` (or the nearest setting above or below it) came from.
    pub(crate) fn source_of(&self, path: &str) -> Option<&SettingSource> {
        let mut at = path;
        loop {
            if let Some(source) = self.sources.get(at) {
                return Some(source);
            }
            match at.rfind('.') {
                Some(dot) => at = &at[..dot],
                None => break,
            }
        }
        let below = format!("{path}.");
        self.sources
            .iter()
            .find(|(k, _)| k.starts_with(&below))
            .map(|(_, s)| s)
    }

    /// Whether the setting at `path` (`redis.url`) holds a value.
    pub(crate) fn is_set(&self, path: &str) -> bool {
        let mut segments = path.split('.');
        let Some(mut value) = segments.next().and_then(|key| self.tree.get(key)) else {
            return false;
        };
        for segment in segments {
            match value.get(segment) {
                Some(inner) => value = inner,
                None => return false,
            }
        }
        !value.is_null()
    }

    /// The top-level keys that are set.
    pub(crate) fn top_keys(&self) -> impl Iterator<Item = &str> {
        self.tree.keys().map(String::as_str)
    }

    /// Reads section `T`; the default when its subtree does not deserialize
    /// (boot reports that on its own).
    pub(crate) fn read<T: Section>(&self) -> T {
        decode::<T>(&self.fitted::<T>()).map_or_else(|_| T::default(), |(section, _)| section)
    }

    /// Checks every section against its subtree and every top-level key
    /// against the sections: every problem, as boot errors.
    pub(crate) fn check(&self, sections: &[SectionInfo]) -> Vec<BootError> {
        let mut errors = Vec::new();
        let known: BTreeSet<&str> = sections.iter().map(|s| s.key).collect();
        for key in self.top_keys() {
            if !known.contains(key) {
                errors.push(self.unknown(key.to_owned(), &known));
            }
        }
        let mut checked = BTreeSet::new();
        let mut owners: SortedMap<&str, TypeId> = SortedMap::new();
        for section in sections {
            if !checked.insert(section.id) {
                continue;
            }
            if let Some(first) = owners.insert(section.key, section.id)
                && first != section.id
            {
                errors.push(BootError::Extension(
                    crate::vocabulary::Diagnostic::new(
                        "mcp::duplicate_section",
                        format!(
                            "two configuration sections are read under `{}`",
                            section.key
                        ),
                    )
                    .note("each would report the other's settings as unknown")
                    .help("give one section another key"),
                ));
                continue;
            }
            match (section.check)(&(section.fitted)(self)) {
                Ok(unknown) => {
                    for path in unknown {
                        errors.push(self.unknown(format!("{}.{path}", section.key), &known));
                    }
                }
                Err((path, message)) => {
                    let key = if path == "." || path.is_empty() {
                        section.key.to_owned()
                    } else {
                        format!("{}.{path}", section.key)
                    };
                    errors.push(BootError::InvalidSetting {
                        source: self.source_of(&key).cloned(),
                        key,
                        message,
                    });
                }
            }
        }
        errors
    }

    fn unknown(&self, key: String, known: &BTreeSet<&str>) -> BootError {
        let top = key.split('.').next().unwrap_or_default();
        let closest = if key.contains('.') {
            None
        } else {
            crate::vocabulary::closest(top, known.iter().copied())
        };
        BootError::UnknownSetting {
            source: self.source_of(&key).cloned(),
            key,
            closest,
        }
    }
}
