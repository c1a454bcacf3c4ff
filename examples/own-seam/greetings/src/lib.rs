//! An extension crate with a seam of its own: the `greet` tool asks the
//! active [`Phrasebook`] how to greet. The crate declares the seam and
//! supplies a default (English); an application that links the crate may
//! supply another, which then wins, and boot fails naming both if two
//! crates supply one. Linking the crate activates it: `use greetings as _;`.
//!
//! The application beside it, `examples/own-seam/app`, supplies French.

use std::sync::Arc;

use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::prelude::extension::*;

/// How to greet someone: the seam this crate declares.
pub trait Phrasebook: Send + Sync + 'static {
    /// The greeting of `name`.
    fn greeting(&self, name: &str) -> String;
}

impl OneActive for dyn Phrasebook {
    const NAME: &'static str = "Phrasebook";
    const WORD: SeamWord = SeamWord::Source;
    fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
        ("English", Arc::new(English))
    }
}

/// The default phrasebook.
#[derive(Debug)]
pub struct English;

impl Phrasebook for English {
    fn greeting(&self, name: &str) -> String {
        format!("Hello, {name}!")
    }
}

fn declare(_: &BootContext) -> Item {
    Item::seam::<dyn Phrasebook>()
}

fn tool(boot: &BootContext) -> Item {
    let phrasebook = boot
        .active::<dyn Phrasebook>()
        .expect("this crate declares the seam, with a default");
    Item::contributor(contributor_fn(move |into| {
        let mut greet = Tool {
            name: "greet".into(),
            description: Some("Greets someone in the server's language".into()),
            ..Tool::default()
        };
        greet.input_schema = serde_json::from_value(serde_json::json!({
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
        }))
        .expect("a JSON object");
        let phrasebook = phrasebook.clone();
        into.tool(
            greet,
            handler_fn::<CallTool, _, _, _>(move |_, params| {
                let phrasebook = phrasebook.clone();
                async move {
                    let arguments = params.arguments.unwrap_or_default();
                    let name = arguments
                        .get("name")
                        .and_then(|n| n.as_str())
                        .unwrap_or("you");
                    Ok(CallToolResult::text(phrasebook.greeting(name)))
                }
            }),
        );
    }))
}

mcp_server::register!(Registration::supply(origin!(), "Phrasebook", declare));
mcp_server::register!(Registration::new(origin!(), "greet", 0, tool));
