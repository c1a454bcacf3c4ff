//! Dispatch: per method and era, the resolved pipeline (typed interceptors,
//! handler resolution, handler chains, the screen of its answers) built
//! once at boot. Serving a request is a lookup and a walk down the chain.

mod builtin;
mod chain;
pub(crate) mod dynamic;
pub(crate) mod legacy;
mod listed;
pub(crate) mod listen;
mod method;
mod pipeline;
mod resolve;
pub(crate) mod rounds;
mod route;

pub(crate) use builtin::{Discovery, ListItems, ListScreen, Listing, every};
pub(crate) use chain::{Guards, HandlerChain, NotFound, Step};
pub(crate) use listed::{Audience, Listed};
pub(crate) use method::{
    ChainParts, ErasedMethod, MethodEntry, PendingTyped, RouteOptions, method_not_found, route,
};
pub(crate) use pipeline::Pipeline;
pub(crate) use resolve::{
    ByName, Completer, Completions, Resolve, Resources, Single, unknown_prompt, unknown_reference,
    unknown_resource, unknown_tool,
};
pub(crate) use route::{Route, RouteReport, Routes, Screen, hides_resource};
