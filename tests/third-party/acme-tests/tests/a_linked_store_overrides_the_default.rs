//! Linking a crate that supplies acme-notes' store with `#[store]`
//! overrides the default: one line, `use acme_notes_disk as _;`.

use acme_notes::NoteStore;
use mcp_server::Server;
use mcp_server::testing::MemoryClient;

use acme_notes_disk as _;

#[tokio::test]
async fn the_supplied_store_wins_and_every_request_finds_it() {
    let server = Server::builder().without_environment().build();
    assert_eq!(server.active::<dyn NoteStore>().unwrap().kind(), "disk");
    let selection = server
        .report()
        .selections
        .iter()
        .find(|s| s.seam == "NoteStore")
        .unwrap();
    assert_eq!(
        (
            selection.winner.as_str(),
            selection.reason,
            selection.origin.crate_name
        ),
        (
            "DiskNoteStore",
            "the only one registered",
            "acme-notes-disk"
        )
    );
    let added = MemoryClient::new(&server)
        .call_tool("note.add", serde_json::json!({"text": "hi"}))
        .await
        .unwrap();
    assert_eq!(added.content[0].as_text(), Some("note 0 kept in disk"));
}
