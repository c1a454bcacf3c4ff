use mcp_server::resource;

/// A template, written as a resource.
#[resource(uri = "file:///{path}")]
async fn file() -> String {
    String::new()
}

fn main() {}
