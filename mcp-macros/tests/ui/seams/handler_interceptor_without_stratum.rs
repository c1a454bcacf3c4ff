use mcp_server::core::error::ErrorObject;
use mcp_server::BoxFuture;
use mcp_server::interceptor;
use mcp_server::seam::interceptor::{HandlerCall, HandlerInterceptor, HandlerNext, Settled};

#[derive(Default)]
struct Audit;

#[interceptor(order = 10)]
impl HandlerInterceptor for Audit {
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        next.run(call)
    }
}

fn main() {}
