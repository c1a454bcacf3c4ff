//! What a request is aimed at: a tool, a prompt, a resource, a template, a
//! completion or a contributed method, as guards and interceptors see it.
//!
//! ```
//! use mcp_server::seam::{Target, TargetKind};
//!
//! let target = Target::new(TargetKind::Tool, "echo", mcp_server::origin!());
//! assert_eq!(target.to_string(), "tool `echo`");
//! ```

use std::fmt;

use mcp_core::meta::Meta;
use serde::Serialize;

use crate::vocabulary::Origin;

/// The kind of thing a handler serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TargetKind {
    /// A tool (`tools/call`).
    Tool,
    /// A prompt (`prompts/get`).
    Prompt,
    /// A resource with a fixed URI (`resources/read`).
    Resource,
    /// A family of resources under a URI template (`resources/read`).
    ResourceTemplate,
    /// Completions for a prompt argument or template variable (`completion/complete`).
    Completion,
    /// A JSON-RPC method, built in or contributed.
    Method,
}

impl TargetKind {
    /// The word used in messages: `tool`, `prompt`, …
    pub fn word(self) -> &'static str {
        match self {
            TargetKind::Tool => "tool",
            TargetKind::Prompt => "prompt",
            TargetKind::Resource => "resource",
            TargetKind::ResourceTemplate => "resource template",
            TargetKind::Completion => "completion",
            TargetKind::Method => "method",
        }
    }
}

/// One handler's identity: its kind, its name (tool or prompt name, URI,
/// URI template or method name), its descriptor's `_meta` and its origin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Target {
    /// The kind.
    pub kind: TargetKind,
    /// The identifying name.
    pub name: String,
    /// The `_meta` of the descriptor, as customizers left it.
    pub meta: Option<Meta>,
    /// Where the handler was registered.
    pub origin: Origin,
}

impl Target {
    /// A target without `_meta`.
    pub fn new(kind: TargetKind, name: impl Into<String>, origin: Origin) -> Self {
        Self {
            kind,
            name: name.into(),
            meta: None,
            origin,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} `{}`", self.kind.word(), self.name)
    }
}
