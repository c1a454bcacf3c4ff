use mcp_server::prompt;

/// Prompt arguments are text.
#[prompt]
async fn repeat(times: u32) -> String {
    "again ".repeat(times as usize)
}

fn main() {}
