use mcp_server::core::error::ErrorObject;
use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult};
use mcp_server::seam::interceptor::{Answer, TypedInterceptor, TypedNext};
use mcp_server::{BoxFuture, RequestContext};
use mcp_server::handler::Reply;

/// Would ask for a proof with a context and params of its choosing (a
/// stashed admin's context, say).
struct Borrowed(RequestContext);

impl TypedInterceptor<CallTool> for Borrowed {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        Box::pin(async move {
            let proof = next.authorize(&self.0, &params)?;
            Ok(proof.answer(Reply::Complete(CallToolResult::text("borrowed"))))
        })
    }
}

fn main() {}
