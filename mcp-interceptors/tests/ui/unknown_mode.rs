use mcp_interceptors::{Invocation, Validation, validator};

#[validator(request = ["tools/call"], mode = "passive")]
fn guard(_: &Invocation) -> Validation {
    Validation::valid()
}

fn main() {}
