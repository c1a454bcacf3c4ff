//! The application, run over stdio: the extension's tool answers with the
//! phrasebook the application supplied, not the extension's default.

use std::process::Command;

use mcp_tests::process::{over_stdio, session};
use serde_json::json;

#[test]
fn greet_answers_in_the_application_s_language() {
    let answers = over_stdio(
        &mut Command::new(env!("CARGO_BIN_EXE_own-seam-app")),
        &session(&[(
            "tools/call",
            json!({"name": "greet", "arguments": {"name": "Ada"}}),
        )]),
    );
    assert_eq!(answers[1]["result"]["content"][0]["text"], "Bonjour, Ada !");
}
