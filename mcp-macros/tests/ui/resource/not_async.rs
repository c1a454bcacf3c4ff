use mcp_server::resource;

/// Not async.
#[resource(uri = "file:///README.md")]
fn readme() -> String {
    String::new()
}

fn main() {}
