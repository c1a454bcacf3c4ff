//! MCP authorization is for HTTP: a stdio process is authenticated by the
//! credentials of its environment, or runs anonymous; and a server that
//! links the crate without configuring it serves as before.

mod support;

use axum::http::StatusCode;
use mcp_server::auth::Credentials;
use mcp_server::transport::http::Routes;
use mcp_server::transport::stdio::{StdioConfig, serve_with};
use mcp_server::{RequestContext, Server, tool};
use serde_json::{Value, json};
use support::{Issuer, app, ask, call, server};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use mcp_oauth as _;

/// Answers with the caller's subject.
#[tool(read_only)]
async fn whoami(ctx: RequestContext) -> String {
    ctx.principal()
        .subject
        .clone()
        .unwrap_or_else(|| "anonymous".into())
}

/// Needs a scope.
#[tool]
async fn secret_tool() -> &'static str {
    "secret"
}
mcp_oauth::require_scope!(tool "secret_tool", "notes:write");

/// Sends `requests` over stdio with `credentials`; the answers, in order.
async fn over_stdio(server: Server, credentials: Credentials, requests: &[Value]) -> Vec<Value> {
    let (mut to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let config = StdioConfig::default().credentials(credentials);
    let serving = tokio::spawn(serve_with(server, server_in, server_out, config));
    let mut lines = BufReader::new(from_server).lines();
    let mut answers = Vec::new();
    for request in requests {
        to_server
            .write_all(format!("{request}\n").as_bytes())
            .await
            .unwrap();
        let line = lines.next_line().await.unwrap().unwrap();
        answers.push(serde_json::from_str(&line).unwrap());
    }
    drop(to_server);
    serving.await.unwrap().unwrap();
    answers
}

fn stdio_call(id: i64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": {},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}})
}

#[tokio::test]
async fn a_stdio_process_runs_as_the_token_of_its_environment() {
    let issuer = Issuer::start().await;
    let token = issuer.token("erin", "notes:write");
    let answers = over_stdio(
        server(&issuer, &[]),
        Credentials::bearer_token(&token),
        &[stdio_call(1, "whoami"), stdio_call(2, "secret_tool")],
    )
    .await;
    assert_eq!(answers[0]["result"]["content"][0]["text"], "erin");
    assert_eq!(answers[1]["result"]["content"][0]["text"], "secret");
}

#[tokio::test]
async fn a_stdio_process_without_credentials_is_anonymous_and_not_challenged() {
    let issuer = Issuer::start().await;
    let answers = over_stdio(
        server(&issuer, &[]),
        Credentials::none(),
        &[stdio_call(1, "whoami"), stdio_call(2, "secret_tool")],
    )
    .await;
    assert_eq!(answers[0]["result"]["content"][0]["text"], "anonymous");
    assert_eq!(
        answers[1]["error"]["code"], -32602,
        "the scoped tool is hidden"
    );
}

#[tokio::test]
async fn a_stdio_process_with_a_refused_token_gets_the_challenge_as_its_error() {
    let issuer = Issuer::start().await;
    let answers = over_stdio(
        server(&issuer, &[]),
        Credentials::bearer_token("not-a-token"),
        &[stdio_call(1, "whoami")],
    )
    .await;
    assert_eq!(answers[0]["id"], 1);
    assert_eq!(answers[0]["error"]["code"], -32001);
    let header = answers[0]["error"]["data"]["wwwAuthenticate"]
        .as_str()
        .unwrap();
    assert!(header.contains("invalid_token"), "{header}");
}

#[tokio::test]
async fn a_linked_but_unconfigured_crate_changes_nothing() {
    let server = Server::builder().without_environment().build();
    assert!(server.members::<Routes>().is_empty());
    let report = server.report().to_string();
    assert!(
        report.contains("inactive: `oauth.resource` is not set"),
        "{report}"
    );
    let answer = ask(&app(server), call("whoami", None)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["result"]["content"][0]["text"], "anonymous");
}

#[tokio::test]
async fn a_resource_server_without_issuer_or_keys_fails_boot_naming_what_is_missing() {
    let error = Server::builder()
        .without_environment()
        .setting("oauth.resource", "http://mcp.example.test/mcp")
        .try_build()
        .unwrap_err()
        .to_string();
    for expected in [
        "error[mcp_oauth::invalid_configuration]",
        "uses `http`; a resource URI uses https",
        "`oauth.authorization_servers` is empty",
        "neither `oauth.jwks_uri` nor `oauth.introspection_endpoint` is set",
        "= help: set `oauth.resource`",
    ] {
        assert!(error.contains(expected), "`{expected}` is not in:\n{error}");
    }
}

#[test]
fn a_resource_whose_metadata_cannot_be_served_fails_boot_instead_of_half_installing() {
    let error = Server::builder()
        .without_environment()
        .setting("oauth.resource", "https://mcp.example.test/mcp*all")
        .setting(
            "oauth.authorization_servers",
            serde_json::json!(["https://auth.example.test"]),
        )
        .setting("oauth.jwks_uri", "https://auth.example.test/jwks.json")
        .try_build()
        .unwrap_err()
        .to_string();
    for expected in [
        "error[mcp_oauth::unservable_metadata]",
        "/.well-known/oauth-protected-resource/mcp*all",
        "= help: give `oauth.resource` a path of plain segments",
    ] {
        assert!(error.contains(expected), "`{expected}` is not in:\n{error}");
    }
}
