//! The names an application author writes most, in one
//! `use mcp_server::prelude::*;` (the wire types stay in
//! [`core`](crate::core)); an extension author adds the seams with
//! `use mcp_server::prelude::extension::*;`.
//!
//! ```standalone_crate
//! use mcp_server::prelude::*;
//! use mcp_server::core::tools::CallToolResult;
//!
//! /// Says hello.
//! #[tool]
//! async fn hello(ctx: RequestContext) -> CallToolResult {
//!     CallToolResult::text(format!("hello from {}", ctx.method()))
//! }
//!
//! let server = Server::builder().build();
//! assert!(server.tools().iter().any(|t| t.name == "hello"));
//! ```

pub use crate::context::{InputError, RequestContext};
pub use crate::handler::tool::Structured;
pub use crate::handler::{Handler, Reply, handler_fn};
pub use crate::seam::sink::Change;
pub use crate::server::Server;
pub use crate::{
    BoxFuture, Method, Params, completion, method, prompt, resource, resource_template, tool, tools,
};

/// The names an extension author writes most: the application author's,
/// and every seam's.
///
/// ```
/// use mcp_server::prelude::extension::*;
/// use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
///
/// struct Hello;
/// impl Contributor for Hello {
///     fn contribute(&self, into: &mut Contributions<'_>) {
///         into.tool(Tool { name: "hello".into(), ..Default::default() },
///                   handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("hello")) }));
///     }
/// }
/// let server = Server::builder().without_linked().contributor(origin!(), "hello", Hello).build();
/// assert_eq!(server.tools()[0].name, "hello");
/// ```
pub mod extension {
    pub use super::*;
    pub use crate::boot::{BootContext, Diagnostic, Validator, validator_fn};
    pub use crate::config::Section;
    pub use crate::handler::AlternateResult;
    pub use crate::seam::contributor::{CompletionRef, Contributions, Contributor, contributor_fn};
    pub use crate::seam::customizer::{
        HandlerConfig, HandlerCustomizer, MethodDescriptor, ServerCapabilitiesCustomizer,
    };
    pub use crate::seam::guard::{Decision, Guard, guard_fn};
    pub use crate::seam::interceptor::{
        AlternateResultInterceptor, Answer, Authorized, DeferredInvocation, End, HandlerCall,
        HandlerInterceptor, HandlerNext, Invocation, Outbound, OutboundKind, RawAnswer, RawCall,
        RawInterceptor, RawNext, Scope, SendingInterceptor, Settled, Stratum, TypedInterceptor,
        TypedNext,
    };
    pub use crate::seam::{
        Extension, Item, Kind, OneActive, Origin, Registration, Requirement, SeamWord, Target,
        TargetKind,
    };
    pub use crate::{
        contributor, customizer, guard, interceptor, origin, register, sink, source, store,
        strategy,
    };
}
