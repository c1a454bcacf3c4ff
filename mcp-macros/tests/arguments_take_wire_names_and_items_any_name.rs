//! `#[arg(name = "...")]` gives an argument its wire name, and an item may
//! bear any name, even one the expansion uses inside.

use mcp_server::core::content::ContentBlock;
use mcp_server::testing::MemoryClient;
use mcp_server::{Server, prompt, resource_template, tool};
use serde_json::json;

/// Greets someone by their display name.
#[tool]
async fn handler(
    #[arg(name = "displayName", description = "Who to greet")] display_name: String,
) -> String {
    format!("hello {display_name}")
}

/// Also a tool named like the expansion's locals.
#[tool]
async fn contributions() -> String {
    "contributed".into()
}

/// Embeds a resource by its URI.
#[prompt]
async fn prompt(
    #[arg(name = "resourceUri", description = "What to embed")] resource_uri: String,
) -> String {
    format!("embed {resource_uri}")
}

/// One item by id.
#[resource_template(uri_template = "items://{id}", name = "item")]
async fn template(id: String) -> String {
    format!("item {id}")
}

fn server() -> Server {
    Server::builder().named("names", "1.0.0").build()
}

#[tokio::test]
async fn a_renamed_tool_argument_is_listed_and_read_under_its_wire_name() {
    let client = MemoryClient::new(&server());
    let listed = client.request_raw("tools/list", json!({})).await.unwrap();
    let handler = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "handler")
        .unwrap();
    let schema = &handler["inputSchema"];
    assert_eq!(
        schema["properties"]["displayName"]["description"],
        "Who to greet"
    );
    assert_eq!(schema["required"], json!(["displayName"]));
    assert!(
        schema.get("title").is_none(),
        "no internal struct name on the wire: {schema}"
    );
    let result = client
        .call_tool("handler", json!({"displayName": "Ada"}))
        .await
        .unwrap();
    assert_eq!(result.content, [ContentBlock::text("hello Ada")]);
}

#[tokio::test]
async fn a_renamed_prompt_argument_is_listed_and_read_under_its_wire_name() {
    let client = MemoryClient::new(&server());
    let listed = client.request_raw("prompts/list", json!({})).await.unwrap();
    assert_eq!(listed["prompts"][0]["arguments"][0]["name"], "resourceUri");
    let got = client
        .request_raw(
            "prompts/get",
            json!({"name": "prompt", "arguments": {"resourceUri": "test://x"}}),
        )
        .await
        .unwrap();
    assert_eq!(got["messages"][0]["content"]["text"], "embed test://x");
}

#[tokio::test]
async fn items_named_like_the_expansion_locals_still_answer() {
    let client = MemoryClient::new(&server());
    let result = client.call_tool("contributions", json!({})).await.unwrap();
    assert_eq!(result.content, [ContentBlock::text("contributed")]);
    let read = client
        .request_raw("resources/read", json!({"uri": "items://7"}))
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["text"], "item 7");
}
