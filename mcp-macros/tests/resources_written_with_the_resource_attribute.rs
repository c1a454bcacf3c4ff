//! Resources written with `#[resource]` register at link time, are listed
//! with their URI and read as text, bytes or whole contents.

use mcp_server::core::resources::{ReadResourceResult, ResourceContents};
use mcp_server::testing::MemoryClient;
use mcp_server::{RequestContext, Server, resource};
use serde_json::json;

/// The project's readme.
#[resource(
    uri = "file:///README.md",
    name = "readme",
    mime_type = "text/markdown"
)]
async fn readme() -> String {
    "# Hello".into()
}

/// A tiny image.
#[resource(uri = "file:///pixel.png", title = "Pixel", mime_type = "image/png")]
async fn pixel(ctx: RequestContext) -> Vec<u8> {
    let _ = ctx.method();
    vec![0x89, b'P', b'N', b'G']
}

#[resource(uri = "memo://two", description = "Two parts")]
async fn two() -> Vec<ResourceContents> {
    vec![
        ResourceContents::text("memo://two#1", "one"),
        ResourceContents::text("memo://two#2", "two"),
    ]
}

#[resource(uri = "memo://whole")]
async fn whole() -> ReadResourceResult {
    ReadResourceResult {
        contents: vec![ResourceContents::text("memo://whole", "all of it")],
        ..Default::default()
    }
}

/// Fails to read.
#[resource(uri = "memo://broken")]
async fn broken() -> Result<String, String> {
    Err("the disk is on fire".into())
}

fn server() -> Server {
    Server::builder().named("resources", "1.0.0").build()
}

#[tokio::test]
async fn every_resource_is_listed_with_its_descriptor() {
    let client = MemoryClient::new(&server());
    let listed = client
        .request_raw("resources/list", json!({}))
        .await
        .unwrap();
    let resources = listed["resources"].as_array().unwrap();
    let readme = resources
        .iter()
        .find(|r| r["uri"] == "file:///README.md")
        .unwrap();
    assert_eq!(readme["name"], "readme");
    assert_eq!(readme["mimeType"], "text/markdown");
    assert_eq!(readme["description"], "The project's readme.");
    let pixel = resources
        .iter()
        .find(|r| r["uri"] == "file:///pixel.png")
        .unwrap();
    assert_eq!(pixel["name"], "pixel");
    assert_eq!(pixel["title"], "Pixel");
    let two = resources.iter().find(|r| r["uri"] == "memo://two").unwrap();
    assert_eq!(two["description"], "Two parts");
    assert_eq!(resources.len(), 5);
}

#[tokio::test]
async fn text_is_read_at_the_uri_with_the_mime_type() {
    let client = MemoryClient::new(&server());
    let read = client
        .request_raw("resources/read", json!({"uri": "file:///README.md"}))
        .await
        .unwrap();
    assert_eq!(
        read["contents"],
        json!([{"uri": "file:///README.md", "mimeType": "text/markdown", "text": "# Hello"}])
    );
}

#[tokio::test]
async fn bytes_are_a_base64_blob() {
    let client = MemoryClient::new(&server());
    let read = client
        .request_raw("resources/read", json!({"uri": "file:///pixel.png"}))
        .await
        .unwrap();
    assert_eq!(
        read["contents"],
        json!([{"uri": "file:///pixel.png", "mimeType": "image/png", "blob": "iVBORw=="}])
    );
}

#[tokio::test]
async fn contents_and_whole_results_are_sent_as_they_are() {
    let client = MemoryClient::new(&server());
    let two = client
        .request_raw("resources/read", json!({"uri": "memo://two"}))
        .await
        .unwrap();
    assert_eq!(
        two["contents"][1],
        json!({"uri": "memo://two#2", "text": "two"})
    );
    let whole = client
        .request_raw("resources/read", json!({"uri": "memo://whole"}))
        .await
        .unwrap();
    assert_eq!(whole["contents"][0]["text"], "all of it");
}

#[tokio::test]
async fn an_error_returned_by_the_resource_is_a_json_rpc_error() {
    let client = MemoryClient::new(&server());
    let error = client
        .request_raw("resources/read", json!({"uri": "memo://broken"}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32603);
    assert_eq!(error.message, "the disk is on fire");
}
