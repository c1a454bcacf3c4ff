use mcp_server::completion;

/// Which argument of `trip`?
#[completion(prompt = "trip")]
async fn cities(value: String) -> Vec<String> {
    vec![value]
}

fn main() {}
