use mcp_server::completion;

/// A misspelt key.
#[completion(prompt = "trip", arg = "city")]
async fn cities(value: String) -> Vec<String> {
    vec![value]
}

fn main() {}
