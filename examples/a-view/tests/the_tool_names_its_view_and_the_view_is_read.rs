//! The example, run over stdio: the tool is listed with its View, and the
//! View is read as an MCP App.

use std::process::Command;

use mcp_tests::process::{over_stdio, session};
use serde_json::json;

#[test]
fn the_tool_names_its_view_and_the_view_is_read() {
    let answers = over_stdio(
        &mut Command::new(env!("CARGO_BIN_EXE_a-view")),
        &session(&[
            ("tools/list", json!({})),
            ("resources/read", json!({"uri": "ui://weather/card"})),
            (
                "tools/call",
                json!({"name": "weather", "arguments": {"city": "Lyon"}}),
            ),
        ]),
    );
    assert_eq!(
        answers[1]["result"]["tools"][0]["_meta"]["ui"]["resourceUri"],
        "ui://weather/card"
    );
    let view = &answers[2]["result"]["contents"][0];
    assert_eq!(view["mimeType"], "text/html;profile=mcp-app");
    assert!(
        view["text"]
            .as_str()
            .unwrap()
            .starts_with("<!DOCTYPE html>")
    );
    assert_eq!(answers[3]["result"]["structuredContent"]["celsius"], 21);
}
