//! Typed interceptors: wrap one method, seeing its typed params and result.

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

use mcp_core::error::ErrorObject;
use mcp_core::method::Method;

use super::answer::{Answer, Authorized};
use crate::context::RequestContext;
use crate::vocabulary::BoxFuture;
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::{Kind, SeamWord};

/// Wraps one method `M`, with its params and result typed.
///
/// The method is part of the type: an interceptor for `tools/call` cannot be
/// registered for `prompts/get`, and its params and result types are the
/// method's own. The target of the call (the tool, the resource) is decided
/// by the request before the typed layer: an interceptor may edit the
/// params on their way to the handler, not send the call elsewhere.
///
/// ```
/// use mcp_server::seam::interceptor::{Answer, TypedInterceptor, TypedNext};
/// use mcp_server::BoxFuture;
/// use mcp_server::context::RequestContext;
/// use mcp_server::core::error::ErrorObject;
/// use mcp_server::core::tools::{CallTool, CallToolRequestParams, CallToolResult};
///
/// /// Marks every tool result as coming from this server.
/// struct Stamp;
/// impl TypedInterceptor<CallTool> for Stamp {
///     fn intercept<'a>(&'a self, _ctx: &'a RequestContext, params: CallToolRequestParams,
///                      next: TypedNext<'a, CallTool>)
///         -> BoxFuture<'a, Result<Answer<CallToolResult>, ErrorObject>>
///     {
///         Box::pin(async move {
///             let mut answer = next.run(params).await?;
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
    /// Handles one request: proceed with `next.run(params)`, fail, or
    /// answer in place of the handler with `next.authorize()?.answer(...)`.
    fn intercept<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: M::Params,
        next: TypedNext<'a, M>,
    ) -> BoxFuture<'a, Result<Answer<M::Result>, ErrorObject>>;
}

/// What follows the typed interceptors of one call: its resolved handler.
pub(crate) trait TypedRest<M: Method>: Send + Sync {
    /// The typed interceptors, outermost first.
    fn interceptors(&self) -> &[Arc<dyn TypedInterceptor<M>>];
    /// The call's context.
    fn ctx(&self) -> &RequestContext;
    /// Runs the handler chain of the call's target.
    fn handle<'a>(
        &'a self,
        params: M::Params,
    ) -> BoxFuture<'a, Result<Answer<M::Result>, ErrorObject>>;
    /// Runs the guards of the call's target.
    fn authorize(&self) -> Result<(), ErrorObject>;
}

/// The rest of the typed layer, then the handler chain.
pub struct TypedNext<'a, M: Method> {
    rest: &'a dyn TypedRest<M>,
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
    pub(crate) fn new(rest: &'a dyn TypedRest<M>, index: usize) -> Self {
        Self { rest, index }
    }

    /// Runs the rest of the typed layer and the handler chain.
    pub fn run(self, params: M::Params) -> BoxFuture<'a, Result<Answer<M::Result>, ErrorObject>> {
        match self.rest.interceptors().get(self.index) {
            Some(interceptor) => interceptor.intercept(
                self.rest.ctx(),
                params,
                TypedNext::new(self.rest, self.index + 1),
            ),
            None => self.rest.handle(params),
        }
    }

    /// Runs the guards of the target this call is aimed at: the proof needed
    /// to answer in place of its handler.
    ///
    /// # Errors
    ///
    /// The answer for an unknown target, which is also the answer for a
    /// target the guards hide from this caller.
    pub fn authorize(&self) -> Result<Authorized<'a>, ErrorObject> {
        self.rest
            .authorize()
            .map(|()| Authorized::new(self.rest.ctx().key()))
    }
}

/// A typed interceptor with its method kept for boot to match: a member of
/// [`TypedInterceptors`].
pub struct TypedInterceptorItem {
    pub(crate) method: &'static str,
    pub(crate) method_type: TypeId,
    pub(crate) interceptor: Box<dyn Any + Send + Sync>,
}

impl fmt::Debug for TypedInterceptorItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedInterceptorItem")
            .field("method", &self.method)
            .finish_non_exhaustive()
    }
}

impl TypedInterceptorItem {
    /// Wraps an interceptor for method `M`.
    pub fn new<M: Method>(interceptor: Arc<dyn TypedInterceptor<M>>) -> Self {
        Self {
            method: M::NAME,
            method_type: TypeId::of::<M>(),
            interceptor: Box::new(interceptor),
        }
    }

    /// The interceptor, if it is one for method `M`.
    pub(crate) fn of<M: Method>(&self) -> Option<Arc<dyn TypedInterceptor<M>>> {
        if self.method_type != TypeId::of::<M>() {
            return None;
        }
        self.interceptor
            .downcast_ref::<Arc<dyn TypedInterceptor<M>>>()
            .cloned()
    }
}

/// The kind of typed interceptors: each wraps its own method, in (order,
/// registration name, origin) order, outermost first; one whose method no
/// route serves fails boot.
#[derive(Debug)]
pub struct TypedInterceptors;

impl Kind for TypedInterceptors {
    type Member = TypedInterceptorItem;
    const NAME: &'static str = "typed interceptor";
    const CODE: &'static str = "mcp::duplicate_typed_interceptor";
    const WORD: SeamWord = SeamWord::Interceptor;
    const UNIQUE: bool = false;
    fn key(member: &TypedInterceptorItem) -> String {
        member.method.to_owned()
    }
    fn describe(member: &TypedInterceptorItem) -> String {
        format!("typed interceptor for `{}`", member.method)
    }
}

impl Item {
    /// A typed interceptor for method `M` ([`TypedInterceptors`]).
    pub fn typed<M: Method>(interceptor: impl TypedInterceptor<M>) -> Self {
        Self::member::<TypedInterceptors>(TypedInterceptorItem::new::<M>(Arc::new(interceptor)))
    }
}
