//! Supplies acme-notes' `NoteStore` by hand, with `register!` and a
//! `Registration::supply`: linking it with acme-notes-disk fails boot,
//! naming both.
//!
//! Activate it with `use acme_notes_cloud as _;`.

use std::sync::Arc;

use acme_notes::{MemoryNoteStore, NoteStore};
use mcp_server::prelude::extension::*;

fn cloud(_: &BootContext) -> Item {
    let store: Arc<dyn NoteStore> = Arc::new(MemoryNoteStore::new(10));
    Item::supply::<dyn NoteStore>(store)
}

mcp_server::register!(Registration::supply(origin!(), "CloudNoteStore", cloud));
