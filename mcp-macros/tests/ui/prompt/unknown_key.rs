use mcp_server::prompt;

/// A misspelt key.
#[prompt(titel = "Review")]
async fn review(code: String) -> String {
    code
}

fn main() {}
