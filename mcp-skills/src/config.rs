//! The `skills` section of the server's configuration.

use mcp_server::config::Section;
use serde::Deserialize;

/// `skills.*`: `MCP_SKILLS__DIR=./skills`, `MCP_SKILLS__POLL_MS=500`, and so on.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkillsSection {
    /// A directory of skills on disk, served and reloaded when it changes;
    /// none when empty.
    pub dir: String,
    /// How often the directory is looked at for changes, in milliseconds.
    pub poll_ms: u64,
    /// How long a 2026-07-28 client may keep an answer, in milliseconds.
    pub ttl_ms: u64,
    /// The most skills (or directory entries) in one page.
    pub page_size: usize,
    /// Whether `resources/directory/read` is served (and `directoryRead` declared).
    pub directory_read: bool,
}

impl Default for SkillsSection {
    fn default() -> Self {
        Self {
            dir: String::new(),
            poll_ms: 1000,
            ttl_ms: 300_000,
            page_size: 100,
            directory_read: true,
        }
    }
}

impl Section for SkillsSection {
    const KEY: &'static str = "skills";
}
