//! The task store on a real Redis passes the public store TCK of
//! `mcp-tasks`, unchanged.

use mcp_server::Server;
use mcp_tasks::store::TaskStore;
use mcp_tests::redis::RedisServer;

use mcp_redis as _;

/// Echoes its text (`mcp-tasks` wraps the tool methods, so a server has one).
#[mcp_server::tool]
async fn echo(text: String) -> String {
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_redis_task_store_passes_the_store_tck() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let server = Server::builder().setting("redis.url", redis.url()).build();
    let store = server
        .active::<dyn TaskStore>()
        .expect("a task store is active");
    assert!(
        store.describe().starts_with("redis at 127.0.0.1:"),
        "{}",
        store.describe()
    );
    mcp_tasks::tck::check(store).await;
}

#[test]
fn without_a_url_the_in_process_defaults_stay() {
    let server = Server::builder().build();
    let report = server.report().to_string();
    assert!(report.contains("MemoryTaskStore"), "{report}");
    assert!(report.contains("`redis.url` is not set"), "{report}");
}

#[test]
fn a_url_that_does_not_parse_fails_boot_saying_so() {
    let errors = Server::builder()
        .setting("redis.url", "http://not-redis")
        .try_build()
        .unwrap_err()
        .to_string();
    assert!(errors.contains("error[mcp_redis::invalid_url]"), "{errors}");
}
