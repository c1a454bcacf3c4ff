use mcp_server::tool;

/// Not async.
#[tool]
fn echo(text: String) -> String {
    text
}

fn main() {}
