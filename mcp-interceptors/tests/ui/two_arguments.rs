use mcp_interceptors::{Invocation, Validation, validator};

#[validator(request = ["tools/call"])]
fn guard(_: &Invocation, _strict: bool) -> Validation {
    Validation::valid()
}

fn main() {}
