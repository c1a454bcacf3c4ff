use mcp_interceptors::{Invocation, Mutation, mutator};

#[mutator(request = ["tools/call"], priority = 1, priority = 2)]
fn rewrite(_: &Invocation) -> Mutation {
    Mutation::unchanged()
}

fn main() {}
