//! stdio: at the end of its input the transport returns, even while work
//! that outlives its request (as a task's run does) still holds the
//! connection and waits for the client to answer a question; that question
//! ends as cancelled instead of waiting out its input timeout.

mod support;

use std::time::Duration;

use mcp_server::context::InputError;
use mcp_server::core::elicitation::{ElicitRequestFormParams, ElicitRequestParams};
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::transport::stdio;
use serde_json::{Value, json};
use support::{builder, origin, tool};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

#[tokio::test]
async fn the_transport_returns_at_the_end_of_input_while_background_work_waits_for_the_client() {
    let (asked, mut outcome) = mpsc::unbounded_channel::<Result<(), InputError>>();
    let server = builder()
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(move |c| {
                let asked = asked.clone();
                c.tool(
                    tool("start"),
                    handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                        let asked = asked.clone();
                        async move {
                            // Work that goes on after the request is answered.
                            let ctx = ctx.clone();
                            tokio::spawn(async move {
                                let question = ElicitRequestParams::Form(ElicitRequestFormParams {
                                    meta: None,
                                    mode: None,
                                    message: "Go on?".into(),
                                    requested_schema: Default::default(),
                                    task: None,
                                });
                                let _ = asked.send(ctx.elicit(question).await.map(|_| ()));
                            });
                            Ok(CallToolResult::text("started"))
                        }
                    }),
                );
            }),
        )
        .build();
    let (mut input, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, output) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(stdio::serve(server, server_in, server_out));
    let mut output = BufReader::new(output).lines();
    for line in [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "c", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "start", "arguments": {}}}),
    ] {
        input
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }
    // The answer to the call and the question of the work it left running,
    // in either order.
    let (mut answered, mut questioned) = (false, false);
    while !(answered && questioned) {
        let line = tokio::time::timeout(Duration::from_secs(10), output.next_line())
            .await
            .expect("a line within 10 s")
            .unwrap()
            .expect("the server goes on");
        let message: Value = serde_json::from_str(&line).unwrap();
        answered |= message["id"] == 1 && message["result"]["content"][0]["text"] == "started";
        questioned |= message["method"] == "elicitation/create";
    }
    // The client goes away without answering.
    drop(input);
    let ended = tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("the transport returns at the end of its input, not at the input timeout");
    assert!(ended.unwrap().is_ok());
    let answer = tokio::time::timeout(Duration::from_secs(10), outcome.recv())
        .await
        .expect("the question ends with the connection")
        .unwrap();
    assert!(matches!(answer, Err(InputError::Cancelled)), "{answer:?}");
}
