use mcp_server::prompt;

/// Returns something a prompt cannot send.
#[prompt]
async fn count() -> u32 {
    1
}

fn main() {}
