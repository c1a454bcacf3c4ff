//! The example, run over stdio: the prompt, the resource, the template and
//! both completions.

use std::process::Command;

use mcp_tests::process::{over_stdio, session};
use serde_json::json;

#[test]
fn the_prompt_the_resources_and_the_completions_answer() {
    let answers = over_stdio(
        &mut Command::new(env!("CARGO_BIN_EXE_prompts-and-resources")),
        &session(&[
            (
                "prompts/get",
                json!({"name": "adapt", "arguments": {"recipe": "pesto", "guests": "6"}}),
            ),
            ("resources/read", json!({"uri": "recipes://index"})),
            ("resources/read", json!({"uri": "recipes://polenta"})),
            (
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "adapt"}, "argument": {"name": "recipe", "value": "p"}}),
            ),
            (
                "completion/complete",
                json!({"ref": {"type": "ref/resource", "uri": "recipes://{name}"}, "argument": {"name": "name", "value": "pe"}}),
            ),
        ]),
    );
    let prompt = &answers[1]["result"]["messages"][0]["content"]["text"];
    assert_eq!(
        prompt,
        "Adapt the recipe `pesto` for 6 guests; keep the steps short."
    );
    assert_eq!(
        answers[2]["result"]["contents"][0]["text"],
        "pancakes\npesto\npolenta"
    );
    assert!(
        answers[3]["result"]["contents"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Cornmeal")
    );
    assert_eq!(
        answers[4]["result"]["completion"]["values"],
        json!(["pancakes", "pesto", "polenta"])
    );
    assert_eq!(
        answers[5]["result"]["completion"]["values"],
        json!(["pesto"])
    );
}
