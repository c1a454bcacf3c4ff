//! The example, run over stdio: a tool added by a call is listed and
//! answers, and adding it twice is refused with boot's diagnostic.

use std::process::Command;

use mcp_tests::process::{over_stdio, session};
use serde_json::json;

#[test]
fn a_shortcut_is_added_listed_called_and_not_added_twice() {
    let add =
        json!({"name": "add_shortcut", "arguments": {"name": "opening_hours", "answer": "9 to 5"}});
    let answers = over_stdio(
        &mut Command::new(env!("CARGO_BIN_EXE_runtime-catalog")),
        &session(&[
            ("tools/call", add.clone()),
            ("tools/list", json!({})),
            (
                "tools/call",
                json!({"name": "opening_hours", "arguments": {}}),
            ),
            ("tools/call", add),
        ]),
    );
    assert_eq!(
        answers[1]["result"]["content"][0]["text"],
        "added `opening_hours` (catalog version 1)"
    );
    let names: Vec<&str> = answers[2]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["add_shortcut", "opening_hours"]);
    assert_eq!(answers[3]["result"]["content"][0]["text"], "9 to 5");
    assert_eq!(answers[4]["result"]["isError"], true);
    assert!(
        answers[4]["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("mcp::duplicate_tool"),
        "{}",
        answers[4]
    );
}
