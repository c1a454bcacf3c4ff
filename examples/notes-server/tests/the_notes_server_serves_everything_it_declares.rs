//! The example server, linked and booted, serves every item it declares.

use mcp_server::Server;
use mcp_server::auth::Credentials;
use mcp_server::core::content::ContentBlock;
use mcp_server::testing::MemoryClient;
use notes_server as _;
use serde_json::json;

fn server() -> Server {
    Server::builder()
        .named("notes", "0.1.0")
        .expect_linked("notes-server")
        .build()
}

#[tokio::test]
async fn tools_are_listed_branded_and_called() {
    let client = MemoryClient::new(&server());
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "add_note",
            "clock.read",
            "clock.tick",
            "find_note",
            "summarize",
            "version.0"
        ],
        "the admin tool is hidden from anonymous callers"
    );
    assert_eq!(
        tools[3].description.as_deref(),
        Some("[notes] Finds a note by its title.")
    );
    let found = client
        .call_tool("find_note", json!({"title": "todo"}))
        .await
        .unwrap();
    assert_eq!(found.content[0], ContentBlock::text("write tests"));
    let summary = client.call_tool("summarize", json!({})).await.unwrap();
    assert_eq!(summary.structured_content.unwrap()["count"], 3);
    assert!(notes_server::CALLS.load(std::sync::atomic::Ordering::Relaxed) >= 2);
}

#[tokio::test]
async fn the_admin_tool_is_unknown_to_anonymous_callers() {
    let error = MemoryClient::new(&server())
        .call_tool("admin.purge", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32602);
    assert_eq!(error.message, "Unknown tool: admin.purge");
}

#[tokio::test]
async fn prompts_resources_templates_and_completions_answer() {
    let client = MemoryClient::new(&server());
    let prompt = client
        .request_raw(
            "prompts/get",
            json!({"name": "review", "arguments": {"title": "ideas"}}),
        )
        .await
        .unwrap();
    assert!(
        prompt["messages"][0]["content"]["text"]
            .as_str()
            .unwrap()
            .contains("`ideas`")
    );
    let all = client
        .request_raw("resources/read", json!({"uri": "notes://all"}))
        .await
        .unwrap();
    assert!(
        all["contents"][0]["text"]
            .as_str()
            .unwrap()
            .contains("groceries: milk, eggs")
    );
    let one = client
        .request_raw("resources/read", json!({"uri": "notes://by-title/ideas"}))
        .await
        .unwrap();
    assert_eq!(one["contents"][0]["text"], "a notes server");
    let completed = client
        .request_raw(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "review"}, "argument": {"name": "title", "value": "gr"}}),
        )
        .await
        .unwrap();
    assert_eq!(completed["completion"]["values"], json!(["groceries"]));
}

#[tokio::test]
async fn the_custom_method_answers_through_the_same_pipeline() {
    let client = MemoryClient::new(&server());
    let counted = client
        .request_raw("notes/count", json!({"prefix": "g"}))
        .await
        .unwrap();
    assert_eq!(counted["count"], 1);
}

#[tokio::test]
async fn an_administrator_sees_and_uses_the_admin_tool() {
    let admin = MemoryClient::new(&server()).with_credentials(Credentials::bearer_token("admin"));
    assert!(
        admin
            .list_tools()
            .await
            .unwrap()
            .iter()
            .any(|t| t.name == "admin.purge")
    );
    let purged = admin.call_tool("admin.purge", json!({})).await.unwrap();
    assert_eq!(purged.content[0], ContentBlock::text("purged by admin"));
}

#[tokio::test]
async fn tool_methods_share_one_clock_and_the_contributed_tool_answers() {
    let client = MemoryClient::new(&server());
    client.call_tool("clock.tick", json!({})).await.unwrap();
    let ticked = client.call_tool("clock.tick", json!({})).await.unwrap();
    let read = client.call_tool("clock.read", json!({})).await.unwrap();
    assert_eq!(
        read.content, ticked.content,
        "both methods see the same instance"
    );
    let version = client.call_tool("version.0", json!({})).await.unwrap();
    assert_eq!(version.content[0], ContentBlock::text("0.1.0"));
}

#[tokio::test]
async fn changes_reach_the_registered_sink_and_state_is_sealed_with_the_registered_key() {
    let server = server();
    MemoryClient::new(&server)
        .call_tool("add_note", json!({"title": "books"}))
        .await
        .unwrap();
    let changes = notes_server::CHANGES.lock().unwrap().clone();
    assert!(
        changes.contains(&mcp_server::seam::sink::Change::resource_updated(
            "notes://by-title/books"
        ))
    );
    assert_eq!(
        server.key_strategy().sealing_key().id(),
        "notes-example",
        "the example's key seals"
    );
    let winners: Vec<&str> = server
        .report()
        .selections
        .iter()
        .map(|s| s.winner.as_str())
        .collect();
    assert!(
        winners.contains(&"FixedKey")
            && winners.contains(&"ChangeLog")
            && winners.contains(&"DemoTokens"),
        "{winners:?}"
    );
}
