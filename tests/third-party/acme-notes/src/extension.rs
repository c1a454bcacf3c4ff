//! acme-notes declared as an extension: its identifier, its version, the
//! capability entry 2026-07-28 clients see, and what it needs (tools, which
//! it contributes itself).

use mcp_server::prelude::extension::*;

/// The identifier acme-notes declares.
pub const ID: &str = "dev.acme/notes";

/// acme-notes' declaration, as its crate registers it.
pub fn declaration() -> Extension {
    let mut settings = serde_json::Map::new();
    settings.insert(
        "count".into(),
        <crate::CountNotes as mcp_server::Method>::NAME.into(),
    );
    Extension::new(ID, env!("CARGO_PKG_VERSION"))
        .advertises(settings)
        .requires(Requirement::capability("tools"))
}

fn declare(_: &BootContext) -> Item {
    Item::extension(declaration())
}

mcp_server::register!(Registration::extension(origin!(), "acme-notes", declare));
