//! `mcp-demo --http` on a Redis that requires a password: `/readyz` fails
//! within one check timeout of Redis going away, naming the `redis` check,
//! while `/healthz` stays `200`; it passes again once Redis is back; and
//! neither answer ever holds the URL or the password.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_tests::http::{ServerProcess, free_port, spawn_listening};
use mcp_tests::redis::RedisServer;
use serde_json::Value;

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-demo");
const PASSWORD: &str = "s3cret-pa55word";

fn demo(redis: &RedisServer) -> ServerProcess {
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

/// A probe's status and body, checked to reveal nothing of the URL.
fn probe(demo: &ServerProcess, path: &str, redis: &RedisServer) -> (u16, Value) {
    let reply = demo.get(path);
    let status = reply.status;
    let body = reply.json();
    let text = body.to_string();
    assert!(!text.contains(PASSWORD), "{text}");
    assert!(!text.contains(&redis.url()), "{text}");
    assert!(!text.contains("redis://"), "{text}");
    (status, body)
}

fn redis_check(body: &Value) -> Value {
    body["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "redis")
        .unwrap_or_else(|| panic!("no redis check: {body}"))
        .clone()
}

#[test]
fn readiness_fails_while_redis_is_away_and_comes_back_with_it() {
    let Some(mut redis) = RedisServer::start_with_password(PASSWORD) else {
        return;
    };
    let demo = demo(&redis);
    let (status, body) = probe(&demo, "/readyz", &redis);
    assert_eq!(status, 200, "{body}");
    assert_eq!(redis_check(&body)["status"], "pass");

    redis.kill();
    // The probe answers rather than waiting on Redis: its check has failed
    // or run out of time.
    let (status, body) = probe(&demo, "/readyz", &redis);
    assert_eq!(status, 503, "{body}");
    let check = redis_check(&body);
    assert!(
        check["status"] == "fail" || check["status"] == "timeout",
        "{check}"
    );
    let (status, _) = probe(&demo, "/healthz", &redis);
    assert_eq!(status, 200, "liveness does not depend on Redis");

    redis.restart();
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, body) = probe(&demo, "/readyz", &redis);
        if status == 200 {
            assert_eq!(redis_check(&body)["status"], "pass");
            break;
        }
        assert!(
            Instant::now() < until,
            "readiness did not come back: {body}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}
