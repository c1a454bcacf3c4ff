//! One handler's chain: strata interceptors, guards, alternate-result
//! interceptors, the handler.

use std::sync::Arc;

use mcp_core::error::ErrorObject;
use mcp_core::method::Method;

use crate::context::RequestContext;
use crate::handler::Handler;
use crate::handler::Reply;
use crate::seam::guard::{Decision, Guard};
use crate::seam::interceptor::{
    AlternateResultInterceptor, ErasedChain, ErasedInvoke, ErasedValue, HandlerCall,
    HandlerInterceptor, HandlerNext, Invocation, Settled, Stratum,
};
use crate::vocabulary::BoxFuture;
use crate::vocabulary::Origin;
use crate::vocabulary::Target;
use crate::vocabulary::auth::Challenge;

/// The guards of one target, and the target they decide for.
///
/// A prompt's completions share their prompt's guards, so what the guards
/// hide is hidden everywhere it could show.
pub(crate) struct Guards {
    pub(crate) target: Target,
    pub(crate) guards: Arc<[Arc<dyn Guard>]>,
}

/// What the guards of one target decide for one caller.
pub(crate) enum Verdict {
    /// Every guard allows.
    Allow,
    /// A guard hides the target.
    Hide,
    /// No guard hides it, and one refuses calls with this challenge.
    Challenge(Challenge),
}

impl Verdict {
    fn is_hidden(&self) -> bool {
        matches!(self, Verdict::Hide)
    }
}

impl Guards {
    /// Whether the caller of `ctx` may see the target: no guard hides it
    /// (a challenged target is seen).
    pub(crate) fn allow(&self, ctx: &RequestContext) -> bool {
        !matches!(self.verdict(ctx), Verdict::Hide)
    }

    /// What the guards decide: a guard that hides wins over one that
    /// challenges, so a challenge never tells of a target some guard hides.
    pub(crate) fn verdict(&self, ctx: &RequestContext) -> Verdict {
        let mut verdict = Verdict::Allow;
        for guard in self.guards.iter() {
            match guard.check(ctx, &self.target) {
                Decision::Allow => {}
                Decision::Deny(reason) => {
                    tracing::debug!(
                        target: "mcp_server::guard",
                        guard = guard.name(),
                        denied = %self.target,
                        %reason,
                        "a guard hid a target from its caller"
                    );
                    return Verdict::Hide;
                }
                Decision::Challenge(challenge) => {
                    tracing::debug!(
                        target: "mcp_server::guard",
                        guard = guard.name(),
                        challenged = %self.target,
                        reason = challenge.message(),
                        "a guard challenged the caller of a target"
                    );
                    if matches!(verdict, Verdict::Allow) {
                        verdict = Verdict::Challenge(challenge);
                    }
                }
            }
        }
        verdict
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.guards.is_empty()
    }
}

/// One step of a handler chain, before the alternate-result interceptors.
#[derive(Clone)]
pub(crate) enum Step {
    /// The handler's guards.
    Guards,
    /// An interceptor in a stratum.
    Interceptor {
        stratum: Stratum,
        name: String,
        origin: Origin,
        interceptor: Arc<dyn HandlerInterceptor>,
    },
}

impl Step {
    pub(crate) fn describe(&self, guards: &Guards) -> String {
        match self {
            Step::Guards => {
                let names: Vec<&str> = guards.guards.iter().map(|g| g.name()).collect();
                format!("AUTHORIZATION guards [{}]", names.join(", "))
            }
            Step::Interceptor {
                stratum,
                name,
                origin,
                ..
            } => format!("{stratum} {name} ({origin})"),
        }
    }
}

/// The steps of a chain to `target`, described in order, for the boot report.
fn describe(
    target: &Target,
    steps: &[Step],
    guards: &Guards,
    alternates: &[(String, Arc<dyn AlternateResultInterceptor>)],
) -> Vec<String> {
    let mut described: Vec<String> = steps.iter().map(|s| s.describe(guards)).collect();
    described.extend(
        alternates
            .iter()
            .map(|(name, _)| format!("ALTERNATE-RESULT {name}")),
    );
    described.push(format!("HANDLER {target} ({})", target.origin));
    described
}

/// The error for an interceptor's answer in place of `method`, which only
/// its handler answers.
pub(crate) fn not_in_place(method: &str) -> ErrorObject {
    ErrorObject::invalid_request(format!(
        "`{method}` cannot be answered in place of the server"
    ))
}

/// The error for a handler-chain interceptor that replaced the params of
/// `method` with a value of another type.
fn replaced_params(method: &str) -> ErrorObject {
    ErrorObject::internal_error(format!(
        "a handler-chain interceptor replaced the params of `{method}` with another type"
    ))
}

/// The error for a handler-chain interceptor that settled `method` with a
/// value that is not its result type, `result`.
fn not_its_result(method: &str, result: &str) -> ErrorObject {
    ErrorObject::internal_error(format!(
        "a handler-chain interceptor settled `{method}` with a result that is not `{result}`"
    ))
}

/// The answer of a method for a target that does not exist: also the
/// answer for one the guards hide.
pub(crate) type NotFound<M> = fn(&<M as Method>::Params) -> ErrorObject;

/// The chain of one handler of method `M`.
pub(crate) struct HandlerChain<M: Method> {
    pub(crate) target: Target,
    pub(crate) steps: Arc<[Step]>,
    pub(crate) guards: Arc<Guards>,
    pub(crate) not_found: NotFound<M>,
    pub(crate) alternates: Arc<[(String, Arc<dyn AlternateResultInterceptor>)]>,
    /// Whether an interceptor may answer in place of the handler.
    pub(crate) answerable: bool,
    pub(crate) invoke: Arc<HandlerInvoke<M>>,
}

impl<M: Method> HandlerChain<M> {
    /// Runs the chain with typed params and returns the typed reply.
    pub(crate) async fn run(
        &self,
        ctx: &RequestContext,
        params: M::Params,
    ) -> Result<Reply<M::Result>, ErrorObject> {
        let call = HandlerCall::new(ctx, &self.target, Box::new(params));
        let settled = self.step(0, call).await?;
        ctx.key().check(settled.key)?;
        settled.reply.try_map(|value| {
            value
                .into_any()
                .downcast::<M::Result>()
                .map(|b| *b)
                .map_err(|_| not_its_result(M::NAME, std::any::type_name::<M::Result>()))
        })
    }

    /// Evaluates the guards for the call with `params`: the answer for an
    /// unknown target when one hides it, the challenge's error when one
    /// challenges the caller.
    pub(crate) fn check(
        &self,
        ctx: &RequestContext,
        params: &M::Params,
    ) -> Result<(), ErrorObject> {
        match self.guards.verdict(ctx) {
            Verdict::Allow => Ok(()),
            Verdict::Hide => Err((self.not_found)(params)),
            Verdict::Challenge(challenge) => Err(challenge.into_error()),
        }
    }

    /// The answer for an unknown target, when a guard hides this one from
    /// the caller of `ctx`.
    pub(crate) fn hides(&self, ctx: &RequestContext, params: &M::Params) -> Option<ErrorObject> {
        self.guards
            .verdict(ctx)
            .is_hidden()
            .then(|| (self.not_found)(params))
    }

    /// The steps, described in order, for the boot report.
    pub(crate) fn describe(&self) -> Vec<String> {
        describe(&self.target, &self.steps, &self.guards, &self.alternates)
    }

    fn erased_check(&self, call: &HandlerCall<'_>) -> Result<(), ErrorObject> {
        match call.params::<M::Params>() {
            Some(params) => self.check(call.ctx(), params),
            None => Err(replaced_params(M::NAME)),
        }
    }
}

impl<M: Method> ErasedChain for HandlerChain<M> {
    fn step<'a>(
        &'a self,
        mut index: usize,
        call: HandlerCall<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        loop {
            match self.steps.get(index) {
                Some(Step::Guards) => {
                    if let Err(e) = self.erased_check(&call) {
                        return Box::pin(async move { Err(e) });
                    }
                    index += 1;
                }
                Some(Step::Interceptor { interceptor, .. }) => {
                    return interceptor.intercept(call, HandlerNext::new(self, index + 1));
                }
                None => return self.alternate(0, call),
            }
        }
    }

    fn alternate<'a>(
        &'a self,
        index: usize,
        call: HandlerCall<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        match self.alternates.get(index) {
            Some((_, interceptor)) => interceptor.intercept(Invocation::new(self, index + 1, call)),
            None => {
                let ctx = call.ctx();
                self.invoke.invoke(ctx, call.params)
            }
        }
    }

    fn check_guards(&self, call: &HandlerCall<'_>) -> Result<(), ErrorObject> {
        if !self.answerable {
            return Err(not_in_place(M::NAME));
        }
        self.erased_check(call)
    }

    fn invoker(&self) -> Arc<dyn ErasedInvoke> {
        self.invoke.clone()
    }
}

/// A handler of `M`, callable with erased params.
pub(crate) struct HandlerInvoke<M: Method> {
    pub(crate) handler: Arc<dyn Handler<M>>,
}

impl<M: Method> ErasedInvoke for HandlerInvoke<M> {
    fn invoke<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: Box<dyn ErasedValue>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        Box::pin(async move {
            let params = match params.into_any().downcast::<M::Params>() {
                Ok(params) => *params,
                Err(_) => return Err(replaced_params(M::NAME)),
            };
            let reply = self.handler.handle(ctx, params).await?;
            Ok(Settled::new(reply, ctx.key()))
        })
    }
}
