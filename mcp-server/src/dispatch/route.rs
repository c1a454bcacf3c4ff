//! A method's route: decode params, resolve the target, run the typed
//! layer, screen and encode the reply; and the table of routes, per era.

use std::collections::HashMap;
use std::sync::Arc;

use mcp_core::error::ErrorObject;
use mcp_core::json::JsonObject;
use mcp_core::method::Method;
use mcp_core::result::ResultType;
use mcp_core::version::Era;
use serde::Serialize;
use serde_json::value::RawValue;

use super::chain::{Verdict, not_in_place};
use super::resolve::{Resolve, Resolved};
use crate::context::RequestContext;
use crate::handler::Reply;
use crate::seam::interceptor::{Answer, RawAnswer, TypedInterceptor, TypedNext, TypedRest};
use crate::vocabulary::BoxFuture;
use crate::vocabulary::Origin;

/// Whether the guards of `reads` (the route of `resources/read`) hide the
/// resource at `uri` from the caller of `ctx`: what a subscription to it,
/// of either era, may not hear of.
pub(crate) fn hides_resource(
    reads: Option<&Arc<dyn Route>>,
    ctx: &RequestContext,
    uri: &str,
) -> bool {
    let Some(reads) = reads else {
        return false;
    };
    let params = serde_json::value::to_raw_value(&serde_json::json!({ "uri": uri }));
    params.is_ok_and(|params| reads.hidden(ctx, Some(&params)).is_some())
}

/// One method, its eras, and its pipeline below the raw layer.
pub(crate) trait Route: Send + Sync {
    /// The eras in which the method exists.
    fn eras(&self) -> &'static [Era];
    /// The params member that names the target, for `Mcp-Name`.
    fn target_member(&self) -> Option<&'static str>;
    /// Serves one request.
    fn dispatch<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: Option<&'a RawValue>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>>;
    /// Decodes the params, resolves the target and runs its guards.
    fn authorize(&self, ctx: &RequestContext, params: Option<&RawValue>)
    -> Result<(), ErrorObject>;
    /// The answer for the target `params` name when it exists and the
    /// guards hide it from the caller of `ctx`; `None` otherwise.
    fn hidden(&self, ctx: &RequestContext, params: Option<&RawValue>) -> Option<ErrorObject>;
    /// The answer for the target `params` name when the caller of `ctx`
    /// cannot see it: it does not exist, or the guards hide it (the same
    /// answer either way, so that neither tells them apart); `None` otherwise.
    fn unseen(&self, ctx: &RequestContext, params: Option<&RawValue>) -> Option<ErrorObject>;
    /// Applies the method's screen to a result a raw interceptor made in
    /// place of the method.
    fn screen(
        &self,
        ctx: &RequestContext,
        result: Box<RawValue>,
    ) -> Result<Box<RawValue>, ErrorObject>;
    /// The resolved pipeline, for the boot report.
    fn report(&self) -> RouteReport;
}

/// A method's pipeline as the boot report shows it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RouteReport {
    pub(crate) method: String,
    pub(crate) eras: Vec<Era>,
    pub(crate) owner: Origin,
    pub(crate) typed: Vec<String>,
    pub(crate) handlers: Vec<(String, Vec<String>)>,
}

/// What every answer of a method passes on its way out, whoever made it:
/// list results keep only what the caller may see.
pub(crate) trait Screen<M: Method>: Send + Sync {
    /// Removes from `result` what the caller of `ctx` may not see.
    fn screen(&self, ctx: &RequestContext, result: &mut M::Result);
    /// The same for a complete result as JSON, which an interceptor made in
    /// place of the method; `Err` says why `result` is not one of `M`'s.
    fn screen_json(&self, ctx: &RequestContext, result: &mut JsonObject) -> Result<(), String>;
}

/// Screens a result an interceptor made in place of `method`: only a
/// complete result, which a screened method always answers with, passes.
/// Works on the JSON as sent, so that no method's result type is decoded.
fn screen_encoded(
    method: &str,
    result: &RawValue,
    screen: &dyn Fn(&mut JsonObject) -> Result<(), String>,
) -> Result<Box<RawValue>, ErrorObject> {
    let mut object: JsonObject = serde_json::from_str(result.get()).map_err(|e| {
        ErrorObject::internal_error(format!("an interceptor's result is not an object: {e}"))
    })?;
    let complete = match object.get("resultType") {
        None => true,
        Some(kind) => kind.as_str() == Some(&ResultType::COMPLETE.0),
    };
    if !complete {
        return Err(only_complete(method));
    }
    screen(&mut object).map_err(|e| {
        ErrorObject::internal_error(format!(
            "an interceptor's result is not a result of {method}: {e}"
        ))
    })?;
    serde_json::value::to_raw_value(&object).map_err(|e| unencodable(method, e))
}

/// The error for a result of `method`, a screened one, that is not complete.
fn only_complete(method: &str) -> ErrorObject {
    ErrorObject::internal_error(format!(
        "Internal error: `{method}` answers only with complete results"
    ))
}

/// The error for a result of `method` that did not encode.
fn unencodable(method: &str, error: serde_json::Error) -> ErrorObject {
    ErrorObject::internal_error(format!("the result of {method} did not encode: {error}"))
}

/// The route of method `M`.
pub(crate) struct TypedRoute<M: Method> {
    pub(crate) interceptors: Arc<[Arc<dyn TypedInterceptor<M>>]>,
    pub(crate) resolver: Box<dyn Resolve<M>>,
    pub(crate) screen: Option<Box<dyn Screen<M>>>,
    /// What a complete result of a target with guards gets.
    pub(crate) guarded: Option<fn(&mut M::Result)>,
    /// Whether something other than the handler can shape an answer (an
    /// interceptor of any layer), so the screen must run on every answer.
    pub(crate) shaped: bool,
    /// Whether an interceptor may answer in place of the method.
    pub(crate) answerable: bool,
    pub(crate) owner: Origin,
    pub(crate) typed_names: Vec<String>,
}

fn decode<M: Method>(params: Option<&RawValue>) -> Result<M::Params, ErrorObject> {
    let text = params.map_or("{}", RawValue::get);
    serde_json::from_str(text).map_err(|e| invalid_params(M::NAME, &e))
}

/// The error for params of `method` that did not decode.
fn invalid_params(method: &str, error: &serde_json::Error) -> ErrorObject {
    ErrorObject::invalid_params(format!("Invalid params for {method}: {error}"))
}

impl<M: Method> TypedRoute<M> {
    /// Screens an answer of a screened method: keeps what the caller may
    /// see of a complete result, and refuses any other kind of result, which
    /// a list never has.
    fn apply_screen(
        &self,
        ctx: &RequestContext,
        reply: &mut Reply<M::Result>,
    ) -> Result<(), ErrorObject> {
        let Some(screen) = &self.screen else {
            return Ok(());
        };
        match reply {
            Reply::Complete(result) => {
                screen.screen(ctx, result);
                Ok(())
            }
            _ => Err(only_complete(M::NAME)),
        }
    }

    /// The answer for the target `params` name when the caller of `ctx`
    /// cannot see it: the guards hide it, or, when `unknown` says so, it
    /// does not exist; `None` otherwise. What [`Route::hidden`] and
    /// [`Route::unseen`] share.
    #[inline(never)]
    fn lookup(
        &self,
        ctx: &RequestContext,
        params: Option<&RawValue>,
        unknown: bool,
    ) -> Option<ErrorObject> {
        if let Some(hidden) = self.hidden_method(ctx) {
            return Some(hidden);
        }
        let params = decode::<M>(params).ok()?;
        match self.resolver.resolve(ctx, &params) {
            Ok(resolved) => resolved.hides(ctx, &params),
            Err(missing) => unknown.then_some(missing),
        }
    }

    /// The answer for a method whose one target the guards hide.
    fn hidden_method(&self, ctx: &RequestContext) -> Option<ErrorObject> {
        let chain = self.resolver.fixed()?;
        (!chain.guards.is_empty() && !chain.guards.allow(ctx))
            .then(|| ErrorObject::method_not_found(M::NAME))
    }
}

/// One call in the typed layer: its context, its params as sent, and its
/// resolved target.
struct TypedCall<'a, M: Method> {
    route: &'a TypedRoute<M>,
    ctx: &'a RequestContext,
    params: Option<&'a RawValue>,
    resolved: Result<Resolved<'a, M>, ErrorObject>,
}

impl<M: Method> TypedRest<M> for TypedCall<'_, M> {
    fn interceptors(&self) -> &[Arc<dyn TypedInterceptor<M>>] {
        &self.route.interceptors
    }

    fn ctx(&self) -> &RequestContext {
        self.ctx
    }

    fn handle<'a>(
        &'a self,
        params: M::Params,
    ) -> BoxFuture<'a, Result<Answer<M::Result>, ErrorObject>> {
        Box::pin(async move {
            let chain = self.resolved.as_ref().map_err(Clone::clone)?;
            let reply = chain.run(self.ctx, params).await?;
            Ok(Answer::new(reply, self.ctx.key()))
        })
    }

    fn authorize(&self) -> Result<(), ErrorObject> {
        if !self.route.answerable {
            return Err(not_in_place(M::NAME));
        }
        let chain = self.resolved.as_ref().map_err(Clone::clone)?;
        match chain.guards.verdict(self.ctx) {
            Verdict::Allow => Ok(()),
            Verdict::Challenge(challenge) => Err(challenge.into_error()),
            // Hidden: the answer for an unknown target, from the params as sent.
            Verdict::Hide => {
                Err(decode::<M>(self.params)
                    .map_or_else(|e| e, |params| (chain.not_found)(&params)))
            }
        }
    }
}

impl<M: Method> Route for TypedRoute<M> {
    fn eras(&self) -> &'static [Era] {
        M::ERAS
    }

    fn target_member(&self) -> Option<&'static str> {
        M::TARGET
    }

    fn dispatch<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: Option<&'a RawValue>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            let raw = params;
            let params = match decode::<M>(raw) {
                Ok(params) => params,
                Err(error) => return Err(self.hidden_method(ctx).unwrap_or(error)),
            };
            let resolved = self.resolver.resolve(ctx, &params);
            let call = TypedCall {
                route: self,
                ctx,
                params: raw,
                resolved,
            };
            let answer = TypedNext::new(&call, 0).run(params).await?;
            ctx.key().check(answer.key)?;
            let mut reply = answer.into_reply();
            if let (Some(guarded), Ok(chain), Reply::Complete(result)) =
                (self.guarded, &call.resolved, &mut reply)
                && !chain.guards.is_empty()
            {
                guarded(result);
            }
            if self.shaped {
                self.apply_screen(ctx, &mut reply)?;
            }
            let encoded = reply.encode().map_err(|e| unencodable(M::NAME, e))?;
            Ok(RawAnswer::new(encoded, ctx.key()))
        })
    }

    fn authorize(
        &self,
        ctx: &RequestContext,
        params: Option<&RawValue>,
    ) -> Result<(), ErrorObject> {
        if !self.answerable {
            return Err(not_in_place(M::NAME));
        }
        let params = decode::<M>(params)?;
        self.resolver.resolve(ctx, &params)?.check(ctx, &params)
    }

    fn hidden(&self, ctx: &RequestContext, params: Option<&RawValue>) -> Option<ErrorObject> {
        self.lookup(ctx, params, false)
    }

    fn unseen(&self, ctx: &RequestContext, params: Option<&RawValue>) -> Option<ErrorObject> {
        self.lookup(ctx, params, true)
    }

    fn screen(
        &self,
        ctx: &RequestContext,
        result: Box<RawValue>,
    ) -> Result<Box<RawValue>, ErrorObject> {
        match &self.screen {
            None => Ok(result),
            Some(screen) => {
                screen_encoded(M::NAME, &result, &|object| screen.screen_json(ctx, object))
            }
        }
    }

    fn report(&self) -> RouteReport {
        RouteReport {
            method: M::NAME.to_owned(),
            eras: M::ERAS.to_vec(),
            owner: self.owner,
            typed: self.typed_names.clone(),
            handlers: self
                .resolver
                .chains()
                .into_iter()
                .map(|c| (c.target.to_string(), c.describe()))
                .collect(),
        }
    }
}

/// Every route, per era: one wire name may name one method in 2025-11-25
/// and another in 2026-07-28.
#[derive(Default)]
pub(crate) struct Routes {
    legacy: HashMap<Box<str>, Arc<dyn Route>>,
    modern: HashMap<Box<str>, Arc<dyn Route>>,
}

impl Routes {
    fn era(&self, era: Era) -> &HashMap<Box<str>, Arc<dyn Route>> {
        match era {
            Era::Legacy => &self.legacy,
            Era::Modern => &self.modern,
        }
    }

    /// The route of `method` in `era`.
    pub(crate) fn get(&self, era: Era, method: &str) -> Option<&Arc<dyn Route>> {
        self.era(era).get(method)
    }

    /// Adds a route in every era of its method (boot checked that its
    /// name is free in each).
    pub(crate) fn insert(&mut self, method: &str, route: Arc<dyn Route>) {
        for &era in route.eras() {
            let table = match era {
                Era::Legacy => &mut self.legacy,
                Era::Modern => &mut self.modern,
            };
            table.insert(method.into(), route.clone());
        }
    }
}
