//! Two crates supplying acme-notes' store: boot fails, naming both, as it
//! does for the framework's own seams.

use mcp_server::Server;
use mcp_server::boot::BootError;

use acme_notes_cloud as _;
use acme_notes_disk as _;

#[test]
fn boot_fails_naming_both_suppliers() {
    let errors = Server::builder()
        .without_environment()
        .try_build()
        .unwrap_err();
    let [
        BootError::DuplicateStrategy {
            seam,
            first,
            second,
        },
    ] = errors.errors()
    else {
        panic!("{errors}");
    };
    assert_eq!(*seam, "NoteStore");
    let mut crates = [first.1.crate_name, second.1.crate_name];
    crates.sort();
    assert_eq!(crates, ["acme-notes-cloud", "acme-notes-disk"]);
    let text = errors.to_string();
    assert!(
        text.starts_with("error[mcp::duplicate_strategy]: two `NoteStore`s are registered, and exactly one may be active"),
        "{text}"
    );
    assert!(
        text.contains("`CloudNoteStore` from acme-notes-cloud 0.1.0"),
        "{text}"
    );
    assert!(
        text.contains("`DiskNoteStore` from acme-notes-disk 0.1.0"),
        "{text}"
    );
}
