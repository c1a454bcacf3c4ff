//! Both attributes' expansions compile under denied warnings and lints.
#![deny(warnings, missing_docs, unreachable_pub, unused_qualifications)]

use mcp_interceptors::{Failure, Invocation, Mutate, Mutation, Validation, mutator, validator};
use mcp_server::BoxFuture;

/// Passes everything.
#[validator(request = ["tools/call"], response = ["*"], mode = "audit")]
async fn pass(_: &Invocation) -> Validation {
    Validation::valid()
}

/// Fails on demand.
#[validator(name = "may-fail", request = ["prompts/get"], fail_open)]
fn may_fail(invocation: &Invocation) -> Result<Validation, String> {
    match invocation.arguments() {
        Some(_) => Ok(Validation::valid()),
        None => Err("no arguments".to_owned()),
    }
}

#[derive(Default)]
struct Keep;

/// Keeps every payload.
#[mutator(request = ["tools/call"], priority(request = -1), timeout_ms = 50)]
impl Mutate for Keep {
    fn mutate<'a>(&'a self, _: &'a Invocation) -> BoxFuture<'a, Result<Mutation, Failure>> {
        Box::pin(async { Ok(Mutation::unchanged()) })
    }
}

fn main() {}
