//! A boot check of acme-notes' own: every `note.*` tool has a description.

use mcp_server::prelude::extension::*;

/// Fails boot for a `note.*` tool without a description.
#[derive(Debug, Default)]
pub struct Documented;

impl Validator for Documented {
    fn validate(&self, server: &Server, _: &BootContext) -> Vec<Diagnostic> {
        server
            .tools()
            .iter()
            .filter(|t| t.name.starts_with("note.") && t.description.is_none())
            .map(|t| {
                Diagnostic::new(
                    "acme::undocumented_note_tool",
                    format!("note tool `{}` has no description", t.name),
                )
                .note("every `note.*` tool is listed to people, who need to know what it does")
                .help("add a doc comment to the tool, or `description = \"...\"`")
            })
            .collect()
    }
}

fn documented(_: &BootContext) -> Item {
    Item::validator(Documented)
}

mcp_server::register!(Registration::new(origin!(), "Documented", 0, documented));
