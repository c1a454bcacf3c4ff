//! Methods with their types erased until boot builds their routes.

use std::marker::PhantomData;
use std::sync::Arc;

use mcp_core::method::Method;

use super::chain::{HandlerChain, HandlerInvoke, Step};
use super::resolve::{Resolve, Single};
use super::route::{Route, TypedRoute};
use crate::boot::BootError;
use crate::guard::Guard;
use crate::handler::Handler;
use crate::interceptor::{AlternateResultInterceptor, TypedChain, TypedInterceptor};
use crate::origin::Origin;
use crate::registry::TypedInterceptorItem;
use crate::target::Target;

/// A typed interceptor registration, waiting for its method's route.
pub(crate) struct PendingTyped {
    pub(crate) name: String,
    pub(crate) origin: Origin,
    pub(crate) item: TypedInterceptorItem,
}

/// Everything of a handler chain but the handler.
#[derive(Clone)]
pub(crate) struct ChainParts {
    pub(crate) target: Target,
    pub(crate) steps: Arc<[Step]>,
    pub(crate) guards: Arc<[Arc<dyn Guard>]>,
    pub(crate) alternates: Arc<[(String, Arc<dyn AlternateResultInterceptor>)]>,
}

impl ChainParts {
    pub(crate) fn with<M: Method>(self, handler: Arc<dyn Handler<M>>) -> HandlerChain<M> {
        HandlerChain {
            target: self.target,
            steps: self.steps,
            guards: self.guards,
            alternates: self.alternates,
            invoke: Arc::new(HandlerInvoke { handler }),
        }
    }
}

/// The typed interceptors of a method, with their names for the report.
type Typed<M> = (Vec<Arc<dyn TypedInterceptor<M>>>, Vec<String>);

/// A built route, or why it could not be built.
pub(crate) type Built = Result<Arc<dyn Route>, Vec<BootError>>;

/// Downcasts the typed interceptors registered for `M`'s name to `M`'s types.
///
/// A typed interceptor is checked at compile time against the method it names;
/// this catches two method types sharing one wire name (a legacy and an
/// extension `tasks/get`), naming the interceptor.
pub(crate) fn typed_interceptors<M: Method>(
    pending: Vec<PendingTyped>,
) -> Result<Typed<M>, Vec<BootError>> {
    let mut interceptors = Vec::new();
    let mut names = Vec::new();
    let mut errors = Vec::new();
    for p in pending {
        match p
            .item
            .interceptor
            .downcast::<Arc<dyn TypedInterceptor<M>>>()
        {
            Ok(interceptor) => {
                interceptors.push(*interceptor);
                names.push(format!("{} ({})", p.name, p.origin));
            }
            Err(_) => errors.push(BootError::TypedInterceptorMismatch {
                interceptor: p.name,
                origin: p.origin,
                method: M::NAME.to_owned(),
                expected: std::any::type_name::<M::Params>(),
                found: p.item.params_type,
            }),
        }
    }
    if errors.is_empty() {
        Ok((interceptors, names))
    } else {
        Err(errors)
    }
}

/// Builds the route of method `M` from its typed interceptors and resolver.
pub(crate) fn route<M: Method>(
    owner: Origin,
    pending: Vec<PendingTyped>,
    resolver: Box<dyn Resolve<M>>,
) -> Built {
    let (interceptors, typed_names) = typed_interceptors::<M>(pending)?;
    Ok(Arc::new(TypedRoute {
        chain: TypedChain {
            interceptors: interceptors.into(),
            resolver,
        },
        owner,
        typed_names,
    }))
}

/// A contributed method, typed inside, erased outside.
pub(crate) trait ErasedMethod: Send + Sync {
    /// The wire name.
    fn name(&self) -> &'static str;
    /// Builds its route around its handler chain.
    fn build(&self, owner: Origin, pending: Vec<PendingTyped>, chain: ChainParts) -> Built;
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

impl<M: Method> ErasedMethod for MethodEntry<M> {
    fn name(&self) -> &'static str {
        M::NAME
    }

    fn build(&self, owner: Origin, pending: Vec<PendingTyped>, chain: ChainParts) -> Built {
        route::<M>(
            owner,
            pending,
            Box::new(Single(chain.with(self.handler.clone()))),
        )
    }
}
