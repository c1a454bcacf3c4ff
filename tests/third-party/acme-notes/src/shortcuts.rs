//! A registration kind of acme-notes' own: shortcuts, text any crate may
//! register under a key, listed by `note.list`.

use mcp_server::prelude::extension::*;

/// A named piece of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shortcut {
    /// The key, unique among all shortcuts.
    pub key: &'static str,
    /// The text.
    pub text: &'static str,
}

/// The kind: shortcuts collide on their key.
#[derive(Debug)]
pub struct Shortcuts;

impl Kind for Shortcuts {
    type Member = Shortcut;
    const NAME: &'static str = "shortcut";
    const CODE: &'static str = "acme::duplicate_shortcut";
    const WORD: SeamWord = SeamWord::Contributor;
    const HELP: &'static str = "give one shortcut another key, or remove one crate from the build";
    fn key(member: &Shortcut) -> String {
        member.key.to_owned()
    }
}

fn hello(_: &BootContext) -> Item {
    Item::member::<Shortcuts>(Shortcut {
        key: "hello",
        text: "Hello from acme-notes",
    })
}

mcp_server::register!(Registration::new(origin!(), "hello", 0, hello));
