//! The `NoteStore` seam: where notes are kept. One is active; the default
//! keeps them in memory, up to `notes.capacity` per owner.

use std::sync::{Arc, Mutex};

use mcp_server::prelude::extension::*;

use crate::config::NotesSection;

/// Where notes are kept.
pub trait NoteStore: Send + Sync + 'static {
    /// Adds a note for `owner`; its number among the owner's notes.
    fn add(&self, owner: &str, text: &str) -> usize;
    /// The notes of `owner`, oldest first.
    fn list(&self, owner: &str) -> Vec<String>;
    /// Every owner with notes.
    fn owners(&self) -> Vec<String>;
    /// Forgets every note.
    fn purge(&self);
    /// The store's name, for the tests.
    fn kind(&self) -> &'static str;
}

impl OneActive for dyn NoteStore {
    const NAME: &'static str = "NoteStore";
    const WORD: SeamWord = SeamWord::Store;
    fn fallback(boot: &BootContext) -> (&'static str, Arc<Self>) {
        let section: NotesSection = boot.section();
        (
            "MemoryNoteStore",
            Arc::new(MemoryNoteStore::new(section.capacity.unwrap_or(100))),
        )
    }
}

fn declare(_: &BootContext) -> Item {
    Item::seam::<dyn NoteStore>()
}

mcp_server::register!(Registration::supply(origin!(), "NoteStore", declare));

/// The default store: in memory, at most `capacity` notes per owner.
#[derive(Debug)]
pub struct MemoryNoteStore {
    capacity: usize,
    notes: Mutex<Vec<(String, String)>>,
}

impl MemoryNoteStore {
    /// A store of at most `capacity` notes per owner.
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity,
            notes: Mutex::new(Vec::new()),
        }
    }

    fn notes(&self) -> std::sync::MutexGuard<'_, Vec<(String, String)>> {
        self.notes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl NoteStore for MemoryNoteStore {
    fn add(&self, owner: &str, text: &str) -> usize {
        let mut notes = self.notes();
        let mine = notes.iter().filter(|(o, _)| o == owner).count();
        if mine < self.capacity {
            notes.push((owner.to_owned(), text.to_owned()));
        }
        mine.min(self.capacity)
    }

    fn list(&self, owner: &str) -> Vec<String> {
        self.notes()
            .iter()
            .filter(|(o, _)| o == owner)
            .map(|(_, t)| t.clone())
            .collect()
    }

    fn owners(&self) -> Vec<String> {
        let mut owners: Vec<String> = self.notes().iter().map(|(o, _)| o.clone()).collect();
        owners.sort();
        owners.dedup();
        owners
    }

    fn purge(&self) {
        self.notes().clear();
    }

    fn kind(&self) -> &'static str {
        "memory"
    }
}
