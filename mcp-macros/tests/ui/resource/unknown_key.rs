use mcp_server::resource;

/// A misspelt key.
#[resource(uri = "file:///README.md", mime = "text/markdown")]
async fn readme() -> String {
    String::new()
}

fn main() {}
