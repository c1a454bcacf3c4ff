//! The request context: everything handler and interceptor code may know
//! about the request it serves, whatever the protocol era, and the legacy
//! session a 2025-11-25 request comes on.
//!
//! Only the framework makes a context, one per request it serves (and one
//! per client notification, for the raw interceptors). Unit tests of
//! handler code make one with `RequestContext::for_tests`, behind the
//! `test-util` feature.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! use mcp_server::{RequestContext, Server, origin};
//! use mcp_server::seam::contributor::contributor_fn;
//! use mcp_server::handler::handler_fn;
//! use mcp_server::testing::MemoryClient;
//! use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
//! use mcp_server::core::version::Era;
//!
//! let server = Server::builder().without_linked()
//!     .contributor(origin!(), "tools", contributor_fn(|c| {
//!         c.tool(Tool { name: "whoami".into(), ..Default::default() },
//!                handler_fn::<CallTool, _, _, _>(|ctx: RequestContext, _| async move {
//!                    assert_eq!(ctx.era(), Era::Modern);
//!                    let who = if ctx.principal().is_authenticated() { "someone" } else { "anonymous" };
//!                    Ok(CallToolResult::text(who))
//!                }));
//!     }))
//!     .build();
//! let result = MemoryClient::new(&server).call_tool("whoami", serde_json::json!({})).await.unwrap();
//! assert_eq!(result.content, CallToolResult::text("anonymous").content);
//! # });
//! ```

pub(crate) mod exchange;
pub(crate) mod input;
mod request;
pub(crate) mod runtime;
mod session;

pub use input::InputError;
pub(crate) use request::{CallKey, ContextParts};
pub use request::{DEFAULT_INPUT_TIMEOUT, Input, RequestContext};
pub use session::{MAX_SUBSCRIPTIONS, Negotiated, Session};
