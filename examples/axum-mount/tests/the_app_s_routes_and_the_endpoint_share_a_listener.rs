//! The example, run as a user runs it: the app's own route and the MCP
//! endpoint answer on one port.

use std::io::Read;
use std::process::{Command, Stdio};

use mcp_tests::http::{free_port, spawn_listening};
use serde_json::json;

#[test]
fn an_own_route_and_a_tool_answer_on_one_port() {
    let port = free_port();
    let server = spawn_listening(
        Command::new(env!("CARGO_BIN_EXE_axum-mount"))
            .arg(format!("127.0.0.1:{port}"))
            .stderr(Stdio::null()),
        port,
    );
    let page = server.get("/orders/7");
    assert_eq!(page.status, 200);
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    std::io::Write::write_all(
        &mut stream,
        b"GET /orders/7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    assert!(text.ends_with("order 7: shipped"), "{text}");
    let call = json!({"name": "order_status", "arguments": {"id": 7}});
    let answer = server.request("tools/call", Some("order_status"), call);
    assert_eq!(
        answer["result"]["content"][0]["text"], "order 7: shipped",
        "{answer}"
    );
}
