//! The public test kit passes against both stores the extension ships.

use std::sync::Arc;

use mcp_tasks::store::{MemoryTaskStore, SqliteTaskStore, TaskStore};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_memory_store_keeps_the_whole_contract() {
    mcp_tasks::tck::check(Arc::new(MemoryTaskStore::default())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_store_keeps_the_whole_contract() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteTaskStore::open(dir.path().join("tasks.db")).unwrap();
    mcp_tasks::tck::check(Arc::new(store)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_store_reopened_on_its_file_has_every_task_as_last_written() {
    use mcp_tasks::record::{Outcome, TaskRecord, Update, Wire, now_ms};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tasks.db");
    let ids: Vec<String> = {
        let store = SqliteTaskStore::open(&path).unwrap();
        let mut ids = Vec::new();
        for n in 0..10 {
            let record = TaskRecord::new(
                format!("task-{n}"),
                "ada",
                Wire::Extension,
                "tool",
                now_ms(),
            );
            store.create(record).await.unwrap();
            if n % 2 == 0 {
                let done = Outcome::completed(
                    serde_json::from_value(serde_json::json!({"n": n})).unwrap(),
                );
                store
                    .update(&format!("task-{n}"), Update::Finish(done), now_ms())
                    .await
                    .unwrap();
            }
            ids.push(format!("task-{n}"));
        }
        ids
    };
    let store = SqliteTaskStore::open(&path).unwrap();
    for (n, id) in ids.iter().enumerate() {
        let record = store
            .get(id)
            .await
            .unwrap()
            .expect("every task survives a reopen");
        let completed = record.status == mcp_server::core::ext::tasks::TaskStatus::Completed;
        assert_eq!(completed, n % 2 == 0, "{id} keeps its last status");
    }
}
