use mcp_interceptors::{Failure, Invocation, Validate, Validation, validator};
use mcp_server::BoxFuture;

struct Guard {
    limit: usize,
}

#[validator(request = ["tools/call"])]
impl Validate for Guard {
    fn validate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        let long = i.payload().to_string().len() > self.limit;
        Box::pin(async move { Ok(if long { Validation::invalid("too long") } else { Validation::valid() }) })
    }
}

fn main() {}
