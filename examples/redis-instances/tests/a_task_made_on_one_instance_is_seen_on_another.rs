//! Two instances of the example on one real Redis (a `redis-server` of the
//! test's own): a task created on the first is polled and cancelled on
//! the second.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_tests::http::{ServerProcess, free_port, spawn_listening};
use mcp_tests::redis::RedisServer;
use serde_json::json;

fn instance(redis: &RedisServer) -> ServerProcess {
    let port = free_port();
    spawn_listening(
        Command::new(env!("CARGO_BIN_EXE_redis-instances"))
            .arg(format!("127.0.0.1:{port}"))
            .env("MCP_REDIS__URL", redis.url())
            .env(
                "MCP_SERVER__REQUEST_STATE_KEY",
                "an example key of thirty-two bytes or more",
            )
            .stderr(Stdio::null()),
        port,
    )
}

#[test]
fn a_task_made_on_one_instance_is_polled_and_cancelled_on_another() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (first, second) = (instance(&redis), instance(&redis));
    let tasks = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let call = json!({"name": "wait", "arguments": {"seconds": 600}});
    let handle = first.request_declaring("tools/call", Some("wait"), call, tasks.clone());
    let id = handle["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("{handle}"))
        .to_owned();
    let by_id = json!({"taskId": id});

    let seen = second.request_declaring("tasks/get", Some(&id), by_id.clone(), tasks.clone());
    assert_eq!(seen["result"]["status"], "working", "{seen}");
    second.request_declaring("tasks/cancel", Some(&id), by_id.clone(), tasks.clone());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let task = first.request_declaring("tasks/get", Some(&id), by_id.clone(), tasks.clone());
        if task["result"]["status"] == "cancelled" {
            break;
        }
        assert!(Instant::now() < deadline, "never cancelled: {task}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
