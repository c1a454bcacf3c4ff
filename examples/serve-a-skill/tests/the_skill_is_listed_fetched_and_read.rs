//! The example, run over stdio: its skill is listed, fetched and read.

use std::process::Command;

use mcp_tests::process::{over_stdio, session};
use serde_json::json;

const SKILL: &str = "skill://release-notes/SKILL.md";

#[test]
fn the_skill_is_listed_fetched_and_read() {
    let answers = over_stdio(
        &mut Command::new(env!("CARGO_BIN_EXE_serve-a-skill")),
        &session(&[
            ("skills/list", json!({})),
            ("skills/get", json!({"uri": SKILL})),
            ("resources/read", json!({"uri": SKILL})),
        ]),
    );
    assert_eq!(
        answers[0]["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"]["directoryRead"],
        true
    );
    assert_eq!(answers[1]["result"]["skills"][0]["uri"], SKILL);
    let entry = &answers[2]["result"]["skill"];
    assert_eq!(entry["frontmatter"]["name"], "release-notes");
    let text = answers[3]["result"]["contents"][0]["text"]
        .as_str()
        .unwrap();
    assert_eq!(entry["resources"][0]["size"], text.len());
}
