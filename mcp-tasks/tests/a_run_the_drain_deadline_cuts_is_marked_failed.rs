//! A server's drain waits for the tasks it runs in process; one still
//! running when the drain's deadline passes is marked `failed`, saying the
//! server shut down, and never left `working` in the store until its time
//! to live runs out. One that finishes within the deadline completes.

use std::time::Duration;

use mcp_server::testing::MemoryClient;
use mcp_server::{Server, tool};
use serde_json::{Value, json};

/// Works for `millis` milliseconds.
#[tool]
async fn drained_work(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    "worked".into()
}
mcp_tasks::task!(drained_work);

fn client(server: &Server) -> MemoryClient {
    MemoryClient::new(server).with_capabilities(
        serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
            .unwrap(),
    )
}

async fn start(client: &MemoryClient, millis: u64) -> String {
    let handle = client
        .request_raw(
            "tools/call",
            json!({"name": "drained_work", "arguments": {"millis": millis}}),
        )
        .await
        .unwrap();
    assert_eq!(handle["resultType"], "task", "{handle}");
    handle["task"]["taskId"]
        .as_str()
        .or(handle["taskId"].as_str())
        .unwrap()
        .to_owned()
}

async fn task(client: &MemoryClient, id: &str) -> Value {
    client
        .request_raw("tasks/get", json!({"taskId": id}))
        .await
        .unwrap()
}

#[tokio::test]
async fn the_drain_waits_for_a_short_task_and_marks_a_cut_one_failed() {
    let server = Server::builder()
        .setting("server.drain_timeout_s", 1)
        .build();
    let client = client(&server);
    let short = start(&client, 200).await;
    let long = start(&client, 60_000).await;
    assert_eq!(server.shutdown().held(), 2, "the drain holds both runs");
    server.shutdown().begin();
    let drained = server.shutdown().drained().await;
    assert_eq!(drained.cut, 1, "the long task was cut");
    let short = task(&client, &short).await;
    assert_eq!(short["status"], "completed", "{short}");
    let long = task(&client, &long).await;
    assert_eq!(long["status"], "failed", "{long}");
    assert!(
        long.to_string()
            .contains("shut down before the task finished"),
        "{long}"
    );
}
