//! Guards decide who may see and call a handler.
//!
//! A guard may also let a caller see a target it may not call yet
//! ([`Decision::Challenge`]): the target is listed, and every call to it is
//! refused with the [`Challenge`] (on Streamable HTTP, `403` and its
//! `WWW-Authenticate` header), so the client can ask for more permission.
//!
//! Whatever a guard hides is hidden everywhere: absent from its list (and
//! from every list answer, whoever made it), unreadable, uncallable,
//! without completions, and never heard of by a legacy session that
//! subscribes to it (the subscription is accepted as for an unknown URI). A call to it gets exactly the answer a call to a
//! target that does not exist gets (`-32602` for a tool, prompt or
//! resource; `-32601` for a contributed method), so no answer tells a caller
//! what it may not see; the reason goes to the `mcp_server::guard` trace
//! target. Guards are attached by customizers, per handler or per
//! contributed method, and evaluated at the start of the `AUTHORIZATION`
//! stratum of the handler chain, and by every take-over's `authorize`.
//!
//! ```
//! use mcp_server::seam::guard::{Decision, Guard, guard_fn};
//!
//! let admins_only = guard_fn("admins-only", |ctx, _target| {
//!     if ctx.principal().has_role("admin") { Decision::Allow } else { Decision::deny("admins only") }
//! });
//! assert_eq!(admins_only.name(), "admins-only");
//! ```

use std::fmt;

use crate::context::RequestContext;
use crate::vocabulary::Target;
use crate::vocabulary::auth::Challenge;

/// The outcome of a guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The caller may proceed.
    Allow,
    /// The caller may not see the target; the reason is for the logs only.
    Deny(String),
    /// The caller may see the target, and every call to it is refused with
    /// this challenge.
    Challenge(Challenge),
}

impl Decision {
    /// A denial with a reason.
    pub fn deny(reason: impl Into<String>) -> Self {
        Decision::Deny(reason.into())
    }
}

/// Decides whether the caller of a request may see and call a handler.
///
/// Guards are synchronous: they run for every item of a list, and must be
/// cheap. Anything slow belongs in the principal source, which runs once.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a guard",
    note = "implement `mcp_server::seam::guard::Guard` (`#[guard]` on the `impl` block attaches it to every handler), or build one with `guard_fn(name, |ctx, target| ...)`"
)]
pub trait Guard: Send + Sync + 'static {
    /// The name shown in the boot report.
    fn name(&self) -> &str;

    /// Decides for one caller and one target.
    fn check(&self, ctx: &RequestContext, target: &Target) -> Decision;
}

/// A guard made from a closure; see [`guard_fn`].
pub struct GuardFn<F> {
    name: String,
    check: F,
}

impl<F> fmt::Debug for GuardFn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GuardFn")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// A guard named `name` that decides with `check`.
pub fn guard_fn<F>(name: impl Into<String>, check: F) -> GuardFn<F>
where
    F: Fn(&RequestContext, &Target) -> Decision + Send + Sync + 'static,
{
    GuardFn {
        name: name.into(),
        check,
    }
}

impl<F> Guard for GuardFn<F>
where
    F: Fn(&RequestContext, &Target) -> Decision + Send + Sync + 'static,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn check(&self, ctx: &RequestContext, target: &Target) -> Decision {
        (self.check)(ctx, target)
    }
}
