//! Tools written as `#[tool]` methods of a `#[tools]` block are called on
//! one shared instance of their type, built with `Default` at boot.

use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_server::core::content::ContentBlock;
use mcp_server::handler::tool::Structured;
use mcp_server::testing::MemoryClient;
use mcp_server::{RequestContext, Server, tools};
use serde_json::json;

/// A counter whose tools all see the same count.
#[derive(Default)]
struct Counter {
    count: AtomicUsize,
}

#[tools]
impl Counter {
    /// Adds to the count and says the new count.
    #[tool(name = "counter.add", idempotent = false)]
    async fn add(&self, #[arg(description = "How much to add")] by: usize) -> String {
        let now = self.count.fetch_add(by, Ordering::SeqCst) + by;
        now.to_string()
    }

    /// Reads the count.
    #[tool(name = "counter.read", read_only)]
    async fn read(&self, ctx: RequestContext) -> Structured<Count> {
        let _ = ctx.method();
        Structured(Count {
            count: self.count.load(Ordering::SeqCst),
        })
    }

    /// An ordinary method, left as it is.
    fn twice(&self) -> usize {
        2 * self.count.load(Ordering::SeqCst)
    }
}

/// The count.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Count {
    /// How many so far.
    count: usize,
}

fn server() -> Server {
    Server::builder().build()
}

#[tokio::test]
async fn the_methods_are_listed_with_their_doc_comments() {
    let tools = MemoryClient::new(&server()).list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["counter.add", "counter.read"]);
    assert_eq!(
        tools[0].description.as_deref(),
        Some("Adds to the count and says the new count.")
    );
    assert_eq!(
        tools[0].input_schema["properties"]["by"]["description"],
        "How much to add"
    );
    assert_eq!(tools[0].input_schema["required"], json!(["by"]));
    assert_eq!(
        tools[0].annotations.as_ref().unwrap().idempotent_hint,
        Some(false)
    );
    assert_eq!(tools[1].description.as_deref(), Some("Reads the count."));
    assert_eq!(
        tools[1].annotations.as_ref().unwrap().read_only_hint,
        Some(true)
    );
    assert_eq!(
        tools[1].output_schema.as_ref().unwrap()["properties"]["count"]["type"],
        "integer"
    );
}

#[tokio::test]
async fn both_methods_see_the_same_instance_across_calls() {
    let client = MemoryClient::new(&server());
    let added = |by: usize| {
        let client = &client;
        async move {
            client
                .call_tool("counter.add", json!({ "by": by }))
                .await
                .unwrap()
                .content[0]
                .clone()
        }
    };
    assert_eq!(added(2).await, ContentBlock::text("2"));
    assert_eq!(added(3).await, ContentBlock::text("5"));
    let read = client.call_tool("counter.read", json!({})).await.unwrap();
    assert_eq!(read.structured_content, Some(json!({ "count": 5 })));
    assert_eq!(added(1).await, ContentBlock::text("6"));
    let read = client.call_tool("counter.read", json!({})).await.unwrap();
    assert_eq!(read.structured_content, Some(json!({ "count": 6 })));
}

#[tokio::test]
async fn wrong_arguments_to_a_method_are_an_error_result() {
    let client = MemoryClient::new(&server());
    let result = client
        .call_tool("counter.add", json!({ "by": "two" }))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
}

#[test]
fn the_block_is_left_as_it_is_and_carries_its_origin() {
    assert_eq!(Counter::default().twice(), 0);
    let server = server();
    let members: Vec<_> = server
        .report()
        .members
        .iter()
        .filter(|m| m.kind == "tool")
        .collect();
    assert_eq!(members.len(), 2);
    for member in members {
        assert_eq!(member.origin.crate_name, "mcp-macros");
        assert!(
            member
                .origin
                .file
                .ends_with("tool_methods_share_one_instance_of_their_type.rs")
        );
        assert!(member.origin.line > 0);
    }
}
