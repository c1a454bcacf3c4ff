//! Supplies acme-notes' `NoteStore` by hand, with `register!` and a
//! `Registration::supply`: linking it with acme-notes-disk fails boot,
//! naming both. It is an extension of its own, `dev.acme/notes-cloud`,
//! which requires acme-notes' (`dev.acme/notes`).
//!
//! Activate it with `use acme_notes_cloud as _;`.

use std::sync::Arc;

use acme_notes::{MemoryNoteStore, NoteStore};
use mcp_server::prelude::extension::*;

/// The identifier acme-notes-cloud declares.
pub const ID: &str = "dev.acme/notes-cloud";

/// acme-notes-cloud's declaration: it needs acme-notes.
pub fn declaration() -> Extension {
    Extension::new(ID, env!("CARGO_PKG_VERSION"))
        .requires(Requirement::extension(acme_notes::extension::ID))
}

fn declare(_: &BootContext) -> Item {
    Item::extension(declaration())
}

/// The cloud store, as its registration supplies it.
pub fn store() -> Item {
    let store: Arc<dyn NoteStore> = Arc::new(MemoryNoteStore::new(10));
    Item::supply::<dyn NoteStore>(store)
}

fn cloud(_: &BootContext) -> Item {
    store()
}

mcp_server::register!(Registration::extension(
    origin!(),
    "acme-notes-cloud",
    declare
));
mcp_server::register!(Registration::supply(origin!(), "CloudNoteStore", cloud));
