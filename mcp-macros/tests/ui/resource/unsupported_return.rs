use mcp_server::resource;

/// Returns something a resource cannot send.
#[resource(uri = "memo://count")]
async fn count() -> u32 {
    1
}

fn main() {}
