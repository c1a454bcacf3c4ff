use mcp_interceptors::{Invocation, Validation, validator};

#[validator(request = [tools_call])]
fn guard(_: &Invocation) -> Validation {
    Validation::valid()
}

fn main() {}
