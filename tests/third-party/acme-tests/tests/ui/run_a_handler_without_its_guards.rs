use mcp_server::seam::interceptor::DeferredInvocation;
use mcp_server::RequestContext;

// A deferred run comes only from an invocation, which exists only once the
// guards passed; it cannot be built by hand.
fn deferred(ctx: RequestContext) -> DeferredInvocation {
    DeferredInvocation { ctx }
}

fn main() {}
