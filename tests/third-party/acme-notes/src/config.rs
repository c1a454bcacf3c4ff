//! The `notes` section of the configuration.

use mcp_server::config::Section;
use mcp_server::prelude::extension::*;
use serde::Deserialize;

/// `notes.capacity` (notes per owner in the default store) and
/// `notes.banner` (prefixed to every listed note).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct NotesSection {
    /// Notes per owner in the default store (default 100).
    pub capacity: Option<usize>,
    /// Prefixed to every listed note.
    pub banner: Option<String>,
}

impl Section for NotesSection {
    const KEY: &'static str = "notes";
}

fn declare(_: &BootContext) -> Item {
    Item::section::<NotesSection>()
}

mcp_server::register!(Registration::new(origin!(), "notes-section", 0, declare));
