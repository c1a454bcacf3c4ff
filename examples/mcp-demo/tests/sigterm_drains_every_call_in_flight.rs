//! `mcp-demo --http` under a rolling deploy's SIGTERM: 20 calls of
//! `slow_compute` (2 s each, inline: the client declares no tasks
//! extension) are in flight when the signal comes. Every one completes
//! with its result; a new MCP request during the drain gets `503` at once;
//! `/readyz` answers `503` while `/healthz` stays `200`; the process exits
//! 0 soon after the last response; and a second SIGTERM ends a drain at
//! once. Spoken to in plain HTTP/1.1 over TCP.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_tests::http::{ServerProcess, VERSION, free_port, spawn_listening};
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-demo");

fn demo() -> ServerProcess {
    let port = free_port();
    spawn_listening(
        Command::new(BINARY)
            .args(["--http", &format!("127.0.0.1:{port}")])
            .env_remove("MCP_REDIS__URL")
            .env_remove("MCP_TASKS__STORE")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        port,
    )
}

fn slow_call(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": "slow_compute", "arguments": {"seconds": 2},
        "_meta": {"io.modelcontextprotocol/protocolVersion": VERSION,
                  "io.modelcontextprotocol/clientCapabilities": {}}}})
}

fn headers(name: &str) -> Vec<(&str, &str)> {
    vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", VERSION),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", name),
    ]
}

#[test]
fn twenty_calls_in_flight_complete_and_the_process_exits_0() {
    let mut demo = demo();
    let port = demo.port();
    let calls: Vec<_> = (1..=20)
        .map(|id| {
            std::thread::spawn(move || {
                let reply = mcp_tests::http::http1_request(
                    port,
                    "POST",
                    "/mcp",
                    &headers("slow_compute"),
                    slow_call(id).to_string().as_bytes(),
                );
                (reply.status, reply.json(), Instant::now())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(700));
    demo.terminate();
    std::thread::sleep(Duration::from_millis(100));

    // New work is refused at once, while the probes still answer: the
    // refusal comes back while the drain still holds every call.
    let refused = demo.send("POST", &headers("slow_compute"), Some(&slow_call(99)));
    let refused_at = Instant::now();
    assert_eq!(refused.status, 503);
    assert_eq!(refused.headers["connection"], "close");
    assert!(refused.headers.contains_key("retry-after"));
    let ready = demo.get("/readyz");
    assert_eq!(ready.status, 503);
    assert_eq!(ready.json()["draining"], true);
    assert_eq!(demo.get("/healthz").status, 200);

    for call in calls {
        let (status, body, at) = call.join().unwrap();
        assert_eq!(status, 200, "{body}");
        assert!(
            body["result"]["content"][0]["text"].is_string(),
            "a call completed with its result: {body}"
        );
        assert!(
            refused_at < at,
            "the refusal waited for a call of the drain"
        );
    }
    // The drain's own limit is 30 s; the process ends with its last call.
    let status = demo
        .wait_for_exit(Duration::from_secs(10))
        .expect("the process exits after the drain");
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_second_sigterm_ends_the_drain_at_once() {
    let mut demo = demo();
    let port = demo.port();
    let call = std::thread::spawn(move || {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "slow_compute", "arguments": {"seconds": 20},
            "_meta": {"io.modelcontextprotocol/protocolVersion": VERSION,
                      "io.modelcontextprotocol/clientCapabilities": {}}}});
        let _ = std::panic::catch_unwind(|| {
            mcp_tests::http::http1_request(
                port,
                "POST",
                "/mcp",
                &headers("slow_compute"),
                body.to_string().as_bytes(),
            )
            .status
        });
    });
    std::thread::sleep(Duration::from_millis(500));
    demo.terminate();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        demo.wait_for_exit(Duration::from_millis(200)).is_none(),
        "still draining"
    );
    // The call in flight would hold the drain for 20 s.
    demo.terminate();
    let status = demo.wait_for_exit(Duration::from_secs(10));
    assert!(status.is_some(), "the second signal ended it");
    let _ = call.join();
}
