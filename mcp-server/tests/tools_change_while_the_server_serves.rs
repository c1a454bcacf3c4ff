//! The runtime catalog: tools added, replaced and removed while the server
//! serves are listed, called, guarded, customized and announced as tools of
//! boot are; a change applies whole or not at all, and a request sees one
//! version of the catalog from start to end.

mod support;

use mcp_server::RequestContext;
use mcp_server::boot::BootError;
use mcp_server::catalog::CatalogChange;
use mcp_server::core::json::JsonObject;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::handler::tool;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::{Item, TargetKind};
use mcp_server::testing::MemoryClient;
use serde_json::json;
use support::{Signals, origin, with_tools};

/// A tool that answers with `text`.
fn answering(
    name: &str,
    text: &'static str,
) -> (Tool, impl mcp_server::handler::Handler<CallTool>) {
    (
        support::tool(name),
        handler_fn::<CallTool, _, _, _>(move |_, _| async move { Ok(CallToolResult::text(text)) }),
    )
}

fn change() -> CatalogChange {
    CatalogChange::new(origin("admin", 7))
}

fn add(name: &str, text: &'static str) -> CatalogChange {
    let (tool, handler) = answering(name, text);
    change().add_tool(tool, handler)
}

fn names(tools: &[Tool]) -> Vec<&str> {
    tools.iter().map(|t| t.name.as_str()).collect()
}

fn text(result: &CallToolResult) -> String {
    serde_json::to_value(&result.content[0]).unwrap()["text"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn a_tool_added_at_runtime_is_listed_called_and_announced() {
    let server = with_tools(&["b_static"]).build();
    let client = MemoryClient::new(&server);
    let mut listening = client.listen(json!({"toolsListChanged": true}));
    listening.next().await.expect("the acknowledgement");

    let applied = server
        .catalog()
        .apply(add("a_added", "from a").add_tool(
            answering("c_added", "from c").0,
            answering("c_added", "from c").1,
        ))
        .unwrap();
    assert_eq!(applied.version, 1);
    assert_eq!(applied.tools, ["a_added", "c_added"]);
    assert_eq!(server.catalog().version(), 1);

    // Listed with boot's, in one identity order.
    let listed = client.list_tools().await.unwrap();
    assert_eq!(names(&listed), ["a_added", "b_static", "c_added"]);
    let called = client.call_tool("a_added", json!({})).await.unwrap();
    assert_eq!(text(&called), "from a");
    let announced = listening.next().await.unwrap();
    assert_eq!(announced.method, "notifications/tools/list_changed");
    assert_eq!(
        server.catalog().origin_of(TargetKind::Tool, "c_added"),
        Some(origin("admin", 7))
    );
}

#[tokio::test]
async fn a_removed_tool_answers_exactly_as_an_unknown_one() {
    let server = with_tools(&["static"]).build();
    let client = MemoryClient::new(&server);
    server.catalog().apply(add("gone", "here")).unwrap();
    assert!(client.call_tool("gone", json!({})).await.is_ok());

    server
        .catalog()
        .apply(change().remove_tool("gone"))
        .unwrap();
    let removed = client.call_tool("gone", json!({})).await.unwrap_err();
    let never = client.call_tool("never", json!({})).await.unwrap_err();
    assert_eq!(removed.code, never.code);
    assert_eq!(removed.message, never.message.replace("never", "gone"));
    assert_eq!(names(&client.list_tools().await.unwrap()), ["static"]);
}

#[tokio::test]
async fn a_call_in_flight_finishes_on_the_tool_it_started_with_after_its_removal() {
    let server = with_tools(&["static"]).build();
    let signals = Signals::default();
    let (started, release) = (signals.started.clone(), signals.release.clone());
    let slow = handler_fn::<CallTool, _, _, _>(move |_, _| {
        let (started, release) = (started.clone(), release.clone());
        async move {
            started.notify_one();
            release.notified().await;
            Ok(CallToolResult::text("finished"))
        }
    });
    server
        .catalog()
        .apply(change().add_tool(support::tool("slow"), slow))
        .unwrap();
    let client = MemoryClient::new(&server);
    let call = tokio::spawn({
        let client = MemoryClient::new(&server);
        async move { client.call_tool("slow", json!({})).await }
    });
    signals.started.notified().await;
    server
        .catalog()
        .apply(change().remove_tool("slow"))
        .unwrap();
    assert!(client.call_tool("slow", json!({})).await.is_err());
    signals.release.notify_one();
    let finished = call.await.unwrap().unwrap();
    assert_eq!(text(&finished), "finished");
}

#[tokio::test]
async fn a_collision_is_refused_with_the_diagnostic_of_boot_and_nothing_changes() {
    let server = with_tools(&["taken"]).build();
    let client = MemoryClient::new(&server);
    let mut listening = client.listen(json!({"toolsListChanged": true}));
    listening.next().await.expect("the acknowledgement");
    let (tool, handler) = answering("taken", "again");
    let refused = server
        .catalog()
        .apply(add("fresh", "fresh").add_tool(tool, handler))
        .unwrap_err();
    assert_eq!(
        refused.errors(),
        [BootError::Duplicate {
            kind: mcp_server::seam::TargetKind::Tool,
            name: "taken".into(),
            first: origin("app", 1),
            second: origin("admin", 7),
        }]
    );
    let shown = refused.to_string();
    assert!(
        shown.starts_with("error[mcp::duplicate_tool]: tool `taken` is contributed twice"),
        "{shown}"
    );
    assert!(shown.ends_with("the catalog change was refused because of the previous error"));
    // Nothing of the change is in: not the free tool either.
    assert_eq!(server.catalog().version(), 0);
    assert_eq!(names(&client.list_tools().await.unwrap()), ["taken"]);
    assert!(client.call_tool("fresh", json!({})).await.is_err());
    // Two runtime tools of one name collide as well.
    server.catalog().apply(add("fresh", "first")).unwrap();
    let twice = server.catalog().apply(add("fresh", "second")).unwrap_err();
    assert!(matches!(
        &twice.errors()[0],
        BootError::Duplicate { name, .. } if name == "fresh"
    ));
    let first = listening.next().await.unwrap();
    assert_eq!(first.method, "notifications/tools/list_changed");
    // Only the change that applied was announced.
    assert!(
        listening
            .next_within(std::time::Duration::from_millis(50))
            .await
            .is_none()
    );
}

#[tokio::test]
async fn only_runtime_tools_are_replaced_or_removed_and_a_typo_is_named() {
    let server = with_tools(&["boot_tool"]).build();
    let client = MemoryClient::new(&server);
    server.catalog().apply(add("runtime_tool", "one")).unwrap();
    let (tool, handler) = answering("runtime_tool", "two");
    server
        .catalog()
        .apply(change().replace_tool(tool, handler))
        .unwrap();
    let replaced = client.call_tool("runtime_tool", json!({})).await.unwrap();
    assert_eq!(text(&replaced), "two");

    let (tool, handler) = answering("boot_tool", "no");
    let refused = server
        .catalog()
        .apply(
            change()
                .replace_tool(tool, handler)
                .remove_tool("boot_tool")
                .remove_tool("runtime_tol"),
        )
        .unwrap_err();
    let codes: Vec<&str> = refused.errors().iter().map(BootError::code).collect();
    assert_eq!(codes, ["extension", "extension", "extension"]);
    let shown = refused.to_string();
    assert!(shown.contains("error[mcp::fixed_member]: tool `boot_tool` was assembled at boot"));
    assert!(
        shown.contains(
            "error[mcp::not_in_catalog]: tool `runtime_tol` is not in the runtime catalog"
        )
    );
    assert!(shown.contains("did you mean `runtime_tool`?"), "{shown}");
    assert!(shown.ends_with("refused because of 3 previous errors"));
    assert_eq!(
        text(&client.call_tool("boot_tool", json!({})).await.unwrap()),
        "boot_tool"
    );
}

/// Brands every tool's description, and hides every tool named `secret…`.
struct Policy;

impl HandlerCustomizer<Tool> for Policy {
    fn customize(&self, config: &mut HandlerConfig<'_, Tool>) {
        let tool = config.descriptor_mut();
        tool.description = Some(format!("[acme] {}", tool.name));
        if tool.name.starts_with("secret") {
            config.add_guard(guard_fn("no-secrets", |_, _| Decision::deny("secret")));
        }
    }
}

#[tokio::test]
async fn customizers_fold_over_runtime_tools_and_their_guards_hide_them_everywhere() {
    let server = with_tools(&["static"])
        .register(
            origin("policy", 1),
            "policy",
            0,
            Item::customizer::<Tool>(Policy),
        )
        .build();
    let client = MemoryClient::new(&server);
    server
        .catalog()
        .apply(add("open_tool", "open").add_tool(
            answering("secret_tool", "s").0,
            answering("secret_tool", "s").1,
        ))
        .unwrap();
    let listed = client.list_tools().await.unwrap();
    assert_eq!(names(&listed), ["open_tool", "static"]);
    assert_eq!(listed[0].description.as_deref(), Some("[acme] open_tool"));
    assert_eq!(
        server.catalog().tools()[0].description.as_deref(),
        Some("[acme] open_tool")
    );
    // A hidden runtime tool answers as one that does not exist.
    let hidden = client
        .call_tool("secret_tool", json!({}))
        .await
        .unwrap_err();
    let never = client
        .call_tool("secret_never", json!({}))
        .await
        .unwrap_err();
    assert_eq!(hidden.code, never.code);
    assert_eq!(
        hidden.message,
        never.message.replace("secret_never", "secret_tool")
    );
    // The report of the running server names its chain.
    let chain = server.report().to_string();
    assert!(chain.contains("tool `static`"), "{chain}");
}

#[tokio::test]
async fn a_cursor_issued_before_a_change_is_refused_clearly() {
    let server = with_tools(&["a", "b", "c"]).page_size(1).build();
    let client = MemoryClient::new(&server);
    let first = client.request_raw("tools/list", json!({})).await.unwrap();
    let cursor = first["nextCursor"].as_str().unwrap().to_owned();
    // Before any change, the cursor pages on.
    let second = client
        .request_raw("tools/list", json!({"cursor": cursor}))
        .await
        .unwrap();
    assert_eq!(second["tools"][0]["name"], "b");
    server.catalog().apply(add("a0", "new")).unwrap();
    let stale = client
        .request_raw("tools/list", json!({"cursor": cursor}))
        .await
        .unwrap_err();
    assert_eq!(stale.code.0, -32602);
    assert!(
        stale.message.starts_with("Stale cursor"),
        "{}",
        stale.message
    );
    // A cursor of the new version pages through both kinds of tool.
    let listed = client.list_tools().await.unwrap();
    assert_eq!(names(&listed), ["a", "a0", "b", "c"]);
}

#[tokio::test]
async fn a_tool_described_by_data_has_its_arguments_checked_against_its_schema() {
    let server = with_tools(&["static"]).build();
    let mut described = support::tool("greet");
    described.input_schema = serde_json::from_value::<JsonObject>(json!({
        "type": "object",
        "properties": {"who": {"type": "string"}},
        "required": ["who"]
    }))
    .unwrap();
    let greet = tool::handler(
        &described,
        |_: RequestContext, args: JsonObject| async move {
            format!("hello {}", args["who"].as_str().unwrap_or_default())
        },
    );
    server
        .catalog()
        .apply(change().add_tool(described, greet))
        .unwrap();
    let client = MemoryClient::new(&server);
    let good = client
        .call_tool("greet", json!({"who": "ada"}))
        .await
        .unwrap();
    assert_eq!(text(&good), "hello ada");
    let bad = client.call_tool("greet", json!({"who": 5})).await.unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert!(
        text(&bad).starts_with("Invalid arguments: `who`"),
        "{}",
        text(&bad)
    );
}

#[tokio::test]
async fn a_tool_adds_another_through_its_request_context() {
    let server = support::server_with(move |c| {
        c.tool(
            support::tool("add_alias"),
            handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                let (tool, handler) = answering("alias", "aliased");
                let change = CatalogChange::new(origin("admin", 9)).add_tool(tool, handler);
                match ctx.catalog().apply(change) {
                    Ok(applied) => Ok(CallToolResult::text(format!("version {}", applied.version))),
                    Err(refused) => Ok(CallToolResult::error(refused.to_string())),
                }
            }),
        );
    });
    let client = MemoryClient::new(&server);
    let done = client.call_tool("add_alias", json!({})).await.unwrap();
    assert_eq!(text(&done), "version 1");
    assert_eq!(
        text(&client.call_tool("alias", json!({})).await.unwrap()),
        "aliased"
    );
    let again = client.call_tool("add_alias", json!({})).await.unwrap();
    assert_eq!(again.is_error, Some(true));
}
