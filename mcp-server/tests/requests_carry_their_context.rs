//! Each request carries its own context: era, version and capabilities from
//! its `_meta` (modern) or its session (legacy), the principal, progress and
//! log sinks that honour what the client opted into, cancellation, and typed
//! access to `_meta`.

mod support;

use mcp_server::context::Negotiated;
use mcp_server::core::capabilities::{ClientCapabilities, ElicitationCapability};
use mcp_server::core::error::ErrorCode;
use mcp_server::core::logging::LoggingLevel;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::testing::MemoryClient;
use serde_json::json;
use support::{builder, origin, tool};
use tokio_util::sync::CancellationToken;

/// What the embedding process tells a request, through its caller's seed.
#[derive(Clone)]
struct Told(&'static str);

/// A tool that describes the context it runs in, and reports progress and logs.
fn server() -> mcp_server::Server {
    builder()
        .contributor(
            origin("app", 1),
            "ctx",
            contributor_fn(|c| {
                c.tool(
                    tool("whoami"),
                    handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                        ctx.progress().report(1.0, Some(2.0), Some("halfway"));
                        ctx.log()
                            .log(LoggingLevel::Info, Some("whoami"), "info line");
                        ctx.log()
                            .log(LoggingLevel::Debug, Some("whoami"), "debug line");
                        let described = json!({
                            "era": format!("{:?}", ctx.era()),
                            "version": ctx.protocol_version(),
                            "elicitation": ctx.client_capabilities().elicitation.is_some(),
                            "client": ctx.client_info().map(|c| c.name.clone()),
                            "trace": ctx.meta_value::<String>("com.example/trace"),
                            "method": ctx.method(),
                        });
                        Ok(CallToolResult {
                            structured_content: Some(described),
                            ..CallToolResult::text("ok")
                        })
                    }),
                );
                c.tool(
                    tool("seeded"),
                    handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                        let told = ctx.get::<Told>().map_or("nothing", |t| t.0);
                        Ok(CallToolResult::text(told))
                    }),
                );
                c.tool(
                    tool("wait"),
                    handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                        ctx.cancellation().cancelled().await;
                        Ok(CallToolResult::text("cancelled"))
                    }),
                );
            }),
        )
        .build()
}

#[tokio::test]
async fn a_modern_request_reads_version_capabilities_and_meta_from_its_own_meta() {
    let server = server();
    let caps = ClientCapabilities {
        elicitation: Some(ElicitationCapability::default()),
        ..Default::default()
    };
    let client = MemoryClient::new(&server).with_capabilities(caps);
    let params = json!({"name": "whoami", "_meta": {
        "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "1"},
        "com.example/trace": "t-1"
    }});
    let result = client.request_raw("tools/call", params).await.unwrap();
    assert_eq!(
        result["structuredContent"],
        json!({"era": "Modern", "version": "2026-07-28", "elicitation": true, "client": "probe", "trace": "t-1", "method": "tools/call"})
    );
}

#[tokio::test]
async fn a_modern_request_without_its_required_meta_is_invalid_params() {
    let server = server();
    let client = MemoryClient::new(&server);
    let no_meta =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "whoami"}});
    let response = client.send(&no_meta).await.unwrap();
    assert_eq!(response["error"]["code"], -32602);
    assert!(
        response["error"]["message"]
            .as_str()
            .unwrap()
            .contains("io.modelcontextprotocol/protocolVersion")
    );
    let no_caps = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "whoami",
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
    let response = client.send(&no_caps).await.unwrap();
    assert!(
        response["error"]["message"]
            .as_str()
            .unwrap()
            .contains("io.modelcontextprotocol/clientCapabilities")
    );
}

#[tokio::test]
async fn an_unsupported_version_is_refused_naming_the_supported_ones() {
    let server = server();
    let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "whoami",
        "_meta": {"io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": {}}}});
    let response = MemoryClient::new(&server).send(&request).await.unwrap();
    assert_eq!(response["id"], 7);
    assert_eq!(
        response["error"]["code"],
        ErrorCode::UNSUPPORTED_PROTOCOL_VERSION.0
    );
    assert_eq!(response["error"]["data"]["requested"], "1900-01-01");
    assert_eq!(response["error"]["data"]["supported"][0], "2026-07-28");
}

#[tokio::test]
async fn a_legacy_session_supplies_what_its_requests_do_not_carry() {
    let server = server();
    let session = Negotiated {
        protocol_version: "2025-11-25".into(),
        client_capabilities: ClientCapabilities::default(),
        client_info: None,
        log_level: None,
    };
    let client = MemoryClient::new(&server).legacy(session);
    let result = client
        .request_raw("tools/call", json!({"name": "whoami"}))
        .await
        .unwrap();
    assert_eq!(result["structuredContent"]["era"], "Legacy");
    assert_eq!(result["structuredContent"]["version"], "2025-11-25");
    // A modern-only method does not exist for a legacy session.
    let error = client
        .request_raw("server/discover", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
}

#[tokio::test]
async fn progress_and_logs_reach_the_client_only_when_it_opted_in() {
    let server = server();
    let client = MemoryClient::new(&server);
    client
        .request_raw("tools/call", json!({"name": "whoami"}))
        .await
        .unwrap();
    assert!(
        client.take_notifications().is_empty(),
        "no progressToken and no logLevel: nothing is sent"
    );

    let params = json!({"name": "whoami", "_meta": {"progressToken": "p1", "io.modelcontextprotocol/logLevel": "info"}});
    client.request_raw("tools/call", params).await.unwrap();
    let sent: Vec<(String, serde_json::Value)> = client
        .take_notifications()
        .into_iter()
        .map(|n| {
            (
                n.method.clone(),
                serde_json::from_str(n.params.unwrap().get()).unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sent.len(),
        2,
        "progress and the info line; the debug line is below the level: {sent:?}"
    );
    assert_eq!(sent[0].0, "notifications/progress");
    assert_eq!(
        sent[0].1,
        json!({"progressToken": "p1", "progress": 1, "total": 2, "message": "halfway"})
    );
    assert_eq!(sent[1].0, "notifications/message");
    assert_eq!(
        sent[1].1,
        json!({"level": "info", "logger": "whoami", "data": "info line"})
    );
}

#[tokio::test]
async fn cancelling_a_request_fires_the_handlers_token() {
    let server = server();
    let client = MemoryClient::new(&server);
    let token = CancellationToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        tokio::task::yield_now().await;
        cancel.cancel();
    });
    let result = client
        .request_cancellable("tools/call", json!({"name": "wait"}), token)
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "cancelled");
}

/// Records published changes.
#[derive(Clone, Default)]
struct Changes(std::sync::Arc<std::sync::Mutex<Vec<mcp_server::seam::sink::Change>>>);

impl mcp_server::seam::sink::ChangeSink for Changes {
    fn publish(&self, change: mcp_server::seam::sink::Change) {
        self.0.lock().unwrap().push(change);
    }
}

#[tokio::test]
async fn handlers_publish_changes_through_the_configured_change_sink() {
    use mcp_server::seam::sink::Change;
    let changes = Changes::default();
    let server = builder()
        .change_sink(changes.clone())
        .contributor(
            origin("app", 1),
            "writer",
            contributor_fn(|c| {
                c.tool(
                    tool("save"),
                    handler_fn::<CallTool, _, _, _>(|ctx, _| async move {
                        ctx.changes()
                            .publish(Change::resource_updated("file:///notes.txt"));
                        ctx.changes().publish(Change::tools_list_changed());
                        Ok(CallToolResult::text("saved"))
                    }),
                );
            }),
        )
        .build();
    MemoryClient::new(&server)
        .call_tool("save", json!({}))
        .await
        .unwrap();
    assert_eq!(
        *changes.0.lock().unwrap(),
        [
            Change::resource_updated("file:///notes.txt"),
            Change::tools_list_changed()
        ]
    );
}

#[tokio::test]
async fn a_callers_seed_reaches_the_handler_and_nothing_a_client_sends_can_forge_it() {
    let server = server();
    let request = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"seeded",
        "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                 "io.modelcontextprotocol/clientCapabilities":{},"Told":"forged"}}}"#;
    let text = |reply: Option<Vec<u8>>| {
        let reply: serde_json::Value = serde_json::from_slice(&reply.expect("a reply")).unwrap();
        reply["result"]["content"][0]["text"].clone()
    };
    let seeded =
        mcp_server::transport::Peer::modern().with_seed(|ctx| ctx.insert(Told("by the worker")));
    assert_eq!(
        text(server.handle(request, &seeded).await),
        json!("by the worker")
    );
    let plain = mcp_server::transport::Peer::modern();
    assert_eq!(text(server.handle(request, &plain).await), json!("nothing"));
}
