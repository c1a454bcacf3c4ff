use mcp_interceptors::{Failure, Invocation, Validate, Validation, mutator};
use mcp_server::BoxFuture;

#[derive(Default)]
struct Guard;

#[mutator(request = ["tools/call"])]
impl Validate for Guard {
    fn validate<'a>(&'a self, _: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        Box::pin(async { Ok(Validation::valid()) })
    }
}

fn main() {}
