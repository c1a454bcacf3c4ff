use mcp_server::resource;

/// A fixed resource has no variables to take.
#[resource(uri = "file:///README.md")]
async fn readme(path: String) -> String {
    path
}

fn main() {}
