use mcp_interceptors::{Invocation, Mutation, mutator};

#[mutator(request = ["tools/call"], priority(reply = 3))]
fn rewrite(_: &Invocation) -> Mutation {
    Mutation::unchanged()
}

fn main() {}
