use mcp_server::resource;

/// No URI.
#[resource(name = "readme")]
async fn readme() -> String {
    String::new()
}

fn main() {}
