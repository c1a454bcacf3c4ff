//! The example, run over stdio as two callers: the support team sees and
//! calls `refund`; anyone else gets what a tool that does not exist gets.

use std::process::Command;

use mcp_tests::process::{over_stdio, session};
use serde_json::{Value, json};

/// The answers of the example started with `token` as its caller.
fn as_caller(token: &str) -> Vec<Value> {
    let messages = session(&[
        ("tools/list", json!({})),
        (
            "tools/call",
            json!({"name": "refund", "arguments": {"id": 7}}),
        ),
        (
            "tools/call",
            json!({"name": "no_such_tool", "arguments": {"id": 7}}),
        ),
    ]);
    let mut example = Command::new(env!("CARGO_BIN_EXE_guarded-tools"));
    over_stdio(
        example.env("MCP_AUTHORIZATION", format!("Bearer {token}")),
        &messages,
    )
}

fn names(answer: &Value) -> Vec<&str> {
    answer["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect()
}

#[test]
fn the_support_team_sees_refund_and_anyone_else_does_not() {
    let ada = as_caller("support-ada");
    assert_eq!(names(&ada[1]), ["order", "refund"]);
    assert_eq!(ada[2]["result"]["content"][0]["text"], "order 7: refunded");

    let bob = as_caller("bob");
    assert_eq!(names(&bob[1]), ["order"]);
    let hidden = bob[2]["error"].to_string().replace("refund", "NAME");
    let absent = bob[3]["error"].to_string().replace("no_such_tool", "NAME");
    assert_eq!(
        hidden, absent,
        "a hidden tool answers as one that does not exist"
    );
}
