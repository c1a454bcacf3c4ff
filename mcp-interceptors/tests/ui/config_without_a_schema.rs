use mcp_interceptors::{Invocation, Mutation, mutator};

#[derive(serde::Deserialize)]
struct Masks {
    email: String,
}

#[mutator(request = ["tools/call"], config = Masks)]
fn redact(_: &Invocation) -> Mutation {
    Mutation::unchanged()
}

fn main() {}
