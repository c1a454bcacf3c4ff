//! Linking acme-stamp is all it takes: each progress notification a call
//! sends carries its number in `_meta["dev.acme/stamp"]`, while the
//! notifications the stamp does not hook pass untouched.

use mcp_server::Server;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::testing::MemoryClient;
use mcp_server::{RequestContext, origin};
use serde_json::{Value, json};

#[tokio::test]
async fn each_progress_notification_of_a_call_is_numbered_in_its_meta() {
    let server = Server::builder()
        .without_environment()
        .contributor(
            origin!(),
            "count-up",
            contributor_fn(|c| {
                c.tool(
                    Tool {
                        name: "count_up".into(),
                        ..Tool::default()
                    },
                    handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
                        for n in 1..=3u32 {
                            ctx.progress().report(f64::from(n), None, None);
                        }
                        Ok(CallToolResult::text("counted"))
                    }),
                );
            }),
        )
        .build();
    assert!(
        server
            .report()
            .members
            .iter()
            .any(|m| m.name == "acme-stamp" && m.kind == "sending interceptor"),
        "{}",
        server.report()
    );
    let client = MemoryClient::new(&server);
    for _ in 0..2 {
        client
            .request_raw(
                "tools/call",
                json!({"name": "count_up", "_meta": {"progressToken": 7}}),
            )
            .await
            .unwrap();
        let stamps: Vec<Value> = client
            .take_notifications()
            .iter()
            .map(|n| n.params_as::<Value>().unwrap()["_meta"][acme_stamp::STAMP].clone())
            .collect();
        // Numbered per request.
        assert_eq!(
            stamps,
            [1, 2, 3].map(|seq| json!({"by": "acme-stamp", "seq": seq}))
        );
    }
}
