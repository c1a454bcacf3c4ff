//! Extensions as declared units, from a stranger's crates: acme-notes
//! declares `dev.acme/notes`, acme-notes-cloud declares
//! `dev.acme/notes-cloud`, which requires it. Boot lists both with their
//! members before anything is served, refuses the second without the first
//! whatever the order of registration, and advertises what each declares.

use mcp_server::Server;
use mcp_server::boot::BootError;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::core::version::Era;
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::{Item, Origin};
use serde_json::json;

use acme_notes_cloud as _;

fn origin(line: u32) -> Origin {
    Origin {
        line,
        ..mcp_server::origin!()
    }
}

/// A builder with nothing linked but a tool, which acme-notes requires.
fn bare() -> mcp_server::server::Builder {
    Server::builder()
        .without_linked()
        .without_environment()
        .register(
            origin(1),
            "a-tool",
            0,
            Item::contributor(contributor_fn(|into| {
                into.tool(
                    Tool {
                        name: "echo".into(),
                        ..Tool::default()
                    },
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        Ok(CallToolResult::text("echo"))
                    }),
                );
            })),
        )
}

#[test]
fn linked_extensions_are_listed_with_their_members_before_anything_is_served() {
    let server = Server::builder().without_environment().build();
    let ids: Vec<&str> = server.extensions().iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["dev.acme/notes", "dev.acme/notes-cloud"]);
    let [notes, cloud] = server.extensions() else {
        unreachable!()
    };
    assert_eq!(
        (notes.version.as_str(), notes.origin.crate_name),
        ("0.2.0", "acme-notes")
    );
    assert_eq!(notes.requires, ["the `tools` capability"]);
    assert!(
        notes.members.iter().any(|m| m.ends_with("`NoteTools`")),
        "{:?}",
        notes.members
    );
    assert_eq!(cloud.requires, ["extension `dev.acme/notes`"]);
    assert_eq!(cloud.members, ["`NoteStore` member `CloudNoteStore`"]);
    assert!(server.has_extension("dev.acme/notes-cloud"));
    assert!(server.has_extension("acme-notes-cloud"));
    let report = server.report().to_string();
    assert!(
        report.contains("\ndeclared extensions (2)\n  dev.acme/notes 0.2.0 (advertised to modern) — acme-notes 0.2.0"),
        "{report}"
    );
    assert!(
        report.contains(
            "    requires extension `dev.acme/notes`\n    `NoteStore` member `CloudNoteStore`"
        ),
        "{report}"
    );
}

#[test]
fn a_declared_extension_is_advertised_to_the_clients_it_names_only() {
    let server = Server::builder().without_environment().build();
    let modern = server
        .capabilities_in(Era::Modern)
        .extensions
        .clone()
        .unwrap();
    assert_eq!(
        modern["dev.acme/notes"],
        *json!({"count": "acme/notes.count"}).as_object().unwrap()
    );
    assert!(!modern.contains_key("dev.acme/notes-cloud"), "{modern:?}");
    let legacy = server
        .capabilities_in(Era::Legacy)
        .extensions
        .clone()
        .unwrap_or_default();
    assert!(!legacy.contains_key("dev.acme/notes"), "{legacy:?}");
}

#[test]
fn an_extension_without_what_it_requires_fails_boot_naming_both() {
    let errors = bare()
        .extension(origin(2), acme_notes_cloud::declaration())
        .try_build()
        .unwrap_err();
    let [
        BootError::UnmetRequirement {
            extension,
            requirement,
            origin: declared,
        },
    ] = errors.errors()
    else {
        panic!("{errors}");
    };
    assert_eq!(
        (extension.as_str(), requirement.as_str(), declared.line),
        ("dev.acme/notes-cloud", "extension `dev.acme/notes`", 2)
    );
    assert!(
        errors.to_string().starts_with(
            "error[mcp::unmet_extension_requirement]: extension `dev.acme/notes-cloud` requires extension `dev.acme/notes`, which this server lacks"
        ),
        "{errors}"
    );
}

#[test]
fn the_requirement_is_met_whatever_the_order_of_registration() {
    // The cloud extension sorts before acme-notes, then after it.
    for (cloud, notes) in [(-1, 1), (1, -1)] {
        let server = bare()
            .register(
                origin(3),
                "cloud",
                cloud,
                Item::extension(acme_notes_cloud::declaration()),
            )
            .register(
                origin(4),
                "notes",
                notes,
                Item::extension(acme_notes::extension::declaration()),
            )
            .try_build()
            .unwrap_or_else(|e| panic!("orders {cloud} and {notes}: {e}"));
        assert!(server.has_extension("dev.acme/notes-cloud"));
        assert!(server.has_extension("dev.acme/notes"));
    }
}

#[test]
fn a_core_capability_the_server_lacks_fails_boot_naming_it() {
    let errors = Server::builder()
        .without_linked()
        .without_environment()
        .extension(origin(5), acme_notes::extension::declaration())
        .try_build()
        .unwrap_err();
    assert!(
        errors.to_string().starts_with(
            "error[mcp::unmet_extension_requirement]: extension `dev.acme/notes` requires the `tools` capability, which this server lacks"
        ),
        "{errors}"
    );
}

/// A tool contributed only where extension `dev.acme/notes` is declared,
/// decided by setup code at boot.
fn notes_aware() -> Item {
    Item::contributor(contributor_fn(|into| {
        if into.boot().has_extension("dev.acme/notes") && into.boot().has_extension("acme-notes") {
            into.tool(
                Tool {
                    name: "notes_aware".into(),
                    ..Tool::default()
                },
                handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("aware")) }),
            );
        }
    }))
}

#[test]
fn setup_code_tells_which_extensions_are_declared_while_boot_runs() {
    let linked = Server::builder()
        .without_environment()
        .register(origin(40), "notes-aware", 0, notes_aware())
        .build();
    assert!(linked.tools().iter().any(|t| t.name == "notes_aware"));
    let bare = bare()
        .register(origin(41), "notes-aware", 0, notes_aware())
        .build();
    assert!(!bare.tools().iter().any(|t| t.name == "notes_aware"));
}
