//! Handler-chain interceptors: per handler, placed in fixed strata.

use std::any::Any;
use std::fmt;

use mcp_core::error::ErrorObject;
use mcp_core::json::JsonValue;
use serde::Serialize;

use super::answer::{Authorized, Settled};
use crate::context::RequestContext;
use crate::vocabulary::BoxFuture;
use crate::vocabulary::Target;

/// The fixed layers of a handler chain, outermost first.
///
/// Interceptors are sorted by stratum, then order, then name. The guards run
/// at the start of [`Stratum::Authorization`]; alternate-result interceptors
/// and then the handler run after [`Stratum::Invocation`]. An interceptor of
/// any stratum may answer in place of the handler, but only with the proof
/// `next.authorize()` returns after running the guards then and there: the
/// strata before `AUTHORIZATION` see denied calls, and none can answer one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Stratum {
    /// Ties the request to others: correlation and trace ids.
    Correlation,
    /// Watches the call: timing, metrics, spans.
    Observation,
    /// Records who did what.
    Audit,
    /// Decides whether the caller may: the guards, then authorization interceptors.
    Authorization,
    /// Checks the input before the handler sees it.
    Validation,
    /// Immediately around the handler.
    Invocation,
}

impl Stratum {
    /// Every stratum, outermost first.
    pub const ALL: [Stratum; 6] = [
        Stratum::Correlation,
        Stratum::Observation,
        Stratum::Audit,
        Stratum::Authorization,
        Stratum::Validation,
        Stratum::Invocation,
    ];
}

impl fmt::Display for Stratum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stratum::Correlation => "CORRELATION",
            Stratum::Observation => "OBSERVATION",
            Stratum::Audit => "AUDIT",
            Stratum::Authorization => "AUTHORIZATION",
            Stratum::Validation => "VALIDATION",
            Stratum::Invocation => "INVOCATION",
        })
    }
}

/// A value whose type is known to its method but erased in the handler chain.
pub trait ErasedValue: Any + Send + Sync {
    /// The value as JSON.
    fn to_json(&self) -> JsonValue;
    /// The value, for a downcast.
    fn as_any(&self) -> &dyn Any;
    /// The value, for a mutable downcast.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The value, boxed, for an owning downcast.
    fn into_any(self: Box<Self>) -> Box<dyn Any + Send>;
}

impl<T: Serialize + Any + Send + Sync> ErasedValue for T {
    fn to_json(&self) -> JsonValue {
        // Through text: a result's text encoder is compiled to send it
        // anyway, and an encoder into `Value` for every params and result
        // type would double that code for a view only interceptors take.
        serde_json::to_string(self)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any + Send> {
        self
    }
}

/// One call as the handler chain sees it: context, target and params.
pub struct HandlerCall<'a> {
    ctx: &'a RequestContext,
    target: &'a Target,
    pub(crate) params: Box<dyn ErasedValue>,
}

impl fmt::Debug for HandlerCall<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HandlerCall")
            .field("method", &self.ctx.method())
            .field("target", &self.target.to_string())
            .finish_non_exhaustive()
    }
}

impl<'a> HandlerCall<'a> {
    pub(crate) fn new(
        ctx: &'a RequestContext,
        target: &'a Target,
        params: Box<dyn ErasedValue>,
    ) -> Self {
        Self {
            ctx,
            target,
            params,
        }
    }

    /// The request context.
    pub fn ctx(&self) -> &'a RequestContext {
        self.ctx
    }

    /// What the call is aimed at.
    pub fn target(&self) -> &'a Target {
        self.target
    }

    /// The method name.
    pub fn method(&self) -> &'a str {
        self.ctx.method()
    }

    /// The params, if they are a `P` (the params type of the method).
    pub fn params<P: 'static>(&self) -> Option<&P> {
        self.params.as_any().downcast_ref()
    }

    /// The params, mutably, if they are a `P`.
    pub fn params_mut<P: 'static>(&mut self) -> Option<&mut P> {
        self.params.as_any_mut().downcast_mut()
    }

    /// The params as JSON (serializes on each call).
    pub fn params_json(&self) -> JsonValue {
        self.params.to_json()
    }
}

/// An interceptor in one stratum of a handler chain.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a handler-chain interceptor",
    note = "implement `mcp_server::seam::interceptor::HandlerInterceptor` and attach it with a customizer, or register it in a stratum with `#[interceptor(stratum = \"AUDIT\")]` on the `impl` block"
)]
pub trait HandlerInterceptor: Send + Sync + 'static {
    /// Handles one call: proceed with `next.run(call)`, fail, or answer in
    /// place of the handler with `next.authorize(&call)?.settle(...)`.
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>>;
}

/// The rest of a handler chain.
pub struct HandlerNext<'a> {
    chain: &'a dyn ErasedChain,
    index: usize,
}

impl fmt::Debug for HandlerNext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HandlerNext")
            .field("index", &self.index)
            .finish()
    }
}

impl<'a> HandlerNext<'a> {
    pub(crate) fn new(chain: &'a dyn ErasedChain, index: usize) -> Self {
        Self { chain, index }
    }

    /// Runs the rest of the chain.
    pub fn run(self, call: HandlerCall<'a>) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        self.chain.step(self.index, call)
    }

    /// Runs the guards of this handler for the caller of `call` (the call
    /// this interceptor was handed): the proof needed to answer in place of
    /// the handler.
    ///
    /// # Errors
    ///
    /// The answer for an unknown target, which is also the answer for a
    /// target the guards hide from this caller.
    pub fn authorize(&self, call: &HandlerCall<'_>) -> Result<Authorized<'a>, ErrorObject> {
        self.chain
            .check_guards(call)
            .map(|()| Authorized::new(call.ctx.key()))
    }
}

/// A handler chain with its method erased.
pub(crate) trait ErasedChain: Send + Sync {
    /// Runs the chain from step `index`.
    fn step<'a>(
        &'a self,
        index: usize,
        call: HandlerCall<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>>;
    /// Runs the alternate-result interceptors from `index`, then the handler.
    fn alternate<'a>(
        &'a self,
        index: usize,
        call: HandlerCall<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>>;
    /// Evaluates the guards: the error for an unknown target when one denies.
    fn check_guards(&self, call: &HandlerCall<'_>) -> Result<(), ErrorObject>;
    /// The handler alone, for deferred invocation.
    fn invoker(&self) -> std::sync::Arc<dyn ErasedInvoke>;
}

/// A handler with its method erased.
pub(crate) trait ErasedInvoke: Send + Sync {
    fn invoke<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: Box<dyn ErasedValue>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>>;
}
