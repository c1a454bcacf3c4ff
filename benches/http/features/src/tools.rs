//! The one tool the benchmark calls.

use mcp_server::tool;

/// Answers with the text it was given.
#[tool(read_only)]
async fn echo(text: String) -> String {
    text
}
