//! The example, run as a user runs it, with an introspection endpoint of
//! the test's own: no token gets 401, a reader's token sees and calls
//! `read_notes` only, and cannot call `purge_notes`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};

use mcp_tests::http::{VERSION, free_port, headers, spawn_listening};
use serde_json::{Value, json};

/// Answers RFC 7662 introspection: `reader` is active with `notes:read`
/// for `resource`; any other token is not active. Its address.
fn introspection(resource: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = value.trim().parse().unwrap();
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let answer = if String::from_utf8_lossy(&body).contains("token=reader") {
                json!({"active": true, "aud": resource, "sub": "ada", "scope": "notes:read", "exp": 4_000_000_000u64})
            } else {
                json!({"active": false})
            };
            let answer = answer.to_string();
            let mut stream = reader.into_inner();
            write!(stream, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}", answer.len()).unwrap();
        }
    });
    format!("http://{address}")
}

/// A 2026-07-28 request of `method` with `params`, bearing `token`.
fn ask(
    server: &mcp_tests::http::ServerProcess,
    method: &str,
    name: Option<&str>,
    params: Value,
    token: Option<&str>,
) -> (u16, Value) {
    let mut params = params;
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {}});
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let bearer = token.map(|t| format!("Bearer {t}"));
    let mut all = headers(method, name);
    all.push(("Content-Type", "application/json"));
    all.push(("Accept", "application/json, text/event-stream"));
    if let Some(bearer) = &bearer {
        all.push(("Authorization", bearer));
    }
    let reply = server.send("POST", &all, Some(&body));
    let status = reply.status;
    (status, reply.try_json().unwrap_or(Value::Null))
}

#[test]
fn no_token_is_refused_and_a_reader_sees_and_calls_read_notes_only() {
    let port = free_port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let issuer = introspection(resource.clone());
    let server = spawn_listening(
        Command::new(env!("CARGO_BIN_EXE_oauth-scopes"))
            .arg(format!("127.0.0.1:{port}"))
            .env("MCP_OAUTH__RESOURCE", &resource)
            .env(
                "MCP_OAUTH__AUTHORIZATION_SERVERS",
                format!("[\"{issuer}\"]"),
            )
            .env(
                "MCP_OAUTH__INTROSPECTION_ENDPOINT",
                format!("{issuer}/introspect"),
            )
            .env("MCP_OAUTH__INTROSPECTION_CLIENT_ID", "notes")
            .env("MCP_OAUTH__INTROSPECTION_CLIENT_SECRET", "s3cret")
            .stderr(Stdio::null()),
        port,
    );
    let (status, _) = ask(&server, "tools/list", None, json!({}), None);
    assert_eq!(status, 401);
    let (status, listed) = ask(&server, "tools/list", None, json!({}), Some("reader"));
    assert_eq!(status, 200, "{listed}");
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read_notes"]);
    let (_, read) = ask(
        &server,
        "tools/call",
        Some("read_notes"),
        json!({"name": "read_notes"}),
        Some("reader"),
    );
    assert_eq!(
        read["result"]["content"][0]["text"], "buy milk; call Ada",
        "{read}"
    );
    let (_, purge) = ask(
        &server,
        "tools/call",
        Some("purge_notes"),
        json!({"name": "purge_notes"}),
        Some("reader"),
    );
    assert!(
        purge["result"].is_null() && purge["error"].is_object(),
        "a reader cannot purge: {purge}"
    );
    let (status, _) = ask(&server, "tools/list", None, json!({}), Some("forged"));
    assert_eq!(status, 401);
}
