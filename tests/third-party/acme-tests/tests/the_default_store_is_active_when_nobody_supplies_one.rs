//! With acme-notes linked and no store of its seam supplied, its default
//! is active: found by a typed lookup from the server and from requests,
//! and named in the boot report with the reason.

use acme_notes::NoteStore;
use mcp_server::Server;
use mcp_server::testing::MemoryClient;

use acme_notes as _;

#[tokio::test]
async fn the_default_wins_and_says_why() {
    let server = Server::builder().without_environment().build();
    assert_eq!(server.active::<dyn NoteStore>().unwrap().kind(), "memory");
    let selection = server
        .report()
        .selections
        .iter()
        .find(|s| s.seam == "NoteStore")
        .unwrap();
    assert_eq!(
        (selection.winner.as_str(), selection.reason),
        ("MemoryNoteStore", "default: none was registered")
    );
    assert_eq!(selection.origin.crate_name, "acme-notes");
    assert!(server.report().to_string().contains(
        "Store NoteStore: `MemoryNoteStore` — default: none was registered (acme-notes 0.2.0"
    ));
    // The handler found the same store through its boot context.
    let added = MemoryClient::new(&server)
        .call_tool("note.add", serde_json::json!({"text": "hi"}))
        .await
        .unwrap();
    assert_eq!(added.content[0].as_text(), Some("note 0 kept in memory"));
}

#[tokio::test]
async fn the_default_reads_its_section_of_the_configuration() {
    let server = Server::builder()
        .environment([("MCP_NOTES__CAPACITY", "1")])
        .build();
    let client = MemoryClient::new(&server);
    for text in ["one", "two"] {
        client
            .call_tool("note.add", serde_json::json!({"text": text}))
            .await
            .unwrap();
    }
    let listed = client
        .call_tool("note.list", serde_json::json!({}))
        .await
        .unwrap();
    assert!(listed.content[0].as_text().unwrap().starts_with("one\n"));
    assert!(!listed.content[0].as_text().unwrap().contains("two"));
}
