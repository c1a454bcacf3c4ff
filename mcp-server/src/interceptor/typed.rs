//! Typed interceptors: wrap one method, seeing its typed params and result.

use std::fmt;
use std::sync::Arc;

use mcp_core::error::ErrorObject;
use mcp_core::method::Method;

use super::answer::{Answer, Authorized};
use crate::context::RequestContext;
use crate::dispatch::Resolve;
use crate::handler::BoxFuture;

/// Wraps one method `M`, with its params and result typed.
///
/// The method is part of the type: an interceptor for `tools/call` cannot be
/// registered for `prompts/get`, and its params and result types are the
/// method's own.
///
/// ```
/// use mcp_server::interceptor::{Answer, TypedInterceptor, TypedNext};
/// use mcp_server::handler::BoxFuture;
/// use mcp_server::context::RequestContext;
/// use mcp_server::core::error::ErrorObject;
/// use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult};
///
/// /// Marks every tool result as coming from this server.
/// struct Stamp;
/// impl TypedInterceptor<CallTool> for Stamp {
///     fn intercept<'a>(&'a self, ctx: &'a RequestContext, params: CallToolRequestParams,
///                      next: TypedNext<'a, CallTool>)
///         -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>>
///     {
///         Box::pin(async move {
///             let mut answer = next.run(ctx, params).await?;
///             if let Some(result) = answer.reply_mut().complete_mut() {
///                 result.content.push(mcp_server::core::content::ContentBlock::text("(stamped)"));
///             }
///             Ok(answer)
///         })
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a typed interceptor for `{M}`",
    note = "a typed interceptor implements `TypedInterceptor<M>` for the very method it is registered for (`#[interceptor]` on the `impl` block registers it for that method)"
)]
pub trait TypedInterceptor<M: Method>: Send + Sync + 'static {
    /// Handles one request: proceed with `next.run(ctx, params)`, fail, or
    /// answer in place of the handler with `next.authorize(ctx, &params)?.answer(...)`.
    fn intercept<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: M::Params,
        next: TypedNext<'a, M>,
    ) -> BoxFuture<'a, Result<Answer<M::Result>, ErrorObject>>;
}

/// The typed interceptors of one method and the resolution of its handler.
pub(crate) struct TypedChain<M: Method> {
    pub(crate) interceptors: Arc<[Arc<dyn TypedInterceptor<M>>]>,
    pub(crate) resolver: Box<dyn Resolve<M>>,
}

/// The rest of the typed layer, then the handler chain.
pub struct TypedNext<'a, M: Method> {
    chain: &'a TypedChain<M>,
    index: usize,
}

impl<M: Method> fmt::Debug for TypedNext<'_, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedNext")
            .field("method", &M::NAME)
            .field("index", &self.index)
            .finish()
    }
}

impl<'a, M: Method> TypedNext<'a, M> {
    pub(crate) fn new(chain: &'a TypedChain<M>, index: usize) -> Self {
        Self { chain, index }
    }

    /// Runs the rest of the typed layer and the handler chain.
    pub fn run(
        self,
        ctx: &'a RequestContext,
        params: M::Params,
    ) -> BoxFuture<'a, Result<Answer<M::Result>, ErrorObject>> {
        match self.chain.interceptors.get(self.index) {
            Some(interceptor) => {
                interceptor.intercept(ctx, params, TypedNext::new(self.chain, self.index + 1))
            }
            None => Box::pin(async move {
                let handler = self.chain.resolver.resolve(ctx, &params)?;
                handler.run(ctx, params).await.map(Answer::new)
            }),
        }
    }

    /// Finds the handler the request is aimed at and runs its guards.
    ///
    /// # Errors
    ///
    /// An unknown target, or the first guard that denies the caller.
    pub fn authorize(
        &self,
        ctx: &RequestContext,
        params: &M::Params,
    ) -> Result<Authorized<'a>, ErrorObject> {
        let handler = self.chain.resolver.resolve(ctx, params)?;
        handler.check(ctx).map(|()| Authorized::new())
    }
}
