use mcp_server::core::error::ErrorObject;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::{RequestContext, method};

#[method(CallTool)]
async fn call(_ctx: RequestContext, params: String) -> Result<CallToolResult, ErrorObject> {
    Ok(CallToolResult::text(params))
}

fn main() {}
