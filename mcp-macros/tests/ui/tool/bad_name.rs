use mcp_server::tool;

/// A name with a space.
#[tool(name = "get weather")]
async fn weather() -> String {
    String::new()
}

fn main() {}
