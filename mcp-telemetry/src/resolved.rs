//! The tool or prompt a request resolved to, known only once its guards
//! let the caller through: a name a client sent is never recorded before
//! that, so an unknown name and a hidden one look alike.
//!
//! A handler-chain interceptor in the `VALIDATION` stratum (the guards run
//! at the start of `AUTHORIZATION`, before it) notes the target in the
//! request's context, where the request's raw interceptor finds it once
//! the request is answered.

use mcp_server::core::error::ErrorObject;
use mcp_server::seam::TargetKind;
use mcp_server::seam::interceptor::{HandlerCall, HandlerInterceptor, HandlerNext, Settled};
use mcp_server::{BoxFuture, RequestContext};

use crate::metrics;

/// The tool or prompt a request resolved to, the caller allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Resolved {
    /// A tool, by name.
    Tool(String),
    /// A prompt, by name.
    Prompt(String),
}

impl Resolved {
    /// The target of the request `ctx` serves, if it resolved.
    pub(crate) fn of(ctx: &RequestContext) -> Option<Self> {
        ctx.get::<Resolved>()
    }

    /// Its name.
    pub(crate) fn name(&self) -> &str {
        match self {
            Resolved::Tool(name) | Resolved::Prompt(name) => name,
        }
    }
}

/// Notes the target of every call it sees: it is in the chain only of
/// tools and prompts, after their guards.
#[derive(Debug, Default)]
pub(crate) struct NoteResolved;

impl HandlerInterceptor for NoteResolved {
    fn intercept<'a>(
        &'a self,
        call: HandlerCall<'a>,
        next: HandlerNext<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        // Nothing to note when nothing observes the request.
        if metrics::active().is_some() || !tracing::Span::current().is_disabled() {
            let target = call.target();
            let resolved = match target.kind {
                TargetKind::Tool => Some(Resolved::Tool(target.name.clone())),
                TargetKind::Prompt => Some(Resolved::Prompt(target.name.clone())),
                _ => None,
            };
            if let Some(resolved) = resolved {
                call.ctx().insert(resolved);
            }
        }
        next.run(call)
    }
}
