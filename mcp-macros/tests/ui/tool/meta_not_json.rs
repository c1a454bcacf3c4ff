use mcp_server::tool;

/// Metadata that is not JSON.
#[tool(meta = "{team: search}")]
async fn find() -> String {
    String::new()
}

fn main() {}
