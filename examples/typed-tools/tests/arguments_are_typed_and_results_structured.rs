//! The example, run over stdio: its schemas, a structured result, and a
//! wrong argument refused with a readable error.

use std::process::Command;

use mcp_tests::process::{over_stdio, session};
use serde_json::json;

#[test]
fn the_schemas_a_structured_quote_and_a_refused_argument() {
    let answers = over_stdio(
        &mut Command::new(env!("CARGO_BIN_EXE_typed-tools")),
        &session(&[
            ("tools/list", json!({})),
            (
                "tools/call",
                json!({"name": "quote", "arguments": {"quantity": 3, "unit_cents": 250, "speed": "express"}}),
            ),
            (
                "tools/call",
                json!({"name": "quote", "arguments": {"quantity": "three", "unit_cents": 250}}),
            ),
        ]),
    );
    let tool = &answers[1]["result"]["tools"][0];
    let speeds = &tool["inputSchema"]["$defs"]["Speed"]["oneOf"];
    assert_eq!(speeds[1]["const"], "express", "{tool}");
    assert!(
        tool["outputSchema"]["properties"]["total_cents"].is_object(),
        "{tool}"
    );
    assert_eq!(
        answers[2]["result"]["structuredContent"],
        json!({"total_cents": 2250, "days": 1})
    );
    assert_eq!(answers[3]["result"]["isError"], true, "{}", answers[3]);
}
