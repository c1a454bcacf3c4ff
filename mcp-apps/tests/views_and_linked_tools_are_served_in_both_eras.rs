//! A linked `mcp-apps` serves its Views through `resources/read` in both
//! eras, writes `_meta.ui` on the tools that name them, advertises the
//! extension, lets handler code read the client's MIME types, and leaves
//! guards in charge of who sees a View.

use std::sync::Arc;

use mcp_apps::{ContributeViews, UiClient, View};
use mcp_server::auth::{Credentials, Principal};
use mcp_server::core::capabilities::ClientCapabilities;
use mcp_server::core::meta::Meta;
use mcp_server::core::resources::Resource;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::testing::MemoryClient;
use mcp_server::{RequestContext, Server, tool};
use mcp_tests::schema::Schema;
use serde_json::{Value, json};

const HELLO: &str = include_str!("../views/hello.html");

/// Sales per region.
#[tool]
async fn sales(ctx: RequestContext) -> CallToolResult {
    let mut result = CallToolResult::text("North 120, South 95");
    if ctx.renders_views() {
        result.structured_content = Some(json!({"bars": [["North", 120], ["South", 95]]}));
    }
    result
}
mcp_apps::ui!(sales, "ui://test/chart");

/// Reloads the chart; only the View calls it.
#[tool]
async fn reload() -> String {
    "reloaded".into()
}
mcp_apps::ui!(reload, "ui://test/chart", app_only);

/// Shows a secret View.
#[tool]
async fn secret_report() -> String {
    "the report, as text".into()
}
mcp_apps::ui!(secret_report, "ui://test/secret");

fn chart() -> View {
    View::new("ui://test/chart", "chart")
        .title("Chart")
        .description("Sales as bars")
        .html(HELLO)
        .connect_domain("https://api.example.com")
        .resource_domain("https://*.cdn.example.com")
        .prefers_border(true)
}
mcp_apps::view!(chart);

fn secret() -> View {
    View::new("ui://test/secret", "secret").html("<!DOCTYPE html><p>secret</p>")
}
mcp_apps::view!(secret);

fn contributed(_: &mcp_server::boot::BootContext) -> Item {
    Item::contributor(contributor_fn(|into| {
        into.view(
            View::new("ui://test/inline", "inline")
                .html("<!DOCTYPE html><p>inline</p>")
                .unlisted(),
        );
        into.view(
            View::new("ui://test/live", "live")
                .render(|ctx| async move {
                    Ok(format!(
                        "<!DOCTYPE html><p>{}</p>",
                        ctx.ui_mime_types().join(",")
                    ))
                })
                .unlisted(),
        );
        // A tool written by hand with the deprecated flat key.
        let mut tool = Tool {
            name: "flat".into(),
            meta: Some(Meta::new().with("ui/resourceUri", "ui://test/chart")),
            ..Tool::default()
        };
        tool.input_schema.insert("type".into(), "object".into());
        into.tool(
            tool,
            handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("flat")) }),
        );
    }))
}
mcp_server::register!(mcp_server::seam::Registration::new(
    mcp_server::origin!(),
    "test-views",
    0,
    contributed
));

/// Hides `ui://test/secret` from callers without a bearer token.
struct SignedInOnly;

impl HandlerCustomizer<Resource> for SignedInOnly {
    fn customize(&self, config: &mut HandlerConfig<'_, Resource>) {
        if config.descriptor().uri == "ui://test/secret" {
            config.add_guard(guard_fn("signed-in", |ctx, _| {
                if ctx.principal().is_authenticated() {
                    Decision::Allow
                } else {
                    Decision::deny("sign in")
                }
            }));
        }
    }
}

fn signed_in(_: &mcp_server::boot::BootContext) -> Item {
    Item::customizer::<Resource>(SignedInOnly)
}
mcp_server::register!(mcp_server::seam::Registration::new(
    mcp_server::origin!(),
    "test-guard",
    0,
    signed_in
));

/// Any bearer token names a signed-in caller.
struct Bearers;

impl PrincipalSource for Bearers {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        Arc::new(
            credentials
                .bearer()
                .map_or_else(Principal::anonymous, Principal::named),
        )
    }
}

fn server() -> Server {
    Server::builder()
        .named("test", "1.0.0")
        .supply::<dyn PrincipalSource>(mcp_server::origin!(), "bearers", Arc::new(Bearers))
        .build()
}

fn host_capabilities() -> ClientCapabilities {
    serde_json::from_value(json!({"extensions": {
        "io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}
    }}))
    .unwrap()
}

fn schema_ok(schema: Schema, definition: &str, value: &Value) {
    if let Err(errors) = schema.validate(definition, value) {
        panic!("{definition} does not match the schema: {errors:#?}\n{value:#}");
    }
}

fn tool<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

#[tokio::test]
async fn the_extension_is_advertised_in_discover_and_in_a_legacy_initialize() {
    let server = server();
    let discover = MemoryClient::new(&server)
        .request_raw("server/discover", json!({}))
        .await
        .unwrap();
    assert_eq!(
        discover["capabilities"]["extensions"]["io.modelcontextprotocol/ui"],
        json!({})
    );
    schema_ok(Schema::Modern, "DiscoverResult", &discover);
    let initialized = MemoryClient::new(&server)
        .with_capabilities(host_capabilities())
        .connected()
        .initialize("2025-11-25")
        .await
        .unwrap();
    assert_eq!(
        initialized["capabilities"]["extensions"]["io.modelcontextprotocol/ui"],
        json!({})
    );
    // The 2025-11-25 schema has no `extensions` member, and admits it as an
    // unknown one.
    let legacy = &Schema::Legacy.document()["$defs"]["ServerCapabilities"];
    assert!(legacy["properties"].is_object() && legacy["properties"].get("extensions").is_none());
    schema_ok(Schema::Legacy, "InitializeResult", &initialized);
}

#[tokio::test]
async fn linked_tools_carry_their_view_and_visibility_and_never_the_flat_key() {
    let server = server();
    let list = MemoryClient::new(&server)
        .request_raw("tools/list", json!({}))
        .await
        .unwrap();
    schema_ok(Schema::Modern, "ListToolsResult", &list);
    assert_eq!(
        tool(&list, "sales")["_meta"]["ui"],
        json!({"resourceUri": "ui://test/chart"})
    );
    assert_eq!(
        tool(&list, "reload")["_meta"]["ui"],
        json!({"resourceUri": "ui://test/chart", "visibility": ["app"]})
    );
    assert_eq!(
        tool(&list, "flat")["_meta"],
        json!({"ui": {"resourceUri": "ui://test/chart"}})
    );
    for name in ["sales", "reload", "flat", "secret_report"] {
        schema_ok(
            Schema::ExtApps,
            "McpUiToolMeta",
            &tool(&list, name)["_meta"]["ui"],
        );
    }
}

#[tokio::test]
async fn a_view_is_read_with_its_sandbox_settings_and_caching_hints() {
    let server = server();
    let read = MemoryClient::new(&server)
        .request_raw("resources/read", json!({"uri": "ui://test/chart"}))
        .await
        .unwrap();
    schema_ok(Schema::Modern, "ReadResourceResult", &read);
    let contents = &read["contents"][0];
    assert_eq!(contents["uri"], "ui://test/chart");
    assert_eq!(contents["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(contents["text"], HELLO);
    let ui = &contents["_meta"]["ui"];
    assert_eq!(
        *ui,
        json!({
            "csp": {
                "connectDomains": ["https://api.example.com"],
                "resourceDomains": ["https://*.cdn.example.com"]
            },
            "prefersBorder": true
        })
    );
    schema_ok(Schema::ExtApps, "McpUiResourceMeta", ui);
    assert_eq!(read["ttlMs"], 3_600_000);
    assert_eq!(read["cacheScope"], "public");
}

#[tokio::test]
async fn a_legacy_client_reads_the_same_view() {
    let server = server();
    let client = MemoryClient::new(&server)
        .with_capabilities(host_capabilities())
        .connected();
    client.initialize("2025-11-25").await.unwrap();
    let read = client
        .request_raw("resources/read", json!({"uri": "ui://test/chart"}))
        .await
        .unwrap();
    schema_ok(Schema::Legacy, "ReadResourceResult", &read);
    assert_eq!(read["contents"][0]["text"], HELLO);
    assert_eq!(read["contents"][0]["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(read["contents"][0]["_meta"]["ui"]["prefersBorder"], true);
}

#[tokio::test]
async fn unlisted_views_are_readable_but_absent_from_resources_list() {
    let server = server();
    let client = MemoryClient::new(&server);
    let list = client
        .request_raw("resources/list", json!({}))
        .await
        .unwrap();
    schema_ok(Schema::Modern, "ListResourcesResult", &list);
    let uris: Vec<&str> = list["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, ["ui://test/chart"]);
    let listed = &list["resources"][0];
    assert_eq!(listed["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(listed["_meta"]["ui"]["prefersBorder"], true);
    let inline = client
        .request_raw("resources/read", json!({"uri": "ui://test/inline"}))
        .await
        .unwrap();
    assert_eq!(
        inline["contents"][0]["text"],
        "<!DOCTYPE html><p>inline</p>"
    );
}

#[tokio::test]
async fn a_rendered_view_is_made_per_read_and_kept_private() {
    let server = server();
    let read = MemoryClient::new(&server)
        .with_capabilities(host_capabilities())
        .request_raw("resources/read", json!({"uri": "ui://test/live"}))
        .await
        .unwrap();
    assert_eq!(
        read["contents"][0]["text"],
        "<!DOCTYPE html><p>text/html;profile=mcp-app</p>"
    );
    assert_eq!(read["ttlMs"], 0);
    assert_eq!(read["cacheScope"], "private");
}

#[tokio::test]
async fn a_tool_sees_the_clients_mime_types_while_tools_list_stays_the_same() {
    let server = server();
    let plain = MemoryClient::new(&server);
    let host = MemoryClient::new(&server).with_capabilities(host_capabilities());
    let call = json!({"name": "sales"});
    let text_only = plain.request_raw("tools/call", call.clone()).await.unwrap();
    assert!(text_only.get("structuredContent").is_none());
    let rich = host.request_raw("tools/call", call).await.unwrap();
    assert_eq!(rich["structuredContent"]["bars"][0], json!(["North", 120]));
    assert_eq!(rich["content"][0]["text"], "North 120, South 95");
    let lists = (
        plain.request_raw("tools/list", json!({})).await.unwrap(),
        host.request_raw("tools/list", json!({})).await.unwrap(),
    );
    assert_eq!(lists.0, lists.1);
}

#[tokio::test]
async fn a_view_its_guard_hides_is_unlisted_and_unreadable_while_its_tool_still_works() {
    let server = server();
    let anonymous = MemoryClient::new(&server);
    let list = anonymous
        .request_raw("resources/list", json!({}))
        .await
        .unwrap();
    assert!(!list.to_string().contains("ui://test/secret"));
    let hidden = anonymous
        .request_raw("resources/read", json!({"uri": "ui://test/secret"}))
        .await
        .unwrap_err();
    let unknown = anonymous
        .request_raw("resources/read", json!({"uri": "ui://test/nothing"}))
        .await
        .unwrap_err();
    assert_eq!(hidden.code, unknown.code);
    assert_eq!(
        hidden.message.replace("secret", "X"),
        unknown.message.replace("nothing", "X")
    );
    let called = anonymous
        .request_raw("tools/call", json!({"name": "secret_report"}))
        .await
        .unwrap();
    assert_eq!(called["content"][0]["text"], "the report, as text");

    // A caller the guard admits reads it, and no cache shares it with others.
    let signed_in = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("ada"));
    let read = signed_in
        .request_raw("resources/read", json!({"uri": "ui://test/secret"}))
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["text"], "<!DOCTYPE html><p>secret</p>");
    assert_eq!(read["cacheScope"], "private");
}
