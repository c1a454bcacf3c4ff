use mcp_server::tool;

/// Returns something a tool cannot send.
#[tool]
async fn count() -> std::time::Duration {
    std::time::Duration::from_secs(1)
}

fn main() {}
