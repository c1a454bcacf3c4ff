use mcp_server::completion;

/// Not async.
#[completion(prompt = "trip", argument = "city")]
fn cities(value: String) -> Vec<String> {
    vec![value]
}

fn main() {}
