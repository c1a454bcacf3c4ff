use mcp_interceptors::{Invocation, Validation, validator};

#[validator(request = [])]
fn guard(_: &Invocation) -> Validation {
    Validation::valid()
}

fn main() {}
