//! Raw interceptors: wrap every message the server serves, requests and
//! client notifications alike, seeing JSON in and JSON out.

use std::fmt;
use std::sync::Arc;

use mcp_core::error::ErrorObject;
use mcp_core::jsonrpc::RequestId;
use serde_json::value::RawValue;

use super::answer::{Authorized, RawAnswer};
use crate::context::RequestContext;
use crate::vocabulary::BoxFuture;
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::{Kind, SeamWord};

/// Wraps every method, connection included, and every client notification:
/// coarse authorization, logging, telemetry, audit.
///
/// An interceptor may proceed (`next.run(call)`, or `next.run_with(call,
/// params)` with params it rewrote), refuse with a JSON-RPC error, or
/// answer in place of the method with `next.authorize(call)?.raw_answer(..)`
/// (after the guards of the request's target allowed the caller). A
/// notification has no answer: refusing it drops it, and it cannot be
/// answered in place; nor can `initialize`, whose session is made only by
/// its handler.
///
/// ```
/// use mcp_server::seam::interceptor::{RawAnswer, RawCall, RawInterceptor, RawNext};
/// use mcp_server::BoxFuture;
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
    note = "implement `mcp_server::seam::interceptor::RawInterceptor` and register it (the `#[interceptor]` attribute on the `impl` block does both)"
)]
pub trait RawInterceptor: Send + Sync + 'static {
    /// Handles one message: proceed with `next.run(call)`, refuse, or answer
    /// in place of the method with `next.authorize(call)?.raw_answer(...)`.
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>>;
}

/// One message as the raw layer sees it.
pub struct RawCall<'a> {
    ctx: &'a RequestContext,
    params: Option<&'a RawValue>,
}

impl fmt::Debug for RawCall<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawCall")
            .field("method", &self.ctx.method())
            .field("id", &self.ctx.id())
            .finish_non_exhaustive()
    }
}

impl<'a> RawCall<'a> {
    pub(crate) fn new(ctx: &'a RequestContext, params: Option<&'a RawValue>) -> Self {
        Self { ctx, params }
    }

    /// The request context.
    pub fn ctx(&self) -> &'a RequestContext {
        self.ctx
    }

    /// The method name.
    pub fn method(&self) -> &'a str {
        self.ctx.method()
    }

    /// The request's id; `None` for a notification.
    pub fn id(&self) -> Option<&'a RequestId> {
        self.ctx.id()
    }

    /// Whether this is a client notification, which gets no answer.
    pub fn is_notification(&self) -> bool {
        self.ctx.id().is_none()
    }

    /// The params, undecoded.
    pub fn params(&self) -> Option<&'a RawValue> {
        self.params
    }
}

/// What follows the raw interceptors of one call: the method's route.
pub(crate) trait RawRest: Send + Sync {
    /// The raw interceptors, outermost first.
    fn interceptors(&self) -> &[Arc<dyn RawInterceptor>];
    /// Serves the call below the raw layer.
    fn dispatch<'a>(
        &'a self,
        call: &'a RawCall<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>>;
    /// Decodes the params, resolves the target and runs its guards.
    fn authorize(&self, call: &RawCall<'_>) -> Result<(), ErrorObject>;
}

/// The rest of the raw layer, then the method.
pub struct RawNext<'a> {
    rest: &'a dyn RawRest,
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
    pub(crate) fn new(rest: &'a dyn RawRest, index: usize) -> Self {
        Self { rest, index }
    }

    /// Runs the rest of the raw layer and the method for `call` (the call
    /// this interceptor was handed).
    pub fn run(self, call: &'a RawCall<'a>) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        match self.rest.interceptors().get(self.index) {
            Some(interceptor) => {
                interceptor.intercept(call, RawNext::new(self.rest, self.index + 1))
            }
            None => self.rest.dispatch(call),
        }
    }

    /// Runs the rest of the raw layer and the method for `call` with other
    /// params: a rewrite of the request before anything decodes it.
    ///
    /// The method decodes, resolves and guards the params it is given, so a
    /// rewrite that names another target is guarded as that target; the
    /// request's context (its id, caller, era and `_meta` as first read)
    /// stays the one of `call`.
    ///
    /// ```
    /// use mcp_server::seam::interceptor::{RawAnswer, RawCall, RawInterceptor, RawNext};
    /// use mcp_server::BoxFuture;
    /// use mcp_server::core::error::ErrorObject;
    /// use serde_json::value::RawValue;
    ///
    /// /// Upper-cases the `text` argument of every `tools/call`.
    /// struct Shout;
    /// impl RawInterceptor for Shout {
    ///     fn intercept<'a>(&'a self, call: &'a RawCall<'a>, next: RawNext<'a>)
    ///         -> BoxFuture<'a, Result<RawAnswer, ErrorObject>>
    ///     {
    ///         let Some(params) = call.params().filter(|_| call.method() == "tools/call") else {
    ///             return next.run(call);
    ///         };
    ///         let mut params: serde_json::Value = serde_json::from_str(params.get()).unwrap_or_default();
    ///         if let Some(text) = params.pointer_mut("/arguments/text") {
    ///             *text = text.as_str().unwrap_or_default().to_uppercase().into();
    ///         }
    ///         let params = serde_json::value::to_raw_value(&params).expect("a JSON value encodes");
    ///         next.run_with(call, params)
    ///     }
    /// }
    /// ```
    pub fn run_with(
        self,
        call: &'a RawCall<'a>,
        params: Box<RawValue>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        let (rest, index, ctx) = (self.rest, self.index, call.ctx());
        Box::pin(async move {
            let rewritten = RawCall::new(ctx, Some(&params));
            RawNext::new(rest, index).run(&rewritten).await
        })
    }

    /// Decodes the params of `call`, finds the target it is aimed at and
    /// runs its guards for its caller: the proof needed to answer in place
    /// of the method.
    ///
    /// # Errors
    ///
    /// Invalid params, an unknown target or one the guards hide (the same
    /// answer), or a method that cannot be answered in place.
    pub fn authorize(&self, call: &RawCall<'_>) -> Result<Authorized<'a>, ErrorObject> {
        self.rest
            .authorize(call)
            .map(|()| Authorized::new(call.ctx().key()))
    }
}

/// The kind of raw interceptors: every member wraps every message, in
/// (order, registration name, origin) order, outermost first.
#[derive(Debug)]
pub struct RawInterceptors;

impl Kind for RawInterceptors {
    type Member = Arc<dyn RawInterceptor>;
    const NAME: &'static str = "raw interceptor";
    const CODE: &'static str = "mcp::duplicate_raw_interceptor";
    const WORD: SeamWord = SeamWord::Interceptor;
    const UNIQUE: bool = false;
    fn key(_: &Self::Member) -> String {
        String::new()
    }
}

impl Item {
    /// A raw interceptor ([`RawInterceptors`]).
    pub fn raw_interceptor(interceptor: impl RawInterceptor) -> Self {
        Self::member::<RawInterceptors>(Arc::new(interceptor))
    }
}
