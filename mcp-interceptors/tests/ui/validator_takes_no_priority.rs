use mcp_interceptors::{Invocation, Validation, validator};

#[validator(request = ["tools/call"], priority = 5)]
fn ordered(_: &Invocation) -> Validation {
    Validation::valid()
}

fn main() {}
