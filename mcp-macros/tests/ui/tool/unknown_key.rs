use mcp_server::tool;

/// A misspelt key.
#[tool(readonly)]
async fn echo(text: String) -> String {
    text
}

fn main() {}
