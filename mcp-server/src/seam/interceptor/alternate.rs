//! Alternate-result interceptors: wrap the invocation of any handler and
//! answer with its ordinary result or with a result of another kind.

use std::fmt;
use std::sync::Arc;

use mcp_core::error::ErrorObject;

use tokio_util::sync::CancellationToken;

use super::answer::{Authorized, Settled};
use super::chain::{ErasedChain, ErasedInvoke, ErasedValue, HandlerCall};
use crate::context::RequestContext;
use crate::context::input::ClientRequester;
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::{Kind, SeamWord};
use crate::vocabulary::{BoxFuture, Target};

/// Wraps the invocation of every handler, of every method, and may return an
/// alternate result instead of the ordinary one (a tasks extension returns a
/// task and runs the handler later).
///
/// It runs after the whole handler chain (guards and validation included)
/// has passed, so the ordinary interceptors and guards run exactly once,
/// before it decides. No method needs an API of its own to be wrapped.
///
/// **Experimental**: the contract may change before 1.0, and the boot
/// report marks its members `(experimental)`.
/// - *Ordering*: members wrap one another by (order, name, origin), lower
///   outermost; the first to answer with an alternate result ends the
///   wrapping, and the ones inside it do not run.
/// - *Replacement*: an alternate result replaces the ordinary result of
///   that one call only, and only with the [`Invocation`]'s proof; the
///   response is still encoded, `_meta` added, by the framework.
/// - *Transport limits*: the alternate result travels as any result does;
///   a deferred run ([`Invocation::defer`]) outlives its request, so what
///   it sends after the answer reaches the client only where the
///   transport keeps a stream (a 2025-11-25 session, stdio), and on a
///   2026-07-28 request it asks its client nothing unless its runner says
///   where questions go.
///
/// ```
/// use mcp_server::seam::interceptor::{AlternateResultInterceptor, Invocation, Settled};
/// use mcp_server::BoxFuture;
/// use mcp_server::handler::AlternateResult;
/// use mcp_server::core::error::ErrorObject;
/// use mcp_server::core::result::ResultType;
///
/// /// Answers every call to a tool whose name ends in `_later` with a ticket,
/// /// and runs the tool in the background.
/// struct Later;
/// impl AlternateResultInterceptor for Later {
///     fn intercept<'a>(&'a self, invocation: Invocation<'a>) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
///         if !invocation.target().name.ends_with("_later") {
///             return invocation.proceed();
///         }
///         let proof = invocation.authorized();
///         let deferred = invocation.defer();
///         tokio::spawn(async move { let _ = deferred.run().await; });
///         let mut body = serde_json::Map::new();
///         body.insert("ticket".into(), "t-1".into());
///         Box::pin(async move { Ok(proof.alternate(AlternateResult { result_type: ResultType::from_static("ticket"), body })) })
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an alternate-result interceptor",
    note = "implement `mcp_server::seam::interceptor::AlternateResultInterceptor` and register it (the `#[interceptor]` attribute on the `impl` block does both)"
)]
pub trait AlternateResultInterceptor: Send + Sync + 'static {
    /// Decides for one invocation: `invocation.proceed()` for the ordinary
    /// result, or `invocation.authorized()` and `invocation.defer()` for an
    /// alternate one.
    fn intercept<'a>(
        &'a self,
        invocation: Invocation<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>>;
}

/// The invocation of a handler, held by an alternate-result interceptor:
/// it exists only once the guards of its target allowed the caller.
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

    /// The proof that this call's guards passed, to answer with an
    /// alternate result (or any other) in place of the handler.
    pub fn authorized(&self) -> Authorized<'a> {
        Authorized::new(self.call.ctx().key())
    }

    /// Invokes the rest (later alternate-result interceptors, then the handler) now.
    pub fn proceed(self) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        self.chain.alternate(self.index, self.call)
    }

    /// Takes the handler invocation away to run later, outside this request.
    pub fn defer(self) -> DeferredInvocation {
        DeferredInvocation {
            invoke: self.chain.invoker(),
            ctx: self.call.ctx().detached(),
            request_cancellation: self.call.ctx().cancellation().clone(),
            params: self.call.params,
        }
    }
}

/// A handler invocation taken out of its request, to run later: made only
/// from an [`Invocation`], so only for a call whose guards passed.
///
/// **Experimental**, with [`AlternateResultInterceptor`]: see its limits.
///
/// Its context has a cancellation of its own ([`cancellation`](Self::cancellation)),
/// not the request's. On a 2026-07-28 request it asks its client nothing
/// unless its runner says where questions go ([`ask_through`](Self::ask_through));
/// on a 2025-11-25 session it asks on the request's connection unless told otherwise.
pub struct DeferredInvocation {
    invoke: Arc<dyn ErasedInvoke>,
    ctx: RequestContext,
    params: Box<dyn ErasedValue>,
    /// The request's own cancellation, which a run started inside it observes.
    request_cancellation: CancellationToken,
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

    /// The cancellation of the run: whoever runs it fires it to stop the
    /// handler, which observes it as `ctx.cancellation()` and wherever it
    /// awaits input.
    pub fn cancellation(&self) -> CancellationToken {
        self.ctx.cancellation().clone()
    }

    /// Sends the input questions the handler asks outside its request
    /// (`ctx.elicit`, `ctx.sample`, `ctx.list_roots`) to `requester`, with
    /// the key the handler named, if any; the handler awaits the answer.
    pub fn ask_through(&self, requester: Arc<dyn ClientRequester>) {
        if let Some(deferral) = self.ctx.deferral() {
            deferral.ask_through(requester);
        }
    }

    /// Runs the handler; the result is the handler's ordinary reply, bound
    /// to the request it came from.
    pub async fn run(self) -> Result<Settled, ErrorObject> {
        let Self {
            invoke,
            ctx,
            params,
            ..
        } = self;
        let reply = invoke.invoke(&ctx, params).await;
        escalated(&ctx, reply)
    }

    /// Starts the handler inside its request: its input questions are the
    /// request's (a 2026-07-28 request answers them with an input-required
    /// result), until it calls
    /// [`release_request`](RequestContext::release_request). Resolves when
    /// it finishes, with its reply to answer the request with, or when it
    /// releases the request, with the run going on.
    pub async fn start(self) -> Started {
        let Self {
            invoke,
            ctx,
            params,
            request_cancellation,
        } = self;
        let Some(deferral) = ctx.deferral() else {
            return Started::Finished(Box::new(invoke.invoke(&ctx, params).await));
        };
        let mut released = deferral.enter();
        let running = ctx.clone();
        let mut handle = tokio::spawn(async move {
            let reply = invoke.invoke(&running, params).await;
            escalated(&running, reply)
        });
        // A handler that released its request is released, even when it
        // also finished by the time this looks.
        let finished = tokio::select! {
            biased;
            Ok(()) = &mut released => return Started::Released(Running { handle }),
            done = &mut handle => done,
            () = request_cancellation.cancelled() => {
                ctx.cancellation().cancel();
                (&mut handle).await
            }
        };
        if let Some(deferral) = ctx.deferral() {
            deferral.release();
        }
        Started::Finished(Box::new(finished.unwrap_or_else(|e| Err(joined(&e)))))
    }
}

/// The run's reply, or what its handler escalated: a protocol failure
/// (`ctx.escalate`) wins over whatever the handler returned, as it does
/// inside a request.
fn escalated(
    ctx: &RequestContext,
    reply: Result<Settled, ErrorObject>,
) -> Result<Settled, ErrorObject> {
    match ctx.take_escalation() {
        Some(error) => Err(error),
        None => reply,
    }
}

/// The error of a run that panicked or was aborted.
fn joined(error: &tokio::task::JoinError) -> ErrorObject {
    ErrorObject::internal_error(format!(
        "Internal error: the handler did not finish: {error}"
    ))
}

/// How a run [started](DeferredInvocation::start) inside its request went on.
#[derive(Debug)]
pub enum Started {
    /// It finished inside the request: answer the request with this.
    Finished(Box<Result<Settled, ErrorObject>>),
    /// It released the request and goes on.
    Released(Running),
}

/// A handler run that goes on after its request was answered.
#[derive(Debug)]
pub struct Running {
    handle: tokio::task::JoinHandle<Result<Settled, ErrorObject>>,
}

impl Running {
    /// Stops the run at the point where the handler awaits.
    pub fn abort(&self) {
        self.handle.abort();
    }

    /// Waits for the run to finish: the handler's ordinary reply (an
    /// internal error once it was aborted).
    pub async fn finish(&mut self) -> Result<Settled, ErrorObject> {
        (&mut self.handle).await.unwrap_or_else(|e| Err(joined(&e)))
    }
}

/// The kind of alternate-result interceptors: each wraps the invocation of
/// every handler, in (order, registration name, origin) order, outermost
/// first.
#[derive(Debug)]
pub struct AlternateResultInterceptors;

impl Kind for AlternateResultInterceptors {
    type Member = Arc<dyn AlternateResultInterceptor>;
    const NAME: &'static str = "alternate-result interceptor";
    const EXPERIMENTAL: bool = true;
    const CODE: &'static str = "mcp::duplicate_alternate_result_interceptor";
    const WORD: SeamWord = SeamWord::Interceptor;
    const UNIQUE: bool = false;
    fn key(_: &Self::Member) -> String {
        String::new()
    }
}

impl Item {
    /// An alternate-result interceptor ([`AlternateResultInterceptors`]).
    pub fn alternate_result_interceptor(interceptor: impl AlternateResultInterceptor) -> Self {
        Self::member::<AlternateResultInterceptors>(Arc::new(interceptor))
    }
}
