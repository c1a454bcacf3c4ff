use mcp_interceptors::{Invocation, validator};

#[validator(request = ["tools/call"])]
fn guard(_: &Invocation) -> bool {
    true
}

fn main() {}
