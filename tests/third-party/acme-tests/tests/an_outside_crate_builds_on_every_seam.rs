//! What an outside crate builds with the public API of mcp-server only:
//! a section of the configuration, a registration kind, a typed method with
//! a typed interceptor, attributes that attach to a `#[tool]` by its
//! resolved name and register through public macros, a validator, and the
//! boot context that carries all of it to contributors and interceptors.

use acme_notes::{Calls, Shortcut, Shortcuts, Ticketed};
use mcp_server::boot::BootError;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::core::version::Era;
use mcp_server::prelude::extension::*;
use mcp_server::testing::MemoryClient;
use mcp_server::tool;
use serde_json::json;

use acme_notes as _;

/// Adds two numbers, later: a ticket now, the sum when the ticket runs.
#[acme_macros::deferred]
#[tool(name = "math.slow_sum")]
async fn slow_sum(a: i64, b: i64) -> String {
    (a + b).to_string()
}

#[acme_macros::shortcut("bye")]
const BYE: &str = "Goodbye from the tests";

fn builder() -> mcp_server::server::Builder {
    Server::builder().without_environment()
}

#[tokio::test]
async fn a_contributor_gets_the_winner_its_section_and_the_members_of_a_kind() {
    let server = builder().setting("notes.banner", "* ").build();
    let client = MemoryClient::new(&server);
    client
        .call_tool("note.add", json!({"text": "milk"}))
        .await
        .unwrap();
    let listed = client.call_tool("note.list", json!({})).await.unwrap();
    assert_eq!(
        listed.content[0].as_text(),
        Some("* milk\nbye: Goodbye from the tests\nhello: Hello from acme-notes")
    );
    let members: Vec<&str> = server
        .members::<Shortcuts>()
        .iter()
        .map(|s| s.key)
        .collect();
    assert_eq!(members, ["bye", "hello"]);
}

#[test]
fn a_setting_no_section_reads_fails_boot_naming_it_and_where_it_was_set() {
    let errors = builder()
        .setting("notes.colour", "red")
        .environment([("MCP_NOTE__BANNER", "> ")])
        .try_build()
        .unwrap_err();
    let text = errors.to_string();
    assert!(
        text.contains("error[mcp::unknown_setting]: setting `notes.colour` is not known\n  = note: set on the builder at"),
        "{text}"
    );
    assert!(
        text.contains(
            "error[mcp::unknown_setting]: setting `note` is not known\n  = note: set by environment variable `MCP_NOTE__BANNER`\n  = help: remove it, or link the crate whose section reads it (did you mean `notes`?)"
        ),
        "{text}"
    );
    assert_eq!(errors.errors().len(), 2, "{text}");
}

#[test]
fn an_invalid_setting_fails_boot_naming_the_key() {
    let errors = builder()
        .environment([("MCP_NOTES__CAPACITY", "lots")])
        .try_build()
        .unwrap_err();
    let [BootError::InvalidSetting { key, .. }] = errors.errors() else {
        panic!("{errors}");
    };
    assert_eq!(key, "notes.capacity");
    assert!(
        errors
            .to_string()
            .contains("= note: set by environment variable `MCP_NOTES__CAPACITY`")
    );
}

#[tokio::test]
async fn a_method_declared_with_a_derive_goes_through_its_typed_interceptor() {
    let server = builder().build();
    let client = MemoryClient::new(&server).with_credentials(mcp_server::auth::Credentials::none());
    client
        .call_tool("note.add", json!({"text": "a"}))
        .await
        .unwrap();
    let first = client
        .request_raw("acme/notes.count", json!({"owner": "anonymous"}))
        .await
        .unwrap();
    let second = client
        .request_raw("acme/notes.count", json!({"owner": "anonymous"}))
        .await
        .unwrap();
    assert_eq!((&first["count"], &first["calls"]), (&json!(1), &json!(0)));
    assert_eq!(second["calls"], 1);
    // The interceptor counts in state shared from boot, found at run time too.
    let calls = server.shared::<Calls>().unwrap();
    assert_eq!(calls.0.load(std::sync::atomic::Ordering::SeqCst), 2);
    assert_eq!(
        server.target_member("acme/notes.count", Era::Modern),
        Some("owner")
    );
    let bad = client
        .request_raw("acme/notes.count", json!({"owner": ""}))
        .await
        .unwrap_err();
    assert_eq!(bad.code.0, -32602);
}

#[tokio::test]
async fn an_attribute_next_to_a_tool_attaches_by_the_tool_s_resolved_name() {
    let server = builder().build();
    assert_eq!(mcp_server::tool_name!(slow_sum), "math.slow_sum");
    let tool = server
        .tools()
        .into_iter()
        .find(|t| t.name == "math.slow_sum")
        .unwrap();
    assert_eq!(tool.meta.as_ref().unwrap()[acme_notes::DEFERRED], true);
    let ticket = MemoryClient::new(&server)
        .request_raw(
            "tools/call",
            json!({"name": "math.slow_sum", "arguments": {"a": 2, "b": 3}}),
        )
        .await
        .unwrap();
    assert_eq!(ticket["resultType"], "acme.ticket");
    let waiting = server.shared::<Ticketed>().unwrap().take();
    let settled = waiting.into_iter().next().unwrap().run().await.unwrap();
    assert_eq!(settled.to_json()["content"][0]["text"], "5");
    assert!(
        server
            .report()
            .members
            .iter()
            .any(|m| m.name == "customizer of tool `slow_sum`"
                && m.kind == "call-tool customizer of `math.slow_sum`")
    );
}

#[test]
fn two_members_of_a_kind_with_one_key_fail_boot_naming_both() {
    let errors = builder()
        .register(
            origin!(),
            "another-hello",
            0,
            Item::member::<Shortcuts>(Shortcut {
                key: "hello",
                text: "Hi",
            }),
        )
        .try_build()
        .unwrap_err();
    let [
        BootError::DuplicateMember {
            key, first, second, ..
        },
    ] = errors.errors()
    else {
        panic!("{errors}");
    };
    assert_eq!(key, "hello");
    let mut crates = [first.crate_name, second.crate_name];
    crates.sort();
    assert_eq!(crates, ["acme-notes", "acme-tests"]);
    assert!(
        errors
            .to_string()
            .starts_with("error[acme::duplicate_shortcut]: shortcut `hello` is registered twice")
    );
}

#[test]
fn a_validator_fails_boot_with_a_diagnostic_of_its_own() {
    let errors = builder()
        .contributor(
            origin!(),
            "bare",
            contributor_fn(|c| {
                c.tool(
                    Tool {
                        name: "note.bare".into(),
                        ..Default::default()
                    },
                    handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("")) }),
                );
            }),
        )
        .try_build()
        .unwrap_err();
    assert_eq!(
        errors.to_string(),
        "error[acme::undocumented_note_tool]: note tool `note.bare` has no description\n  \
         = note: every `note.*` tool is listed to people, who need to know what it does\n  \
         = help: add a doc comment to the tool, or `description = \"...\"`\n\n\
         error: boot failed because of the previous error"
    );
}

#[test]
fn a_customizer_for_a_tool_that_does_not_exist_names_the_closest() {
    let errors = builder()
        .register(
            origin!(),
            "typo",
            0,
            Item::customizer_for::<Tool>("note.ad", acme_notes::Deferred),
        )
        .try_build()
        .unwrap_err();
    let text = errors.to_string();
    assert!(
        text.starts_with("error[mcp::unknown_customizer_target]: customizer `typo` customizes tool `note.ad`, which nothing contributes"),
        "{text}"
    );
    assert!(text.contains("did you mean `note.add`?"), "{text}");
}

#[test]
fn the_boot_report_lists_what_the_extension_declared() {
    let server = builder().build();
    let report = server.report().to_string();
    for line in [
        "`NoteStore` seam `NoteStore`",
        "configuration section `notes` `notes-section`",
        "shortcut `hello` `hello` order 0",
        "validator `Documented`",
        "typed interceptor for `acme/notes.count` `CountCalls`",
        "alternate-result interceptor `Tickets`",
        "acme/notes.count [legacy, modern]",
    ] {
        assert!(report.contains(line), "`{line}` is not in\n{report}");
    }
}

#[test]
fn an_environment_value_is_text_where_its_section_wants_text() {
    let server = builder()
        .environment([
            ("MCP_SERVER__INSTRUCTIONS", "42"),
            ("MCP_NOTES__CAPACITY", "7"),
        ])
        .build();
    assert_eq!(server.instructions(), Some("42"));
}

/// A second section under the key `notes`.
#[derive(Debug, Default, serde::Deserialize)]
struct OtherNotes {
    #[allow(dead_code)]
    colour: Option<String>,
}

impl mcp_server::config::Section for OtherNotes {
    const KEY: &'static str = "notes";
}

#[test]
fn two_sections_under_one_key_fail_boot() {
    let errors = builder()
        .section::<OtherNotes>(origin!())
        .try_build()
        .unwrap_err();
    assert!(
        errors.to_string().starts_with(
            "error[mcp::duplicate_section]: two configuration sections are read under `notes`"
        ),
        "{errors}"
    );
}

/// Another crate's seam that happens to share acme-notes' seam name.
trait Lookalike: Send + Sync + 'static {
    fn which(&self) -> &'static str;
}

struct Mine;
impl Lookalike for Mine {
    fn which(&self) -> &'static str {
        "mine"
    }
}

impl OneActive for dyn Lookalike {
    const NAME: &'static str = "NoteStore";
    const WORD: SeamWord = SeamWord::Store;
    fn fallback(_: &BootContext) -> (&'static str, std::sync::Arc<Self>) {
        ("Mine", std::sync::Arc::new(Mine))
    }
}

#[test]
fn seams_are_told_apart_by_type_not_by_name() {
    let server = builder().declare::<dyn Lookalike>(origin!()).build();
    assert_eq!(server.active::<dyn Lookalike>().unwrap().which(), "mine");
    assert_eq!(
        server.active::<dyn acme_notes::NoteStore>().unwrap().kind(),
        "memory"
    );
}
