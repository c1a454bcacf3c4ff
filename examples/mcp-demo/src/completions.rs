//! Completions of prompt arguments.

use mcp_server::completion;

/// The values `arg1` of `test_prompt_with_arguments` completes to.
pub const ARG1_VALUES: [&str; 4] = ["testValue1", "test-alpha", "test-beta", "example"];

/// Completes `arg1` of `test_prompt_with_arguments`: the known values that start with what was typed.
#[completion(prompt = "test_prompt_with_arguments", argument = "arg1")]
pub async fn complete_arg1(value: String) -> Vec<String> {
    ARG1_VALUES
        .into_iter()
        .filter(|candidate| candidate.starts_with(&value))
        .map(str::to_owned)
        .collect()
}
