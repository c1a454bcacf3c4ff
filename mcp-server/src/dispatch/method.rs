//! Building routes: typed interceptors matched to their method's type,
//! handler chains from their parts, contributed methods with their types
//! erased until boot builds them.

use std::marker::PhantomData;
use std::sync::Arc;

use mcp_core::error::ErrorObject;
use mcp_core::method::Method;
use mcp_core::version::Era;

use super::chain::{Guards, HandlerChain, HandlerInvoke, NotFound, Step};
use super::resolve::{Resolve, Single};
use super::route::{Route, Screen, TypedRoute};
use crate::handler::Handler;
use crate::seam::interceptor::{AlternateResultInterceptor, TypedInterceptorItem};
use crate::vocabulary::{Origin, Target};

/// A typed interceptor registration, waiting for its method's route.
pub(crate) struct PendingTyped<'b> {
    pub(crate) name: &'b str,
    pub(crate) origin: Origin,
    pub(crate) item: &'b TypedInterceptorItem,
}

/// Everything of a handler chain but the handler.
#[derive(Clone)]
pub(crate) struct ChainParts {
    pub(crate) target: Target,
    pub(crate) steps: Arc<[Step]>,
    pub(crate) guards: Arc<Guards>,
    pub(crate) alternates: Arc<[(String, Arc<dyn AlternateResultInterceptor>)]>,
    /// Whether an interceptor may answer in place of the handler.
    pub(crate) answerable: bool,
}

impl ChainParts {
    /// Parts of a chain no interceptor may answer in place of, and that no
    /// alternate-result interceptor wraps (`initialize`).
    pub(crate) fn only_its_handler_answers(mut self) -> Self {
        self.answerable = false;
        self.alternates = Arc::from([]);
        self
    }
}

impl ChainParts {
    pub(crate) fn with<M: Method>(
        self,
        handler: Arc<dyn Handler<M>>,
        not_found: NotFound<M>,
    ) -> HandlerChain<M> {
        HandlerChain {
            target: self.target,
            steps: self.steps,
            guards: self.guards,
            not_found,
            alternates: self.alternates,
            answerable: self.answerable,
            invoke: Arc::new(HandlerInvoke { handler }),
        }
    }
}

/// How a route is built beyond its resolver.
pub(crate) struct RouteOptions<M: Method> {
    pub(crate) owner: Origin,
    pub(crate) screen: Option<Box<dyn Screen<M>>>,
    /// Whether an interceptor of the raw or typed layer may answer in place
    /// of the method (the handler chain's own flag covers its layer).
    pub(crate) answerable: bool,
    /// What a complete result of a target with guards gets, whoever made it.
    pub(crate) guarded: Option<fn(&mut M::Result)>,
}

impl<M: Method> RouteOptions<M> {
    /// A route owned by `owner`, without a screen, answerable in place.
    pub(crate) fn owned_by(owner: Origin) -> Self {
        Self {
            owner,
            screen: None,
            answerable: true,
            guarded: None,
        }
    }
}

/// Builds the route of method `M`, taking its typed interceptors out of `pending`.
pub(crate) fn route<M: Method>(
    pending: &mut Vec<PendingTyped<'_>>,
    resolver: Box<dyn Resolve<M>>,
    options: RouteOptions<M>,
) -> Arc<dyn Route> {
    let mut interceptors = Vec::new();
    let mut typed_names = Vec::new();
    let mut rest = Vec::with_capacity(pending.len());
    for p in pending.drain(..) {
        match p.item.of::<M>() {
            Some(interceptor) => {
                interceptors.push(interceptor);
                typed_names.push(format!("{} ({})", p.name, p.origin));
            }
            None => rest.push(p),
        }
    }
    *pending = rest;
    let shaped = !interceptors.is_empty()
        || resolver
            .chains()
            .iter()
            .any(|c| !c.steps.is_empty() || !c.alternates.is_empty());
    Arc::new(TypedRoute {
        interceptors: interceptors.into(),
        shaped,
        resolver,
        screen: options.screen,
        guarded: options.guarded,
        answerable: options.answerable,
        owner: options.owner,
        typed_names,
    })
}

/// A contributed method, typed inside, erased outside.
pub(crate) trait ErasedMethod: Send + Sync {
    /// The wire name.
    fn name(&self) -> &'static str;
    /// The eras it exists in.
    fn eras(&self) -> &'static [Era];
    /// Builds its route around its handler chain.
    fn build(
        &self,
        owner: Origin,
        pending: &mut Vec<PendingTyped<'_>>,
        chain: ChainParts,
    ) -> Arc<dyn Route>;
}

/// The contributed method `M` with its handler.
pub(crate) struct MethodEntry<M: Method> {
    handler: Arc<dyn Handler<M>>,
    method: PhantomData<fn() -> M>,
}

impl<M: Method> MethodEntry<M> {
    pub(crate) fn new(handler: Arc<dyn Handler<M>>) -> Self {
        Self {
            handler,
            method: PhantomData,
        }
    }
}

/// The answer for a method the guards hide: as if it did not exist.
pub(crate) fn method_not_found<M: Method>(_: &M::Params) -> ErrorObject {
    ErrorObject::method_not_found(M::NAME)
}

impl<M: Method> ErasedMethod for MethodEntry<M> {
    fn name(&self) -> &'static str {
        M::NAME
    }

    fn eras(&self) -> &'static [Era] {
        M::ERAS
    }

    fn build(
        &self,
        owner: Origin,
        pending: &mut Vec<PendingTyped<'_>>,
        chain: ChainParts,
    ) -> Arc<dyn Route> {
        let chain = chain.with(self.handler.clone(), method_not_found::<M>);
        route::<M>(
            pending,
            Box::new(Single(chain)),
            RouteOptions::owned_by(owner),
        )
    }
}
