//! `tasks/list` (2025-11-25) answers one page in a time that does not grow
//! with the number of tasks its owner has made.
//!
//! Found by the fuzz driver: its inputs/s fell from 19,500 to 3,600 over a
//! run of a million inputs, half the CPU in `MemoryTaskStore::list`, which
//! clones and sorts every record of the owner (every anonymous client is
//! one owner) under the store's mutex to answer one page of 64: about
//! 2.5 µs a task in release, 127 ms at 50,000 tasks, so seconds within the
//! hour a task is kept, with every other task request of the server
//! waiting on the mutex.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_server::Caller;
use mcp_server::connection::Connection;

const TASKS: usize = 20_000;

#[tokio::test]
#[ignore = "mcp-tasks' MemoryTaskStore::list (mcp-tasks/src/store/memory.rs:80) clones and sorts \
            every task of the owner under the store's mutex for each page"]
async fn one_page_of_tasks_list_answers_in_time_after_twenty_thousand_tasks() {
    let server = mcp_demo::builder().without_environment().build();
    let caller = Caller::on(Arc::new(Connection::default()));
    let initialize = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{},"tasks":{"requests":{"tools":{"call":{}}}}},"clientInfo":{"name":"many-tasks","version":"1"}}}"#;
    server.handle(initialize, &caller).await.unwrap();
    let initialized = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert!(server.handle(initialized, &caller).await.is_none());
    let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"confirm_delete","arguments":{"filename":"a"},"task":{"ttl":3600000}}}"#;
    for _ in 0..TASKS {
        let reply = server.handle(call, &caller).await.unwrap();
        assert!(String::from_utf8_lossy(&reply).contains("taskId"));
    }
    let list = br#"{"jsonrpc":"2.0","id":2,"method":"tasks/list"}"#;
    let started = Instant::now();
    let reply = server.handle(list, &caller).await.unwrap();
    let took = started.elapsed();
    assert!(String::from_utf8_lossy(&reply).contains("nextCursor"));
    assert!(
        took < Duration::from_millis(25),
        "one page of tasks/list took {took:?} with {TASKS} tasks"
    );
}
