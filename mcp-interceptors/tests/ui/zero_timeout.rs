use mcp_interceptors::{Invocation, Validation, validator};

#[validator(request = ["tools/call"], timeout_ms = 0)]
fn guard(_: &Invocation) -> Validation {
    Validation::valid()
}

fn main() {}
