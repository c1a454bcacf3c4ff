//! Dispatch: per method, the resolved pipeline — typed interceptors, handler
//! resolution, handler chains — built once at boot. Serving a request is a
//! lookup and a walk down the chain.

mod builtin;
mod chain;
mod method;
mod resolve;
mod route;

pub(crate) use builtin::{Discovery, Listed, Listing};
pub(crate) use chain::{HandlerChain, Step};
pub(crate) use method::{Built, ChainParts, ErasedMethod, MethodEntry, PendingTyped, route};
pub(crate) use resolve::{ByName, Completions, Resolve, Resources, Single};
pub(crate) use route::{Route, RouteReport};
