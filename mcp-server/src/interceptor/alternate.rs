//! Alternate-result interceptors: wrap the invocation of any handler and
//! answer with its ordinary result or with a result of another kind.

use std::fmt;
use std::sync::Arc;

use mcp_core::error::ErrorObject;

use super::answer::Settled;
use super::chain::{ErasedChain, ErasedInvoke, ErasedValue, HandlerCall};
use crate::context::RequestContext;
use crate::handler::BoxFuture;
use crate::reply::{AlternateResult, Reply};
use crate::target::Target;

/// Wraps the invocation of every handler, of every method, and may return an
/// alternate result instead of the ordinary one (the tasks extension returns
/// a task and runs the handler later).
///
/// It runs after the whole handler chain (guards and validation included)
/// has passed, so the ordinary interceptors and guards run exactly once,
/// before it decides. No method needs an API of its own to be wrapped.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an alternate-result interceptor",
    note = "implement `mcp_server::interceptor::AlternateResultInterceptor` and register it (the `#[interceptor]` attribute on the `impl` block does both)"
)]
pub trait AlternateResultInterceptor: Send + Sync + 'static {
    /// Decides for one invocation: `invocation.proceed()` for the ordinary
    /// result, or `invocation.defer()` and [`Invocation::alternate`].
    fn intercept<'a>(
        &'a self,
        invocation: Invocation<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>>;
}

/// The invocation of a handler, held by an alternate-result interceptor.
pub struct Invocation<'a> {
    chain: &'a dyn ErasedChain,
    index: usize,
    call: HandlerCall<'a>,
}

impl fmt::Debug for Invocation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Invocation")
            .field("call", &self.call)
            .finish_non_exhaustive()
    }
}

impl<'a> Invocation<'a> {
    pub(crate) fn new(chain: &'a dyn ErasedChain, index: usize, call: HandlerCall<'a>) -> Self {
        Self { chain, index, call }
    }

    /// The call about to be invoked.
    pub fn call(&self) -> &HandlerCall<'a> {
        &self.call
    }

    /// The request context.
    pub fn ctx(&self) -> &'a RequestContext {
        self.call.ctx()
    }

    /// What the call is aimed at.
    pub fn target(&self) -> &'a Target {
        self.call.target()
    }

    /// Invokes the rest (later alternate-result interceptors, then the handler) now.
    pub fn proceed(self) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        self.chain.alternate(self.index, self.call)
    }

    /// Takes the handler invocation away to run later, outside this request.
    pub fn defer(self) -> DeferredInvocation {
        DeferredInvocation {
            invoke: self.chain.invoker(),
            ctx: self.call.ctx().clone(),
            params: self.call.params,
        }
    }

    /// The alternate result to answer with (after [`defer`](Self::defer)).
    pub fn alternate(result: AlternateResult) -> Settled {
        Settled::from_erased(Reply::Alternate(result))
    }
}

/// A handler invocation taken out of its request, to run later.
pub struct DeferredInvocation {
    invoke: Arc<dyn ErasedInvoke>,
    ctx: RequestContext,
    params: Box<dyn ErasedValue>,
}

impl fmt::Debug for DeferredInvocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeferredInvocation")
            .field("ctx", &self.ctx)
            .finish_non_exhaustive()
    }
}

impl DeferredInvocation {
    /// The context of the request it came from.
    pub fn ctx(&self) -> &RequestContext {
        &self.ctx
    }

    /// Runs the handler; the result is the handler's ordinary reply.
    pub async fn run(self) -> Result<Settled, ErrorObject> {
        let Self {
            invoke,
            ctx,
            params,
        } = self;
        invoke.invoke(&ctx, params).await
    }
}
