//! The example, run as a user runs it: a call becomes a task kept in the
//! SQLite file, and `tasks/cancel` stops it.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_tests::http::{free_port, spawn_listening};
use serde_json::json;

#[test]
fn a_long_count_becomes_a_task_and_is_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("tasks.db");
    let port = free_port();
    let server = spawn_listening(
        Command::new(env!("CARGO_BIN_EXE_long-task"))
            .arg(format!("127.0.0.1:{port}"))
            .arg(&database)
            .stderr(Stdio::null()),
        port,
    );
    let tasks = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let call = json!({"name": "count_slowly", "arguments": {"to": 600}});
    let handle = server.request_declaring("tools/call", Some("count_slowly"), call, tasks.clone());
    assert_eq!(handle["result"]["resultType"], "task", "{handle}");
    let id = handle["result"]["taskId"].as_str().unwrap().to_owned();
    assert!(
        std::fs::metadata(&database).unwrap().len() > 0,
        "the task is kept in SQLite"
    );

    let by_id = json!({"taskId": id});
    server.request_declaring("tasks/cancel", Some(&id), by_id.clone(), tasks.clone());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let task = server.request_declaring("tasks/get", Some(&id), by_id.clone(), tasks.clone());
        if task["result"]["status"] == "cancelled" {
            break;
        }
        assert!(Instant::now() < deadline, "never cancelled: {task}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
