//! A request's connection says which transport keeps it and, on HTTP, the
//! id of its session; what an extension keeps with it is dropped when the
//! transport ends it (end of input on stdio, `DELETE` on HTTP) and not
//! before. A 2026-07-28 request over HTTP has no connection.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::http::{Request, StatusCode};
use mcp_server::Server;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::testing::MemoryClient;
use mcp_server::transport::http::{HttpConfig, router};
use mcp_server::transport::stdio;
use mcp_tests::http::{answer, call_body, headers, initialize, post, post_bytes, send};
use serde_json::{Value, json};
use support::{builder, origin, tool};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Set when the value kept with a connection is dropped.
#[derive(Clone, Default)]
struct Dropped(Arc<AtomicBool>);

impl Dropped {
    fn seen(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Kept with a connection; says when it is dropped.
struct Keepsake(Dropped);

impl Drop for Keepsake {
    fn drop(&mut self) {
        self.0.0.store(true, Ordering::SeqCst);
    }
}

/// A server whose `where` tool answers with its connection's transport
/// and id, and keeps a [`Keepsake`] with the connection.
fn server(dropped: &Dropped) -> Server {
    let dropped = dropped.clone();
    builder()
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(move |c| {
                let dropped = dropped.clone();
                c.tool(
                    tool("where"),
                    handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                        let dropped = dropped.clone();
                        async move {
                            let connection = ctx.session();
                            if let Some(connection) = connection {
                                connection.insert(Keepsake(dropped));
                            }
                            let described = json!({
                                "transport": connection.and_then(|c| c.transport()),
                                "id": connection.and_then(|c| c.id()),
                            });
                            Ok(CallToolResult {
                                structured_content: Some(described),
                                ..CallToolResult::text("here")
                            })
                        }
                    }),
                );
            }),
        )
        .build()
}

#[tokio::test]
async fn a_stdio_connection_is_named_stdio_and_drops_what_it_kept_at_end_of_input() {
    let dropped = Dropped::default();
    let (mut to_server, server_in) = tokio::io::duplex(4096);
    let (server_out, from_server) = tokio::io::duplex(4096);
    let serving = tokio::spawn(stdio::serve(server(&dropped), server_in, server_out));
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "where", "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}}});
    let mut line = serde_json::to_vec(&call).unwrap();
    line.push(b'\n');
    to_server.write_all(&line).await.unwrap();
    let mut lines = BufReader::new(from_server).lines();
    let answer: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({"transport": "stdio", "id": null}),
        "{answer}"
    );
    assert!(!dropped.seen(), "kept while the connection lives");
    drop(to_server);
    serving.await.unwrap().unwrap();
    assert!(dropped.seen(), "dropped at end of input");
}

#[tokio::test]
async fn an_http_session_is_named_http_with_its_session_id_and_drops_what_it_kept_on_delete() {
    let dropped = Dropped::default();
    let app = router(server(&dropped), "/mcp", HttpConfig::default());
    let session = initialize(&app).await;
    let call =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "where"}});
    let (status, body) = answer(&app, post(Some(&session), &call)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body["result"]["structuredContent"],
        json!({"transport": "http", "id": session}),
        "{body}"
    );
    assert!(!dropped.seen(), "kept while the session lives");
    let delete = Request::delete("/mcp")
        .header("mcp-session-id", &session)
        .body(axum::body::Body::empty())
        .unwrap();
    assert_eq!(send(&app, delete).await.status(), StatusCode::OK);
    assert!(dropped.seen(), "dropped when the session ended");
}

#[tokio::test]
async fn a_modern_http_request_has_no_connection() {
    let dropped = Dropped::default();
    let app = router(server(&dropped), "/mcp", HttpConfig::default());
    let request = post_bytes(
        &headers("tools/call", Some("where")),
        serde_json::to_vec(&call_body(1, "where")).unwrap(),
    );
    let (status, body) = answer(&app, request).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body["result"]["structuredContent"],
        json!({"transport": null, "id": null}),
        "{body}"
    );
}

#[tokio::test]
async fn a_memory_client_connection_is_named_memory_and_drops_what_it_kept_with_the_client() {
    let dropped = Dropped::default();
    let server = server(&dropped);
    let client = MemoryClient::new(&server).connected();
    let result = client.call_tool("where", json!({})).await.unwrap();
    assert_eq!(
        result.structured_content,
        Some(json!({"transport": "memory", "id": null}))
    );
    assert!(!dropped.seen());
    drop(client);
    assert!(dropped.seen(), "dropped with the client's connection");
}
