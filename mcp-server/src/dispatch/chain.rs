//! One handler's chain: strata interceptors, guards, alternate-result
//! interceptors, the handler.

use std::sync::Arc;

use mcp_core::error::ErrorObject;
use mcp_core::method::Method;

use crate::context::RequestContext;
use crate::error::forbidden;
use crate::guard::{Decision, Guard};
use crate::handler::{BoxFuture, Handler};
use crate::interceptor::{
    AlternateResultInterceptor, ErasedChain, ErasedInvoke, ErasedValue, HandlerCall,
    HandlerInterceptor, HandlerNext, Invocation, Settled, Stratum,
};
use crate::origin::Origin;
use crate::reply::Reply;
use crate::target::Target;

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
    pub(crate) fn describe(&self, guards: &[Arc<dyn Guard>]) -> String {
        match self {
            Step::Guards => {
                let names: Vec<&str> = guards.iter().map(|g| g.name()).collect();
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

/// The chain of one handler of method `M`.
pub(crate) struct HandlerChain<M: Method> {
    pub(crate) target: Target,
    pub(crate) steps: Arc<[Step]>,
    pub(crate) guards: Arc<[Arc<dyn Guard>]>,
    pub(crate) alternates: Arc<[(String, Arc<dyn AlternateResultInterceptor>)]>,
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
        settled.reply.try_map(|value| {
            value
                .into_any()
                .downcast::<M::Result>()
                .map(|b| *b)
                .map_err(|_| {
                    ErrorObject::internal_error(format!(
                        "a handler-chain interceptor settled `{}` with a result that is not `{}`",
                        M::NAME,
                        std::any::type_name::<M::Result>()
                    ))
                })
        })
    }

    /// Evaluates the guards.
    pub(crate) fn check(&self, ctx: &RequestContext) -> Result<(), ErrorObject> {
        for guard in self.guards.iter() {
            if let Decision::Deny(reason) = guard.check(ctx, &self.target) {
                return Err(forbidden(&self.target, &reason));
            }
        }
        Ok(())
    }

    /// The steps, described in order, for the boot report.
    pub(crate) fn describe(&self) -> Vec<String> {
        let mut steps: Vec<String> = self
            .steps
            .iter()
            .map(|s| s.describe(&self.guards))
            .collect();
        steps.extend(
            self.alternates
                .iter()
                .map(|(name, _)| format!("ALTERNATE-RESULT {name}")),
        );
        steps.push(format!("HANDLER {} ({})", self.target, self.target.origin));
        steps
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
                    if let Err(e) = self.check(call.ctx()) {
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

    fn check_guards(&self, ctx: &RequestContext) -> Result<(), ErrorObject> {
        self.check(ctx)
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
                Err(_) => {
                    return Err(ErrorObject::internal_error(format!(
                        "a handler-chain interceptor replaced the params of `{}` with another type",
                        M::NAME
                    )));
                }
            };
            let reply = self.handler.handle(ctx, params).await?;
            Ok(Settled::new(reply))
        })
    }
}
