//! Two `mcp-demo --http` processes on one real Redis serve a 2025-11-25
//! client as one server: its session, opened on A, with the log level it
//! set there, goes on on B; and after A is killed with SIGKILL, the
//! response stream it broke on A resumes on B with exactly what it
//! missed. Spoken to in plain HTTP/1.1 over TCP.

use std::process::{Command, Stdio};
use std::time::Duration;

use mcp_tests::http::{Event, LEGACY, ServerProcess, free_port, spawn_listening};
use mcp_tests::redis::RedisServer;
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-demo");

/// `mcp-demo --http` on the shared Redis, listening; killed with SIGKILL when dropped.
fn instance(redis: &RedisServer) -> ServerProcess {
    let port = free_port();
    spawn_listening(
        Command::new(BINARY)
            .args(["--http", &format!("127.0.0.1:{port}")])
            .env("MCP_REDIS__URL", redis.url())
            .env_remove("MCP_TASKS__STORE")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        port,
    )
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[test]
fn a_legacy_client_keeps_its_session_on_b_and_resumes_there_after_a_is_killed() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (mut a, b) = (instance(&redis), instance(&redis));

    let initialize = request(
        0,
        "initialize",
        json!({"protocolVersion": LEGACY, "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}),
    );
    let opened = a.post(None, &initialize);
    assert_eq!(opened.status, 200);
    let session = opened.headers["mcp-session-id"].clone();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(a.post(Some(&session), &initialized).status, 202);
    let set = request(1, "logging/setLevel", json!({"level": "warning"}));
    let set = a.post(Some(&session), &set);
    assert_eq!(set.status, 200);
    assert!(set.json()["result"].is_object());

    // B knows the session, and the level A set: only the warning goes out.
    let logging = request(2, "tools/call", json!({"name": "test_logging_tool"}));
    let on_b = b.post(Some(&session), &logging);
    assert_eq!(on_b.status, 200);
    let logged: Vec<Value> = if on_b.headers["content-type"].starts_with("text/event-stream") {
        on_b.events()
            .into_iter()
            .filter(|event| !event.data.is_empty())
            .map(|event| event.json())
            .collect()
    } else {
        vec![on_b.json()]
    };
    let levels: Vec<_> = logged
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .map(|m| m["params"]["level"].clone())
        .collect();
    assert_eq!(levels, [json!("warning")], "{logged:?}");
    assert_eq!(logged.last().unwrap()["id"], 2);

    // A stream on A breaks after its first progress; A finishes, then dies.
    let progress = request(
        3,
        "tools/call",
        json!({"name": "test_tool_with_progress", "_meta": {"progressToken": "p"}}),
    );
    let mut stream = a.post(Some(&session), &progress);
    assert_eq!(stream.status, 200);
    let priming = stream.event().unwrap().id;
    let first = stream.event().unwrap();
    assert_eq!(first.json()["method"], "notifications/progress");
    let first = first.id;
    drop(stream);
    std::thread::sleep(Duration::from_millis(600));
    a.kill();

    let resume = |last: &str| {
        let reply = b.send(
            "GET",
            &[
                ("Accept", "text/event-stream"),
                ("Mcp-Session-Id", &session),
                ("Mcp-Protocol-Version", LEGACY),
                ("Last-Event-ID", last),
            ],
            None,
        );
        assert_eq!(reply.status, 200);
        reply.events()
    };
    let missed = resume(first.as_deref().unwrap());
    let messages: Vec<Value> = missed.iter().map(Event::json).collect();
    assert_eq!(
        messages.len(),
        3,
        "two progress reports, then the result: {messages:?}"
    );
    assert_eq!(messages[0]["params"]["progress"], 50.0);
    assert_eq!(messages[1]["params"]["progress"], 100.0);
    assert_eq!(messages[2]["id"], 3);
    assert_eq!(messages[2]["result"]["content"][0]["text"], "p");

    // From the priming event: the first progress too, under its own id.
    let all = resume(priming.as_deref().unwrap());
    assert_eq!(all.len(), 4, "{all:?}");
    assert_eq!(all[0].id, first);
}
