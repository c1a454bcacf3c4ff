use mcp_server::prompt;

/// Not async.
#[prompt]
fn review(code: String) -> String {
    code
}

fn main() {}
