use mcp_interceptors::{Invocation, Mutation, mutator};

#[mutator(name = "idle")]
fn idle(_: &Invocation) -> Mutation {
    Mutation::unchanged()
}

fn main() {}
