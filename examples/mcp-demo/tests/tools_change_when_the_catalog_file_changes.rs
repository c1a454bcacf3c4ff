//! The demo's file catalog: the tools of `catalog.file` are served from
//! boot, reloaded when the file changes (listeners hear of it), refused
//! whole when the file breaks; and the administrator's alias tool adds a
//! tool at runtime that only an administrator could add.

use std::sync::Arc;
use std::time::Duration;

use mcp_demo::catalog::FILE_CATALOG;
use mcp_server::Server;
use mcp_server::auth::{Credentials, Principal};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::testing::MemoryClient;
use serde_json::json;

const GREET: &str = r#"{"tools": [{
  "name": "welcome",
  "description": "Greets someone",
  "inputSchema": {"type": "object", "properties": {"who": {"type": "string"}}, "required": ["who"]},
  "answer": "Hello, {who}!"
}]}"#;

const GREET_AND_PART: &str = r#"{"tools": [
  {"name": "welcome", "inputSchema": {"type": "object"}, "answer": "Hi, {who}."},
  {"name": "part", "answer": "Goodbye."}
]}"#;

/// `Authorization: Bearer root` is the administrator of the catalog.
struct Root;

impl PrincipalSource for Root {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        Arc::new(match credentials.bearer() {
            Some("root") => Principal::named("root").with_scope("catalog:admin"),
            _ => Principal::anonymous(),
        })
    }
}

fn server(file: &std::path::Path) -> Server {
    mcp_demo::builder()
        .setting("catalog.file", json!(file))
        .setting("catalog.poll_ms", json!(20))
        .supply::<dyn PrincipalSource>(mcp_server::origin!(), "root", Arc::new(Root))
        .build()
}

fn text(result: &mcp_server::core::tools::CallToolResult) -> String {
    serde_json::to_value(&result.content[0]).unwrap()["text"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn has_tool(client: &MemoryClient, name: &str) -> bool {
    client
        .list_tools()
        .await
        .unwrap()
        .iter()
        .any(|t| t.name == name)
}

#[tokio::test]
async fn the_file_tools_are_served_and_a_changed_file_is_reloaded_and_announced() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tools.json");
    std::fs::write(&file, GREET).unwrap();
    let server = server(&file);
    let client = MemoryClient::new(&server);
    assert!(has_tool(&client, "welcome").await);
    let greeted = client
        .call_tool("welcome", json!({"who": "Ada"}))
        .await
        .unwrap();
    assert_eq!(text(&greeted), "Hello, Ada!");
    let refused = client.call_tool("welcome", json!({})).await.unwrap();
    assert_eq!(
        refused.is_error,
        Some(true),
        "the file's schema requires `who`"
    );

    let mut listening = client.listen(json!({"toolsListChanged": true}));
    listening.next().await.expect("the acknowledgement");
    std::fs::write(&file, GREET_AND_PART).unwrap();
    let heard = listening
        .next_within(Duration::from_secs(10))
        .await
        .expect("the reload is announced");
    assert_eq!(heard.method, "notifications/tools/list_changed");
    assert!(has_tool(&client, "part").await);
    let greeted = client
        .call_tool("welcome", json!({"who": "Bo"}))
        .await
        .unwrap();
    assert_eq!(text(&greeted), "Hi, Bo.");

    // A broken file is refused whole; what was served stays.
    std::fs::write(&file, r#"{"tools": [{"name": "x"}]}"#).unwrap();
    let refused = server
        .catalog()
        .reload(FILE_CATALOG)
        .unwrap_err()
        .to_string();
    assert!(
        refused.starts_with("error[mcp_demo::catalog_file]"),
        "{refused}"
    );
    assert!(has_tool(&client, "part").await);
}

#[test]
fn a_catalog_file_that_cannot_be_read_fails_boot() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    let errors = mcp_demo::builder()
        .setting("catalog.file", json!(missing))
        .try_build()
        .unwrap_err()
        .to_string();
    assert!(
        errors.starts_with("error[mcp_demo::catalog_file]: the catalog file"),
        "{errors}"
    );
    assert!(errors.contains("cannot be read"), "{errors}");
}

#[tokio::test]
async fn only_an_administrator_sees_and_calls_the_alias_tool_and_the_alias_serves_everyone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tools.json");
    std::fs::write(&file, GREET).unwrap();
    let server = server(&file);
    let anonymous = MemoryClient::new(&server);
    let root = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("root"));
    assert!(!has_tool(&anonymous, "catalog_add_alias").await);
    assert!(has_tool(&root, "catalog_add_alias").await);
    let denied = anonymous
        .call_tool(
            "catalog_add_alias",
            json!({"alias": "hello", "of": "welcome"}),
        )
        .await
        .unwrap_err();
    let unknown = anonymous
        .call_tool("no_such_tool", json!({}))
        .await
        .unwrap_err();
    assert_eq!(denied.code, unknown.code);

    let mut listening = anonymous.listen(json!({"toolsListChanged": true}));
    listening.next().await.expect("the acknowledgement");
    let added = root
        .call_tool(
            "catalog_add_alias",
            json!({"alias": "hello", "of": "welcome"}),
        )
        .await
        .unwrap();
    assert!(
        text(&added).starts_with("`hello` now answers as `welcome`"),
        "{}",
        text(&added)
    );
    assert!(
        listening
            .next_within(Duration::from_secs(5))
            .await
            .is_some()
    );
    let aliased = anonymous
        .call_tool("hello", json!({"who": "Cy"}))
        .await
        .unwrap();
    assert_eq!(text(&aliased), "Hello, Cy!");
    let again = root
        .call_tool(
            "catalog_add_alias",
            json!({"alias": "hello", "of": "welcome"}),
        )
        .await
        .unwrap();
    assert!(
        text(&again).contains("error[mcp::duplicate_tool]"),
        "{}",
        text(&again)
    );
}
