use mcp_server::core::error::ErrorObject;
use mcp_server::BoxFuture;
use mcp_server::interceptor;
use mcp_server::seam::interceptor::{RawAnswer, RawCall, RawInterceptor, RawNext};

#[derive(Default)]
struct Count;

#[interceptor(stratum = "AUDIT")]
impl RawInterceptor for Count {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        next.run(call)
    }
}

fn main() {}
