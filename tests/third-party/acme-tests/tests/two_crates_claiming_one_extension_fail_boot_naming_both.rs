//! acme-notes-fork claims `dev.acme/notes`, acme-notes' identifier: linked
//! together, boot fails naming both crates, so no server exists to serve
//! either crate's tools.

use mcp_server::Server;
use mcp_server::boot::BootError;

use acme_notes as _;
use acme_notes_fork as _;

#[test]
fn boot_fails_naming_both_crates_and_serves_nothing() {
    let built = Server::builder().without_environment().try_build();
    let Err(errors) = built else {
        panic!("a server with two claims on one extension was built");
    };
    let [
        BootError::DuplicateMember {
            kind,
            key,
            first,
            second,
            ..
        },
    ] = errors.errors()
    else {
        panic!("{errors}");
    };
    assert_eq!((*kind, key.as_str()), ("extension", "dev.acme/notes"));
    let mut crates = [first.crate_name, second.crate_name];
    crates.sort();
    assert_eq!(crates, ["acme-notes", "acme-notes-fork"]);
    let text = errors.to_string();
    assert!(
        text.starts_with(
            "error[mcp::duplicate_extension]: extension `dev.acme/notes` is registered twice"
        ),
        "{text}"
    );
    assert!(
        text.contains("acme-notes 0.2.0") && text.contains("acme-notes-fork 0.1.0"),
        "{text}"
    );
}
