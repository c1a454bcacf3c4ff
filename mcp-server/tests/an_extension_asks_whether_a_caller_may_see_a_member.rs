//! `RequestContext::may_see` answers for an extension's own paths what
//! the guards answer for lists and reads: members of boot and of the
//! runtime catalog, guarded or not, listed or not.

mod support;

use std::sync::Arc;

use mcp_server::auth::Credentials;
use mcp_server::catalog::CatalogChange;
use mcp_server::core::resources::Resource;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::handler::resource::read_handler;
use mcp_server::seam::Item;
use mcp_server::seam::TargetKind;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::testing::MemoryClient;
use serde_json::json;
use support::origin;

/// Guards the resources under `acme://` to tenant acme, and unlists `acme://unlisted`.
struct AcmeOnly;

impl HandlerCustomizer<Resource> for AcmeOnly {
    fn customize(&self, config: &mut HandlerConfig<'_, Resource>) {
        let uri = config.descriptor().uri.clone();
        if uri.starts_with("acme://") {
            config.add_guard(support::tenant_only("acme"));
        }
        if uri == "acme://unlisted" {
            config.unlist();
        }
    }
}

fn resource(uri: &str) -> Resource {
    Resource {
        uri: uri.into(),
        name: uri.into(),
        ..Default::default()
    }
}

/// `sees` answers, for `kind` and `key` in its arguments, what
/// `may_see` says of its caller.
fn server() -> mcp_server::Server {
    support::builder()
        .supply::<dyn PrincipalSource>(origin("auth", 1), "tenants", Arc::new(support::Tenants))
        .register(
            origin("app", 2),
            "acme-only",
            0,
            Item::customizer::<Resource>(AcmeOnly),
        )
        .contributor(
            origin("app", 3),
            "members",
            contributor_fn(|c| {
                for uri in ["acme://report", "acme://unlisted", "open://readme"] {
                    c.resource(
                        resource(uri),
                        read_handler(Some("text/plain"), |_, _| async {
                            Ok(String::from("text"))
                        }),
                    );
                }
                c.tool(
                    support::tool("sees"),
                    handler_fn::<CallTool, _, _, _>(|ctx, params| async move {
                        let arguments = params.arguments.unwrap_or_default();
                        let kind = match arguments["kind"].as_str() {
                            Some("tool") => TargetKind::Tool,
                            Some("resource") => TargetKind::Resource,
                            _ => TargetKind::Prompt,
                        };
                        let key = arguments["key"].as_str().unwrap_or_default();
                        Ok(CallToolResult::text(ctx.may_see(kind, key).to_string()))
                    }),
                );
            }),
        )
        .build()
}

async fn sees(client: &MemoryClient, kind: &str, key: &str) -> bool {
    let result = client
        .request_raw(
            "tools/call",
            json!({"name": "sees", "arguments": {"kind": kind, "key": key}}),
        )
        .await
        .unwrap();
    result["content"][0]["text"] == "true"
}

#[tokio::test]
async fn a_guarded_member_is_seen_by_the_callers_its_guards_admit_and_by_no_one_else() {
    let server = server();
    let ada = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("acme-ada"));
    let bob = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("zeta-bob"));
    assert!(sees(&ada, "resource", "acme://report").await);
    assert!(!sees(&bob, "resource", "acme://report").await);
    assert!(sees(&bob, "resource", "open://readme").await);
    assert!(sees(&bob, "tool", "sees").await);
    assert!(!sees(&ada, "resource", "acme://nothing-here").await);
    assert!(
        !sees(&ada, "prompt", "sees").await,
        "a tool is not a prompt"
    );
}

#[tokio::test]
async fn an_unlisted_member_is_still_seen_by_those_its_guards_admit() {
    let server = server();
    let ada = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("acme-ada"));
    let bob = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("zeta-bob"));
    assert!(sees(&ada, "resource", "acme://unlisted").await);
    assert!(!sees(&bob, "resource", "acme://unlisted").await);
}

#[tokio::test]
async fn a_runtime_member_is_seen_once_added_through_its_scope_and_not_once_removed() {
    let server = server();
    let ada = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("acme-ada"));
    let bob = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("zeta-bob"));
    assert!(!sees(&bob, "resource", "zeta://plan").await);
    let change = CatalogChange::new(origin("app", 9)).scoped(support::tenant_only("zeta"));
    server
        .catalog()
        .apply(change.add_resource(
            resource("zeta://plan"),
            read_handler(Some("text/plain"), |_, _| async {
                Ok(String::from("plan"))
            }),
        ))
        .unwrap();
    assert!(sees(&bob, "resource", "zeta://plan").await);
    assert!(!sees(&ada, "resource", "zeta://plan").await);
    server
        .catalog()
        .apply(CatalogChange::new(origin("app", 10)).remove_resource("zeta://plan"))
        .unwrap();
    assert!(!sees(&bob, "resource", "zeta://plan").await);
}
