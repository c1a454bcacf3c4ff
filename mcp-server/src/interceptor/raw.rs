//! Raw interceptors: wrap every method, seeing JSON in and JSON out.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use mcp_core::error::ErrorObject;
use serde_json::value::RawValue;

use super::answer::{Authorized, RawAnswer};
use crate::context::RequestContext;
use crate::dispatch::Route;
use crate::handler::BoxFuture;

/// Wraps every method: coarse authorization, logging, telemetry.
///
/// ```
/// use mcp_server::interceptor::{RawCall, RawInterceptor, RawNext, RawAnswer};
/// use mcp_server::handler::BoxFuture;
/// use mcp_server::core::error::ErrorObject;
///
/// /// Refuses every method but `tools/*` to anonymous callers.
/// struct ToolsOnlyForAnonymous;
/// impl RawInterceptor for ToolsOnlyForAnonymous {
///     fn intercept<'a>(&'a self, call: &'a RawCall<'a>, next: RawNext<'a>)
///         -> BoxFuture<'a, Result<RawAnswer, ErrorObject>>
///     {
///         Box::pin(async move {
///             if !call.ctx().principal().is_authenticated() && !call.method().starts_with("tools/") {
///                 return Err(ErrorObject::invalid_request("sign in first"));
///             }
///             next.run(call).await
///         })
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a raw interceptor",
    note = "implement `mcp_server::interceptor::RawInterceptor` and register it (the `#[interceptor]` attribute on the `impl` block does both)"
)]
pub trait RawInterceptor: Send + Sync + 'static {
    /// Handles one request: proceed with `next.run(call)`, fail, or answer in
    /// place of the method with `next.authorize(call)?.raw_answer(...)`.
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>>;
}

/// One request as the raw layer sees it.
pub struct RawCall<'a> {
    ctx: &'a RequestContext,
    params: Option<&'a RawValue>,
    route: &'a Arc<dyn Route>,
}

impl fmt::Debug for RawCall<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawCall")
            .field("method", &self.ctx.method())
            .finish_non_exhaustive()
    }
}

impl<'a> RawCall<'a> {
    pub(crate) fn new(
        ctx: &'a RequestContext,
        params: Option<&'a RawValue>,
        route: &'a Arc<dyn Route>,
    ) -> Self {
        Self { ctx, params, route }
    }

    /// The request context.
    pub fn ctx(&self) -> &'a RequestContext {
        self.ctx
    }

    /// The method name.
    pub fn method(&self) -> &'a str {
        self.ctx.method()
    }

    /// The params, undecoded.
    pub fn params(&self) -> Option<&'a RawValue> {
        self.params
    }
}

/// The method routes and the raw interceptors in front of them.
pub(crate) struct RawChain {
    pub(crate) interceptors: Arc<[Arc<dyn RawInterceptor>]>,
    pub(crate) routes: HashMap<Box<str>, Arc<dyn Route>>,
}

/// The rest of the raw layer, then the method.
pub struct RawNext<'a> {
    chain: &'a RawChain,
    index: usize,
}

impl fmt::Debug for RawNext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawNext")
            .field("index", &self.index)
            .finish()
    }
}

impl<'a> RawNext<'a> {
    pub(crate) fn new(chain: &'a RawChain, index: usize) -> Self {
        Self { chain, index }
    }

    /// Runs the rest of the raw layer and the method.
    pub fn run(self, call: &'a RawCall<'a>) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        match self.chain.interceptors.get(self.index) {
            Some(interceptor) => {
                interceptor.intercept(call, RawNext::new(self.chain, self.index + 1))
            }
            None => call.route.dispatch(call.ctx, call.params),
        }
    }

    /// Decodes the params, finds the handler the request is aimed at and runs its guards.
    ///
    /// # Errors
    ///
    /// Invalid params, an unknown target, or the first guard that denies the caller.
    pub fn authorize(&self, call: &RawCall<'_>) -> Result<Authorized<'a>, ErrorObject> {
        call.route
            .authorize(call.ctx, call.params)
            .map(|()| Authorized::new())
    }
}
