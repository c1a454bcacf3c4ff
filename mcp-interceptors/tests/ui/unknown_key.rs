use mcp_interceptors::{Invocation, Validation, validator};

#[validator(request = ["tools/call"], phase = "request")]
fn guard(_: &Invocation) -> Validation {
    Validation::valid()
}

fn main() {}
