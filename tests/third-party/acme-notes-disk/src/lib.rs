//! Supplies acme-notes' `NoteStore` with `#[store]`, the attribute the
//! framework's own stores use: linking this crate overrides the default.
//!
//! Activate it with `use acme_notes_disk as _;`.

use acme_notes::{MemoryNoteStore, NoteStore};
use mcp_server::store;

/// A store that says it is on disk (it keeps notes in memory: what matters
/// here is which store wins).
#[derive(Debug)]
pub struct DiskNoteStore(MemoryNoteStore);

impl Default for DiskNoteStore {
    fn default() -> Self {
        Self(MemoryNoteStore::new(1000))
    }
}

#[store(name = "DiskNoteStore")]
impl NoteStore for DiskNoteStore {
    fn add(&self, owner: &str, text: &str) -> usize {
        self.0.add(owner, text)
    }
    fn list(&self, owner: &str) -> Vec<String> {
        self.0.list(owner)
    }
    fn owners(&self) -> Vec<String> {
        self.0.owners()
    }
    fn purge(&self) {
        self.0.purge();
    }
    fn kind(&self) -> &'static str {
        "disk"
    }
}
