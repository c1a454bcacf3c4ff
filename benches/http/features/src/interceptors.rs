//! Three interceptors, one of each per-request kind, that count what passes
//! and let every call through.

use std::sync::atomic::{AtomicU64, Ordering};

use mcp_server::core::error::ErrorObject;
use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult};
use mcp_server::seam::interceptor::{
    Answer, HandlerCall, HandlerInterceptor, HandlerNext, RawAnswer, RawCall, RawInterceptor,
    RawNext, Settled, TypedInterceptor, TypedNext,
};
use mcp_server::{BoxFuture, RequestContext, interceptor};

/// Requests of every method seen by [`CountRequests`].
static REQUESTS: AtomicU64 = AtomicU64::new(0);
/// Tool calls seen by [`CountToolCalls`].
static TOOL_CALLS: AtomicU64 = AtomicU64::new(0);
/// Tool calls seen by [`AuditToolCalls`].
static AUDITED: AtomicU64 = AtomicU64::new(0);

/// Counts every request before it is decoded.
#[derive(Debug, Default)]
struct CountRequests;

#[interceptor(order = -10)]
impl RawInterceptor for CountRequests {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        REQUESTS.fetch_add(1, Ordering::Relaxed);
        next.run(call)
    }
}

/// Counts every decoded `tools/call`.
#[derive(Debug, Default)]
struct CountToolCalls;

#[interceptor]
impl TypedInterceptor<CallTool> for CountToolCalls {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: CallToolRequestParams,
        next: TypedNext<'a, CallTool>,
    ) -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>> {
        TOOL_CALLS.fetch_add(1, Ordering::Relaxed);
        next.run(params)
    }
}

/// Counts every tool call in the audit stratum of the handler chain.
#[derive(Debug, Default)]
struct AuditToolCalls;

#[interceptor(stratum = "AUDIT", scope = "tools/call")]
impl HandlerInterceptor for AuditToolCalls {
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        AUDITED.fetch_add(1, Ordering::Relaxed);
        next.run(call)
    }
}
