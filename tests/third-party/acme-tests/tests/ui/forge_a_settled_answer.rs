use mcp_server::core::tools::CallToolResult;
use mcp_server::seam::interceptor::Settled;
use mcp_server::handler::Reply;

fn main() {
    // A handler chain's answer is made by proceeding or with a proof.
    let _ = Settled::new(Reply::Complete(CallToolResult::text("forged")));
}
