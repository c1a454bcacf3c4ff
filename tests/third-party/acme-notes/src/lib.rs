//! acme-notes: notes kept per caller, as a stranger would write an
//! extension of `mcp-server`: with its public API only (nothing hidden),
//! activated by linking (`use acme_notes as _;`).
//!
//! What it declares, each on a public seam:
//!
//! - the extension `dev.acme/notes` ([`extension`]), which everything
//!   below belongs to;
//! - [`NoteStore`], a store seam of its own with a default
//!   ([`MemoryNoteStore`]) that other crates may override;
//! - [`NotesSection`], its section of the configuration (`notes.*`);
//! - [`Shortcuts`], a registration kind with many members;
//! - [`CountNotes`] (`acme/notes.count`), a typed method, with a typed
//!   interceptor that counts its calls;
//! - [`Tickets`], an alternate result that wraps `tools/call` for tools
//!   marked [`Deferred`];
//! - [`Documented`], a validator failing boot for an undocumented note tool;
//! - the tools `note.add`, `note.list`, `note.purge` (admins only), the
//!   prompt `note.digest` (admins only) with completions, and the resources
//!   `notes-admin://all` (admins only) and `notes://{owner}`.

mod admin;
mod config;
pub mod extension;
mod method;
mod shortcuts;
mod store;
mod tickets;
mod tools;
mod validate;

pub use admin::AdminOnly;
pub use config::NotesSection;
pub use method::{Calls, CountCalls, CountNotes, CountParams, CountResult};
pub use shortcuts::{Shortcut, Shortcuts};
pub use store::{MemoryNoteStore, NoteStore};
pub use tickets::{DEFERRED, Deferred, Ticketed, Tickets};
pub use tools::{NoteTools, Purges};
pub use validate::Documented;
