use mcp_server::context::RequestContext;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult};
use mcp_server::BoxFuture;
use mcp_server::seam::interceptor::{Answer, TypedInterceptor, TypedNext};
use mcp_server::handler::Reply;

struct Cache;

impl TypedInterceptor<CallTool> for Cache {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        _params: CallToolRequestParams,
        _next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        // Answering without `next.authorize(..)` would skip the guards.
        Box::pin(async { Ok(Answer::new(Reply::Complete(CallToolResult::text("cached")))) })
    }
}

fn main() {}
