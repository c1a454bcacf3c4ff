use mcp_server::completion;

/// Returns one value, not a list.
#[completion(prompt = "trip", argument = "city")]
async fn cities(value: String) -> String {
    value
}

fn main() {}
