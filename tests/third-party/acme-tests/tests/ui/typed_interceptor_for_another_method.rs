use mcp_server::context::RequestContext;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::prompts::GetPrompt;
use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult};
use mcp_server::BoxFuture;
use mcp_server::seam::interceptor::{Answer, TypedInterceptor, TypedNext};
use mcp_server::seam::Item;

struct Stamp;

impl TypedInterceptor<CallTool> for Stamp {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        next.run(params)
    }
}

fn main() {
    // An interceptor written for `tools/call` cannot wrap `prompts/get`.
    let _ = Item::typed::<GetPrompt>(Stamp);
}
