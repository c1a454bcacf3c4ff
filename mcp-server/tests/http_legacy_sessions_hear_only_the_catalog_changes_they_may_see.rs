//! A 2025-11-25 session hears of a runtime catalog change on its
//! standalone stream only when its caller may see a member the change
//! touched: one tenant's tools stay unannounced to another's session.

mod support;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use mcp_server::catalog::CatalogChange;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::source::PrincipalSource;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_server::{Server, origin};
use mcp_tests::http::{Events, LEGACY, post, send};
use serde_json::json;

fn with_bearer(mut request: Request<Body>, token: &str) -> Request<Body> {
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

/// A legacy session opened by the bearer of `token`; its id.
async fn session_of(app: &Router, token: &str) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {},
        "clientInfo": {"name": "old", "version": "1"}}});
    let response = send(app, with_bearer(post(None, &initialize), token)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = send(app, with_bearer(post(Some(&session), &initialized), token)).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    session
}

/// The standalone stream of `session`.
async fn stream_of(app: &Router, session: &str, token: &str) -> Events {
    let get = Request::get("/mcp")
        .header("accept", "text/event-stream")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", LEGACY)
        .body(Body::empty())
        .unwrap();
    Events::of(send(app, with_bearer(get, token)).await)
}

/// A change whose members only the callers of `tenant` see.
fn for_tenant(tenant: &'static str, tool: &str) -> CatalogChange {
    let answer =
        handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("report")) });
    CatalogChange::new(origin!())
        .scoped(support::tenant_only(tenant))
        .add_tool(support::tool(tool), answer)
}

#[tokio::test]
async fn a_session_hears_of_a_tenant_s_change_only_when_its_caller_is_of_that_tenant() {
    let server: Server = support::with_tools(&["shared"])
        .supply::<dyn PrincipalSource>(
            support::origin("auth", 1),
            "tenants",
            Arc::new(support::Tenants),
        )
        .build();
    let app = router(server.clone(), "/mcp", HttpConfig::default());
    let ada = session_of(&app, "acme-ada").await;
    let bob = session_of(&app, "zeta-bob").await;
    let mut ada_hears = stream_of(&app, &ada, "acme-ada").await;
    let mut bob_hears = stream_of(&app, &bob, "zeta-bob").await;

    server
        .catalog()
        .apply(for_tenant("acme", "acme_report"))
        .unwrap();
    let heard = ada_hears
        .next()
        .await
        .expect("ada hears of acme's tool")
        .json();
    assert_eq!(heard["method"], "notifications/tools/list_changed");
    assert!(
        bob_hears.silent_for(Duration::from_millis(300)).await,
        "bob may not see acme's tool, so his session does not hear of it"
    );

    // A change of a member everyone sees reaches every session.
    let everyone = CatalogChange::new(origin!()).add_tool(
        support::tool("public_report"),
        handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("public")) }),
    );
    server.catalog().apply(everyone).unwrap();
    for stream in [&mut ada_hears, &mut bob_hears] {
        let heard = stream.next().await.expect("a list change").json();
        assert_eq!(heard["method"], "notifications/tools/list_changed");
    }
}
