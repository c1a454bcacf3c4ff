//! Two instances on one real Redis, each with the same catalog contributor
//! over one shared source: a reload on one instance reaches the other,
//! whose catalog converges and whose listeners hear of it; a change applied
//! directly on one instance stays there; the notice between instances
//! reaches no client.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_server::boot::Diagnostic;
use mcp_server::catalog::CatalogChange;
use mcp_server::core::json::JsonObject;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::catalog::CatalogContributor;
use mcp_server::testing::MemoryClient;
use mcp_server::{Server, origin, tool};
use mcp_tests::redis::RedisServer;
use serde_json::json;

use mcp_redis as _;

/// Echoes its text: a tool of boot, so that the server serves tools.
#[tool]
async fn echo(text: String) -> String {
    text
}

/// What both instances read: the names of the tools to serve (a file on a
/// shared volume, or a table, in a deployment).
type Source = Arc<Mutex<Vec<&'static str>>>;

struct Shared(Source);

fn tool_named(name: &str) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    Tool {
        name: name.into(),
        input_schema: schema,
        ..Tool::default()
    }
}

impl CatalogContributor for Shared {
    fn name(&self) -> &str {
        "shared"
    }

    fn load(&self) -> Result<CatalogChange, Diagnostic> {
        let mut change = CatalogChange::new(origin!());
        for name in self.0.lock().unwrap().iter().copied() {
            let answer = handler_fn::<CallTool, _, _, _>(move |_, _| async move {
                Ok(CallToolResult::text(name))
            });
            change = change.add_tool(tool_named(name), answer);
        }
        Ok(change)
    }
}

fn instance(redis: &RedisServer, source: &Source) -> Server {
    Server::builder()
        .setting("redis.url", redis.url())
        .setting("redis.timeout_ms", 500)
        .register(
            origin!(),
            "shared",
            0,
            Item::catalog_contributor(Shared(source.clone())),
        )
        .build()
}

async fn names(server: &Server) -> Vec<String> {
    let mut names: Vec<String> = MemoryClient::new(server)
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .filter(|n| n != "echo")
        .collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_on_one_instance_is_followed_by_every_other_and_heard_there() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let source: Source = Arc::new(Mutex::new(vec!["alpha"]));
    let (a, b) = (instance(&redis, &source), instance(&redis, &source));
    assert_eq!(names(&b).await, ["alpha"]);
    let mut on_a = MemoryClient::new(&a).listen(json!({"toolsListChanged": true}));
    on_a.next().await.expect("an acknowledgement");
    let mut on_b = MemoryClient::new(&b).listen(json!({"toolsListChanged": true}));
    on_b.next().await.expect("an acknowledgement");
    // The subscription on `b`'s Redis connection is up before `a` reloads:
    // a change published on `a` is heard on `b` (as redis's own tests show).
    a.changes()
        .publish(mcp_server::seam::sink::Change::tools_list_changed());
    tokio::time::timeout(Duration::from_secs(5), on_b.next())
        .await
        .expect("b's subscription to the other instances' changes is up")
        .expect("a notification");
    on_a.next().await.expect("a heard its own change");

    source.lock().unwrap().push("beta");
    a.catalog().reload("shared").unwrap();
    assert_eq!(names(&a).await, ["alpha", "beta"]);
    let heard = tokio::time::timeout(Duration::from_secs(5), on_b.next())
        .await
        .expect("b heard within 5 s")
        .expect("a notification");
    assert_eq!(heard.method, "notifications/tools/list_changed");
    assert_eq!(names(&b).await, ["alpha", "beta"], "b followed a's reload");
    let called = MemoryClient::new(&b)
        .call_tool("beta", json!({}))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&called.content[0]).unwrap()["text"],
        "beta"
    );
    // `a` hears its own reload once; the notice itself reaches no listener.
    assert_eq!(
        on_a.next().await.unwrap().method,
        "notifications/tools/list_changed"
    );
    assert!(on_a.next_within(Duration::from_millis(300)).await.is_none());
    assert!(on_b.next_within(Duration::from_millis(300)).await.is_none());

    // A change applied directly is this instance's alone: handlers are
    // code, and do not travel.
    let local = CatalogChange::new(origin!()).add_tool(
        tool_named("local"),
        handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("here")) }),
    );
    a.catalog().apply(local).unwrap();
    assert_eq!(
        on_a.next().await.unwrap().method,
        "notifications/tools/list_changed"
    );
    assert!(
        on_b.next_within(Duration::from_millis(500)).await.is_none(),
        "b's list did not change, so its listeners hear nothing"
    );
    assert_eq!(names(&a).await, ["alpha", "beta", "local"]);
    assert_eq!(names(&b).await, ["alpha", "beta"]);
}
