//! The task store is a readiness check: a SQLite store that answers keeps
//! the server ready; one that cannot read its tasks any more fails the
//! `task store` check, and readiness with it, while liveness holds.

use mcp_server::Server;
use mcp_server::seam::contributor::health::{Probe, Status};
use mcp_server::tool;
use mcp_tasks as _;

/// Files a report.
#[tool]
async fn file_report() -> String {
    "filed".into()
}
mcp_tasks::task!(file_report);

#[tokio::test]
async fn a_task_store_that_cannot_read_fails_readiness_and_only_readiness() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tasks.db");
    let server = Server::builder()
        .without_environment()
        .setting("tasks.store", "sqlite")
        .setting("tasks.sqlite_path", path.display().to_string())
        .build();
    assert!(
        server
            .report()
            .to_string()
            .contains("health check `task store`")
    );
    let ready = server.health(Probe::Readiness).await;
    assert!(ready.passes(), "{ready:?}");

    // Another process breaks the file under the running server.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("DROP TABLE tasks")
        .unwrap();
    let ready = server.health(Probe::Readiness).await;
    assert!(!ready.passes(), "{ready:?}");
    let store = ready
        .checks
        .iter()
        .find(|c| c.name == "task store")
        .unwrap();
    assert_eq!(store.status, Status::Fail);
    assert!(server.health(Probe::Liveness).await.passes());
}
