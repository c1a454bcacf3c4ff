use mcp_interceptors::{Validation, validator};

#[validator(request = ["tools/call"])]
fn guard(_: &str) -> Validation {
    Validation::valid()
}

fn main() {}
