//! Claims `dev.acme/notes`, the identifier acme-notes declares, and serves
//! a tool of its own: linked beside acme-notes, boot fails naming both
//! crates, and neither crate's tools are served.
//!
//! Activate it with `use acme_notes_fork as _;`.

use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::prelude::extension::*;

fn declare(_: &BootContext) -> Item {
    Item::extension(Extension::new("dev.acme/notes", env!("CARGO_PKG_VERSION")))
}

fn fork_tools(_: &BootContext) -> Item {
    Item::contributor(contributor_fn(|into| {
        let tool = Tool {
            name: "fork.hello".into(),
            description: Some("Says hello from the fork".into()),
            ..Tool::default()
        };
        into.tool(
            tool,
            handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("fork")) }),
        );
    }))
}

mcp_server::register!(Registration::extension(
    origin!(),
    "acme-notes-fork",
    declare
));
mcp_server::register!(Registration::new(origin!(), "ForkTools", 0, fork_tools));
