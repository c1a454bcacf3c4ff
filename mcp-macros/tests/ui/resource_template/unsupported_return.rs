use mcp_server::resource_template;

/// Returns something a resource cannot send.
#[resource_template(uri_template = "memo://{n}")]
async fn count(n: u32) -> u32 {
    n
}

fn main() {}
