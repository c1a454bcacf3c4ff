//! Linking activates: this test binary does not link `mcp-apps`, so the
//! server advertises no UI extension, runs no View checks, and sends the
//! metadata a tool was given exactly as written.

use mcp_server::Server;
use mcp_server::core::meta::Meta;
use mcp_server::core::resources::{ReadResourceResult, Resource};
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::core::version::Era;
use mcp_server::handler::handler_fn;
use mcp_server::handler::resource::read_handler;
use mcp_server::seam::Origin;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::testing::MemoryClient;
use serde_json::json;

#[tokio::test]
async fn without_the_extension_linked_nothing_of_apps_is_served_or_checked() {
    // With `mcp-apps` linked, both would fail boot: a `ui://` resource of
    // the wrong MIME type, and a tool naming a View that does not exist.
    let server = Server::builder()
        .named("test", "1.0.0")
        .contributor(
            Origin::FRAMEWORK,
            "app",
            contributor_fn(|into| {
                let page = Resource {
                    uri: "ui://plain/page".into(),
                    name: "page".into(),
                    mime_type: Some("text/html".into()),
                    ..Resource::default()
                };
                into.resource(
                    page,
                    read_handler(Some("text/html"), |_, _| async {
                        Ok(ReadResourceResult::default())
                    }),
                );
                let mut tool = Tool {
                    name: "flat".into(),
                    meta: Some(Meta::new().with("ui/resourceUri", "ui://plain/missing")),
                    ..Tool::default()
                };
                tool.input_schema.insert("type".into(), "object".into());
                into.tool(
                    tool,
                    handler_fn::<CallTool, _, _, _>(|_, _| async {
                        Ok(CallToolResult::text("flat"))
                    }),
                );
            }),
        )
        .build();
    for era in [Era::Modern, Era::Legacy] {
        let capabilities = server.capabilities_in(era);
        assert!(
            !capabilities.has_extension("io.modelcontextprotocol/ui"),
            "{era:?}"
        );
    }
    let list = MemoryClient::new(&server)
        .request_raw("tools/list", json!({}))
        .await
        .unwrap();
    assert_eq!(
        list["tools"][0]["_meta"],
        json!({"ui/resourceUri": "ui://plain/missing"})
    );
    assert!(
        server
            .report()
            .members
            .iter()
            .all(|m| !m.name.starts_with("apps-"))
    );
}
