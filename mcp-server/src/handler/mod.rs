//! Handlers: the code that answers one method for one target, and what an
//! application author writes them with: [`tool`]s, [`prompt`]s,
//! [`resource`]s and their templates, [`completion`]s.
//!
//! Every handler, built in or contributed, implements [`Handler<M>`] for the
//! [`Method`] it answers, so one dispatch pipeline serves them all, and
//! replies with a [`Reply`].
//!
//! ```
//! use mcp_server::handler::{Handler, handler_fn};
//! use mcp_server::core::tools::{CallTool, CallToolResult};
//!
//! let echo = handler_fn::<CallTool, _, _, _>(|_ctx, params| async move {
//!     let text = params.arguments.and_then(|a| a.get("text").cloned()).unwrap_or_default();
//!     Ok(CallToolResult::text(text.to_string()))
//! });
//! # let _ = &echo as &dyn Handler<CallTool>;
//! ```

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;

use mcp_core::error::ErrorObject;
use mcp_core::method::Method;

pub mod completion;
pub mod notification;
pub mod prompt;
mod reply;
pub mod resource;
mod schema;
pub mod tool;
mod uri_template;

pub use crate::vocabulary::error::unknown_target;
pub use reply::{AlternateResult, Reply};

use crate::context::RequestContext;
use crate::vocabulary::BoxFuture;

/// What a handler returns: a reply, or the JSON-RPC error to send.
pub type HandlerResult<T> = Result<Reply<T>, ErrorObject>;

/// Answers method `M` for one target.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not handle `{M}`",
    note = "implement `mcp_server::handler::Handler<{M}>`, or wrap an async closure with `handler_fn::<{M}, _, _, _>(...)`"
)]
pub trait Handler<M: Method>: Send + Sync + 'static {
    /// Handles one request.
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: M::Params,
    ) -> BoxFuture<'a, HandlerResult<M::Result>>;
}

/// A handler made from an async closure; see [`handler_fn`].
pub struct HandlerFn<M, F> {
    f: F,
    method: PhantomData<fn() -> M>,
}

impl<M, F> fmt::Debug for HandlerFn<M, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HandlerFn")
            .field("method", &std::any::type_name::<M>())
            .finish_non_exhaustive()
    }
}

/// A handler for `M` from an async closure taking the context and the params.
///
/// The closure returns the result, or anything that converts into a
/// [`Reply`], or a JSON-RPC error.
pub fn handler_fn<M, F, Fut, R>(f: F) -> HandlerFn<M, F>
where
    M: Method,
    F: Fn(RequestContext, M::Params) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
    R: Into<Reply<M::Result>>,
{
    HandlerFn {
        f,
        method: PhantomData,
    }
}

impl<M, F, Fut, R> Handler<M> for HandlerFn<M, F>
where
    M: Method,
    F: Fn(RequestContext, M::Params) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
    R: Into<Reply<M::Result>>,
{
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: M::Params,
    ) -> BoxFuture<'a, HandlerResult<M::Result>> {
        let future = (self.f)(ctx.clone(), params);
        Box::pin(async move { future.await.map(Into::into) })
    }
}
