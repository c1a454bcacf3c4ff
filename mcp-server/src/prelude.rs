//! The framework's names an application or an extension crate writes most,
//! in one `use mcp_server::prelude::*;` (the wire types stay in
//! [`core`](crate::core)).
//!
//! ```
//! use mcp_server::prelude::*;
//! use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
//!
//! struct Hello;
//! impl Contributor for Hello {
//!     fn contribute(&self, into: &mut Contributions<'_>) {
//!         into.tool(Tool { name: "hello".into(), ..Default::default() },
//!                   handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("hello")) }));
//!     }
//! }
//! let server = Server::builder().without_linked().contributor(origin!(), "hello", Hello).build();
//! assert_eq!(server.tools()[0].name, "hello");
//! ```

pub use crate::boot::{BootContext, Diagnostic, Validator, validator_fn};
pub use crate::config::Section;
pub use crate::contributor::{CompletionRef, Contributions, Contributor, contributor_fn};
pub use crate::customizer::{
    HandlerConfig, HandlerCustomizer, MethodDescriptor, ServerCapabilitiesCustomizer,
};
pub use crate::guard::{Decision, Guard, guard_fn};
pub use crate::handler::{Handler, handler_fn};
pub use crate::interceptor::{
    AlternateResultInterceptor, Answer, Authorized, DeferredInvocation, HandlerCall,
    HandlerInterceptor, HandlerNext, Invocation, RawAnswer, RawCall, RawInterceptor, RawNext,
    Settled, Stratum, TypedInterceptor, TypedNext,
};
pub use crate::registry::{Item, Registration, Scope};
pub use crate::seam::{Kind, Member, OneActive, SeamDecl, SeamWord, Supplied};
pub use crate::target::{Target, TargetKind};
pub use crate::{
    AlternateResult, BoxFuture, Method, Origin, Params, Reply, RequestContext, Server, origin,
    register,
};
