use mcp_interceptors::{Invocation, validator};

#[validator(request = ["tools/call"])]
fn guard(_: &Invocation) {}

fn main() {}
